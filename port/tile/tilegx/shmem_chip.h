/* TILE-Gx36: 6 x 6 tiles of 64-bit TILE-Gx cores (the chip of TSHMEM's TILE-Gx measurements). */
#pragma once
#define SHMEM_CHIP_NAME "tilegx"
#define SHMEM_CHIP_LONG_NAME "TILE-Gx36"
#define SHMEM_CHIP_COLS 6
#define SHMEM_CHIP_ROWS 6
#define SHMEM_CHIP_MAX_PES 36
#define SHMEM_CHIP_HZ 1200000000u  /* 1.2 GHz: cycles() is converted to time with this */
#define SHMEM_CHIP_NATIVE_ATOMICS 1 /* exch, cmpexch, fetchadd, fetchand, fetchor in 4- and 8-byte forms */
#define SHMEM_CHIP_WORD uint64_t     /* a register, a UDN word */

/* SPRs (binutils opcodes/tilegx-opc.c, tilegx_sprs[]) */
#define SHMEM_CHIP_SPR_TILE_COORD 0x270b /* y in bits [17:7], x in bits [28:18] */
#define SHMEM_CHIP_SPR_CYCLE 0x2781      /* 64-bit cycle counter */
#define SHMEM_CHIP_TILE_COORD_X_SHIFT 18
#define SHMEM_CHIP_TILE_COORD_Y_SHIFT 7
#define SHMEM_CHIP_TILE_COORD_MASK 0x7ff

/* UDN header: y at bit 7, x at bit 18 (as TILE_COORD), the number of data words in the low bits, demux field 0
 * (queue 0; where the demux field lies is not public: port/tile/udn.hpp). No tag word. */
#define SHMEM_CHIP_UDN_X_SHIFT 18
#define SHMEM_CHIP_UDN_Y_SHIFT 7
#define SHMEM_CHIP_UDN_LENGTH 1
#define SHMEM_CHIP_UDN_TAG_WORD 0

/* UDN_DATA_AVAIL (binutils' SPR table): bit q is set while demux queue q holds a word. */
#define SHMEM_CHIP_SPR_UDN_DATA_AVAIL 0x0b80
/* Queue-0 words the shmemx channels into one tile may have in flight (port/tile/shmem_port.hpp). The depth of a
 * demux queue is not in any public source; this assumes a small one (docs/tile.md says how to measure it). */
#define SHMEM_CHIP_UDN_CHANNEL_WORDS 16

/* TILEPro64: 8 x 8 tiles of 32-bit TILEPro cores (the chip of TSHMEM's and the fine-grained channels' papers). */
#pragma once
#define SHMEM_CHIP_NAME "tilepro"
#define SHMEM_CHIP_LONG_NAME "TILEPro64"
#define SHMEM_CHIP_COLS 8
#define SHMEM_CHIP_ROWS 8
#define SHMEM_CHIP_MAX_PES 64
#define SHMEM_CHIP_HZ 700000000u  /* 700 MHz: cycles() is converted to time with this */
#define SHMEM_CHIP_NATIVE_ATOMICS 0 /* test-and-set (tns) only: the core's TESTSET locks do the AMOs */
#define SHMEM_CHIP_WORD uint32_t     /* a register, a UDN word */

/* SPRs (binutils opcodes/tilepro-opc.c, tilepro_sprs[]) */
/* No identity check on TILEPro: TILE_COORD (0x4c17) is in the configuration group, which the program's protection
 * level may not read. The startup code writes the UDN's own idea of where the tile is instead, UDN_TILE_COORD,
 * from the boot block, as Linux's reset_xdn_network_state does (y in bits [17:7], x in bits [28:18]). */
#define SHMEM_CHIP_SPR_UDN_TILE_COORD 0x0c1a
#define SHMEM_CHIP_SPR_CYCLE_HIGH 0x4e06
#define SHMEM_CHIP_SPR_CYCLE_LOW 0x4e07
#define SHMEM_CHIP_TILE_COORD_X_SHIFT 18
#define SHMEM_CHIP_TILE_COORD_Y_SHIFT 7
#define SHMEM_CHIP_TILE_COORD_MASK 0x7ff
#define SHMEM_CHIP_SPR_UDN_TAG_0 0x0c15
#define SHMEM_CHIP_SPR_UDN_TAG_VALID 0x0c19

/* UDN header: length in bits [6:0] (the tag word and the data words: 2), y at bit 7, x at bit 18; then a tag word,
 * which demultiplexes: the startup code sets UDN_TAG_0 to SHMEM_CHIP_UDN_TAG_WORD, so the data land in queue 0. */
#define SHMEM_CHIP_UDN_X_SHIFT 18
#define SHMEM_CHIP_UDN_Y_SHIFT 7
#define SHMEM_CHIP_UDN_LENGTH 2
#define SHMEM_CHIP_UDN_TAG_WORD 1

/* UDN_DATA_AVAIL (binutils' SPR table): bit q is set while demux queue q holds a word. */
#define SHMEM_CHIP_SPR_UDN_DATA_AVAIL 0x0d03
/* Queue-0 words the shmemx channels into one tile may have in flight (port/tile/shmem_port.hpp). The depth of a
 * demux queue is not in any public source; this assumes a small one (docs/tile.md says how to measure it). */
#define SHMEM_CHIP_UDN_CHANNEL_WORDS 16

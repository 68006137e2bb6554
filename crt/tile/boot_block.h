/* The contract between the host loader (oshrun --target tilegx/tilepro) and the TILE startup code.
 *
 * A run's PEs are a rectangle of tiles (first_x, first_y, cols x rows), numbered row-major: PE k is the tile at
 * x = first_x + k % cols, y = first_y + k / cols. Every tile finds its own coordinates in its SPR_TILE_COORD and
 * checks them against this block's `pe` (crt/tile/crt.cpp).
 *
 * Memory is one coherent physical memory that the boot firmware maps one to one (virtual = physical) for every
 * tile of the run, as Tilera's bare-metal environment did. The loader cuts [ram_base, ram_base + npes << log2)
 * into one partition per PE, all of one power-of-two size and each aligned to it (ram_base too: oshrun's default is
 * 256 MiB or the partition size if larger; the run must end below 64 GiB on TILE-Gx, 4 GiB on TILEPro, whose
 * pointers are 32 bits), so that PE k's partition base
 * is ram_base + (k << log2_partition) and a symmetric address on another PE is one mask and one add away.
 *
 * Layout of one partition (offsets from its base):
 *   0x00000  boot block (this struct, then the argument and environment strings), written by the loader
 *   0x10000  the program image: a position-independent executable linked at 0 (ET_DYN), which the LOADER
 *            relocates for this partition (R_*_RELATIVE, and the word-sized GOT/data relocations of symbols the
 *            image defines, which ld 2.40 leaves as GLOB_DAT; R_*_NONE are skipped) -- one image per tile,
 *            every byte of it written, .bss as zeros included, before any tile starts: the startup code neither
 *            relocates nor clears anything, so no tile can wipe another's early writes and no startup
 *            rendezvous is needed (as on Epiphany)
 *   ...      .data, .bss, malloc's private heap, then the symmetric heap up to the stack
 *   top      the stack (stack_size bytes, a multiple of 8, from the image's __stack_size symbol), growing down;
 *            its lowest 8 bytes are a guard word the startup code sets and every barrier and exit checks
 *
 * Console and exit status go through a mailbox per PE (struct shmem_tile_mailbox) in the same memory, after the
 * last partition, which the host reads as it does Epiphany's. Tiles are started at the image's entry (_start)
 * with r0 = the address of their boot block.
 *
 * Plain C so that the C++ host loader and the target startup code share it byte for byte: fixed-width fields,
 * every 64-bit field 8-aligned, little-endian (both chips run little-endian here).
 */
#ifndef SHMEM_TILE_BOOT_BLOCK_H
#define SHMEM_TILE_BOOT_BLOCK_H

#define SHMEM_TILE_BOOT_MAGIC 0x3142424554454c49ull /* "ILETEBB1" little-endian */
#define SHMEM_TILE_BOOT_VERSION 1u
#define SHMEM_TILE_BOOT_BLOCK_SIZE 0x1000u /* the boot block and its strings fit in this */
#define SHMEM_TILE_IMAGE_OFFSET 0x10000u   /* where the image (linked at 0) starts in its partition: a 64 KiB page */
#define SHMEM_TILE_BOOT_HEADER 88u
#define SHMEM_TILE_ARGS_SIZE (SHMEM_TILE_BOOT_BLOCK_SIZE - SHMEM_TILE_BOOT_HEADER)
/* The most argv strings (argv[0] included) and environment strings the startup code takes; oshrun refuses more. */
#define SHMEM_TILE_MAX_ARGS 32
#define SHMEM_TILE_MAX_ENV 64
/* The smallest __stack_size oshrun accepts: the startup code's own frame (argv, the environment) takes ~1 KiB. */
#define SHMEM_TILE_MIN_STACK 0x1000u
#define SHMEM_TILE_STACK_GUARD 0x5ac6e11d5ac6e11dull /* the guard word at the stack's lowest address */

/* Console mailboxes: one per PE, SHMEM_TILE_MAILBOX_STRIDE bytes apart, the first at the boot block's `mailbox`. */
#define SHMEM_TILE_MAILBOX_RING 0x1000u /* bytes of console ring per PE: a power of two */
#define SHMEM_TILE_MAILBOX_STRIDE (SHMEM_TILE_MAILBOX_RING + 64u) /* a cache line of words, then the ring */
#define SHMEM_TILE_STATE_RUNNING 0u /* the loader writes this before starting the tiles */
#define SHMEM_TILE_STATE_DONE 1u    /* this PE finished with status 0; the run ends when every PE is done */
#define SHMEM_TILE_STATE_END 2u     /* the whole run ends now with `status` (exit(n != 0), traps, global_exit) */

#ifndef __ASSEMBLER__
#include <stdint.h>

struct shmem_tile_boot_block {
    uint64_t magic;          /* SHMEM_TILE_BOOT_MAGIC: startup stops if it is missing */
    uint32_t version;        /* SHMEM_TILE_BOOT_VERSION */
    uint32_t pe;             /* this tile's PE number, 0 .. npes-1 */
    uint32_t npes;           /* the number of PEs in the run */
    uint32_t log2_partition; /* partition size is 1 << log2_partition bytes */
    uint64_t ram_base;       /* base of PE 0's partition */
    uint64_t mailbox;        /* address of PE 0's mailbox; PE k's is mailbox + k * SHMEM_TILE_MAILBOX_STRIDE */
    uint32_t first_x;        /* mesh coordinates of PE 0's tile */
    uint32_t first_y;
    uint32_t cols;           /* the rectangle's shape; cols * rows >= npes */
    uint32_t rows;
    uint32_t argc;           /* strings in args[] (argv[0] is the program name) */
    uint32_t args_len;       /* bytes used in args[], NUL-separated strings */
    uint32_t envc;           /* environment strings ("NAME=VALUE") in args[], after the argv strings */
    uint32_t env_len;        /* bytes they use, from args + args_len */
    uint64_t stack_size;     /* bytes of stack at the top of the partition */
    uint64_t reserved;       /* 0 */
    char args[SHMEM_TILE_ARGS_SIZE]; /* argv strings, then environment strings, each terminated by NUL */
};

/* One PE's mailbox. The tile is the only writer of head, state and status; the host is the only writer of tail.
 * ring[i % SHMEM_TILE_MAILBOX_RING] holds console byte i (console records, crt/common/console_protocol.h). */
struct shmem_tile_mailbox {
    uint32_t head;    /* console bytes written so far (free-running) */
    uint32_t tail;    /* console bytes the host has taken so far (free-running) */
    uint32_t state;   /* SHMEM_TILE_STATE_*; written after the last console byte and the status */
    uint32_t status;  /* exit status when state != RUNNING */
    uint32_t pad[12];
    char ring[SHMEM_TILE_MAILBOX_RING];
};

#ifdef __cplusplus
static_assert(sizeof(struct shmem_tile_boot_block) == SHMEM_TILE_BOOT_BLOCK_SIZE, "boot block size");
static_assert(__builtin_offsetof(struct shmem_tile_boot_block, args) == SHMEM_TILE_BOOT_HEADER, "boot header");
static_assert(sizeof(struct shmem_tile_mailbox) == SHMEM_TILE_MAILBOX_STRIDE, "mailbox stride");
#endif

#endif /* __ASSEMBLER__ */

#endif

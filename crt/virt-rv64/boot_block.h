/* The contract between the host loader and the virt-rv64 startup code.
 *
 * RAM of the QEMU virt machine starts at 0x80000000. The loader cuts it into one partition per PE, all of one
 * power-of-two size (1 << log2_partition) and each aligned to that size, so that the partition base of PE k is
 * ram_base + (k << log2_partition) and a symmetric address on another PE is one mask and one OR away.
 *
 * Layout of one partition (offsets from its base):
 *   0x0000  boot block (this struct, then the argument and environment strings), written by the loader for
 *           this PE only
 *   0x1000  the program image: a position-independent executable linked at 0 (ET_DYN), loaded here
 *   ...     .data, .bss, then the symmetric heap up to the stack
 *   top     the stack (stack_size bytes, read from the image's __stack_size symbol), growing down
 *
 * Shared code (the loader's choice, for partitions of 2 MiB and more): one more copy of the image, after the last
 * partition at S = ram_base + (npes << log2_partition), is the code that every hart runs; its first page is a
 * struct shmem_shared_block (not a boot block), and after its image come the harts' Sv39 page tables and every
 * PE's boot block. A hart that finds the shared block there copies its boot block and the image into its own
 * partition (the loader writes no file per PE: QEMU's cost per loader device and the host's per file grew faster
 * than the PE count), then turns on translation for its loads and stores only (mstatus.MPRV, MPP = S; its
 * instruction fetches stay physical): its virtual S is its own partition, and S + (k - pe) << log2_partition is
 * PE k's, so the machine looks to each PE as it did with a copy each (own partition at the image's own address,
 * the others at the same displacements), and the boot block's ram_base is that hart's virtual address of PE 0's
 * partition. QEMU then translates the code once for all harts, where it translated every hart's copy (and
 * protected every page of it from writes, a walk of every hart's TLB), and the harts share the host's caches.
 * Without a shared block at S each hart runs the copy in its own partition, untranslated, as before.
 *
 * Plain C so that the C++ host loader and the target startup code share it byte for byte.
 */
#ifndef SHMEM_VIRT_RV64_BOOT_BLOCK_H
#define SHMEM_VIRT_RV64_BOOT_BLOCK_H


#define SHMEM_BOOT_MAGIC 0x3142424d4d485353 /* "SSHMMBB1" little-endian */
#define SHMEM_BOOT_VERSION 3
#define SHMEM_BOOT_BLOCK_SIZE 0x1000 /* the boot block and its strings fit in this */
#define SHMEM_IMAGE_OFFSET 0x1000     /* where the image (linked at 0) starts in its partition */
#define SHMEM_RAM_BASE 0x80000000
#define SHMEM_MAX_ARGS 32
/* Below each PE's stack, a guard of this many bytes that no access may touch (a locked PMP region, set by the
 * startup code): a stack overflow traps at once and is reported as one. Naturally aligned, a power of two. */
#define SHMEM_STACK_GUARD 0x10000
/* The smallest __stack_size oshrun accepts: the startup code's own frame (argv, the environment) takes ~1 KiB. */
#define SHMEM_MIN_STACK 0x1000
#define SHMEM_SHARED_MAGIC 0x3143444f43485353 /* "SSHCODC1" little-endian: the shared code's first page */
#define SHMEM_SATP_SV39 (8ull << 60)
/* Page-table entry bits (Sv39) */
#define SHMEM_PTE_V 0x01
#define SHMEM_PTE_RW 0x06
#define SHMEM_PTE_AD 0xc0

#ifndef __ASSEMBLER__
#include <stdint.h>

struct shmem_boot_block {
    uint64_t magic;          /* SHMEM_BOOT_MAGIC: startup stops with a message if it is missing */
    uint32_t version;        /* SHMEM_BOOT_VERSION */
    uint32_t pe;             /* this PE's number, 0 .. npes-1; it is also its hart id */
    uint32_t npes;           /* the number of PEs in the run */
    uint32_t log2_partition; /* partition size is 1 << log2_partition bytes */
    uint64_t ram_base;       /* base of PE 0's partition */
    uint32_t argc;           /* number of strings in args[] (argv[0] is the program name) */
    uint32_t args_len;       /* bytes used in args[], NUL-separated strings */
    uint32_t started;        /* PE 0's only: PEs through startup; the loader writes 0 (see crt.cpp) */
    uint32_t envc;           /* number of environment strings ("NAME=VALUE") in args[], after the argv strings */
    uint32_t env_len;        /* bytes they use, from args + args_len */
    uint32_t reserved0;      /* 0 */
    uint64_t phys_base;      /* this partition's physical address (the PMP stack guard is physical); version 3 */
    char args[SHMEM_BOOT_BLOCK_SIZE - 64]; /* argv strings, then environment strings, each terminated by NUL */
};

/* The first page of the shared code (see above), read before translation is on. */
struct shmem_shared_block {
    uint64_t magic;          /* SHMEM_SHARED_MAGIC */
    uint64_t tables;         /* physical address of hart 0's root page table */
    uint64_t table_stride;   /* bytes from one hart's root page table to the next's */
    uint32_t npes;           /* harts that have tables: 0 .. npes-1 */
    uint32_t log2_partition; /* as in the boot blocks */
    uint64_t ram_base;       /* physical address of PE 0's partition */
    uint64_t boot_blocks;    /* physical address of PE 0's boot block; PE k's is k * SHMEM_BOOT_BLOCK_SIZE after */
    uint64_t image_bytes;    /* the image's loaded bytes rounded up to 8: what each hart copies into its partition */
};

#ifdef __cplusplus
static_assert(sizeof(struct shmem_boot_block) == SHMEM_BOOT_BLOCK_SIZE, "boot block is one page");
// start.S reads these at fixed offsets.
static_assert(__builtin_offsetof(struct shmem_boot_block, started) == 40, "start.S skips `started` at 40");
static_assert(__builtin_offsetof(struct shmem_shared_block, tables) == 8 &&
                  __builtin_offsetof(struct shmem_shared_block, table_stride) == 16 &&
                  __builtin_offsetof(struct shmem_shared_block, npes) == 24 &&
                  __builtin_offsetof(struct shmem_shared_block, log2_partition) == 28 &&
                  __builtin_offsetof(struct shmem_shared_block, ram_base) == 32 &&
                  __builtin_offsetof(struct shmem_shared_block, boot_blocks) == 40 &&
                  __builtin_offsetof(struct shmem_shared_block, image_bytes) == 48,
              "the shared block's offsets in start.S");
#endif

#endif /* __ASSEMBLER__ */

#endif

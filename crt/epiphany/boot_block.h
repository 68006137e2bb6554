/* The contract between the host loader (oshrun --target epiphany-e16/-e64) and the Epiphany startup code.
 *
 * Every core has 32 KB of SRAM at local addresses 0x0000-0x7fff, visible to every other core (and to the host)
 * at the global address (coreid << 20) | local, where coreid = row << 6 | col. The program image is linked at 0
 * and the loader writes one copy of it into every core of the workgroup, then this boot block into the hole the
 * linker script leaves for it, then starts the cores.
 *
 * Local map of one core (linker/epiphany/shmem.ld):
 *   0x0000  interrupt vector table (10 entries)
 *   0x0040  boot block (this struct, with the argument strings), written by the loader for this core
 *   0x0100  code, read-only data, .data, .bss, the symmetric heap
 *   top     the stack, growing down from 0x8000
 *
 * A workgroup is a rows x cols rectangle of cores starting at first_row, first_col. The PEs are its first npes
 * cores in row-major order: pe = (row - first_row) * cols + (col - first_col). Each core finds its own row and
 * column in its COREID register, so one boot block image serves every core but for `pe`, which the loader also
 * writes (the startup code checks that both agree).
 *
 * The loader writes every core's whole local image, .bss as zeros included, before it starts any core: the
 * startup code clears nothing, so a fast core can never have its early writes into a slow core's memory
 * wiped by that core's own startup (no startup rendezvous is needed, unlike on virt-rv64).
 *
 * Console and exit status go through a mailbox per PE in shared external DRAM (see struct shmem_ep_mailbox),
 * which the host polls. Its global address is in the boot block, so the image does not depend on it.
 *
 * Plain C so that the C++ host loader and the target startup code share it byte for byte. All fields are
 * little-endian 32-bit words (Epiphany and the Parallella's ARM host are both little-endian).
 */
#ifndef SHMEM_EPIPHANY_BOOT_BLOCK_H
#define SHMEM_EPIPHANY_BOOT_BLOCK_H

#define SHMEM_EP_BOOT_MAGIC 0x42425045u  /* "EPBB" */
#define SHMEM_EP_BOOT_VERSION 1u
#define SHMEM_EP_BOOT_BLOCK_ADDR 0x40u   /* local address of the boot block */
#define SHMEM_EP_BOOT_BLOCK_SIZE 0xc0u   /* it ends where code begins, at 0x100 */
#define SHMEM_EP_CODE_ADDR 0x100u
#define SHMEM_EP_LOCAL_SIZE 0x8000u      /* 32 KB of SRAM per core */
#define SHMEM_EP_BOOT_HEADER 48u
#define SHMEM_EP_ARGS_SIZE (SHMEM_EP_BOOT_BLOCK_SIZE - SHMEM_EP_BOOT_HEADER)

/* Console mailboxes: one per PE, SHMEM_EP_MAILBOX_STRIDE bytes apart, in external DRAM. */
#define SHMEM_EP_MAILBOX_RING 0x400u /* bytes of console ring per PE: a power of two */
#define SHMEM_EP_MAILBOX_STRIDE (SHMEM_EP_MAILBOX_RING + 16u)
#define SHMEM_EP_STATE_RUNNING 0u  /* the loader writes this before starting the cores */
#define SHMEM_EP_STATE_DONE 1u     /* this PE finished with status 0; the run ends when every PE is done */
#define SHMEM_EP_STATE_END 2u      /* the whole run ends now with `status` (exit(n != 0), traps, global_exit) */
#define SHMEM_EP_STATE_STACK 3u    /* the whole run ends: this PE found its stack guard overwritten (the host says so
                                    * with the stack's size, and ends with status 139); no message on the core */
/* The stack guard: this word at the lowest address of the stack (__heap_end), set by the startup code and checked
 * at every wait, barrier and exit (an overflowing stack, or a heap running into the stack, overwrites it). */
#define SHMEM_EP_STACK_GUARD 0x3a5u /* a sub's 11-bit immediate on Epiphany: compared in one instruction */

/* The dissemination barrier's partners (port/epiphany/port.cpp, barrier_world), worked out by the loader as ARL's
 * library works them out at shmem_init, so that a core's budget holds no code for it. An image that links the
 * barrier has the section SHMEM_EP_BARRIER_SECTION (NOBITS); the loader writes each core's table there, after the
 * image and before the cores start. Round k = 0, 1, ... while 2^k < npes (one round in a run of one PE) is a pair
 * of words: the global address of the ILATST register (SHMEM_EP_ILATST) of PE (pe + 2^k) mod npes, then that PE's
 * global base (coreid << 20); after the last round, a pair of zeros. The section has room for the rounds of the
 * build's largest run and that pair: the loader refuses a run that needs more. */
#define SHMEM_EP_BARRIER_SECTION ".shmem_barrier"
#define SHMEM_EP_ILATST 0xf042cu /* local address of ILATST: a write sets its bits in the core's ILAT */

#ifndef __ASSEMBLER__
#include <stdint.h>

struct shmem_ep_boot_block {
    uint32_t magic;     /* SHMEM_EP_BOOT_MAGIC: startup stops if it is missing */
    uint32_t version;   /* SHMEM_EP_BOOT_VERSION */
    uint32_t pe;        /* this core's PE number */
    uint32_t npes;      /* PEs in the run: the first npes cores of the workgroup, row-major */
    uint32_t first_row; /* mesh row and column of the workgroup's first core (0x808: row 32, col 8) */
    uint32_t first_col;
    uint32_t rows;      /* workgroup shape; rows * cols >= npes */
    uint32_t cols;
    uint32_t mailbox;   /* global address of PE 0's mailbox; PE k's is mailbox + k * SHMEM_EP_MAILBOX_STRIDE */
    uint32_t reserved;  /* 0 */
    uint32_t argc;      /* strings in args[] (argv[0] is the program name) */
    uint32_t args_len;  /* bytes used in args[] */
    char args[SHMEM_EP_ARGS_SIZE]; /* NUL-terminated argv strings, back to back */
};

/* One PE's mailbox in shared DRAM. The core is the only writer of head, state and status; the host is the
 * only writer of tail. ring[i % SHMEM_EP_MAILBOX_RING] holds console byte i. */
struct shmem_ep_mailbox {
    uint32_t head;    /* console bytes written so far (free-running) */
    uint32_t tail;    /* console bytes the host has taken so far (free-running) */
    uint32_t state;   /* SHMEM_EP_STATE_*; written after the last console byte and the status */
    uint32_t status;  /* exit status when state != RUNNING */
    char ring[SHMEM_EP_MAILBOX_RING];
};

#ifdef __cplusplus
static_assert(sizeof(struct shmem_ep_boot_block) == SHMEM_EP_BOOT_BLOCK_SIZE, "boot block fills its hole");
static_assert(sizeof(struct shmem_ep_mailbox) == SHMEM_EP_MAILBOX_STRIDE, "mailbox stride");
#endif

#endif /* __ASSEMBLER__ */
#endif

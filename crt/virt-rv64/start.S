/* Reset entry of every PE on QEMU virt. The loader starts hart k at the image copy in partition k; a0/a1 are
 * not set by QEMU's loader device, so everything is found pc-relatively: the boot block sits SHMEM_IMAGE_OFFSET
 * bytes below the image start. Machine mode, interrupts off; the code is position independent (medany, no gp).
 */
#include "boot_block.h"

/* No linker relaxation here: it would shrink this code after the assembler wrote its debug ranges, which would then
 * cover the start of the next function (main, laid out right after _start), and gdb's `break main` would stop in
 * _start. */
    .option norelax

#define R_RISCV_NONE 0
#define R_RISCV_RELATIVE 3

    .section .text.shmem_start, "ax"
    .globl _start
    .type _start, @function
_start:
    csrw    mie, zero
    csrw    mstatus, zero
    li      t0, (1 << 13)               /* mstatus.FS = Initial: enable the FPU, or every FP instruction traps */
    csrs    mstatus, t0
    fscsr   zero
    li      gp, 0                       /* no gp-relative addressing in a position-independent image */

    /* t1 = partition base = runtime address of the image start - SHMEM_IMAGE_OFFSET */
    lla     t1, __image_start
    li      t2, SHMEM_IMAGE_OFFSET
    sub     t1, t1, t2

    /* The shared code (boot_block.h): this hart's page tables, then loads and stores through them (MPRV, MPP = S).
     * From then on t1, the same virtual address, is this hart's own partition base. */
    ld      t3, 0(t1)
    li      t4, SHMEM_SHARED_MAGIC
    bne     t3, t4, 1f
    csrr    a0, mhartid
    lwu     t3, 24(t1)                  /* npes */
    bgeu    a0, t3, 8f                  /* a hart without tables: no boot block either */
    /* this hart's boot block and copy of the image into its partition, t5 (physical: translation is still off) */
    lwu     t3, 28(t1)                  /* log2_partition */
    ld      t5, 32(t1)                  /* ram_base */
    sll     t3, a0, t3
    add     t5, t5, t3
    ld      a2, 40(t1)                  /* boot_blocks */
    slli    t3, a0, 12                  /* SHMEM_BOOT_BLOCK_SIZE */
    add     a2, a2, t3
    mv      a3, t5
    li      a4, SHMEM_BOOT_BLOCK_SIZE
    add     a4, a4, a2
    /* all but `started` (offset 40, a word; envc after it): PE 0's counts the PEs through startup, and another
     * hart may count itself in before PE 0 gets here (the RAM starts zeroed, as the loader's 0 would have it) */
20: ld      t3, 0(a2)
    sub     t4, a3, t5
    addi    t4, t4, -40
    bnez    t4, 21f
    srli    t3, t3, 32
    sw      t3, 4(a3)
    j       22f
21: sd      t3, 0(a3)
22: addi    a2, a2, 8
    addi    a3, a3, 8
    bltu    a2, a4, 20b
    lla     a2, __image_start
    li      a3, SHMEM_IMAGE_OFFSET
    add     a3, a3, t5
    ld      a4, 48(t1)                  /* image_bytes, a multiple of 8 */
    add     a4, a4, a2
    bgeu    a2, a4, 3f
2:  ld      t3, 0(a2)
    sd      t3, 0(a3)
    addi    a2, a2, 8
    addi    a3, a3, 8
    bltu    a2, a4, 2b
3:  fence   rw, rw
    ld      t3, 8(t1)                   /* tables */
    ld      t4, 16(t1)                  /* table_stride */
    mul     t4, t4, a0
    add     t3, t3, t4
    srli    t3, t3, 12
    li      t4, SHMEM_SATP_SV39
    or      t3, t3, t4
    csrw    satp, t3
    /* PMP: the last entry lets S-mode accesses (what MPRV makes of them) reach everything; entry 0, the stack
     * guard (crt.cpp), comes first and wins where it matches */
    li      t3, -1
    csrw    pmpaddr15, t3
    li      t3, 0x1f << 56              /* pmp15cfg = NAPOT | X | W | R */
    csrs    pmpcfg2, t3
    li      t3, (1 << 17) | (1 << 11)   /* MPRV, MPP = S (01) */
    csrs    mstatus, t3
    sfence.vma
1:
    /* no (or a foreign) boot block: say so from C with a static stack, and end the run */
    ld      t3, 0(t1)
    li      t4, SHMEM_BOOT_MAGIC
    beq     t3, t4, 1f
8:  lla     sp, __shmem_trap_stack_top
    csrr    a0, mhartid
    mv      a1, t1
    call    shmem_crt_bad_boot_block
1:
    /* Self-relocation: the image is linked at 0, so the displacement is its runtime address (t1 + 0x1000).
     * Anything but R_RISCV_RELATIVE means the image was not linked by our rules. */
    lla     t5, __image_start
    lla     a0, __rela_dyn_start
    lla     a1, __rela_dyn_end
2:  bgeu    a0, a1, 4f
    ld      a2, 0(a0)                   /* r_offset */
    lwu     a3, 8(a0)                   /* ELF64_R_TYPE(r_info) */
    ld      a4, 16(a0)                  /* r_addend */
    li      a5, R_RISCV_RELATIVE
    bne     a3, a5, 6f
    add     a2, a2, t5
    add     a4, a4, t5
    sd      a4, 0(a2)
7:  addi    a0, a0, 24
    j       2b
6:  beqz    a3, 7b                      /* R_RISCV_NONE: ld leaves these for relaxed-away TLS accesses */
3:  lla     sp, __shmem_trap_stack_top
    mv      a0, a3
    call    shmem_crt_bad_relocation
4:
    /* clear .tbss and .bss (both 16-byte aligned, whole double words) */
    lla     a0, __tbss_start
    lla     a1, __bss_end
5:  bgeu    a0, a1, 6f
    sd      zero, 0(a0)
    addi    a0, a0, 8
    j       5b
6:
    lla     tp, __tls_base              /* one thread per PE: the TLS template is the live block */

    /* stack at the top of the partition */
    lwu     t3, 20(t1)                  /* log2_partition */
    li      t4, 1
    sll     t4, t4, t3
    add     sp, t1, t4

    /* every trap is fatal: it runs on its own small stack so that a stack overflow can still be reported */
    lla     t0, shmem_crt_trap_entry
    csrw    mtvec, t0
    lla     t0, __shmem_trap_stack_top
    csrw    mscratch, t0

    mv      a0, t1
    call    shmem_crt_start             /* does not return */
7:  wfi
    j       7b
    .size _start, . - _start

/* Trap entry (mtvec, direct mode). Interrupts are never enabled globally (waits use wfi with mstatus.MIE = 0),
 * so anything that arrives here is an exception: report it and end the run. */
    .text
    .balign 4
    .globl shmem_crt_trap_entry
    .type shmem_crt_trap_entry, @function
shmem_crt_trap_entry:
    /* A trap set MPP to M, which would make this handler's loads and stores physical under the shared code's MPRV:
     * MPP back to S first (harmless without MPRV), with t0 kept in sscratch meanwhile. */
    csrw    sscratch, t0
    li      t0, 1 << 12
    csrc    mstatus, t0
    csrr    t0, sscratch
    csrrw   sp, mscratch, sp            /* sp = trap stack, mscratch = the faulting sp */
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    csrr    a3, mscratch
    mv      a4, ra
    call    shmem_crt_trap
8:  wfi
    j       8b
    .size shmem_crt_trap_entry, . - shmem_crt_trap_entry

    .bss
    .balign 16
__shmem_trap_stack:
    .space 2048
    .globl __shmem_trap_stack_top
__shmem_trap_stack_top:

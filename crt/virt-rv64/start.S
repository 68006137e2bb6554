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

    /* no (or a foreign) boot block: say so from C with a static stack, and end the run */
    ld      t3, 0(t1)
    li      t4, SHMEM_BOOT_MAGIC
    beq     t3, t4, 1f
    lla     sp, __shmem_trap_stack_top
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

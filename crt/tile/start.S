/* Reset entry of every PE on TILE-Gx / TILEPro. The boot firmware starts each tile of the run at the entry of its
 * own relocated copy of the image (oshrun writes one per tile: crt/tile/boot_block.h) with r0 = the address of its
 * boot block, which is also its partition base. The stack is the top of the partition; everything else is done in
 * C (crt.cpp). Nothing is relocated or cleared here: the loader wrote every byte of the image, .bss included.
 */
#include "boot_block.h"

    .section .text.shmem_start, "ax"
    .globl _start
    .type _start, @function
_start:
#if defined(__tilegx__)
    addi    r1, r0, 20          /* &boot->log2_partition */
    ld4u    r1, r1
    movei   r2, 1
    shl     r2, r2, r1          /* partition size */
    add     sp, r0, r2          /* the partition's end: the stack's top */
    addi    sp, sp, -64         /* room for the callee's save area (lr, caller's sp), 16-aligned */
    movei   lr, 0               /* a backtrace ends here */
    j       shmem_crt_start     /* r0: the boot block */
#else
    addi    r1, r0, 20          /* &boot->log2_partition */
    lw      r1, r1
    movei   r2, 1
    shl     r2, r2, r1          /* partition size */
    add     sp, r0, r2          /* the partition's end: the stack's top */
    addi    sp, sp, -64         /* room for the callee's save area (lr, caller's sp), 8-aligned */
    movei   lr, 0               /* a backtrace ends here */
    j       shmem_crt_start     /* r0: the boot block */
#endif
    .size _start, . - _start

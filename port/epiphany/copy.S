/* shmem_port_copy_blocks(dst r0, src r1, blocks r2): copies blocks * 32 bytes, dst and src 8-byte aligned,
 * blocks >= 1. Returns dst and src advanced past the copy in r0 and r1 (the caller, copy.cpp, goes on with the
 * tail from there).
 *
 * The body is Epiphany's zero-overhead hardware loop (LS/LE/LC) around four double-word loads and four
 * double-word stores: 8 bytes every 2 clock cycles once the stores stream into the mesh. The loop must start on
 * an 8-byte boundary and hold only 32-bit instructions (.l), and nothing may change LC/LS/LE while it runs:
 * interrupts are disabled for the loop (a handler that used a hardware loop of its own would corrupt it) and
 * re-enabled after it if they were enabled before. A latched interrupt is taken then, late but not lost.
 * r16-r23 are caller-saved in the Epiphany ABI. */
    .section .text.shmem_port_copy_blocks, "ax"
    .balign 8
    .global _shmem_port_copy_blocks
_shmem_port_copy_blocks:
    movfs r3, status
    mov r12, %low(.Lbody)
    movt r12, %high(.Lbody)
    movts ls, r12
    mov r12, %low(.Llast)
    movt r12, %high(.Llast)
    movts le, r12
    gid
    movts lc, r2
    .balignw 8, 0x01a2          /* nop */
.Lbody:
    ldrd.l r16, [r1], #1
    ldrd.l r18, [r1], #1
    ldrd.l r20, [r1], #1
    ldrd.l r22, [r1], #1
    strd.l r16, [r0], #1
    strd.l r18, [r0], #1
    strd.l r20, [r0], #1
.Llast:
    strd.l r22, [r0], #1
    /* STATUS bit 1 is GID: re-enable interrupts only if they were enabled on entry. */
    mov r12, #2
    and r3, r3, r12
    bne 1f
    gie
1:  rts

/* shmem_port_copy(dst r0, src r1, n r2): put and get, any alignment, n >= 0. Leaf, no frame; clobbers r0-r3, r12,
 * r16-r25 (caller-saved in the Epiphany ABI).
 *
 * Epiphany has no misaligned accesses (they raise a software exception), so data moves in the widest unit that
 * dst and src allow together: double words when they agree modulo 8, words modulo 4, else bytes; the bytes
 * before dst reaches that alignment and after the last whole unit go one at a time.
 *
 *  - The common case (dst, src and n all multiples of 8) is tested first, in four instructions: a put of 8 bytes
 *    is 16 instructions here, call and return included.
 *  - From 4 double words (32 bytes) or 4 words (16 bytes) on, the bulk goes through Epiphany's zero-overhead
 *    hardware loop (LS/LE/LC) around four loads and four stores, 8 bytes every 2 clock cycles once the stores
 *    stream into the mesh; the 0-3 units left over go through a two-instruction loop.
 *  - A hardware loop must start on an 8-byte boundary and hold only 32-bit instructions (.l), and nothing may
 *    change LC/LS/LE while it runs: interrupts are disabled for the loop (a handler that copied, as the IPI get's
 *    does, would start a hardware loop of its own) and enabled again after it only if they were on entry. A
 *    latched interrupt is taken then, late but not lost.
 */

/* Starts the hardware loop whose body follows (8 .l instructions, LS = .L<name>_body, LE = LS + 28) for LC = r12
 * iterations (>= 1), with interrupts disabled; STATUS in r24. The copy is always in local memory (.text.local in
 * both linker scripts): its addresses fit in 16 bits. */
.macro HWLOOP name
    movfs r24, status
    mov r25, %low(.L\name\()_body)
    movts ls, r25
    add r25, r25, #28
    movts le, r25
    gid
    movts lc, r12
    .balignw 8, 0x01a2          /* nop */
.endm
/* STATUS bit 1 is GID: enable interrupts again only if they were enabled on entry. */
.macro HWLOOP_END
    mov r25, #2
    and r24, r24, r25
    bne 1f
    gie
1:
.endm

    .section .text.shmem_port_copy, "ax"
    .balign 4
    .global _shmem_port_copy
_shmem_port_copy:
    orr r3, r0, r1
    orr r3, r3, r2
    lsl r3, r3, #29             /* dst, src and n all multiples of 8? */
    bne .Lgeneral
    lsr r3, r2, #3              /* double words */
    beq .Lret
    mov r2, #0                  /* no bytes after them */

/* r3 >= 1 double words, dst and src 8-aligned; then r2 bytes. */
.Ldwords:
    sub r12, r3, #4
    bgteu .Lhw8
.Ld1:
    ldrd r16, [r1], #1
    strd r16, [r0], #1
    sub r3, r3, #1
    bne .Ld1

/* r2 bytes, one at a time. */
.Ltail:
    sub r2, r2, #1
    blt .Lret
    ldrb r3, [r1], #1
    strb r3, [r0], #1
    b .Ltail
.Lret:
    rts

.Lhw8:
    lsr r12, r3, #2             /* blocks of 4 double words */
    HWLOOP d
.Ld_body:
    ldrd.l r16, [r1], #1
    ldrd.l r18, [r1], #1
    ldrd.l r20, [r1], #1
    ldrd.l r22, [r1], #1
    strd.l r16, [r0], #1
    strd.l r18, [r0], #1
    strd.l r20, [r0], #1
    strd.l r22, [r0], #1
    HWLOOP_END
    lsl r3, r3, #30             /* the 0-3 double words left */
    lsr r3, r3, #30
    bne .Ld1
    b .Ltail

/* Not all multiples of 8. Addresses that agree modulo 8 go on in double words, modulo 4 in words (after the
 * bytes that align dst); otherwise byte by byte (halves for addresses 2 apart modulo 4 would be faster, and are
 * rare enough not to be worth their code). */
.Lgeneral:
    eor r3, r0, r1
    lsl r3, r3, #30
    bne .Ltail
    eor r3, r0, r1
    lsl r3, r3, #29
    bne .Lhead4
.Lhead8:
    lsl r3, r0, #29
    beq .Lbody8
    sub r2, r2, #1
    blt .Lret
    ldrb r3, [r1], #1
    strb r3, [r0], #1
    b .Lhead8
.Lbody8:
    lsr r3, r2, #3              /* double words, then n mod 8 bytes */
    lsl r2, r2, #29
    lsr r2, r2, #29
    sub r3, r3, #0
    bne .Ldwords
    b .Ltail

.Lhead4:
    lsl r3, r0, #30
    beq .Lwords
    sub r2, r2, #1
    blt .Lret
    ldrb r3, [r1], #1
    strb r3, [r0], #1
    b .Lhead4
.Lwords:
    lsr r3, r2, #2              /* words, then n mod 4 bytes */
    lsl r2, r2, #30
    lsr r2, r2, #30
    sub r3, r3, #0
    beq .Ltail
    sub r12, r3, #4
    bgteu .Lhw4
.Lw1:
    ldr r16, [r1], #1
    str r16, [r0], #1
    sub r3, r3, #1
    bne .Lw1
    b .Ltail

.Lhw4:
    lsr r12, r3, #2             /* blocks of 4 words */
    HWLOOP w
.Lw_body:
    ldr.l r16, [r1], #1
    ldr.l r17, [r1], #1
    ldr.l r18, [r1], #1
    ldr.l r19, [r1], #1
    str.l r16, [r0], #1
    str.l r17, [r0], #1
    str.l r18, [r0], #1
    str.l r19, [r0], #1
    HWLOOP_END
    lsl r3, r3, #30             /* the 0-3 words left */
    lsr r3, r3, #30
    bne .Lw1
    b .Ltail

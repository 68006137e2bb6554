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

/* The bulk of r3 (>= 4) units through the hardware loop: blocks of 4, each 4 loads (LD) into A..D and 4 stores
 * (ST), LC = r3 / 4 iterations (in r12: made here, or by the caller where LC_MADE) with interrupts disabled
 * (STATUS kept in r24), LS = .L<name>_body, LE = LS + 28
 * (8 .l instructions). The copy is always in local memory (.text.local in both linker scripts): its addresses fit
 * in 16 bits. Afterwards interrupts come back on only if they were on entry (STATUS bit 1 is GID), and the 0-3
 * units left over go to SINGLE, the one-unit loop, or straight to the bytes after them. */
.macro HWBLOCK name, ld, st, a, b, c, d, single, lc_made=0
    .if !\lc_made
    lsr r12, r3, #2
    .endif
    movfs r24, status
    mov r25, %low(.L\name\()_body)
    movts ls, r25
    add r25, r25, #28
    movts le, r25
    gid
    movts lc, r12
    .balignw 8, 0x01a2          /* nop */
.L\name\()_body:
    \ld \a, [r1], #1
    \ld \b, [r1], #1
    \ld \c, [r1], #1
    \ld \d, [r1], #1
    \st \a, [r0], #1
    \st \b, [r0], #1
    \st \c, [r0], #1
    \st \d, [r0], #1
    mov r25, #2
    and r24, r24, r25
    bne 1f
    gie
1:  lsl r3, r3, #30
    lsr r3, r3, #30
    bne \single
    b .Ltail
.endm

/* Bytes until dst (and so src) is aligned to 2^(32 - SHIFT), then ALIGNED; or the end, if n runs out first. */
.macro ALIGN_HEAD shift, aligned
1:  lsl r3, r0, #\shift
    beq \aligned
    sub r2, r2, #1
    blt .Lret
    ldrb r3, [r1], #1
    strb r3, [r0], #1
    b 1b
.endm

/* n (r2) as units of 2^LOG2 bytes in r3 and the bytes after them in r2; Z set if there is no whole unit. */
.macro SPLIT log2
    lsr r3, r2, #\log2
    lsl r2, r2, #(32 - \log2)
    lsr r2, r2, #(32 - \log2)
    sub r3, r3, #0
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

/* r2 bytes, one at a time; none left falls through to the return (a taken branch costs 3 cycles). */
.Ltail:
    sub r2, r2, #1
    bgte .Lbyte
.Lret:
    rts
.Lbyte:
    ldrb r3, [r1], #1
    strb r3, [r0], #1
    b .Ltail

.Lhw8:
    HWBLOCK d, ldrd.l, strd.l, r16, r18, r20, r22, .Ld1

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
    ALIGN_HEAD 29, .Lbody8
.Lbody8:
    SPLIT 3                     /* double words, then n mod 8 bytes */
    bne .Ldwords
    b .Ltail

.Lhead4:
    ALIGN_HEAD 30, .Lwords
.Lwords:
    SPLIT 2                     /* words, then n mod 4 bytes */
    beq .Ltail
    lsr r12, r3, #2             /* LC already: then the block's body is on its 8-byte boundary with no padding */
    bne .Lhw4
.Lw1:
    ldr r16, [r1], #1
    str r16, [r0], #1
    sub r3, r3, #1
    bne .Lw1
    b .Ltail

.Lhw4:
    HWBLOCK w, ldr.l, str.l, r16, r17, r18, r19, .Lw1, 1

/* void shmem_port_copy(void *dst, const void *src, size_t n)
 *
 * The put/get copy of the virt-rv64 port. Remote memory is plain memory on this machine, so put (local loads,
 * remote stores) and get (remote loads, local stores) are the same loop.
 *
 * When dst and src agree modulo 8, the body moves 256 bytes per iteration: 32 ld/sd pairs and three bookkeeping
 * instructions, 67 instructions per 256 bytes = 0.262 per byte against the ideal 0.25 (one load and one store
 * per double word). The first, partial iteration is entered in the middle (Duff's device): a computed jump skips
 * the pairs it does not need, so a 40-byte copy runs 5 pairs and no loop of single words. The body is assembled
 * without compressed instructions so that every pair is exactly 8 bytes long and the jump is a shift away.
 * Other alignments go to copy_misaligned (C++), which shifts aligned double words together, so no misaligned
 * access is ever issued. Source and destination of a put or get never overlap.
 */
    .text
    .balign 4
    .globl shmem_port_copy
    .type shmem_port_copy, @function
shmem_port_copy:
    xor     t1, a0, a1
    andi    t1, t1, 7
    bnez    t1, .Lmisaligned
    li      t0, 8
    bltu    a2, t0, .Lbytes             /* under a double word: bytes, nothing to set up */

    /* head: bytes until dst (and so src) is 8-aligned */
    andi    t1, a0, 7
    beqz    t1, .Laligned
    sub     t1, t0, t1                  /* 1..7 head bytes */
    sub     a2, a2, t1
    add     t2, a0, t1
1:  lbu     t3, 0(a1)
    sb      t3, 0(a0)
    addi    a0, a0, 1
    addi    a1, a1, 1
    bltu    a0, t2, 1b

.Laligned:
    srli    t0, a2, 3                   /* t0 = double words */
    andi    a2, a2, 7                   /* a2 = tail bytes */
    beqz    t0, .Lbytes
    slli    t2, t0, 3
    add     t2, a0, t2                  /* t2 = end of the double words in dst */
    neg     t1, t0
    andi    t1, t1, 31                  /* t1 = pairs to skip in the first iteration: (32 - words % 32) % 32 */
    slli    t1, t1, 3                   /* ... in bytes of data and in bytes of code (8 per pair) */
    sub     a0, a0, t1
    sub     a1, a1, t1
    lla     t0, .Lbody
    add     t0, t0, t1
    jr      t0

    .option push
    .option norvc
    .balign 4
.Lbody:
    .irp    off, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248
    ld      t3, \off(a1)
    sd      t3, \off(a0)
    .endr
    addi    a0, a0, 256
    addi    a1, a1, 256
    bltu    a0, t2, .Lbody
    .option pop

.Lbytes:
    beqz    a2, 5f
    add     t2, a0, a2
4:  lbu     t3, 0(a1)
    sb      t3, 0(a0)
    addi    a0, a0, 1
    addi    a1, a1, 1
    bltu    a0, t2, 4b
5:  ret

.Lmisaligned:
    tail    shmem_port_copy_misaligned
    .size shmem_port_copy, . - shmem_port_copy

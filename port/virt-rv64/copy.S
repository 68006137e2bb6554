/* void shmem_port_copy(void *dst, const void *src, size_t n)
 *
 * The put/get copy of the virt-rv64 port. Remote memory is plain memory on this machine, so put (local loads,
 * remote stores) and get (remote loads, local stores) are the same loop. When dst and src agree modulo 8, the
 * body moves 64 bytes per iteration with eight ld/sd pairs and three bookkeeping instructions: 19 instructions
 * per 64 bytes, about 0.30 per byte against the ideal 0.25 of one load and one store per double word. Other
 * alignments are handled in C++ (copy_misaligned) by shifting aligned double words together, so no misaligned
 * access is ever issued. memmove semantics are not provided (source and destination of a put never overlap).
 */
    .text
    .balign 4
    .globl shmem_port_copy
    .type shmem_port_copy, @function
shmem_port_copy:
    li      t0, 16
    bltu    a2, t0, .Lbytes             /* short copies: bytes, nothing to set up */
    xor     t1, a0, a1
    andi    t1, t1, 7
    bnez    t1, .Lmisaligned

    /* head: bytes until dst (and so src) is 8-aligned */
    andi    t1, a0, 7
    beqz    t1, .Laligned
    li      t2, 8
    sub     t1, t2, t1                  /* 1..7 head bytes; n >= 16 so they exist */
    sub     a2, a2, t1
    add     t2, a0, t1
1:  lbu     t3, 0(a1)
    sb      t3, 0(a0)
    addi    a0, a0, 1
    addi    a1, a1, 1
    bltu    a0, t2, 1b

.Laligned:
    /* body: 64 bytes per iteration */
    andi    t2, a2, -64
    beqz    t2, .Lwords
    add     t2, a0, t2                  /* t2 = end of the unrolled part in dst */
2:  ld      t3, 0(a1)
    ld      t4, 8(a1)
    ld      t5, 16(a1)
    ld      t6, 24(a1)
    ld      a3, 32(a1)
    ld      a4, 40(a1)
    ld      a5, 48(a1)
    ld      a6, 56(a1)
    sd      t3, 0(a0)
    sd      t4, 8(a0)
    sd      t5, 16(a0)
    sd      t6, 24(a0)
    sd      a3, 32(a0)
    sd      a4, 40(a0)
    sd      a5, 48(a0)
    sd      a6, 56(a0)
    addi    a0, a0, 64
    addi    a1, a1, 64
    bltu    a0, t2, 2b
    andi    a2, a2, 63

.Lwords:
    /* up to seven remaining double words */
    andi    t2, a2, -8
    beqz    t2, .Lbytes
    add     t2, a0, t2
3:  ld      t3, 0(a1)
    sd      t3, 0(a0)
    addi    a0, a0, 8
    addi    a1, a1, 8
    bltu    a0, t2, 3b
    andi    a2, a2, 7

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

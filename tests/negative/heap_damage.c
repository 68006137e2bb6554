/* Damage to the symmetric heap, and ranges that would do it, with checks on: each is reported (status 134) with
 * the block, its size and the bytes asked for, instead of passing (before: an overrun was blamed on a live block by
 * a later shmem_free, or made the next shmem_malloc overlap a live block; a put into a freed block was accepted; a
 * put past a block's end was found only by the next allocation routine, a get past it never).
 *   overrun      a store past the end of a block of 4 longs, then shmem_free
 *   header       a store just below a block (into its header), then shmem_malloc
 *   after_free   a store into a freed block, then shmem_malloc
 *   put_freed    a put into a freed block (refused by the put itself)
 *   put_past     a put of 4 longs and a byte into a block of 4 longs (refused by the put)
 *   get_past     a get of 128 bytes from a block of 4 longs (refused by the get: it would read the next block)
 *   put_header   a put that starts in a block's header (refused by the put)
 *   put_beyond   a put of 240 bytes into the last block: past its end and the heap's (refused by the put)
 *   put_wrap     a put of SIZE_MAX - 7 bytes into a block, whose end wraps the address space (refused)
 *   static_past  a put whose start is a static array and whose extent runs past all symmetric memory
 *   finalize     a store past the end of a block in the program's last phase: found by shmem_finalize
 * The last PE does the wrong thing; every PE then calls the collective that finds it. */
#include <shmem.h>
#include <string.h>

static long src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static long in_static[4];

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int me = shmem_my_pe(), n = shmem_n_pes(), last = me == n - 1;
    long *a = shmem_malloc(4 * sizeof(long));
    long *b = shmem_malloc(4 * sizeof(long));
    long *c = shmem_malloc(4 * sizeof(long)); /* keeps b from being the last block */
    long got[32];
    const int peer = (me + 1) % n;
    if (strcmp(kind, "overrun") == 0) {
        if (last) ((volatile long *)a)[4] = 5;
        shmem_barrier_all();
        shmem_free(a);
    } else if (strcmp(kind, "put_past") == 0) {
        if (last) shmem_putmem(a, src, 4 * sizeof(long) + 1, peer);
    } else if (strcmp(kind, "get_past") == 0) {
        if (last) shmem_getmem(got, a, 128, peer);
    } else if (strcmp(kind, "put_header") == 0) {
        if (last) shmem_putmem((char *)b - 8, src, 8, peer);
    } else if (strcmp(kind, "put_beyond") == 0) {
        if (last) shmem_putmem(c, got, 240, peer);
    } else if (strcmp(kind, "put_wrap") == 0) {
        if (last) shmem_putmem(a, src, (size_t)-8, peer); /* a + nbytes wraps the address space */
    } else if (strcmp(kind, "static_past") == 0) {
        if (last) shmem_putmem(in_static, got, (size_t)1 << 30, peer);
    } else if (strcmp(kind, "finalize") == 0) {
        shmem_barrier_all();
        if (last) ((volatile char *)c)[4 * sizeof(long)] = 1;
        shmem_finalize();
        return 0;
    } else if (strcmp(kind, "header") == 0) {
        if (last) ((volatile unsigned char *)b)[-8] ^= 0x10;
        shmem_barrier_all();
        (void)shmem_malloc(16);
    } else if (strcmp(kind, "after_free") == 0) {
        shmem_free(b);
        if (last) ((volatile long *)b)[1] = 42;
        shmem_barrier_all();
        (void)shmem_malloc(16);
    } else if (strcmp(kind, "put_freed") == 0) {
        shmem_free(b);
        if (last) shmem_long_p(&b[2], 42, 0);
    }
    shmem_barrier_all();
    shmem_free(c);
    shmem_finalize();
    return 0;
}

/* Damage to the symmetric heap, with checks on: each kind is reported (status 134) with the block, its size and
 * the first damaged byte, instead of passing (before: an overrun was blamed on a live block by a later
 * shmem_free, or made the next shmem_malloc overlap a live block; a put into a freed block was accepted).
 *   overrun     8 longs put into a block of 4, then shmem_free
 *   header      a store just below a block (into its header), then shmem_malloc
 *   after_free  a store into a freed block, then shmem_malloc
 *   put_freed   a put into a freed block (refused by the put itself)
 * The last PE does the wrong thing; every PE then calls the collective that finds it. */
#include <shmem.h>
#include <string.h>

static long src[8] = {1, 2, 3, 4, 5, 6, 7, 8};

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int me = shmem_my_pe(), n = shmem_n_pes(), last = me == n - 1;
    long *a = shmem_malloc(4 * sizeof(long));
    long *b = shmem_malloc(4 * sizeof(long));
    long *c = shmem_malloc(4 * sizeof(long)); /* keeps b from being the last block */
    if (strcmp(kind, "overrun") == 0) {
        if (last) shmem_long_put(a, src, 8, me);
        shmem_barrier_all();
        shmem_free(a);
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

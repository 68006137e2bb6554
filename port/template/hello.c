/* One PE on the template port: the library's paths a new port must get right first (setup, the symmetric heap, a
 * put and a get, an AMO, a barrier, a collective), each checked. Built in CI, not run: it links, so every hook the
 * core calls is defined. */
#include <shmem.h>
#include <stdio.h>

static long value, part, sum; /* symmetric: static data */

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    long *heap = shmem_malloc(4 * sizeof(long));
    long src[4] = {1, 2, 3, 4}, got[4] = {0, 0, 0, 0};
    shmem_long_put(heap, src, 4, me);
    shmem_long_get(got, heap, 4, me);
    const long old = shmem_long_atomic_fetch_add(&value, 5, me);
    shmem_barrier_all();
    part = got[3];
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &part, 1);
    const int ok = got[0] == 1 && got[3] == 4 && old == 0 && value == 5 && sum == 4L * n;
    printf("hello from PE %d of %d: %s\n", me, n, ok ? "ok" : "FAILED");
    shmem_free(heap);
    shmem_finalize();
    return ok ? 0 : 1;
}

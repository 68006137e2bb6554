/* Counts whose size in bytes does not fit in size_t: each must be reported (status 134) before anything moves.
 * Before, shmem_long_put with 2^61 + 1 elements copied one element and returned, fcollect/broadcast/reduce/
 * alltoall with counts that wrap to 0 did nothing, and others passed the check and then trapped far away.
 * The last PE makes the wrong call (a collective's arguments are the same on every PE). */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

static long dest[4], src[4];
static uint64_t sig;
static long pSync[SHMEM_SYNC_SIZE];

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const size_t wrap = SIZE_MAX / sizeof(long) + 2; /* x 8 wraps to 8: one element, as if nothing were wrong */
    const size_t wrap0 = (SIZE_MAX / sizeof(long) + 1); /* x 8 wraps to 0 */
    for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    const int last = me == n - 1;
    if (strcmp(kind, "put") == 0 && last) shmem_long_put(dest, src, wrap, 0);
    if (strcmp(kind, "get") == 0 && last) shmem_long_get_nbi(dest, src, wrap, 0);
    if (strcmp(kind, "iput") == 0 && last) shmem_long_iput(dest, src, PTRDIFF_MAX, 1, 3, 0);
    if (strcmp(kind, "put_signal") == 0 && last) shmem_long_put_signal(dest, src, wrap, &sig, 1, SHMEM_SIGNAL_SET, 0);
    if (strcmp(kind, "wait") == 0 && last) shmem_long_test_all(dest, wrap, NULL, SHMEM_CMP_EQ, 0);
    if (strcmp(kind, "broadcast") == 0) shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, src, wrap0, 0);
    if (strcmp(kind, "fcollect") == 0) /* nelems x 8 fits; times the team's size it does not */
        shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, src, SIZE_MAX / 2 + 1);
    if (strcmp(kind, "alltoall") == 0) shmem_long_alltoall(SHMEM_TEAM_WORLD, dest, src, wrap0);
    if (strcmp(kind, "reduce") == 0) shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, src, wrap0);
    if (strcmp(kind, "active_set") == 0) shmem_fcollect64(dest, src, wrap0, 0, 0, n, pSync);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

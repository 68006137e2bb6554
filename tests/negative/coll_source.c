/* Collectives whose source is not what the specification asks for (1.5 and 1.6: a symmetric address, of nelems
 * elements, or of nelems for each PE of the team for alltoall): with checks, each is reported (status 134) by the
 * routine, naming source, its address and size, before any data moves. Before, only dest was checked, and these
 * ran to the end with status 0. Every PE makes the same call.
 *   broadcast  shmem_long_broadcast from a stack array
 *   collect    shmem_long_collect from a stack array
 *   fcollect   shmem_long_fcollect from a stack array
 *   alltoall   shmem_long_alltoall from a heap block of 4 longs, which holds one PE's block, not npes of them
 *   reduce     shmem_long_sum_reduce from a stack array
 *   to_all     shmem_long_sum_to_all (an active set of every PE) from a stack array */
#include <shmem.h>
#include <string.h>

static long dest[64];
static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int n = shmem_n_pes();
    long on_stack[4] = {1, 2, 3, 4};
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    long *small = shmem_malloc(4 * sizeof(long));
    long *after = shmem_malloc(4 * sizeof(long)); /* keeps small from being the heap's last block */
    shmem_barrier_all();
    if (strcmp(kind, "broadcast") == 0) shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, on_stack, 4, 0);
    if (strcmp(kind, "collect") == 0) shmem_long_collect(SHMEM_TEAM_WORLD, dest, on_stack, 2);
    if (strcmp(kind, "fcollect") == 0) shmem_long_fcollect(SHMEM_TEAM_WORLD, dest, on_stack, 2);
    if (strcmp(kind, "alltoall") == 0) shmem_long_alltoall(SHMEM_TEAM_WORLD, dest, small, 4);
    if (strcmp(kind, "reduce") == 0) shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, on_stack, 4);
    if (strcmp(kind, "to_all") == 0) shmem_long_sum_to_all(dest, on_stack, 4, 0, 0, n, pWrk, pSync);
    shmem_barrier_all();
    shmem_free(after);
    shmem_free(small);
    shmem_finalize();
    return 0;
}

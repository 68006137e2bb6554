/* Collectives called with arguments that differ between PEs: with checks, each is reported (status 134) by the
 * PE that differs from PE 0 of the team, before any data moves. Before, a broadcast whose PEs passed different
 * roots gave different data on different PEs, and a team split with different triplets hung until the time limit.
 *   root     shmem_long_broadcast, the last PE with another PE_root
 *   count    shmem_long_fcollect, the last PE with another nelems
 *   op       shmem_long_sum_reduce on every PE but the last, which calls shmem_long_max_reduce
 *   split    shmem_team_split_strided, the last PE with another size
 *   strided  shmem_int_alltoalls, the last PE with another dst
 *   active   shmem_broadcast64 over an active set of every PE, the last PE with another PE_root */
#include <shmem.h>
#include <string.h>

static long dest[64], src[8];
static int idest[256], isrc[256];
static long pSync[SHMEM_SYNC_SIZE];

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int me = shmem_my_pe(), n = shmem_n_pes(), last = me == n - 1;
    if (strcmp(kind, "root") == 0) shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, src, 4, last ? 1 : 0);
    if (strcmp(kind, "count") == 0) shmem_long_fcollect(SHMEM_TEAM_WORLD, dest, src, last ? 2 : 1);
    if (strcmp(kind, "op") == 0) {
        if (last)
            shmem_long_max_reduce(SHMEM_TEAM_WORLD, dest, src, 4);
        else
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, src, 4);
    }
    if (strcmp(kind, "split") == 0) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, last ? n - 1 : n, NULL, 0, &t);
    }
    if (strcmp(kind, "active") == 0) {
        for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
        shmem_barrier_all();
        shmem_broadcast64(dest, src, 4, last ? 1 : 0, 0, 0, n, pSync);
    }
    if (strcmp(kind, "strided") == 0) shmem_int_alltoalls(SHMEM_TEAM_WORLD, idest, isrc, last ? 3 : 2, 1, 2);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

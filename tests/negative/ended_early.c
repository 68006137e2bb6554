// A PE that ends while the others wait for it in the library: the wait is reported (the waiting PE, the routine,
// the PE that ended and how) and the run ends with status 134, instead of hanging. The last PE is the one that
// ends early, so every PE count has one; kind "sloppy" is the program that is fine: every PE returns without
// shmem_finalize after a collective whose root may leave first, and the run ends with 0.
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long lock;
static long src[4], dst[4];
static int64_t src64[4], dst64[4];  // shmem_broadcast64's elements are 8 bytes; a long may have 4 (Epiphany)
static long psync[SHMEM_BCAST_SYNC_SIZE];

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "return";
    if (strcmp(kind, "no_init") == 0) {
        // The last PE never initializes: the others wait in shmem_init's barrier.
        // (shmem_n_pes needs no shmem_init here: the port knows the run's size before main.)
        if (shmem_my_pe() == shmem_n_pes() - 1) return 0;
        shmem_init();
        shmem_finalize();
        return 0;
    }
    shmem_init();
    const int me = shmem_my_pe(), last = shmem_n_pes() - 1;
    if (strcmp(kind, "return") == 0) {  // returns from main without shmem_finalize; the others are in a barrier
        if (me == last) return 0;
        shmem_barrier_all();
    } else if (strcmp(kind, "finalize") == 0) {
        // The last PE's shmem_finalize meets the others' shmem_barrier_all; then they wait in a second one.
        if (me == last) {
            shmem_finalize();
            return 0;
        }
        shmem_barrier_all();
        shmem_barrier_all();
    } else if (strcmp(kind, "in_finalize") == 0) {  // the others wait in shmem_finalize for one that returned
        if (me == last) return 0;
        shmem_finalize();
    } else if (strcmp(kind, "collective") == 0) {  // a reduction on the world team
        if (me == last) return 0;
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    } else if (strcmp(kind, "team") == 0) {  // a broadcast on a team of PE 0 and the last PE, rooted at PE 0
        shmem_team_t pair = SHMEM_TEAM_INVALID;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, last > 0 ? last : 1, last > 0 ? 2 : 1, NULL, 0, &pair);
        if (me == last || pair == SHMEM_TEAM_INVALID) return 0;  // (the PEs outside the team wait for nothing)
        shmem_long_broadcast(pair, dst, src, 4, 0);
    } else if (strcmp(kind, "lock") == 0) {  // the last PE takes the lock and ends holding it
        if (me == last) {
            shmem_set_lock(&lock);
            shmem_barrier_all();
            return 0;
        }
        shmem_barrier_all();
        shmem_set_lock(&lock);
    } else if (strcmp(kind, "later") == 0) {
        // The last PE ends while the others wait on each other only (a team of all but it): those waits must go on,
        // and the end must still be found by the later wait that depends on it.
        shmem_team_t rest = SHMEM_TEAM_INVALID;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, last > 0 ? last : 1, NULL, 0, &rest);
        if (me == last && last > 0) return 0;
        for (int i = 0; i < 2000; ++i) shmem_team_sync(rest);
        shmem_barrier_all();
    } else if (strcmp(kind, "sloppy") == 0) {
        // Correct enough to end: every PE does the same collectives and returns without shmem_finalize.
        for (int i = 0; i < 4; ++i) src[i] = src64[i] = me + i;
        shmem_broadcast64(dst64, src64, 4, 0, 0, 0, shmem_n_pes(), psync);
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
        const long n = shmem_n_pes();
        for (int i = 0; i < 4; ++i) {
            if (me != 0 && dst64[i] != i) {
                printf("PE %d: broadcast dst[%d] = %lld, expected %d\n", me, i, (long long)dst64[i], i);
                return 1;
            }
            if (dst[i] != n * (n - 1) / 2 + n * i) {
                printf("PE %d: dst[%d] = %ld, expected %ld\n", me, i, dst[i], n * (n - 1) / 2 + n * i);
                return 1;
            }
        }
        return 0;
    } else {
        printf("unknown kind %s\n", kind);
        return 2;
    }
    printf("PE %d: the wait ended, but PE %d had ended\n", me, last);
    return 1;
}

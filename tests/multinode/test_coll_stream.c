/* Collectives back to back with no barrier between them, as the specification allows: before any PE calls a
 * broadcast, a collect or a reduction, only every PE's dest must be ready (and, for an active set, its pSync and
 * pWrk no longer in use by a previous call). So a PE that leaves one collective may at once signal into the next
 * ones at a PE that is still in an earlier one, and a broadcast's root may run many broadcasts ahead.
 *  - SHMEM_TEAM_WORLD, a team of every other PE and then one of the lower half: a stream of broadcasts from roots that change (and runs of
 *    them from one root), sums of 2 longs (the work area's slots) and of 96 longs (past the slots at most layouts:
 *    read where they are), and fcollects, each into a dest of its own, with no barrier anywhere in the stream;
 *  - the deprecated active sets: a broadcast, an fcollect and a sum a round, each with a pSync of its own, and a
 *    barrier only between rounds (each pSync is used once a round);
 * then every value is checked on every PE. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define STEPS 71  /* collectives in a team's stream (odd: a team after it in its slot starts elsewhere) */
#define W 3       /* longs a broadcast */
#define SMALL 2   /* longs of a small sum */
#define BIG 96    /* longs of a large sum */
#define ROUNDS 8  /* rounds of the active sets */

static long bsrc[STEPS][W], bdest[STEPS][W];
static long rsrc[STEPS][BIG], rdest[STEPS][BIG];
static long gsrc[STEPS], gdest[STEPS][TEST_MAX_PES];
static long abdest[ROUNDS][W], agdest[ROUNDS][TEST_MAX_PES], ardest[ROUNDS][SMALL], arsrc[ROUNDS][SMALL];
static long psync_b[SHMEM_BCAST_SYNC_SIZE], psync_c[SHMEM_COLLECT_SYNC_SIZE], psync_r[SHMEM_REDUCE_SYNC_SIZE];
static long psync_x[SHMEM_BARRIER_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + SMALL];

enum kind { BCAST, SUM_SMALL, SUM_BIG, FCOLLECT };

/* What step s of a stream does: runs of broadcasts from one root (past the library's window of collectives that
 * may be in progress at once), broadcasts from a root that changes every step, a run of small sums (whose slots
 * the next sum's early ranks must not overwrite), and sums and fcollects between. */
static enum kind kind_of(int s)
{
    if (s < 10) return BCAST;
    if (s >= 30 && s < 40) return BCAST;
    if (s >= 40 && s < 50) return SUM_SMALL;
    switch (s % 5) {
    case 0: return SUM_SMALL;
    case 1: return BCAST;
    case 2: return FCOLLECT;
    case 3: return SUM_BIG;
    default: return BCAST;
    }
}
static int root_of(int s, int n) { return s < 10 ? n - 1 : (s * 7 + 3) % n; }
static long value(int pe, int s, int i) { return (long)test_pattern(pe, (size_t)i, s) & 0xffffff; }

/* Step s's dest, as its call left it. */
static void check_step(shmem_team_t team, const char *name, int s)
{
    const int n = shmem_team_n_pes(team);
    switch (kind_of(s)) {
    case BCAST:
        for (int i = 0; i < W; ++i) {
            const long want = value(root_of(s, n), s, i);
            CHECK(bdest[s][i] == want, "%s: step %d (broadcast from %d): dest[%d] = %ld; expected %ld", name, s,
                  root_of(s, n), i, bdest[s][i], want);
        }
        break;
    case SUM_SMALL:
    case SUM_BIG: {
        const int m = kind_of(s) == SUM_SMALL ? SMALL : BIG;
        for (int i = 0; i < m; ++i) {
            long want = 0;
            for (int pe = 0; pe < n; ++pe) want += value(pe, s, i);
            CHECK(rdest[s][i] == want, "%s: step %d (sum of %d): dest[%d] = %ld; expected %ld", name, s, m, i,
                  rdest[s][i], want);
        }
        break;
    }
    case FCOLLECT:
        for (int pe = 0; pe < n; ++pe)
            CHECK(gdest[s][pe] == value(pe, s, 0), "%s: step %d (fcollect): dest[%d] = %ld; expected %ld", name, s, pe,
                  gdest[s][pe], value(pe, s, 0));
        break;
    }
}

/* The stream on one team; every member checks each dest as the call returns. */
static void stream(shmem_team_t team, const char *name)
{
    const int n = shmem_team_n_pes(team), me = shmem_team_my_pe(team);
    for (int s = 0; s < STEPS; ++s) {
        for (int i = 0; i < W; ++i) bsrc[s][i] = value(me, s, i);
        for (int i = 0; i < BIG; ++i) rsrc[s][i] = value(me, s, i);
        gsrc[s] = value(me, s, 0);
        memset(bdest[s], 0, sizeof bdest[s]);
        memset(rdest[s], 0, sizeof rdest[s]);
        memset(gdest[s], 0, sizeof gdest[s]);
    }
    shmem_team_sync(team); /* every dest is ready before any member starts */
    for (int s = 0; s < STEPS; ++s) {
        int rc = 0;
        switch (kind_of(s)) {
        case BCAST: rc = shmem_long_broadcast(team, bdest[s], bsrc[s], W, root_of(s, n)); break;
        case SUM_SMALL: rc = shmem_long_sum_reduce(team, rdest[s], rsrc[s], SMALL); break;
        case SUM_BIG: rc = shmem_long_sum_reduce(team, rdest[s], rsrc[s], BIG); break;
        case FCOLLECT: rc = shmem_long_fcollect(team, gdest[s], &gsrc[s], 1); break;
        }
        CHECK(rc == 0, "%s: step %d returned %d", name, s, rc);
        check_step(team, name, s); /* at once: a dest is complete when its call returns */
    }
}

/* A root that runs ahead: rank 0 broadcasts half a MiB, which it sends to the last rank last and to the one before
 * it just before; that one, as soon as it has it, roots four small broadcasts at once. The small ones can reach the
 * last rank before the large one does (through shared memory where the two share a node, or on another
 * connection), and must not be taken for it: each dest is checked as its call returns. (A sum first: every rank in
 * step with every other when it starts.) */
#define LARGE 65536
#define REPS 3
static long lsrc[LARGE], large[REPS][LARGE], small[REPS][4][W];
static void run_ahead(void)
{
    const int n = shmem_n_pes();
    if (n < 3) return;
    for (int i = 0; i < LARGE; ++i) lsrc[i] = value(0, 400, i);
    for (int i = 0; i < W; ++i) bsrc[0][i] = value(n - 2, 500, i);
    memset(large, 0, sizeof large);
    memset(small, 0, sizeof small);
    memset(rsrc[0], 0, sizeof rsrc[0]);
    shmem_barrier_all();
    for (int k = 0; k < REPS; ++k) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, rdest[0], rsrc[0], SMALL);
        shmem_long_broadcast(SHMEM_TEAM_WORLD, large[k], lsrc, LARGE, 0);
        for (int i = 0; i < LARGE; i += LARGE / 8 - 1)
            CHECK(large[k][i] == value(0, 400, i), "run ahead %d: the large broadcast's dest[%d] = %ld; expected %ld",
                  k, i, large[k][i], value(0, 400, i));
        CHECK(large[k][LARGE - 1] == value(0, 400, LARGE - 1), "run ahead %d: the large broadcast's last = %ld", k,
              large[k][LARGE - 1]);
        for (int b = 0; b < 4; ++b) {
            shmem_long_broadcast(SHMEM_TEAM_WORLD, small[k][b], bsrc[0], W, n - 2);
            for (int i = 0; i < W; ++i)
                CHECK(small[k][b][i] == value(n - 2, 500, i), "run ahead %d: small broadcast %d: dest[%d] = %ld", k, b,
                      i, small[k][b][i]);
        }
    }
    for (int k = 0; k < REPS; ++k)
        for (int i = 0; i < LARGE; ++i)
            if (large[k][i] != value(0, 400, i)) {
                CHECK(0, "run ahead %d: the large broadcast's dest[%d] = %ld; expected %ld", k, i, large[k][i],
                      value(0, 400, i));
                break;
            }
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n <= TEST_MAX_PES, "%d PEs: the test's tables hold %d", n, TEST_MAX_PES);

    run_ahead();
    stream(SHMEM_TEAM_WORLD, "SHMEM_TEAM_WORLD");
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
        stream(odd, "the team of the odd PEs");
    }
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
    /* A team in the slot the odd PEs' team had: its members come with different histories (PE 1 from that team's
     * collectives, PE 0 from none), and number its collectives alike all the same. */
    shmem_team_t low = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, (n + 1) / 2, NULL, 0, &low);
    if (low != SHMEM_TEAM_INVALID) stream(low, "the team of the lower half");
    shmem_barrier_all();
    if (low != SHMEM_TEAM_INVALID) shmem_team_destroy(low);
    stream(SHMEM_TEAM_WORLD, "SHMEM_TEAM_WORLD, again");

    /* The active sets: every PE, and (from 3 PEs) PEs 0, 2, 4, ... */
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) psync_b[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; ++i) psync_c[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) psync_r[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) psync_x[i] = SHMEM_SYNC_VALUE;
    for (int set = 0; set < 2; ++set) {
        const int log_stride = set, size = set == 0 ? n : (n + 1) / 2;
        if (set == 1 && n < 3) break;
        if (me % (1 << log_stride) != 0) { /* not in the set: its two barriers only */
            shmem_barrier_all();
            shmem_barrier_all();
            continue;
        }
        const int rank = me >> log_stride;
        memset(abdest, 0, sizeof abdest);
        memset(agdest, 0, sizeof agdest);
        memset(ardest, 0, sizeof ardest);
        for (int r = 0; r < ROUNDS; ++r)
            for (int i = 0; i < SMALL; ++i) arsrc[r][i] = value(rank, r + 100, i);
        for (int r = 0; r < ROUNDS; ++r) {
            const int root = (r * 5 + 1) % size;
            for (int i = 0; i < W; ++i) bsrc[r][i] = value(root, r + 200, i);
            gsrc[r] = value(rank, r + 300, 0);
        }
        shmem_barrier_all();
        for (int r = 0; r < ROUNDS; ++r) {
            const int root = (r * 5 + 1) % size;
            shmem_broadcast64(abdest[r], bsrc[r], W, root, 0, log_stride, size, psync_b);
            shmem_fcollect64(agdest[r], &gsrc[r], 1, 0, log_stride, size, psync_c);
            shmem_long_sum_to_all(ardest[r], arsrc[r], SMALL, 0, log_stride, size, pwrk, psync_r);
            shmem_barrier(0, log_stride, size, psync_x); /* each pSync is free for the next round */
        }
        for (int r = 0; r < ROUNDS; ++r) {
            const int root = (r * 5 + 1) % size;
            for (int i = 0; i < W; ++i)
                if (rank != root)
                    CHECK(abdest[r][i] == value(root, r + 200, i),
                          "active set %d, round %d: broadcast from rank %d: dest[%d] = %ld; expected %ld", set, r,
                          root, i, abdest[r][i], value(root, r + 200, i));
            for (int k = 0; k < size; ++k)
                CHECK(agdest[r][k] == value(k, r + 300, 0),
                      "active set %d, round %d: fcollect: dest[%d] = %ld; expected %ld", set, r, k, agdest[r][k],
                      value(k, r + 300, 0));
            for (int i = 0; i < SMALL; ++i) {
                long want = 0;
                for (int k = 0; k < size; ++k) want += value(k, r + 100, i);
                CHECK(ardest[r][i] == want, "active set %d, round %d: sum: dest[%d] = %ld; expected %ld", set, r, i,
                      ardest[r][i], want);
            }
        }
        shmem_barrier_all();
    }
    shmem_finalize();
    return 0;
}

/* The barriers of teams and active sets whose PEs are on several nodes, of every shape a run's layout gives: a
 * node holding one of the group's PEs or several (then the barrier is hierarchical: a node's PEs arrive at its
 * lowest, the nodes' lowest run the dissemination, each releases its node's), the group's lowest PE a node's
 * first or not, groups within one node, strided ones. Each round, every member puts a value naming the round and
 * itself into every member's box (on its own node, a store; on another, through the network), completes the puts,
 * and syncs: after the barrier every box must hold this round's values, from every member (a member released
 * before every other had arrived reads a stale one, at some round). A second barrier keeps the next round's puts
 * from the boxes until every member has read them. Two teams' barriers interleave (each has its own scratch),
 * and a collective follows them on the same team (its numbering starts over after barriers). */
#include <shmem.h>
#include <stdlib.h>

#include "check.h"

#define ROUNDS 40

static long box[TEST_MAX_PES];
static long psync[2][SHMEM_BARRIER_SYNC_SIZE];
static long src, dst;

static long value(int round, int rank) { return (long)round * 1000 + rank; }

/* One round of a group of n members whose rank r's PE is pe_of(r): `sync` is its barrier. */
#define ROUND(n, rank, pe_of, sync, round)                                                                  \
    do {                                                                                                    \
        for (int j_ = 0; j_ < (n); ++j_) shmem_long_p(&box[rank], value(round, rank), pe_of(j_));           \
        shmem_quiet();                                                                                      \
        sync;                                                                                               \
        for (int j_ = 0; j_ < (n); ++j_)                                                                    \
            CHECK(box[j_] == value(round, j_), "round %d, rank %d of %d: box[%d] is %ld, expected %ld",     \
                  round, rank, n, j_, box[j_], value(round, j_));                                           \
        sync;                                                                                               \
    } while (0)

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    CHECK(npes <= TEST_MAX_PES, "%d PEs: the test's tables hold %d", npes, TEST_MAX_PES);
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) psync[0][i] = psync[1][i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    /* Teams: (start, stride) with every size from 2 up, and the team of all but PE 0 beside the team of all but
     * the last, whose barriers interleave. */
    static const int shapes[][2] = {{0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 1}};
    int groups = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const int start = shapes[s][0], stride = shapes[s][1];
        for (int size = 2; start + (size - 1) * stride < npes; ++size) {
            shmem_team_t t;
            shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t);
            if (t != SHMEM_TEAM_INVALID) {
                const int r = shmem_team_my_pe(t);
                CHECK(r == (me - start) / stride, "team (%d, %d, %d): rank %d", start, stride, size, r);
#define TEAM_PE(j) (start + (j) * stride)
                for (int round = 1; round <= ROUNDS; ++round) ROUND(size, r, TEAM_PE, shmem_team_sync(t), round);
                /* A reduction after the barriers: the team's numbering of its data collectives goes on. */
                src = me + 1;
                shmem_long_sum_reduce(t, &dst, &src, 1);
                long want = 0;
                for (int j = 0; j < size; ++j) want += TEAM_PE(j) + 1;
                CHECK(dst == want, "team (%d, %d, %d): sum %ld, expected %ld", start, stride, size, dst, want);
                shmem_team_destroy(t);
            }
            shmem_barrier_all();
            ++groups;
        }
    }
    if (npes >= 3) {
        shmem_team_t a, b;  /* all but the last PE, all but PE 0 */
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes - 1, NULL, 0, &a);
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0, &b);
        for (int round = 1; round <= ROUNDS; ++round) {
            if (a != SHMEM_TEAM_INVALID) shmem_team_sync(a);
            if (b != SHMEM_TEAM_INVALID) shmem_team_sync(b);
            if (me != 0 && me != npes - 1) {  /* in both: a ring of puts checked through a's and b's barriers */
#define MID_PE(j) (1 + (j))
                ROUND(npes - 2, me - 1, MID_PE, (shmem_team_sync(a), shmem_team_sync(b)), round);
            } else {
                if (a != SHMEM_TEAM_INVALID) shmem_team_sync(a), shmem_team_sync(a);
                if (b != SHMEM_TEAM_INVALID) shmem_team_sync(b), shmem_team_sync(b);
            }
        }
        if (a != SHMEM_TEAM_INVALID) shmem_team_destroy(a);
        if (b != SHMEM_TEAM_INVALID) shmem_team_destroy(b);
        shmem_barrier_all();
    }

    /* Active sets (the deprecated shmem_barrier, pSync the program's): strides 1 and 2 (log 0 and 1), two pSyncs
     * in turn. */
    for (int log = 0; log <= 1; ++log) {
        const int stride = 1 << log;
        for (int start = 0; start <= 1; ++start)
            for (int size = 2; start + (size - 1) * stride < npes; ++size) {
                const int in = me >= start && (me - start) % stride == 0 && (me - start) / stride < size;
                if (in) {
                    const int r = (me - start) / stride;
#define SET_PE(j) (start + (j) * stride)
                    for (int round = 1; round <= ROUNDS; ++round)
                        ROUND(size, r, SET_PE, shmem_barrier(start, log, size, psync[round & 1]), round);
                }
                shmem_barrier_all();
                ++groups;
            }
    }
    if (me == 0) printf("team_barrier: %d groups of %d PEs, %d rounds each: passed\n", groups, npes, ROUNDS);
    shmem_finalize();
    return 0;
}

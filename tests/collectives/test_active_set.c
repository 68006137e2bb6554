/* The deprecated active-set collectives (OpenSHMEM 1.4): shmem_barrier, shmem_sync (4 arguments),
 * broadcast32/64, collect32/64, fcollect32/64, alltoall32/64, alltoalls32/64, and shmem_TYPE_OP_to_all for every
 * type and operation, on the whole machine and on active sets of stride 2 (which exclude PE 0 when they start
 * at 1). After every call, pSync must be back at SHMEM_SYNC_VALUE, so the same pSync serves the next call after a
 * barrier (the 1.4 rule). The root's target is not written by a broadcast (the 1.4 rule). And fcollect, alltoall
 * and collect back to back with a pSync each and no barrier between them. */
#include <complex.h>
#include <string.h>

#include "check.h"

/* Elements per reduction: several chunks of pWrk (max(N/2 + 1, 64) elements; a chunk is a power-of-two share of
 * it, smaller with more PEs): 300 elements, or 100 on a PE of 32 KB, are 2 to 10 chunks of every type. */
#define N TARGET_SIZE(300, 100)

static long pSync[SHMEM_SYNC_SIZE], pSync2[SHMEM_SYNC_SIZE];
/* sources: up to 2 elements per PE (alltoalls32), targets up to 3 (fcollect32, collect64) */
static int32_t s32[TEST_MAX_PES * 2], d32[TEST_MAX_PES * 3];
static int64_t s64[TEST_MAX_PES * 2], d64[TEST_MAX_PES * 3];

/* The reductions' source, dest and pWrk: one set serves every type and operation in turn (they run one after
 * the other), so the static data is that of the largest type, not that of every type (32 KB per PE on
 * Epiphany). */
#define WRK (N / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE)
#define RBUF_LEN (N > WRK ? N : WRK)
#define RBUF_BIT(T, N_) T bit_##N_[RBUF_LEN];
#define RBUF_MINMAX(T, N_) T minmax_##N_[RBUF_LEN];
#define RBUF_ARITH(T, N_) T arith_##N_[RBUF_LEN];
static union {
    SHMEM_TO_ALL_BITWISE_TYPES(RBUF_BIT)
    SHMEM_TO_ALL_MINMAX_TYPES(RBUF_MINMAX)
    SHMEM_TO_ALL_ARITH_TYPES(RBUF_ARITH)
} rsrc, rdst, rwrk;

static void check_psync(const char *what)
{
    for (int i = 0; i < SHMEM_SYNC_SIZE; ++i)
        CHECK(pSync[i] == SHMEM_SYNC_VALUE, "%s: pSync[%d] = %ld after the call", what, i, pSync[i]);
}

/* pSync is checked when nobody can be using it: between two barriers on the other pSync */
#define CHECK_PSYNC(what)                              \
    do {                                               \
        shmem_barrier(start, logs, size, pSync2);      \
        check_psync(what);                             \
        shmem_barrier(start, logs, size, pSync2);      \
    } while (0)

static long rin(int r, int i, int prod) { return prod ? ((r + i) % 4 == 0 ? 2 : 1) : (long)((r * 5 + i) % 7); }

#define TO_ALL(T, N_, TABLE, OP, OPC, PROD)                                                                   \
    {                                                                                                          \
        T *const src = rsrc.TABLE##_##N_, *const dst = rdst.TABLE##_##N_, *const wrk = rwrk.TABLE##_##N_;      \
        for (int i = 0; i < N; ++i) src[i] = (T)rin(ar, i, PROD);                                             \
        shmem_##N_##_##OP##_to_all(dst, src, N, start, logs, size, wrk, pSync);                                \
        for (int i = 0; i < N; ++i) {                                                                          \
            T want = (T)rin(0, i, PROD);                                                                       \
            for (int r = 1; r < size; ++r) want = OPC(want, (T)rin(r, i, PROD));                               \
            CHECK(dst[i] == want, "%s " #N_ "_" #OP "_to_all element %d", what, i);                            \
        }                                                                                                      \
        CHECK_PSYNC(#N_ "_" #OP "_to_all");                                                                    \
    }
#define C_AND(a, b) ((a) & (b))
#define C_OR(a, b) ((a) | (b))
#define C_XOR(a, b) ((a) ^ (b))
#define C_MAX(a, b) ((a) < (b) ? (b) : (a))
#define C_MIN(a, b) ((b) < (a) ? (b) : (a))
#define C_SUM(a, b) ((a) + (b))
#define C_PROD(a, b) ((a) * (b))
#define BITWISE_(T, N_) \
    TO_ALL(T, N_, bit, and, C_AND, 0) TO_ALL(T, N_, bit, or, C_OR, 0) TO_ALL(T, N_, bit, xor, C_XOR, 0)
#define MINMAX_(T, N_) TO_ALL(T, N_, minmax, max, C_MAX, 0) TO_ALL(T, N_, minmax, min, C_MIN, 0)
#define ARITH_(T, N_) TO_ALL(T, N_, arith, sum, C_SUM, 0) TO_ALL(T, N_, arith, prod, C_PROD, 1)

static void on_set(int start, int logs, int size, const char *what)
{
    const int me = shmem_my_pe(), stride = 1 << logs;
    if (me < start || (me - start) % stride != 0 || (me - start) / stride >= size) return;
    const int ar = (me - start) / stride; /* rank in the active set */

    for (int round = 0; round < 3; ++round) {
        shmem_barrier(start, logs, size, pSync);
        CHECK_PSYNC("barrier");
        shmem_sync(start, logs, size, pSync);
        CHECK_PSYNC("sync");
    }

    for (int root = 0; root < size; ++root) {
        for (int i = 0; i < 4; ++i) s64[i] = ar * 100 + i;
        for (int i = 0; i < 4; ++i) d64[i] = -5;
        shmem_barrier(start, logs, size, pSync2);
        shmem_broadcast64(d64, s64, 4, root, start, logs, size, pSync);
        for (int i = 0; i < 4; ++i)
            CHECK(d64[i] == (ar == root ? -5 : root * 100 + i), "%s broadcast64 root %d elt %d", what, root, i);
        CHECK_PSYNC("broadcast64");
        for (int i = 0; i < 4; ++i) s32[i] = ar * 100 + i + 1;
        shmem_barrier(start, logs, size, pSync2);
        shmem_broadcast32(d32, s32, 4, root, start, logs, size, pSync);
        if (ar != root)
            for (int i = 0; i < 4; ++i) CHECK(d32[i] == root * 100 + i + 1, "%s broadcast32", what);
        CHECK_PSYNC("broadcast32");
    }

    shmem_barrier(start, logs, size, pSync2);
    for (int i = 0; i < 3; ++i) s32[i] = ar * 10 + i;
    shmem_fcollect32(d32, s32, 3, start, logs, size, pSync);
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < 3; ++i) CHECK(d32[r * 3 + i] == r * 10 + i, "%s fcollect32", what);
    CHECK_PSYNC("fcollect32");
    shmem_barrier(start, logs, size, pSync2);
    for (int i = 0; i < ar % 3 + 1; ++i) s64[i] = ar * 10 + i;
    shmem_collect64(d64, s64, (size_t)(ar % 3 + 1), start, logs, size, pSync);
    int k = 0;
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < r % 3 + 1; ++i, ++k) CHECK(d64[k] == r * 10 + i, "%s collect64 %d", what, k);
    CHECK_PSYNC("collect64");
    shmem_barrier(start, logs, size, pSync2);
    for (int i = 0; i < 2; ++i) s64[i] = ar * 10 + i;
    shmem_fcollect64(d64, s64, 2, start, logs, size, pSync);
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < 2; ++i) CHECK(d64[r * 2 + i] == r * 10 + i, "%s fcollect64", what);
    shmem_barrier(start, logs, size, pSync2);
    shmem_collect32(d32, s32, 1, start, logs, size, pSync);
    for (int r = 0; r < size; ++r) CHECK(d32[r] == r * 10, "%s collect32", what);
    CHECK_PSYNC("collect32");

    shmem_barrier(start, logs, size, pSync2);
    for (int j = 0; j < size; ++j) s64[j] = ar * 1000 + j;
    shmem_alltoall64(d64, s64, 1, start, logs, size, pSync);
    for (int r = 0; r < size; ++r) CHECK(d64[r] == r * 1000 + ar, "%s alltoall64", what);
    shmem_barrier(start, logs, size, pSync2);
    for (int j = 0; j < size; ++j) s32[j] = ar * 1000 + j;
    shmem_alltoall32(d32, s32, 1, start, logs, size, pSync);
    for (int r = 0; r < size; ++r) CHECK(d32[r] == r * 1000 + ar, "%s alltoall32", what);
    shmem_barrier(start, logs, size, pSync2);
    memset(d32, 0, sizeof d32);
    shmem_barrier(start, logs, size, pSync2);
    for (int j = 0; j < size; ++j) s32[j * 2] = ar * 1000 + j;
    shmem_alltoalls32(d32, s32, 3, 2, 1, start, logs, size, pSync);
    for (int r = 0; r < size; ++r) CHECK(d32[r * 3] == r * 1000 + ar, "%s alltoalls32", what);
    shmem_barrier(start, logs, size, pSync2);
    for (int j = 0; j < size; ++j) s64[j] = ar * 1000 + j;
    shmem_alltoalls64(d64, s64, 1, 1, 1, start, logs, size, pSync);
    for (int r = 0; r < size; ++r) CHECK(d64[r] == r * 1000 + ar, "%s alltoalls64", what);
    CHECK_PSYNC("alltoalls");
    shmem_barrier(start, logs, size, pSync2);

    SHMEM_TO_ALL_BITWISE_TYPES(BITWISE_)
    SHMEM_TO_ALL_MINMAX_TYPES(MINMAX_)
    SHMEM_TO_ALL_ARITH_TYPES(ARITH_)
}

/* Each routine with a pSync of exactly its SHMEM_<ROUTINE>_SYNC_SIZE longs, and a reduction with a pWrk of exactly
 * max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements, each followed by a guard word that must stay as it
 * was: the library uses no more than the header promises (Epiphany sizes them tightly). */
#define GUARD 0x5a5a5a5aL
#define EXACT(NAME, SIZE) static struct { long sync[SIZE]; long guard; } NAME
EXACT(xbarrier, SHMEM_BARRIER_SYNC_SIZE);
EXACT(xbcast, SHMEM_BCAST_SYNC_SIZE);
EXACT(xcollect, SHMEM_COLLECT_SYNC_SIZE);
EXACT(xreduce, SHMEM_REDUCE_SYNC_SIZE);
EXACT(xalltoall, SHMEM_ALLTOALL_SYNC_SIZE);
EXACT(xalltoalls, SHMEM_ALLTOALLS_SYNC_SIZE);
#define XN 40 /* a reduction of 40 longs: pWrk of max(21, MIN) */
#define XWRK (XN / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? XN / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE)
static struct { long wrk[XWRK]; long guard; } xwrk;
static long xsrc[XN], xdst[XN];

static void exact_sizes(int n)
{
    const int me = shmem_my_pe();
#define XINIT(NAME)                                                                         \
    for (size_t i = 0; i < sizeof NAME.sync / sizeof NAME.sync[0]; ++i) NAME.sync[i] = SHMEM_SYNC_VALUE; \
    NAME.guard = GUARD
    XINIT(xbarrier); XINIT(xbcast); XINIT(xcollect); XINIT(xreduce); XINIT(xalltoall); XINIT(xalltoalls);
    xwrk.guard = GUARD;
    for (int i = 0; i < XN; ++i) xsrc[i] = me + i;
    shmem_barrier_all();
    shmem_barrier(0, 0, n, xbarrier.sync);
    s64[0] = 1000 + me;
    shmem_broadcast64(d64, s64, 1, 0, 0, 0, n, xbcast.sync);
    if (me != 0) CHECK(d64[0] == 1000, "broadcast64 with an exact pSync: %ld", (long)d64[0]);
    shmem_barrier(0, 0, n, xbarrier.sync);
    shmem_fcollect64(d64, s64, 1, 0, 0, n, xcollect.sync);
    for (int r = 0; r < n; ++r) CHECK(d64[r] == 1000 + r, "fcollect64 with an exact pSync: [%d] = %ld", r, (long)d64[r]);
    shmem_barrier(0, 0, n, xbarrier.sync);
    shmem_collect64(d64, s64, 1, 0, 0, n, xcollect.sync);
    for (int r = 0; r < n; ++r) CHECK(d64[r] == 1000 + r, "collect64 with an exact pSync: [%d] = %ld", r, (long)d64[r]);
    shmem_long_sum_to_all(xdst, xsrc, XN, 0, 0, n, xwrk.wrk, xreduce.sync);
    for (int i = 0; i < XN; ++i)
        CHECK(xdst[i] == (long)n * (n - 1) / 2 + (long)n * i, "sum_to_all with an exact pSync and pWrk: [%d] = %ld", i, xdst[i]);
    for (int r = 0; r < n; ++r) s64[r] = 100 * me + r;
    shmem_barrier(0, 0, n, xbarrier.sync);
    shmem_alltoall64(d64, s64, 1, 0, 0, n, xalltoall.sync);
    for (int r = 0; r < n; ++r) CHECK(d64[r] == 100 * r + me, "alltoall64 with an exact pSync: [%d] = %ld", r, (long)d64[r]);
    shmem_barrier(0, 0, n, xbarrier.sync);
    shmem_alltoalls64(d64, s64, 1, 1, 1, 0, 0, n, xalltoalls.sync);
    for (int r = 0; r < n; ++r) CHECK(d64[r] == 100 * r + me, "alltoalls64 with an exact pSync: [%d] = %ld", r, (long)d64[r]);
    shmem_barrier_all();
    CHECK(xbarrier.guard == GUARD && xbcast.guard == GUARD && xcollect.guard == GUARD && xreduce.guard == GUARD &&
              xalltoall.guard == GUARD && xalltoalls.guard == GUARD && xwrk.guard == GUARD,
          "a word after a pSync or pWrk was written: %lx %lx %lx %lx %lx %lx %lx", xbarrier.guard, xbcast.guard,
          xcollect.guard, xreduce.guard, xalltoall.guard, xalltoalls.guard, xwrk.guard);
}

/* Back to back, each with a pSync of its own and a barrier only between rounds (each pSync is used once a round):
 * as 1.4 allows, a PE that leaves one may already write into the next one's dest and pSync at a PE that is still in
 * the first. Each dest is checked as its call returns. */
static long bb_sync[3][SHMEM_COLLECT_SYNC_SIZE], bb_bar[SHMEM_BARRIER_SYNC_SIZE];
static int64_t bb_fsrc[2], bb_asrc[2][TEST_MAX_PES], bb_csrc[2][2];
static int64_t bb_f[2][TEST_MAX_PES], bb_a[2][TEST_MAX_PES], bb_c[2][TEST_MAX_PES * 2];

static void back_to_back(int n)
{
    const int me = shmem_my_pe();
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; ++i) bb_sync[k][i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) bb_bar[i] = SHMEM_SYNC_VALUE;
    for (int k = 0; k < 2; ++k) {
        bb_fsrc[k] = 10 * me + k;
        for (int r = 0; r < n; ++r) bb_asrc[k][r] = 1000 * me + 10 * r + k;
        bb_csrc[k][0] = bb_csrc[k][1] = 7 * me + k;
    }
    shmem_barrier_all();
    for (int k = 0; k < 2; ++k) {
        shmem_fcollect64(bb_f[k], &bb_fsrc[k], 1, 0, 0, n, bb_sync[0]);
        for (int r = 0; r < n; ++r)
            CHECK(bb_f[k][r] == 10 * r + k, "back to back %d: fcollect64 [%d] = %ld", k, r, (long)bb_f[k][r]);
        shmem_alltoall64(bb_a[k], bb_asrc[k], 1, 0, 0, n, bb_sync[1]);
        for (int r = 0; r < n; ++r)
            CHECK(bb_a[k][r] == 1000 * r + 10 * me + k, "back to back %d: alltoall64 [%d] = %ld", k, r,
                  (long)bb_a[k][r]);
        /* rank r brings 1 element if r is even, 2 if odd */
        shmem_collect64(bb_c[k], bb_csrc[k], 1 + (me & 1), 0, 0, n, bb_sync[2]);
        for (int r = 0, at = 0; r < n; at += 1 + (r & 1), ++r)
            for (int i = 0; i < 1 + (r & 1); ++i)
                CHECK(bb_c[k][at + i] == 7 * r + k, "back to back %d: collect64 [%d] = %ld", k, at + i,
                      (long)bb_c[k][at + i]);
        shmem_barrier(0, 0, n, bb_bar);
    }
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; ++i)
            CHECK(bb_sync[k][i] == SHMEM_SYNC_VALUE, "back to back: pSync %d [%d] = %ld after the calls", k, i,
                  bb_sync[k][i]);
}

int main(void)
{
    shmem_init();
    const int n = shmem_n_pes();
    CHECK(n <= TEST_MAX_PES, "the collective buffers hold %d PEs", TEST_MAX_PES);
    for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) pSync[i] = pSync2[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    on_set(0, 0, n, "world");
    shmem_barrier_all();
    if (n > 1) on_set(1, 1, n / 2, "odd PEs");
    shmem_barrier_all();
    on_set(0, 1, (n + 1) / 2, "even PEs");
    shmem_barrier_all();
    exact_sizes(n);
    back_to_back(n);
    if (shmem_my_pe() == 0) printf("active-set collectives: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

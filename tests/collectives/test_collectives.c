/* Team-based collectives on several teams (the world, the even PEs, the odd PEs (no PE 0), every third PE, and
 * the rows of a 2D split): broadcast from every root, collect with uneven counts, fcollect, alltoall,
 * alltoalls, and every reduction for every type the specification lists, with lengths that cross the chunk
 * size of the work area (Epiphany's sweep) and, in place and not, take the reduce-scatter path where a port has
 * it (from 256 bytes a PE: 600 longs up to 18 PEs, 600 complex doubles up to 37, with slices that do not divide
 * evenly), and small ones of whole words and not. Every element on every PE is compared with a serial
 * computation. */
#include <complex.h>
#include <string.h>

#include "check.h"

/* Elements per reduction: several chunks of the team's work area. The area is SHMEM_TEAM_WORK_UNIT bytes per
 * round (256 by default, 64 on Epiphany) and a chunk is a power-of-two share of it, smaller with more PEs:
 * 600 elements, or 150 with the 64-byte unit, are several chunks of most types at every PE count (on Epiphany
 * at 16 PEs: 3 chunks of chars, 38 of complex doubles). */
#define MAXN (600 * SHMEM_TEAM_WORK_UNIT / 256)
#define BLK 13 /* elements per block */
/* Block collectives: up to BLK elements from every PE (collect: at most 3, alltoalls: 6 strided ones) */
#define SLOTS (TEST_MAX_PES * BLK)

static long lsrc[MAXN], ldst[SLOTS];
static int isrc[SLOTS], idst[SLOTS];

/* The reductions' source and dest: one pair serves every type and operation in turn (they run one after the
 * other), so the static data is that of the largest type, not that of every type (32 KB per PE on Epiphany). */
#define RBUF_BIT(T, N) T bit_##N[MAXN];
#define RBUF_MINMAX(T, N) T minmax_##N[MAXN];
#define RBUF_ARITH(T, N) T arith_##N[MAXN];
static union {
    SHMEM_REDUCE_BITWISE_TYPES(RBUF_BIT)
    SHMEM_REDUCE_MINMAX_TYPES(RBUF_MINMAX)
    SHMEM_REDUCE_ARITH_TYPES(RBUF_ARITH)
} rsrc, rdst;

/* input of reduction element i on team PE r: small values, so sums and products are exact in every type */
static long rin(int r, int i, int op) { return op == 1 ? ((r + i) % 5 == 0 ? 2 : 1) : (long)((r * 7 + i * 3) % 11); }

#define REDUCE_TEST(T, N, TABLE, OP, OPC, ISPROD)                                                              \
    {                                                                                                          \
        T *const src = rsrc.TABLE##_##N, *const dst = rdst.TABLE##_##N;                                        \
        const int lens[] = {1, 37, MAXN};                                                                      \
        for (int li = 0; li < 3; ++li) {                                                                       \
            const int len = lens[li];                                                                          \
            for (int i = 0; i < len; ++i) src[i] = (T)rin(tme, i, ISPROD);                                     \
            for (int i = 0; i < len; ++i) dst[i] = (T)77;                                                      \
            shmem_team_sync(t); /* nobody writes into a dest before its owner has set it */                     \
            CHECK(shmem_##N##_##OP##_reduce(t, dst, src, (size_t)len) == 0, #N "_" #OP "_reduce");            \
            for (int i = 0; i < len; ++i) {                                                                    \
                T want = (T)rin(0, i, ISPROD);                                                                 \
                for (int r = 1; r < tn; ++r) want = OPC(want, (T)rin(r, i, ISPROD));                           \
                CHECK(dst[i] == want, "%s: " #N "_" #OP "_reduce len %d element %d", what, len, i);            \
            }                                                                                                  \
            /* in place */                                                                                     \
            for (int i = 0; i < len; ++i) src[i] = (T)rin(tme, i, ISPROD);                                     \
            shmem_##N##_##OP##_reduce(t, src, src, (size_t)len);                                               \
            for (int i = 0; i < len; ++i) CHECK(src[i] == dst[i], "%s: in-place " #N "_" #OP, what);           \
        }                                                                                                      \
    }
#define C_AND(a, b) ((a) & (b))
#define C_OR(a, b) ((a) | (b))
#define C_XOR(a, b) ((a) ^ (b))
#define C_MAX(a, b) ((a) < (b) ? (b) : (a))
#define C_MIN(a, b) ((b) < (a) ? (b) : (a))
#define C_SUM(a, b) ((a) + (b))
#define C_PROD(a, b) ((a) * (b))
#define BITWISE_(T, N) \
    REDUCE_TEST(T, N, bit, and, C_AND, 0) REDUCE_TEST(T, N, bit, or, C_OR, 0) REDUCE_TEST(T, N, bit, xor, C_XOR, 0)
#define MINMAX_(T, N) REDUCE_TEST(T, N, minmax, max, C_MAX, 0) REDUCE_TEST(T, N, minmax, min, C_MIN, 0)
#define ARITH_(T, N) REDUCE_TEST(T, N, arith, sum, C_SUM, 0) REDUCE_TEST(T, N, arith, prod, C_PROD, 1)

static void reductions(shmem_team_t t, const char *what)
{
    const int tme = shmem_team_my_pe(t), tn = shmem_team_n_pes(t);
    SHMEM_REDUCE_BITWISE_TYPES(BITWISE_)
    SHMEM_REDUCE_MINMAX_TYPES(MINMAX_)
    SHMEM_REDUCE_ARITH_TYPES(ARITH_)
}

/* Small reductions whose sources are symmetric arrays of their own, of whole words and not (the specification asks
 * for a symmetric source, and the checked builds refuse any other: tests/negative/coll_source.c). */
static long ls[5];
static int is[3];
static unsigned char cs[3];
static void small_sources(shmem_team_t t, const char *what)
{
    const int tme = shmem_team_my_pe(t), tn = shmem_team_n_pes(t);
    for (int i = 0; i < 5; ++i) ls[i] = rin(tme, i, 0);
    for (int i = 0; i < 3; ++i) is[i] = (int)rin(tme, i + 5, 0);
    for (int i = 0; i < 3; ++i) cs[i] = (unsigned char)(rin(tme, i, 0) << (tme % 4));
    long *const ld = rdst.arith_long;
    int *const id = rdst.arith_int;
    unsigned char *const cd = rdst.bit_uchar;
    shmem_team_sync(t);
    CHECK(shmem_long_sum_reduce(t, ld, ls, 5) == 0, "long_sum_reduce, small source");
    for (int i = 0; i < 5; ++i) {
        long want = 0;
        for (int r = 0; r < tn; ++r) want += rin(r, i, 0);
        CHECK(ld[i] == want, "%s: long_sum_reduce of a small source, element %d: %ld, expected %ld", what, i,
              ld[i], want);
    }
    shmem_team_sync(t);
    CHECK(shmem_int_sum_reduce(t, id, is, 3) == 0, "int_sum_reduce, small source");
    for (int i = 0; i < 3; ++i) {
        int want = 0;
        for (int r = 0; r < tn; ++r) want += (int)rin(r, i + 5, 0);
        CHECK(id[i] == want, "%s: int_sum_reduce of a small source, element %d: %d, expected %d", what, i, id[i],
              want);
    }
    shmem_team_sync(t);
    CHECK(shmem_uchar_xor_reduce(t, cd, cs, 3) == 0, "uchar_xor_reduce, small source");
    for (int i = 0; i < 3; ++i) {
        unsigned char want = 0;
        for (int r = 0; r < tn; ++r) want ^= (unsigned char)(rin(r, i, 0) << (r % 4));
        CHECK(cd[i] == want, "%s: uchar_xor_reduce of a small source, element %d: %d, expected %d", what, i,
              cd[i], want);
    }
    shmem_team_sync(t); /* the dests are the next test's */
}

static void data_movement(shmem_team_t t, const char *what)
{
    const int tme = shmem_team_my_pe(t), tn = shmem_team_n_pes(t);
    /* broadcast from every root; the root's dest is filled too (1.5) */
    for (int root = 0; root < tn; ++root) {
        for (int i = 0; i < BLK; ++i) lsrc[i] = tme * 1000 + i;
        for (int i = 0; i < BLK + 1; ++i) ldst[i] = -1;
        shmem_team_sync(t); /* nobody writes into a dest before its owner has set it */
        CHECK(shmem_long_broadcast(t, ldst, lsrc, BLK, root) == 0, "broadcast");
        for (int i = 0; i < BLK; ++i) CHECK(ldst[i] == root * 1000 + i, "%s: broadcast root %d elt %d", what, root, i);
        CHECK(ldst[BLK] == -1, "%s: broadcast wrote past the end", what);
    }
    shmem_team_sync(t); /* the previous result has been checked everywhere before it is overwritten */
    /* fcollect */
    for (int i = 0; i < BLK; ++i) isrc[i] = tme * 100 + i;
    shmem_int_fcollect(t, idst, isrc, BLK);
    for (int r = 0; r < tn; ++r)
        for (int i = 0; i < BLK; ++i) CHECK(idst[r * BLK + i] == r * 100 + i, "%s: fcollect %d/%d", what, r, i);
    shmem_team_sync(t); /* the previous result has been checked everywhere before it is overwritten */
    /* collect: team PE r contributes r % 3 + 1 elements (and PE 1 none at all) */
    const int mine = tme == 1 ? 0 : tme % 3 + 1;
    for (int i = 0; i < mine; ++i) lsrc[i] = tme * 10 + i;
    shmem_long_collect(t, ldst, lsrc, (size_t)mine);
    int k = 0;
    for (int r = 0; r < tn; ++r)
        for (int i = 0; i < (r == 1 ? 0 : r % 3 + 1); ++i, ++k) CHECK(ldst[k] == r * 10 + i, "%s: collect %d", what, k);
    shmem_team_sync(t); /* the previous result has been checked everywhere before it is overwritten */
    /* alltoall: block j of PE r holds r*1000 + j*10 + i */
    for (int j = 0; j < tn; ++j)
        for (int i = 0; i < BLK; ++i) isrc[j * BLK + i] = tme * 1000 + j * 10 + i;
    shmem_int_alltoall(t, idst, isrc, BLK);
    for (int r = 0; r < tn; ++r)
        for (int i = 0; i < BLK; ++i)
            CHECK(idst[r * BLK + i] == r * 1000 + tme * 10 + i, "%s: alltoall from %d elt %d", what, r, i);
    /* alltoalls: 2 elements per block, source stride 3, dest stride 2 */
    memset(idst, 0, sizeof idst);
    shmem_team_sync(t);
    for (int j = 0; j < tn; ++j)
        for (int e = 0; e < 2; ++e) isrc[(j * 2 + e) * 3] = tme * 1000 + j * 10 + e;
    shmem_int_alltoalls(t, idst, isrc, 2, 3, 2);
    for (int r = 0; r < tn; ++r)
        for (int e = 0; e < 2; ++e) {
            CHECK(idst[(r * 2 + e) * 2] == r * 1000 + tme * 10 + e, "%s: alltoalls from %d elt %d", what, r, e);
            CHECK(idst[(r * 2 + e) * 2 + 1] == 0, "%s: alltoalls wrote between strides", what);
        }
    /* mem forms */
    static char cs8[8];
    for (int i = 0; i < 8; ++i) cs8[i] = (char)(tme + i);
    static char csym[8 * TEST_MAX_PES];
    shmem_team_sync(t); /* the previous result has been checked everywhere before it is overwritten */
    shmem_fcollectmem(t, csym, cs8, 8);
    for (int r = 0; r < tn; ++r)
        for (int i = 0; i < 8; ++i) CHECK(csym[r * 8 + i] == (char)(r + i), "%s: fcollectmem", what);
    shmem_team_sync(t); /* the previous result has been checked everywhere before it is overwritten */
    shmem_broadcastmem(t, csym, cs8, 8, tn - 1);
    for (int i = 0; i < 8; ++i) CHECK(csym[i] == (char)(tn - 1 + i), "%s: broadcastmem", what);
    CHECK(shmem_team_sync(t) == 0, "sync");
}

static void on_team(shmem_team_t t, const char *what, int full)
{
    if (t == SHMEM_TEAM_INVALID) return;
    data_movement(t, what);
    if (full) reductions(t, what);
    small_sources(t, what);
}

/* A strided team of the world, its collectives, and its end. */
static void on_split(int start, int stride, int size, const char *what, int full)
{
    shmem_team_t t;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t) == 0, "split %s", what);
    on_team(t, what, full);
    shmem_team_destroy(t);
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n <= TEST_MAX_PES, "the block buffers hold %d PEs", TEST_MAX_PES);
    on_team(SHMEM_TEAM_WORLD, "world", 1);
    /* One team after the other (the 2D split's two at once): a build may have only two teams besides the
     * predefined ones (SHMEM_MAX_TEAMS is 4 on Epiphany), and every new team reuses a freed slot. */
    on_split(0, 2, (n + 1) / 2, "evens", 0);
    if (n > 1) on_split(1, 2, n / 2, "odds", 1); /* no PE 0 */
    on_split(0, 3, (n + 2) / 3, "thirds", 0);
    shmem_team_t xt, yt;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &xt, NULL, 0, &yt) == 0, "split_2d");
    on_team(xt, "rows", 0);
    on_team(yt, "columns", 0);
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);
    if (me == 0) printf("collectives: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

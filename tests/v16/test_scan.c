/* OpenSHMEM 1.6 scans, shmem_TYPENAME_sum_inscan and _sum_exscan, for every type of the sum reduction, on several
 * teams (the world, the even PEs, the world in reverse order, the odd PEs in reverse order: a negative stride),
 * in place and into a separate dest, with lengths from one element to many chunks of the team's work area. Every
 * element on every PE is compared with the same sums computed serially, in team order, in the type. */
#include <complex.h>
#include <string.h>

#include "check.h"

/* Elements per scan: more bytes than a team's work area even for chars (the area is ceil(log2 max PEs) x
 * SHMEM_TEAM_WORK_UNIT bytes: 2304 on virt-rv64, 256 on Epiphany), so every type goes through several chunks. */
#define MAXN TARGET_SIZE(2500, 260)

#define SBUF(T, N) T N##_[MAXN + 1];
static union { SHMEM_REDUCE_ARITH_TYPES(SBUF) } src_buf, dst_buf;

/* input of element i on team PE r: small numbers, so floating-point sums are exact; integer sums may wrap in the
 * narrow types, the same way on both sides */
static int in(int r, int i) { return (r * 7 + i * 3) % 11; }

#define GUARD 99
#define TEST_TYPE(T, N)                                                                                        \
    static void test_##N(shmem_team_t t, const char *what)                                                     \
    {                                                                                                          \
        const int tme = shmem_team_my_pe(t);                                                                   \
        T *const s = src_buf.N##_, *const d = dst_buf.N##_;                                                    \
        const int lens[] = {1, 37, MAXN};                                                                      \
        for (int li = 0; li < 3; ++li) {                                                                       \
            const int len = lens[li];                                                                          \
            for (int ex = 0; ex < 2; ++ex)                                                                     \
                for (int in_place = 0; in_place < 2; ++in_place) {                                             \
                    T *const out = in_place ? s : d;                                                           \
                    for (int i = 0; i <= MAXN; ++i) s[i] = (T)in(tme, i);                                      \
                    for (int i = 0; i <= MAXN; ++i) d[i] = (T)GUARD;                                           \
                    /* no synchronization first: the routine must wait for every source itself */              \
                    const int rc = ex ? shmem_##N##_sum_exscan(t, out, s, (size_t)len)                         \
                                      : shmem_##N##_sum_inscan(t, out, s, (size_t)len);                        \
                    CHECK(rc == 0, "%s: " #N " scan returned %d", what, rc);                                   \
                    for (int i = 0; i < len; ++i) {                                                            \
                        T want = (T)0;                                                                         \
                        const int last = ex ? tme - 1 : tme;                                                   \
                        if (last >= 0) {                                                                       \
                            want = (T)in(0, i);                                                                \
                            for (int r = 1; r <= last; ++r) want = (T)(want + (T)in(r, i));                    \
                        }                                                                                      \
                        CHECK(out[i] == want, "%s: " #N "_sum_%s len %d%s element %d", what,                   \
                              ex ? "exscan" : "inscan", len, in_place ? " in place" : "", i);                  \
                    }                                                                                          \
                    /* beyond len: untouched; a separate source: unchanged */                                  \
                    CHECK(out[len] == (in_place ? (T)in(tme, len) : (T)GUARD), "%s: " #N " wrote past len",   \
                          what);                                                                               \
                    if (!in_place)                                                                             \
                        for (int i = 0; i < len; ++i) CHECK(s[i] == (T)in(tme, i), "%s: " #N " source", what); \
                    /* the next round rewrites source and dest: nobody may still read them */                  \
                    shmem_team_sync(t);                                                                        \
                }                                                                                              \
        }                                                                                                      \
    }
SHMEM_REDUCE_ARITH_TYPES(TEST_TYPE)

static void test_team(shmem_team_t t, const char *what)
{
    if (t == SHMEM_TEAM_INVALID) return;
#define RUN(T, N) test_##N(t, what);
    SHMEM_REDUCE_ARITH_TYPES(RUN)
#undef RUN
}

/* The generic names, and the use the specification's example makes of exscan: where each PE's variable-sized
 * contribution goes in a concatenation (the offsets of a collect). */
static long counts[1], offsets[1], ends[1];
static double dsrc[3], ddst[3];
static void test_generic_and_offsets(void)
{
    const int me = shmem_my_pe();
    counts[0] = me % 3 + 1;
    CHECK(shmem_sum_exscan(SHMEM_TEAM_WORLD, offsets, counts, 1) == 0, "generic exscan");
    CHECK(shmem_sum_inscan(SHMEM_TEAM_WORLD, ends, counts, 1) == 0, "generic inscan");
    long want = 0;
    for (int r = 0; r < me; ++r) want += r % 3 + 1;
    CHECK(offsets[0] == want, "offset %ld, expected %ld", offsets[0], want);
    CHECK(ends[0] == want + counts[0], "end %ld, expected %ld", ends[0], want + counts[0]);
    for (int i = 0; i < 3; ++i) dsrc[i] = 0.5 * (me + i);
    shmem_sync_all();
    CHECK(shmem_sum_inscan(SHMEM_TEAM_WORLD, ddst, dsrc, 3) == 0, "generic double inscan");
    for (int i = 0; i < 3; ++i) {
        double w = 0;
        for (int r = 0; r <= me; ++r) w += 0.5 * (r + i);
        CHECK(ddst[i] == w, "generic double inscan element %d: %f, expected %f", i, ddst[i], w);
    }
    /* nothing to add up: any pointers */
    CHECK(shmem_int_sum_inscan(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length inscan");
    CHECK(shmem_double_sum_exscan(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length exscan");
    shmem_sync_all();
}

int main(void)
{
    shmem_init();
    const int n = shmem_n_pes();
    test_team(SHMEM_TEAM_WORLD, "world");
    shmem_team_t evens, reverse, odds_down;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &evens) == 0, "evens");
    test_team(evens, "evens");
    shmem_team_destroy(evens);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &reverse) == 0, "reverse");
    test_team(reverse, "reverse");
    shmem_team_destroy(reverse);
    if (n >= 2) {
        const int top = (n - 1) % 2 == 1 ? n - 1 : n - 2; /* the highest odd PE */
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, top, -2, n / 2, NULL, 0, &odds_down) == 0, "odds");
        test_team(odds_down, "odds down");
        shmem_team_destroy(odds_down);
    }
    test_generic_and_offsets();
    shmem_finalize();
    return 0;
}

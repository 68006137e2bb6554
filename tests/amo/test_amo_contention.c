/* AMOs under contention: every PE hammers one word on one PE (and on every PE in turn).
 *  - fetch_inc: the fetched values of all PEs are a permutation of 0 .. n*K-1 (each seen exactly once), for every
 *    standard AMO type, plain, _nbi (completed by shmem_quiet) and through a context;
 *  - fetch_add / add / inc: exact totals, and each PE's fetched values strictly increase;
 *  - compare_swap: exactly one winner per round, and every loser fetched the winner's value;
 *  - swap chains (integer, float, double): the fetched values and the final value are the initial value and
 *    every swapped-in value, each exactly once;
 *  - and / or / xor: each PE owns one bit of a shared word and sees its own bit as it left it.
 * Fetched values are collected on PE 0 with puts and checked there. */
#include "check.h"

#define K 48               /* operations per PE per round */
#define MAX_PES 64         /* the bit test uses one 64-bit word */
#define MAX_VALUES (MAX_PES * K + 1)

static long collected[MAX_VALUES]; /* on PE 0: every PE's fetched values, PE p's at [p * K, p * K + K) */
static unsigned char seen[MAX_VALUES];

/* PE 0: are collected[0 .. count) exactly the numbers 0 .. count-1 (each once)? */
static void check_permutation(int count, const char *what)
{
    if (shmem_my_pe() != 0) return;
    for (int i = 0; i < count; ++i) seen[i] = 0;
    for (int i = 0; i < count; ++i) {
        const long v = collected[i];
        CHECK(v >= 0 && v < count, "%s: value %ld out of range (PE %d, op %d)", what, v, i / K, i % K);
        CHECK(!seen[v], "%s: value %ld fetched twice", what, v);
        seen[v] = 1;
    }
}

/* Put my K fetched values (as longs) into collected[] on PE 0 and wait for everybody's. */
static void collect(const long *mine)
{
    shmem_long_put(&collected[shmem_my_pe() * K], mine, K, 0);
    shmem_barrier_all();
}

/* ---- fetch_inc: a permutation, for every standard AMO type ------------------------------------------------- */
#define FETCH_INC(T, N)                                                                        \
    static T fi_##N;                                                                           \
    static void fetch_inc_##N(int target, int form, shmem_ctx_t ctx)                           \
    {                                                                                          \
        const int n = shmem_n_pes();                                                           \
        T got[K];                                                                              \
        long mine[K];                                                                          \
        fi_##N = 0;                                                                            \
        shmem_barrier_all();                                                                   \
        for (int i = 0; i < K; ++i) {                                                          \
            if (form == 0) got[i] = shmem_##N##_atomic_fetch_inc(&fi_##N, target);             \
            if (form == 1) shmem_##N##_atomic_fetch_inc_nbi(&got[i], &fi_##N, target);         \
            if (form == 2) got[i] = shmem_ctx_##N##_atomic_fetch_inc(ctx, &fi_##N, target);    \
        }                                                                                      \
        if (form == 1) shmem_quiet();                                                          \
        for (int i = 0; i < K; ++i) {                                                          \
            mine[i] = (long)got[i];                                                            \
            CHECK(i == 0 || got[i] > got[i - 1], #N " fetch_inc not increasing");              \
        }                                                                                      \
        collect(mine);                                                                         \
        check_permutation(n * K, #N "_atomic_fetch_inc");                                      \
        CHECK(shmem_##N##_atomic_fetch(&fi_##N, target) == (T)(n * K), #N " fetch_inc total"); \
        shmem_barrier_all();                                                                   \
    }
SHMEM_AMO_STANDARD_TYPES(FETCH_INC)

/* ---- fetch_add, add, inc: totals ---------------------------------------------------------------------------- */
static long sum_word;
static unsigned int sum_uint;
static void adds(int target)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    sum_word = 0;
    sum_uint = 0;
    shmem_barrier_all();
    long last = -1;
    for (int i = 0; i < K; ++i) {
        long v = shmem_long_atomic_fetch_add(&sum_word, me + 1, target);
        CHECK(v > last, "fetch_add not increasing");
        last = v;
        shmem_long_atomic_add(&sum_word, 2 * (me + 1), target);
        shmem_long_atomic_inc(&sum_word, target);
        shmem_uint_atomic_add(&sum_uint, 0x10000000u, target); /* wraps: 16 per wrap */
    }
    shmem_barrier_all();
    const long each = (long)K * n * (n + 1) / 2;
    CHECK(shmem_long_atomic_fetch(&sum_word, target) == 3 * each + (long)K * n, "fetch_add/add/inc total");
    CHECK(shmem_uint_atomic_fetch(&sum_uint, target) == (unsigned)(0x10000000ull * K * n), "uint add total");
    shmem_barrier_all();
}

/* ---- compare_swap: one winner per round --------------------------------------------------------------------- */
static long cs_word;
static int winners[K];
static void compare_swap_rounds(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    cs_word = 0;
    for (int r = 0; r < K; ++r) winners[r] = 0;
    shmem_barrier_all();
    for (int r = 0; r < K; ++r) {
        const int t = r % n;
        /* every PE reads the same value: nobody writes it before the barrier */
        const long cur = shmem_long_atomic_fetch(&cs_word, t);
        shmem_barrier_all();
        const long mine = (long)(r + 1) * 1000 + me;
        const long old = shmem_long_atomic_compare_swap(&cs_word, cur, mine, t);
        if (old == cur) shmem_int_atomic_inc(&winners[r], 0);
        shmem_barrier_all();
        const long now = shmem_long_atomic_fetch(&cs_word, t);
        CHECK(now / 1000 == r + 1 && now % 1000 < n, "round %d: word %ld is no PE's value", r, now);
        CHECK(old == cur ? now == mine : old == now, "round %d: PE won or lost wrongly (old %ld, now %ld)", r,
              old, now);
        shmem_barrier_all();
    }
    if (me == 0)
        for (int r = 0; r < K; ++r) CHECK(winners[r] == 1, "round %d: %d winners", r, winners[r]);
    shmem_barrier_all();
}

/* ---- swap chains ------------------------------------------------------------------------------------------- */
/* Every PE swaps K distinct values (PE p's i-th is p*K + i + 1) into one word that starts at 0: the fetched values
 * plus the final value are 0 .. n*K, each exactly once. */
#define SWAP_CHAIN(T, N)                                                                                           \
    static T sw_##N;                                                                                               \
    static void swap_chain_##N(int target)                                                                         \
    {                                                                                                              \
        const int me = shmem_my_pe(), n = shmem_n_pes();                                                           \
        long mine[K];                                                                                              \
        sw_##N = 0;                                                                                                \
        shmem_barrier_all();                                                                                       \
        for (int i = 0; i < K; ++i) mine[i] = (long)shmem_##N##_atomic_swap(&sw_##N, (T)(me * K + i + 1), target); \
        collect(mine);                                                                                             \
        if (me == 0) {                                                                                             \
            collected[n * K] = (long)shmem_##N##_atomic_fetch(&sw_##N, target);                                    \
            check_permutation(n * K + 1, #N "_atomic_swap chain");                                                 \
        }                                                                                                          \
        shmem_barrier_all();                                                                                       \
    }
SWAP_CHAIN(long, long)
SWAP_CHAIN(unsigned int, uint)
SWAP_CHAIN(float, float)
SWAP_CHAIN(double, double)

/* ---- bitwise: one bit per PE -------------------------------------------------------------------------------- */
static uint64_t bits;
static void bitwise(int target)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const uint64_t b = 1ull << me, all = n == 64 ? ~0ull : (1ull << n) - 1;
    bits = 0;
    shmem_barrier_all();
    for (int i = 0; i < K; ++i) {
        CHECK((shmem_uint64_atomic_fetch_or(&bits, b, target) & b) == 0, "my bit was set");
        CHECK((shmem_uint64_atomic_fetch_xor(&bits, b, target) & b) == b, "my bit was clear (xor)");
        CHECK((shmem_uint64_atomic_fetch_xor(&bits, b, target) & b) == 0, "my bit was set (xor)");
        CHECK((shmem_uint64_atomic_fetch_and(&bits, ~b, target) & b) == b, "my bit was clear (and)");
        shmem_uint64_atomic_or(&bits, b, target);
        shmem_uint64_atomic_and(&bits, ~b, target);
    }
    shmem_uint64_atomic_or(&bits, b, target);
    shmem_barrier_all();
    CHECK(shmem_uint64_atomic_fetch(&bits, target) == all, "all bits set");
    shmem_barrier_all();
    shmem_uint64_atomic_xor(&bits, b, target);
    shmem_barrier_all();
    CHECK(shmem_uint64_atomic_fetch(&bits, target) == 0, "all bits cleared by xor");
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n <= MAX_PES, "this test runs on at most %d PEs", MAX_PES);
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");

    /* one word on each PE in turn: long, every form */
    for (int t = 0; t < n; ++t) {
        fetch_inc_long(t, 0, ctx);
        adds(t);
        bitwise(t);
    }
    fetch_inc_long(n - 1, 1, ctx);
    fetch_inc_long(n / 2, 2, ctx);
    /* every standard type, on one PE each */
    int t = 0;
#define RUN(T, N)                       \
    fetch_inc_##N(t % n, 0, ctx);       \
    fetch_inc_##N((t + 1) % n, 1, ctx); \
    fetch_inc_##N((t + 2) % n, 2, ctx); \
    ++t;
    SHMEM_AMO_STANDARD_TYPES(RUN)
    compare_swap_rounds();
    swap_chain_long(0);
    swap_chain_uint(n - 1);
    swap_chain_float(n / 2);
    swap_chain_double((n + 1) / 3);

    shmem_ctx_destroy(ctx);
    if (me == 0) printf("amo contention: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

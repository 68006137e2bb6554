/* Every AMO routine for every type it is defined for (the type tables), plain and _nbi, in three runs: the plain
 * forms; the context forms on a context of the world team; the context forms on a context of a strided team that
 * excludes PE 0 (world PEs 1, 3, 5, ...), whose PE numbers are relative to the team. Each member operates on the
 * word of its right neighbour in the team (and once on its own), so every fetched and final value is exact. */
#include "check.h"

static shmem_ctx_t ctx; /* the context of the context runs */
static int tme, tn;     /* this PE's number in the run's team and the team's size; tme < 0: not a member */

#define CTXA ctx, /* the context argument of the context forms */

/* P: routine prefix ("" or ctx_), CA: leading argument (nothing or CTXA) */
#define TEST_EXTENDED(T, N, P, CA)                                                                      \
    static T ext_##P##N[2];                                                                             \
    static void ext_##P##N##_test(void)                                                                 \
    {                                                                                                   \
        T *x = ext_##P##N, f = 0;                                                                       \
        const int in = tme >= 0, r = in ? (tme + 1) % tn : 0, l = in ? (tme + tn - 1) % tn : 0;         \
        x[0] = x[1] = 0;                                                                                \
        shmem_barrier_all();                                                                            \
        if (in) shmem_##P##N##_atomic_set(CA & x[0], (T)(tme * 2.5 + 1), r);                            \
        shmem_barrier_all();                                                                            \
        if (in) CHECK(x[0] == (T)(l * 2.5 + 1), #P #N "_atomic_set");                                   \
        shmem_barrier_all(); /* every member has seen its word before the left neighbour swaps it */    \
        if (in) {                                                                                       \
            CHECK(shmem_##P##N##_atomic_fetch(CA(const T *) & x[0], r) == (T)(tme * 2.5 + 1),           \
                  #P #N "_atomic_fetch");                                                               \
            CHECK(shmem_##P##N##_atomic_swap(CA & x[0], (T)(tme + 101), r) == (T)(tme * 2.5 + 1),       \
                  #P #N "_atomic_swap");                                                                \
            shmem_##P##N##_atomic_fetch_nbi(CA & f, (const T *)&x[0], r);                               \
            shmem_quiet();                                                                              \
            CHECK(f == (T)(tme + 101), #P #N "_atomic_fetch_nbi");                                      \
            shmem_##P##N##_atomic_swap_nbi(CA & f, &x[0], (T)(tme + 201.5), r);                         \
            shmem_quiet();                                                                              \
            CHECK(f == (T)(tme + 101), #P #N "_atomic_swap_nbi");                                       \
            shmem_##P##N##_atomic_set(CA & x[1], (T)7, tme); /* on this PE itself */                    \
            CHECK(shmem_##P##N##_atomic_swap(CA & x[1], (T)8, tme) == (T)7, #P #N "_atomic_swap self"); \
        }                                                                                               \
        shmem_barrier_all();                                                                            \
        if (in) {                                                                                       \
            CHECK(x[0] == (T)(l + 201.5) && x[1] == (T)8, #P #N " final");                              \
        } else {                                                                                        \
            CHECK(x[0] == 0 && x[1] == 0, #P #N ": a non-member's word changed");                       \
        }                                                                                               \
    }

#define TEST_STANDARD(T, N, P, CA)                                                                       \
    static T std_##P##N[2];                                                                              \
    static void std_##P##N##_test(void)                                                                  \
    {                                                                                                    \
        T *x = std_##P##N, f = 0;                                                                        \
        const int in = tme >= 0, r = in ? (tme + 1) % tn : 0;                                            \
        x[0] = x[1] = 0;                                                                                 \
        shmem_barrier_all();                                                                             \
        if (in) {                                                                                        \
            CHECK(shmem_##P##N##_atomic_fetch_inc(CA & x[0], r) == 0, #P #N "_atomic_fetch_inc");        \
            shmem_##P##N##_atomic_inc(CA & x[0], r);                                                     \
            CHECK(shmem_##P##N##_atomic_fetch_add(CA & x[0], (T)5, r) == 2, #P #N "_atomic_fetch_add");  \
            shmem_##P##N##_atomic_add(CA & x[0], (T)10, r);                                              \
            CHECK(shmem_##P##N##_atomic_compare_swap(CA & x[0], (T)16, (T)99, r) == 17,                  \
                  #P #N "_atomic_compare_swap (no match)");                                              \
            CHECK(shmem_##P##N##_atomic_compare_swap(CA & x[0], (T)17, (T)40, r) == 17,                  \
                  #P #N "_atomic_compare_swap (match)");                                                 \
            shmem_##P##N##_atomic_compare_swap_nbi(CA & f, &x[0], (T)40, (T)41, r);                      \
            shmem_quiet();                                                                               \
            CHECK(f == 40, #P #N "_atomic_compare_swap_nbi");                                            \
            shmem_##P##N##_atomic_fetch_inc_nbi(CA & f, &x[0], r);                                       \
            shmem_quiet();                                                                               \
            CHECK(f == 41, #P #N "_atomic_fetch_inc_nbi");                                               \
            shmem_##P##N##_atomic_fetch_add_nbi(CA & f, &x[0], (T)8, r);                                 \
            shmem_quiet();                                                                               \
            CHECK(f == 42, #P #N "_atomic_fetch_add_nbi");                                               \
            CHECK(shmem_##P##N##_atomic_fetch_add(CA & x[0], (T)-60, r) == 50, #P #N " add negative");   \
            shmem_##P##N##_atomic_inc(CA & x[1], tme); /* on this PE itself */                           \
            CHECK(shmem_##P##N##_atomic_fetch_inc(CA & x[1], tme) == 1, #P #N "_atomic_fetch_inc self"); \
        }                                                                                                \
        shmem_barrier_all();                                                                             \
        if (in) {                                                                                        \
            T e = 50;                                                                                    \
            e += (T)-60; /* wraps for the unsigned types, as the AMO does */                             \
            CHECK(x[0] == e && x[1] == 2, #P #N " final");                                               \
        } else {                                                                                         \
            CHECK(x[0] == 0 && x[1] == 0, #P #N ": a non-member's word changed");                        \
        }                                                                                                \
    }

#define TEST_BITWISE(T, N, P, CA)                                                                        \
    static T bit_##P##N;                                                                                 \
    static void bit_##P##N##_test(void)                                                                  \
    {                                                                                                    \
        T *x = &bit_##P##N, f = 0;                                                                       \
        const T top = (T)(1ull << (8 * sizeof(T) - 1));                                                  \
        const int in = tme >= 0, r = in ? (tme + 1) % tn : 0;                                            \
        *x = 0;                                                                                          \
        shmem_barrier_all();                                                                             \
        if (in) {                                                                                        \
            CHECK(shmem_##P##N##_atomic_fetch_or(CA x, (T)0xF0, r) == 0, #P #N "_atomic_fetch_or");      \
            shmem_##P##N##_atomic_or(CA x, (T)0x0F, r);                                                  \
            CHECK(shmem_##P##N##_atomic_fetch_and(CA x, (T)0x3C, r) == 0xFF, #P #N "_atomic_fetch_and"); \
            shmem_##P##N##_atomic_and(CA x, (T)0x1E, r);                                                 \
            CHECK(shmem_##P##N##_atomic_fetch_xor(CA x, (T)0xFF, r) == 0x1C, #P #N "_atomic_fetch_xor"); \
            shmem_##P##N##_atomic_xor(CA x, (T)0x0F, r);                                                 \
            shmem_##P##N##_atomic_fetch_or_nbi(CA & f, x, (T)0x100, r);                                  \
            shmem_quiet();                                                                               \
            CHECK(f == 0xEC, #P #N "_atomic_fetch_or_nbi");                                              \
            shmem_##P##N##_atomic_fetch_and_nbi(CA & f, x, (T)0x1F0, r);                                 \
            shmem_quiet();                                                                               \
            CHECK(f == 0x1EC, #P #N "_atomic_fetch_and_nbi");                                            \
            shmem_##P##N##_atomic_fetch_xor_nbi(CA & f, x, (T)0x030, r);                                 \
            shmem_quiet();                                                                               \
            CHECK(f == 0x1E0, #P #N "_atomic_fetch_xor_nbi");                                            \
            CHECK(shmem_##P##N##_atomic_fetch_or(CA x, top, r) == 0x1D0, #P #N " top bit");              \
        }                                                                                                \
        shmem_barrier_all();                                                                             \
        CHECK(*x == (in ? (T)(0x1D0 | top) : (T)0), #P #N " final");                                     \
    }

/* the plain forms and the context forms, for every type of each table */
#define PLAIN_EXT(T, N) TEST_EXTENDED(T, N, , )
#define CTX_EXT(T, N) TEST_EXTENDED(T, N, ctx_, CTXA)
#define PLAIN_STD(T, N) TEST_STANDARD(T, N, , )
#define CTX_STD(T, N) TEST_STANDARD(T, N, ctx_, CTXA)
#define PLAIN_BIT(T, N) TEST_BITWISE(T, N, , )
#define CTX_BIT(T, N) TEST_BITWISE(T, N, ctx_, CTXA)
SHMEM_AMO_EXTENDED_TYPES(PLAIN_EXT)
SHMEM_AMO_EXTENDED_TYPES(CTX_EXT)
SHMEM_AMO_STANDARD_TYPES(PLAIN_STD)
SHMEM_AMO_STANDARD_TYPES(CTX_STD)
SHMEM_AMO_BITWISE_TYPES(PLAIN_BIT)
SHMEM_AMO_BITWISE_TYPES(CTX_BIT)

#define RUN_PLAIN_EXT(T, N) ext_##N##_test();
#define RUN_CTX_EXT(T, N) ext_ctx_##N##_test();
#define RUN_PLAIN_STD(T, N) std_##N##_test();
#define RUN_CTX_STD(T, N) std_ctx_##N##_test();
#define RUN_PLAIN_BIT(T, N) bit_##N##_test();
#define RUN_CTX_BIT(T, N) bit_ctx_##N##_test();

static void run_ctx(void)
{
    SHMEM_AMO_EXTENDED_TYPES(RUN_CTX_EXT)
    SHMEM_AMO_STANDARD_TYPES(RUN_CTX_STD)
    SHMEM_AMO_BITWISE_TYPES(RUN_CTX_BIT)
}

/* float and double: bit patterns survive fetch, set and swap (negative zero, a fraction, a huge value) */
static double dword;
static float fword;
static void float_bits(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes(), r = (me + 1) % n;
    shmem_double_atomic_set(&dword, -0.0, r);
    shmem_float_atomic_set(&fword, -0.0f, r);
    shmem_barrier_all();
    CHECK(dword == 0.0 && __builtin_signbit(dword), "double -0.0");
    CHECK(fword == 0.0f && __builtin_signbit(fword), "float -0.0");
    shmem_barrier_all();
    CHECK(__builtin_signbit(shmem_double_atomic_swap(&dword, 1.0e300 * (me + 1), r)), "double swap -0.0");
    CHECK(__builtin_signbit(shmem_float_atomic_swap(&fword, 0.15625f * (me + 1), r)), "float swap -0.0");
    shmem_barrier_all();
    CHECK(dword == 1.0e300 * ((me + n - 1) % n + 1), "double huge");
    CHECK(fword == 0.15625f * ((me + n - 1) % n + 1), "float fraction");
    CHECK(shmem_double_atomic_fetch(&dword, r) == 1.0e300 * (me + 1), "double fetch");
    CHECK(shmem_float_atomic_fetch(&fword, r) == 0.15625f * (me + 1), "float fetch");
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();

    /* plain forms */
    tme = me;
    tn = n;
    SHMEM_AMO_EXTENDED_TYPES(RUN_PLAIN_EXT)
    SHMEM_AMO_STANDARD_TYPES(RUN_PLAIN_STD)
    SHMEM_AMO_BITWISE_TYPES(RUN_PLAIN_BIT)
    float_bits();

    /* context forms on a context of the world team */
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    run_ctx();
    shmem_ctx_destroy(ctx);

    /* context forms on a team of world PEs 1, 3, 5, ... (PE 0 is not a member; with 1 PE there is no such team,
     * and the run checks that nothing changes) */
    shmem_team_t team = SHMEM_TEAM_INVALID;
    if (n >= 2) CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &team) == 0, "split");
    tme = -1;
    if (team != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "shmem_team_create_ctx");
        tme = shmem_team_my_pe(team);
        tn = shmem_team_n_pes(team);
        CHECK(me == 1 + 2 * tme && tn == n / 2, "team layout");
    }
    run_ctx();
    if (team != SHMEM_TEAM_INVALID) {
        shmem_ctx_destroy(ctx);
        shmem_team_destroy(team);
    }

    if (me == 0) printf("amo types: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

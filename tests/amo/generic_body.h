/* The generic names of the AMO and signal families, with and without a leading context, for every standard type
 * they are defined for: each call's value is checked, so a call that selected another type's routine fails (and
 * does not compile cleanly in the first place: the tests build with -Werror). Compiled as C11 (_Generic) by
 * test_amo_generic.c and as C++17 (overloads) by test_amo_generic_cxx.cpp. */
#include "check.h"

/* The types, listed here rather than taken from the tables: a generic name selects over a table macro, and the C
 * preprocessor does not expand a macro inside its own expansion, so a generic call cannot sit inside an expansion
 * of the very table it selects over. */
#define BITWISE_STD(X)      \
    X(unsigned int, uint)   \
    X(unsigned long, ulong) \
    X(unsigned long long, ulonglong)
/* the bitwise table's signed types, which its generic names select on as well */
#define BITWISE_SIGNED(X) \
    X(int32_t, int32)     \
    X(int64_t, int64)
#define STANDARD_STD(X)    \
    X(int, int)            \
    X(long, long)          \
    X(long long, longlong) \
    BITWISE_STD(X)
#define EXTENDED_STD(X) \
    X(float, float)     \
    X(double, double)   \
    STANDARD_STD(X)
#define RMA_STD(X)             \
    EXTENDED_STD(X)            \
    X(long double, longdouble) \
    X(char, char)              \
    X(signed char, schar)      \
    X(short, short)            \
    X(unsigned char, uchar)    \
    X(unsigned short, ushort)

/* ... and the same types as the tables */
#define COUNT_(T, N) +1
typedef char lists_match_tables[(0 EXTENDED_STD(COUNT_) == 0 SHMEM_AMO_EXTENDED_STANDARD_TYPES(COUNT_) &&
                                 0 STANDARD_STD(COUNT_) == 0 SHMEM_AMO_STANDARD_STANDARD_TYPES(COUNT_) &&
                                 0 BITWISE_STD(COUNT_) == 0 SHMEM_AMO_BITWISE_STANDARD_TYPES(COUNT_) &&
                                 0 BITWISE_STD(COUNT_) BITWISE_SIGNED(COUNT_) ==
                                     0 SHMEM_AMO_BITWISE_GENERIC_TYPES(COUNT_) &&
                                 0 RMA_STD(COUNT_) == 0 SHMEM_RMA_STANDARD_TYPES(COUNT_))
                                    ? 1
                                    : -1];

static int me_, n_, r_, l_;
static uint64_t gsig;

#define GEN_EXTENDED(T, N)                                                                                     \
    static T gx_##N[2];                                                                                        \
    static void gen_ext_##N(shmem_ctx_t ctx)                                                                   \
    {                                                                                                          \
        T *x = gx_##N, f = 0;                                                                                  \
        const T *src = &gx_##N[0];                                                                             \
        x[0] = x[1] = 0;                                                                                       \
        shmem_barrier_all();                                                                                   \
        shmem_atomic_set(&x[0], (T)(me_ + 1), r_);                                                             \
        shmem_barrier_all();                                                                                   \
        CHECK(x[0] == (T)(l_ + 1), #N " shmem_atomic_set");                                                    \
        shmem_barrier_all();                                                                                   \
        CHECK(shmem_atomic_fetch(src, r_) == (T)(me_ + 1), #N " shmem_atomic_fetch (const)");                  \
        CHECK(shmem_atomic_fetch(&x[0], r_) == (T)(me_ + 1), #N " shmem_atomic_fetch");                        \
        CHECK(shmem_atomic_fetch(ctx, src, r_) == (T)(me_ + 1), #N " shmem_atomic_fetch ctx (const)");         \
        CHECK(shmem_atomic_fetch(ctx, &x[0], r_) == (T)(me_ + 1), #N " shmem_atomic_fetch ctx");               \
        CHECK(shmem_atomic_swap(&x[0], (T)(me_ + 11), r_) == (T)(me_ + 1), #N " shmem_atomic_swap");           \
        CHECK(shmem_atomic_swap(ctx, &x[0], (T)(me_ + 21), r_) == (T)(me_ + 11), #N " shmem_atomic_swap ctx"); \
        shmem_atomic_set(ctx, &x[1], (T)(me_ + 31), r_);                                                       \
        shmem_atomic_fetch_nbi(&f, src, r_);                                                                   \
        shmem_quiet();                                                                                         \
        CHECK(f == (T)(me_ + 21), #N " shmem_atomic_fetch_nbi");                                               \
        shmem_atomic_fetch_nbi(ctx, &f, &x[1], r_);                                                            \
        shmem_ctx_quiet(ctx);                                                                                  \
        CHECK(f == (T)(me_ + 31), #N " shmem_atomic_fetch_nbi ctx / shmem_atomic_set ctx");                    \
        shmem_atomic_swap_nbi(&f, &x[0], (T)(me_ + 41), r_);                                                   \
        shmem_quiet();                                                                                         \
        CHECK(f == (T)(me_ + 21), #N " shmem_atomic_swap_nbi");                                                \
        shmem_atomic_swap_nbi(ctx, &f, &x[1], (T)(me_ + 51), r_);                                              \
        shmem_ctx_quiet(ctx);                                                                                  \
        CHECK(f == (T)(me_ + 31), #N " shmem_atomic_swap_nbi ctx");                                            \
        shmem_barrier_all();                                                                                   \
        CHECK(x[0] == (T)(l_ + 41) && x[1] == (T)(l_ + 51), #N " extended final");                             \
    }

#define GEN_STANDARD(T, N)                                                                                     \
    static T gs_##N;                                                                                           \
    static void gen_std_##N(shmem_ctx_t ctx)                                                                   \
    {                                                                                                          \
        T *x = &gs_##N, f = 0;                                                                                 \
        *x = 0;                                                                                                \
        shmem_barrier_all();                                                                                   \
        CHECK(shmem_atomic_fetch_inc(x, r_) == 0, #N " shmem_atomic_fetch_inc");                               \
        CHECK(shmem_atomic_fetch_inc(ctx, x, r_) == 1, #N " shmem_atomic_fetch_inc ctx");                      \
        shmem_atomic_inc(x, r_);                                                                               \
        shmem_atomic_inc(ctx, x, r_);                                                                          \
        CHECK(shmem_atomic_fetch_add(x, (T)3, r_) == 4, #N " shmem_atomic_fetch_add / inc");                   \
        CHECK(shmem_atomic_fetch_add(ctx, x, (T)3, r_) == 7, #N " shmem_atomic_fetch_add ctx");                \
        shmem_atomic_add(x, (T)5, r_);                                                                         \
        shmem_atomic_add(ctx, x, (T)5, r_);                                                                    \
        CHECK(shmem_atomic_compare_swap(x, (T)20, (T)30, r_) == 20, #N " shmem_atomic_compare_swap / add");    \
        CHECK(shmem_atomic_compare_swap(ctx, x, (T)30, (T)40, r_) == 30, #N " shmem_atomic_compare_swap ctx"); \
        shmem_atomic_compare_swap_nbi(&f, x, (T)40, (T)41, r_);                                                \
        shmem_quiet();                                                                                         \
        CHECK(f == 40, #N " shmem_atomic_compare_swap_nbi");                                                   \
        shmem_atomic_compare_swap_nbi(ctx, &f, x, (T)41, (T)42, r_);                                           \
        shmem_quiet();                                                                                         \
        CHECK(f == 41, #N " shmem_atomic_compare_swap_nbi ctx");                                               \
        shmem_atomic_fetch_inc_nbi(&f, x, r_);                                                                 \
        shmem_quiet();                                                                                         \
        CHECK(f == 42, #N " shmem_atomic_fetch_inc_nbi");                                                      \
        shmem_atomic_fetch_inc_nbi(ctx, &f, x, r_);                                                            \
        shmem_quiet();                                                                                         \
        CHECK(f == 43, #N " shmem_atomic_fetch_inc_nbi ctx");                                                  \
        shmem_atomic_fetch_add_nbi(&f, x, (T)6, r_);                                                           \
        shmem_quiet();                                                                                         \
        CHECK(f == 44, #N " shmem_atomic_fetch_add_nbi");                                                      \
        shmem_atomic_fetch_add_nbi(ctx, &f, x, (T)10, r_);                                                     \
        shmem_quiet();                                                                                         \
        CHECK(f == 50, #N " shmem_atomic_fetch_add_nbi ctx");                                                  \
        shmem_barrier_all();                                                                                   \
        CHECK(*x == 60, #N " standard final");                                                                 \
    }

#define GEN_BITWISE(T, N)                                                                         \
    static T gb_##N;                                                                              \
    static void gen_bit_##N(shmem_ctx_t ctx)                                                      \
    {                                                                                             \
        T *x = &gb_##N, f = 0;                                                                    \
        *x = 0;                                                                                   \
        shmem_barrier_all();                                                                      \
        CHECK(shmem_atomic_fetch_or(x, (T)1, r_) == 0, #N " shmem_atomic_fetch_or");              \
        CHECK(shmem_atomic_fetch_or(ctx, x, (T)2, r_) == 1, #N " shmem_atomic_fetch_or ctx");     \
        shmem_atomic_or(x, (T)4, r_);                                                             \
        shmem_atomic_or(ctx, x, (T)8, r_);                                                        \
        CHECK(shmem_atomic_fetch_and(x, (T)14, r_) == 15, #N " shmem_atomic_fetch_and / or");     \
        CHECK(shmem_atomic_fetch_and(ctx, x, (T)12, r_) == 14, #N " shmem_atomic_fetch_and ctx"); \
        shmem_atomic_and(x, (T)13, r_);                                                           \
        shmem_atomic_and(ctx, x, (T)4, r_);                                                       \
        CHECK(shmem_atomic_fetch_xor(x, (T)1, r_) == 4, #N " shmem_atomic_fetch_xor / and");      \
        CHECK(shmem_atomic_fetch_xor(ctx, x, (T)2, r_) == 5, #N " shmem_atomic_fetch_xor ctx");   \
        shmem_atomic_xor(x, (T)4, r_);                                                            \
        shmem_atomic_xor(ctx, x, (T)16, r_);                                                      \
        shmem_atomic_fetch_and_nbi(&f, x, (T)17, r_);                                             \
        shmem_quiet();                                                                            \
        CHECK(f == 19, #N " shmem_atomic_fetch_and_nbi / xor");                                   \
        shmem_atomic_fetch_or_nbi(ctx, &f, x, (T)8, r_);                                          \
        shmem_quiet();                                                                            \
        CHECK(f == 17, #N " shmem_atomic_fetch_or_nbi ctx");                                      \
        shmem_atomic_fetch_xor_nbi(&f, x, (T)1, r_);                                              \
        shmem_quiet();                                                                            \
        CHECK(f == 25, #N " shmem_atomic_fetch_xor_nbi");                                         \
        shmem_atomic_fetch_or_nbi(&f, x, (T)2, r_);                                               \
        shmem_quiet();                                                                            \
        CHECK(f == 24, #N " shmem_atomic_fetch_or_nbi");                                          \
        shmem_atomic_fetch_and_nbi(ctx, &f, x, (T)10, r_);                                        \
        shmem_quiet();                                                                            \
        CHECK(f == 26, #N " shmem_atomic_fetch_and_nbi ctx");                                     \
        shmem_atomic_fetch_xor_nbi(ctx, &f, x, (T)3, r_);                                         \
        shmem_quiet();                                                                            \
        CHECK(f == 10, #N " shmem_atomic_fetch_xor_nbi ctx");                                     \
        shmem_barrier_all();                                                                      \
        CHECK(*x == 9, #N " bitwise final");                                                      \
    }

#define GEN_SIGNAL(T, N)                                                                         \
    static T gd_##N[4];                                                                          \
    static void gen_sig_##N(shmem_ctx_t ctx)                                                     \
    {                                                                                            \
        T src[4];                                                                                \
        for (int i = 0; i < 4; ++i) src[i] = (T)test_pattern(me_, i, 5);                         \
        gsig = 0;                                                                                \
        shmem_barrier_all();                                                                     \
        shmem_put_signal(&gd_##N[0], &src[0], 1, &gsig, 1, SHMEM_SIGNAL_ADD, r_);                \
        shmem_put_signal(ctx, &gd_##N[1], &src[1], 1, &gsig, 1, SHMEM_SIGNAL_ADD, r_);           \
        shmem_put_signal_nbi(&gd_##N[2], &src[2], 1, &gsig, 1, SHMEM_SIGNAL_ADD, r_);            \
        shmem_put_signal_nbi(ctx, &gd_##N[3], &src[3], 1, &gsig, 1, SHMEM_SIGNAL_ADD, r_);       \
        shmem_quiet();                                                                           \
        CHECK(shmem_signal_wait_until(&gsig, SHMEM_CMP_EQ, 4) == 4, #N " signal");               \
        for (int i = 0; i < 4; ++i)                                                              \
            CHECK(gd_##N[i] == (T)test_pattern(l_, i, 5), #N " shmem_put_signal element %d", i); \
        shmem_barrier_all();                                                                     \
    }

EXTENDED_STD(GEN_EXTENDED)
STANDARD_STD(GEN_STANDARD)
BITWISE_STD(GEN_BITWISE)
BITWISE_SIGNED(GEN_BITWISE)
RMA_STD(GEN_SIGNAL)

#define RUN_EXT(T, N) gen_ext_##N(ctx);
#define RUN_STD(T, N) gen_std_##N(ctx);
#define RUN_BIT(T, N) gen_bit_##N(ctx);
#define RUN_SIG(T, N) gen_sig_##N(ctx);

static void run_generic(const char *lang)
{
    me_ = shmem_my_pe();
    n_ = shmem_n_pes();
    r_ = (me_ + 1) % n_;
    l_ = (me_ + n_ - 1) % n_;
    shmem_ctx_t created;
    CHECK(shmem_ctx_create(0, &created) == 0, "shmem_ctx_create");
    for (int pass = 0; pass < 2; ++pass) {
        shmem_ctx_t ctx = pass == 0 ? created : SHMEM_CTX_DEFAULT;
        EXTENDED_STD(RUN_EXT)
        STANDARD_STD(RUN_STD)
        BITWISE_STD(RUN_BIT)
        BITWISE_SIGNED(RUN_BIT)
        RMA_STD(RUN_SIG)
    }
    /* the predefined context spelled out in the call */
    gs_long = 0;
    shmem_barrier_all();
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, &gs_long, r_);
    shmem_barrier_all();
    CHECK(gs_long == 1, "shmem_atomic_inc(SHMEM_CTX_DEFAULT, ...)");
    shmem_ctx_destroy(created);
    if (me_ == 0) printf("amo generic names (%s): %d PEs ok\n", lang, n_);
}

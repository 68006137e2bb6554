/* The names of OpenSHMEM 1.2-1.4 (shmem_legacy.h): each must do what its 1.5 routine does. A 1.2-style program:
 * start_pes, _my_pe/_num_pes, shmalloc & co., the typed and generic atomics of 1.3, shmem_wait, the cache
 * routines, the _SHMEM_ constants, and no shmem_finalize (implicit finalization). */
#include "check.h"

_Static_assert(_SHMEM_CMP_EQ == SHMEM_CMP_EQ && _SHMEM_CMP_NE == SHMEM_CMP_NE && _SHMEM_CMP_GT == SHMEM_CMP_GT &&
                   _SHMEM_CMP_GE == SHMEM_CMP_GE && _SHMEM_CMP_LT == SHMEM_CMP_LT && _SHMEM_CMP_LE == SHMEM_CMP_LE,
               "_SHMEM_CMP_*");
_Static_assert(_SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE && _SHMEM_BARRIER_SYNC_SIZE == SHMEM_BARRIER_SYNC_SIZE &&
                   _SHMEM_BCAST_SYNC_SIZE == SHMEM_BCAST_SYNC_SIZE &&
                   _SHMEM_COLLECT_SYNC_SIZE == SHMEM_COLLECT_SYNC_SIZE &&
                   _SHMEM_REDUCE_SYNC_SIZE == SHMEM_REDUCE_SYNC_SIZE &&
                   _SHMEM_REDUCE_MIN_WRKDATA_SIZE == SHMEM_REDUCE_MIN_WRKDATA_SIZE,
               "_SHMEM_*_SYNC_SIZE");
_Static_assert(_SHMEM_MAJOR_VERSION == 1 && _SHMEM_MINOR_VERSION == 6 && _SHMEM_MAX_NAME_LEN == SHMEM_MAX_NAME_LEN,
               "_SHMEM_ versions");

static int me, npes;

static void test_setup_and_memory(void)
{
    CHECK(_my_pe() == shmem_my_pe(), "_my_pe %d", _my_pe());
    CHECK(_num_pes() == shmem_n_pes(), "_num_pes %d", _num_pes());
    CHECK(sizeof(_SHMEM_VENDOR_STRING) <= _SHMEM_MAX_NAME_LEN, "_SHMEM_VENDOR_STRING");

    long *a = (long *)shmalloc(16 * sizeof(long));
    CHECK(a != NULL && shmem_addr_accessible(a, (me + 1) % npes), "shmalloc: %p", (void *)a);
    for (int i = 0; i < 16; ++i) a[i] = me * 100 + i;
    shmem_barrier_all();
    /* the block is symmetric: read the right neighbour's */
    long r[16];
    shmem_long_get(r, a, 16, (me + 1) % npes);
    for (int i = 0; i < 16; ++i) CHECK(r[i] == ((me + 1) % npes) * 100 + i, "shmalloc block of the neighbour [%d]", i);
    shmem_barrier_all();
    a = (long *)shrealloc(a, 64 * sizeof(long));
    CHECK(a != NULL, "shrealloc");
    for (int i = 0; i < 16; ++i) CHECK(a[i] == me * 100 + i, "shrealloc kept [%d] = %ld", i, a[i]);
    a[63] = me;
    shmem_barrier_all();
    CHECK(shmem_long_g(&a[63], (me + 1) % npes) == (me + 1) % npes, "shrealloc block is symmetric");
    shmem_barrier_all();
    double *b = (double *)shmemalign(256, 3 * sizeof(double));
    CHECK(b != NULL && ((uintptr_t)b & 255) == 0, "shmemalign(256): %p", (void *)b);
    shfree(b);
    shfree(a);
    shmem_barrier_all();
}

/* The integer atomics of 1.3 for one type: add, inc, fadd, finc, cswap, swap, fetch, set, typed and generic. */
#define TEST_AMO(T, N)                                                                                           \
    static T N##_ctr, N##_slot, N##_res[512];                                                                    \
    static void test_amo_##N(void)                                                                               \
    {                                                                                                            \
        const T n = (T)npes;                                                                                     \
        N##_ctr = 0;                                                                                             \
        N##_slot = 0;                                                                                            \
        shmem_barrier_all();                                                                                     \
        /* add / inc on PE 0, typed and generic: sum (me + 1) + 1 + 2 * (me + 1) + 1 over the PEs */            \
        shmem_##N##_add(&N##_ctr, (T)(me + 1), 0);                                                               \
        shmem_##N##_inc(&N##_ctr, 0);                                                                            \
        shmem_add(&N##_ctr, (T)(2 * (me + 1)), 0);                                                               \
        shmem_inc(&N##_ctr, 0);                                                                                  \
        shmem_barrier_all();                                                                                     \
        const T sum = 3 * n * (n + 1) / 2 + 2 * n;                                                               \
        CHECK(shmem_##N##_fetch(&N##_ctr, 0) == sum, #N "_add/_inc: %lld", (long long)N##_ctr);                  \
        CHECK(shmem_fetch(&N##_ctr, 0) == sum, #N " generic fetch");                                             \
        shmem_barrier_all();                                                                                     \
        /* fadd / finc: the old values the PEs get are a permutation of 0, 1, ..., n - 1 (and n ... 2n - 1) */  \
        if (me == 0) N##_ctr = 0;                                                                                \
        shmem_barrier_all();                                                                                     \
        T old1 = shmem_##N##_fadd(&N##_ctr, (T)1, 0);                                                            \
        shmem_barrier_all();                                                                                     \
        T old2 = shmem_##N##_finc(&N##_ctr, 0);                                                                  \
        shmem_barrier_all();                                                                                     \
        T old3 = shmem_fadd(&N##_ctr, (T)1, 0) + shmem_finc(&N##_ctr, 0);                                        \
        CHECK(old1 >= 0 && old1 < n && old2 >= n && old2 < 2 * n && old3 >= 4 * n + 1, #N "_fadd/_finc olds");   \
        shmem_##N##_p(&N##_res[me], old1, 0);                                                                    \
        shmem_barrier_all();                                                                                     \
        CHECK(me != 0 || N##_ctr == 4 * n, #N "_fadd/_finc total %lld", (long long)N##_ctr);                     \
        if (me == 0) {                                                                                           \
            for (int v = 0; v < npes; ++v) {                                                                     \
                int count = 0;                                                                                   \
                for (int p = 0; p < npes; ++p) count += N##_res[p] == (T)v;                                      \
                CHECK(count == 1, #N "_fadd: old value %d returned %d times", v, count);                        \
            }                                                                                                    \
        }                                                                                                        \
        shmem_barrier_all();                                                                                     \
        /* cswap: exactly one PE swaps 0 for its number + 1; the others see that */                              \
        T got = shmem_##N##_cswap(&N##_slot, (T)0, (T)(me + 1), 0);                                              \
        shmem_##N##_p(&N##_res[me], got, 0);                                                                     \
        shmem_barrier_all();                                                                                     \
        if (me == 0) {                                                                                           \
            int winners = 0;                                                                                     \
            for (int p = 0; p < npes; ++p) {                                                                     \
                winners += N##_res[p] == 0;                                                                      \
                CHECK(N##_res[p] == 0 || N##_res[p] == N##_slot, #N "_cswap: PE %d got %lld", p,               \
                      (long long)N##_res[p]);                                                                    \
                if (N##_res[p] == 0) CHECK(N##_slot == (T)(p + 1), #N "_cswap: winner %d", p);                 \
            }                                                                                                    \
            CHECK(winners == 1, #N "_cswap: %d winners", winners);                                               \
            CHECK(shmem_cswap(&N##_slot, N##_slot, (T)-5, 0) > 0 && N##_slot == -5, #N " generic cswap");         \
            CHECK(shmem_cswap(&N##_slot, (T)1, (T)-6, 0) == -5 && N##_slot == -5, #N " generic cswap, no swap"); \
        }                                                                                                        \
        shmem_barrier_all();                                                                                     \
        /* swap / set / fetch around the ring */                                                                 \
        const int right = (me + 1) % npes, left = (me + npes - 1) % npes;                                        \
        N##_slot = 0;                                                                                            \
        shmem_barrier_all();                                                                                     \
        CHECK(shmem_##N##_swap(&N##_slot, (T)(me + 1), right) == 0, #N "_swap old");                             \
        shmem_barrier_all();                                                                                     \
        CHECK(N##_slot == (T)(left + 1), #N "_swap new %lld", (long long)N##_slot);                              \
        CHECK(shmem_swap(&N##_slot, (T)(left + 2), me) == (T)(left + 1), #N " generic swap");                    \
        shmem_barrier_all();                                                                                     \
        shmem_##N##_set(&N##_slot, (T)(3 * me), right);                                                          \
        shmem_barrier_all();                                                                                     \
        CHECK(shmem_##N##_fetch(&N##_slot, right) == (T)(3 * me), #N "_set/_fetch");                             \
        shmem_barrier_all();                                                                                     \
        shmem_set(&N##_slot, (T)(5 * me), right);                                                                \
        shmem_barrier_all();                                                                                     \
        CHECK(N##_slot == (T)(5 * left), #N " generic set");                                                     \
        shmem_barrier_all();                                                                                     \
    }
TEST_AMO(int, int)
TEST_AMO(long, long)
TEST_AMO(long long, longlong)

/* float and double had swap, fetch and set */
#define TEST_AMO_FP(T, N)                                                                                       \
    static T N##_slot;                                                                                          \
    static void test_amo_##N(void)                                                                              \
    {                                                                                                           \
        const int right = (me + 1) % npes, left = (me + npes - 1) % npes;                                       \
        N##_slot = 0.5;                                                                                         \
        shmem_barrier_all();                                                                                    \
        CHECK(shmem_##N##_swap(&N##_slot, (T)me + 0.25, right) == 0.5, #N "_swap old");                         \
        shmem_barrier_all();                                                                                    \
        CHECK(N##_slot == (T)left + 0.25, #N "_swap new");                                                      \
        CHECK(shmem_swap(&N##_slot, (T)2.5, me) == (T)left + 0.25 && N##_slot == 2.5, #N " generic swap");      \
        shmem_barrier_all();                                                                                    \
        shmem_##N##_set(&N##_slot, (T)me * 1.5, right);                                                         \
        shmem_barrier_all();                                                                                    \
        CHECK(shmem_##N##_fetch(&N##_slot, right) == (T)me * 1.5, #N "_set/_fetch");                            \
        CHECK(shmem_fetch(&N##_slot, left) == (T)((left + npes - 1) % npes) * 1.5, #N " generic fetch");        \
        shmem_barrier_all();                                                                                    \
        shmem_set(&N##_slot, (T)me * 0.75, right);                                                              \
        shmem_barrier_all();                                                                                    \
        CHECK(N##_slot == (T)left * 0.75, #N " generic set");                                                   \
        shmem_barrier_all();                                                                                    \
    }
TEST_AMO_FP(float, float)
TEST_AMO_FP(double, double)

/* shmem_TYPE_wait / shmem_wait: block while the value equals cmp_value; the left neighbour changes it */
#define TEST_WAIT(T, N)                                                                                        \
    static T N##_flag;                                                                                         \
    static void test_wait_##N(void)                                                                            \
    {                                                                                                          \
        N##_flag = 7;                                                                                          \
        shmem_barrier_all();                                                                                   \
        shmem_##N##_p(&N##_flag, (T)(me + 9), (me + 1) % npes);                                                \
        shmem_##N##_wait(&N##_flag, (T)7);                                                                     \
        CHECK(N##_flag == (T)((me + npes - 1) % npes + 9), #N "_wait: %lld", (long long)N##_flag);            \
        shmem_barrier_all();                                                                                   \
    }
TEST_WAIT(short, short)
TEST_WAIT(int, int)
TEST_WAIT(long, long)
TEST_WAIT(long long, longlong)

static long wflag;
static void test_wait_long_untyped(void)
{
    wflag = 0;
    shmem_barrier_all();
    shmem_long_p(&wflag, 5, (me + 1) % npes);
    shmem_wait(&wflag, 0);
    CHECK(wflag == 5, "shmem_wait: %ld", wflag);
    shmem_barrier_all();
    shmem_long_p(&wflag, 6, (me + 1) % npes);
    (shmem_wait_until)(&wflag, _SHMEM_CMP_EQ, 6); /* the C function of 1.2, not the generic name */
    shmem_wait_until(&wflag, _SHMEM_CMP_GE, 6L);
    CHECK(wflag == 6, "shmem_wait_until (long function): %ld", wflag);
    shmem_barrier_all();
}

static int cached;
static void test_cache(void)
{
    cached = me;
    shmem_set_cache_inv();
    shmem_set_cache_line_inv(&cached);
    shmem_clear_cache_inv();
    shmem_clear_cache_line_inv(&cached);
    shmem_udcflush();
    shmem_udcflush_line(&cached);
    shmem_barrier_all();
    CHECK(shmem_int_g(&cached, (me + 1) % npes) == (me + 1) % npes, "cache routines changed data");
    shmem_barrier_all();
}

int main(void)
{
    start_pes(0); /* the argument is ignored */
    me = _my_pe();
    npes = _num_pes();
    test_setup_and_memory();
    test_amo_int();
    test_amo_long();
    test_amo_longlong();
    test_amo_float();
    test_amo_double();
    test_wait_short();
    test_wait_int();
    test_wait_long();
    test_wait_longlong();
    test_wait_long_untyped();
    test_cache();
    if (me == 0) printf("legacy: %d PEs ok\n", npes);
    return 0; /* no shmem_finalize: implicit finalization, as 1.2 programs do */
}

/* The generic collective names (C11 _Generic) select the typed routine from the type of dest. */
#include <complex.h>

#include "check.h"

static long l[64];
static double d[64];
static unsigned u[64];
static float _Complex z[4];

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    static long lv; /* sources are symmetric, as the specification asks */
    static double dv;
    lv = me;
    dv = me + 0.5;
    unsigned uv = 1u << (me % 32);
    float _Complex zv = 1.0f + (float)me * (float _Complex)__builtin_complex(0.0f, 1.0f);
    shmem_fcollect(SHMEM_TEAM_WORLD, l, &lv, 1);
    for (int r = 0; r < n; ++r) CHECK(l[r] == r, "fcollect long %d", r);
    shmem_barrier_all();
    shmem_broadcast(SHMEM_TEAM_WORLD, d, &dv, 1, n - 1);
    CHECK(d[0] == n - 1 + 0.5, "broadcast double");
    shmem_barrier_all();
    static long ls, lm;
    static double ds;
    static unsigned uo;
    static float _Complex zs;
    static long lsrc;
    static double dsrc;
    static unsigned usrc;
    static float _Complex zsrc;
    lsrc = lv;
    dsrc = dv;
    usrc = uv;
    zsrc = zv;
    shmem_sum_reduce(SHMEM_TEAM_WORLD, &ls, &lsrc, 1);
    shmem_max_reduce(SHMEM_TEAM_WORLD, &lm, &lsrc, 1);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, &ds, &dsrc, 1);
    shmem_or_reduce(SHMEM_TEAM_WORLD, &uo, &usrc, 1);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, &zs, &zsrc, 1);
    CHECK(ls == (long)n * (n - 1) / 2 && lm == n - 1, "sum/max long %ld %ld", ls, lm);
    CHECK(ds == n * (n - 1) / 2.0 + n * 0.5, "sum double");
    unsigned want = 0;
    for (int r = 0; r < n; ++r) want |= 1u << (r % 32);
    CHECK(uo == want, "or unsigned");
    CHECK(__real__ zs == (float)n && __imag__ zs == (float)(n * (n - 1) / 2), "sum complex float");
    /* and, or, xor over the signed fixed-width types, which the bitwise generic names take too */
#define SIGNED_BITWISE(T, N)                                                                              \
    do {                                                                                                  \
        static T src_, and_, or_, xor_;                                                                   \
        src_ = (T)(me == 0 ? -1 : (1 << (me % 7)) | 1);                                                  \
        shmem_and_reduce(SHMEM_TEAM_WORLD, &and_, &src_, 1);                                              \
        shmem_or_reduce(SHMEM_TEAM_WORLD, &or_, &src_, 1);                                                \
        shmem_xor_reduce(SHMEM_TEAM_WORLD, &xor_, &src_, 1);                                              \
        T wa = (T)-1, wo = 0, wx = 0;                                                                     \
        for (int r = 0; r < n; ++r) {                                                                     \
            const T v = (T)(r == 0 ? -1 : (1 << (r % 7)) | 1);                                           \
            wa &= v;                                                                                      \
            wo |= v;                                                                                      \
            wx ^= v;                                                                                      \
        }                                                                                                 \
        CHECK(and_ == wa && or_ == wo && xor_ == wx, #N " and/or/xor %lld %lld %lld", (long long)and_,   \
              (long long)or_, (long long)xor_);                                                           \
    } while (0)
    SIGNED_BITWISE(int8_t, int8);
    SIGNED_BITWISE(int16_t, int16);
    SIGNED_BITWISE(int32_t, int32);
    SIGNED_BITWISE(int64_t, int64);
    (void)u;
    (void)z;
    if (me == 0) printf("generic collectives: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

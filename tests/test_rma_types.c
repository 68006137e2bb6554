/* Every typed RMA routine for every standard RMA type: put, get, p, g, iput, iget, put_nbi, get_nbi, and the
 * C11 generic names. Each PE writes to its right neighbour and reads from its left one; every element of every
 * transfer is checked on every PE, and the elements around each transfer must stay untouched. */
#include <string.h>

#include "check.h"

#define LEN 37 /* odd, so no transfer is a whole number of double words */
#define STRIDE 3

/* the value element i of PE pe's source holds in a round, converted to T the same way on both sides */
#define VAL(T, pe, i, round) ((T)(test_pattern((pe), (i), (round)) % 100))
#define GUARD(T) ((T)99)

/* One source, one target and one private buffer serve every type in turn (the types run one after the other),
 * so the static data is that of the largest type, not of all of them: a PE has 32 KB on Epiphany. */
#define BUFFER(T, N) T N##_[LEN * STRIDE + 2];
static union { SHMEM_RMA_TYPES(BUFFER) } src_buf, dst_buf, local_buf;

#define TEST_TYPE(T, N)                                                                                        \
    static void test_##N(int round)                                                                            \
    {                                                                                                          \
        const int me = shmem_my_pe(), n = shmem_n_pes();                                                       \
        const int right = (me + 1) % n, left = (me + n - 1) % n;                                               \
        T *const N##_src = src_buf.N##_, *const N##_dst = dst_buf.N##_, *const local = local_buf.N##_;         \
        for (size_t i = 0; i < LEN * STRIDE; ++i) N##_src[i] = VAL(T, me, i, round);                           \
        for (size_t i = 0; i < LEN * STRIDE + 2; ++i) N##_dst[i] = GUARD(T);                                   \
        shmem_barrier_all();                                                                                   \
        /* put into dst[1..LEN] of the right neighbour: dst[0] and dst[LEN+1] are guards */                    \
        shmem_##N##_put(N##_dst + 1, N##_src, LEN, right);                                                     \
        shmem_barrier_all();                                                                                   \
        CHECK(N##_dst[0] == GUARD(T) && N##_dst[LEN + 1] == GUARD(T), #N "_put wrote outside its target");     \
        for (size_t i = 0; i < LEN; ++i)                                                                       \
            CHECK(N##_dst[i + 1] == VAL(T, left, i, round), #N "_put element %zu", i);                         \
        /* get from the left neighbour's source */                                                             \
        memset(local, 0, LEN * STRIDE * sizeof(T));                                                            \
        shmem_##N##_get(local, N##_src, LEN, left);                                                            \
        for (size_t i = 0; i < LEN; ++i) CHECK(local[i] == VAL(T, left, i, round), #N "_get element %zu", i);  \
        shmem_barrier_all();                                                                                   \
        /* p and g: one element each way */                                                                    \
        shmem_##N##_p(&N##_dst[5], VAL(T, me, 1000, round), right);                                            \
        shmem_barrier_all();                                                                                   \
        CHECK(N##_dst[5] == VAL(T, left, 1000, round), #N "_p");                                               \
        CHECK(shmem_##N##_g(&N##_src[7], left) == VAL(T, left, 7, round), #N "_g");                            \
        shmem_barrier_all();                                                                                   \
        /* iput: source stride 1, target stride STRIDE; the elements in between must stay guards */            \
        for (size_t i = 0; i < LEN * STRIDE + 2; ++i) N##_dst[i] = GUARD(T);                                   \
        shmem_barrier_all();                                                                                   \
        shmem_##N##_iput(N##_dst, N##_src, STRIDE, 1, LEN, right);                                             \
        shmem_barrier_all();                                                                                   \
        for (size_t i = 0; i < LEN * STRIDE; ++i)                                                              \
            CHECK(N##_dst[i] == (i % STRIDE == 0 ? VAL(T, left, i / STRIDE, round) : GUARD(T)),                \
                  #N "_iput element %zu", i);                                                                  \
        /* iget: source stride STRIDE, local stride 2 */                                                       \
        for (size_t i = 0; i < LEN * STRIDE; ++i) local[i] = GUARD(T);                                         \
        shmem_##N##_iget(local, N##_src, 2, STRIDE, LEN, left);                                                \
        for (size_t i = 0; i < 2 * LEN; ++i)                                                                   \
            CHECK(local[i] == (i % 2 == 0 ? VAL(T, left, (i / 2) * STRIDE, round) : GUARD(T)),                 \
                  #N "_iget element %zu", i);                                                                  \
        shmem_barrier_all();                                                                                   \
        /* non-blocking forms, completed by quiet */                                                           \
        shmem_##N##_put_nbi(N##_dst, N##_src + 1, LEN, right);                                                 \
        shmem_quiet();                                                                                         \
        shmem_barrier_all();                                                                                   \
        for (size_t i = 0; i < LEN; ++i)                                                                       \
            CHECK(N##_dst[i] == VAL(T, left, i + 1, round), #N "_put_nbi element %zu", i);                     \
        memset(local, 0, LEN * STRIDE * sizeof(T));                                                            \
        shmem_##N##_get_nbi(local, N##_src + 2, LEN, left);                                                    \
        shmem_quiet();                                                                                         \
        for (size_t i = 0; i < LEN; ++i)                                                                       \
            CHECK(local[i] == VAL(T, left, i + 2, round), #N "_get_nbi element %zu", i);                       \
        shmem_barrier_all();                                                                                   \
    }

SHMEM_RMA_TYPES(TEST_TYPE)

/* the generic names select the routine of the pointed-to type */
static long gen_dst[4];
static double gen_ddst[4];
static void test_generic(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    long src[4] = {me, me + 1, me + 2, me + 3};
    const double dsrc[4] = {me + 0.5, me + 1.5, me + 2.5, me + 3.5};
    shmem_put(gen_dst, src, 4, right);
    shmem_put(gen_ddst, dsrc, 4, right);
    shmem_barrier_all();
    for (int i = 0; i < 4; ++i) CHECK(gen_dst[i] == left + i, "generic put long %d", i);
    for (int i = 0; i < 4; ++i) CHECK(gen_ddst[i] == left + i + 0.5, "generic put double %d", i);
    CHECK(shmem_g(&gen_dst[2], right) == me + 2, "generic g");
    shmem_barrier_all();
    shmem_p(&gen_ddst[1], -1.25, right);
    shmem_barrier_all();
    CHECK(gen_ddst[1] == -1.25, "generic p double");
}

int main(void)
{
    shmem_init();
    for (int round = 0; round < 2; ++round) {
#define RUN(T, N) test_##N(round);
        SHMEM_RMA_TYPES(RUN)
    }
    test_generic();
    if (shmem_my_pe() == 0) printf("rma types: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}

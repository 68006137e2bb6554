/* Point-to-point synchronization: shmem_TYPE_wait_until and shmem_TYPE_test for every sync type and every
 * comparison. A token goes around the ring (each PE waits for it, then passes it on), so every wait really
 * sleeps until a remote put arrives; test() must see the value exactly when it is there. */
#include "check.h"

#define TEST_SYNC(T, N)                                                                                       \
    static T N##_flag;                                                                                        \
    static void test_##N(void)                                                                                \
    {                                                                                                         \
        const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;                               \
        N##_flag = 0;                                                                                         \
        shmem_barrier_all();                                                                                  \
        /* token ring: PE 0 starts with 1; each PE waits for (its rank + 1), passes on rank + 2 */             \
        if (me == 0) {                                                                                        \
            N##_flag = 1;                                                                                     \
        } else {                                                                                              \
            shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_EQ, (T)(me + 1));                                     \
        }                                                                                                     \
        CHECK(N##_flag == (T)(me + 1), #N "_wait_until returned early");                                      \
        if (n > 1) shmem_##N##_p(&N##_flag, (T)(me + 2), right);                                              \
        if (me == 0 && n > 1) shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_EQ, (T)(n + 1));                    \
        shmem_barrier_all();                                                                                  \
        /* every comparison operator, with the value set remotely by the left neighbour */                    \
        N##_flag = 0;                                                                                         \
        shmem_barrier_all();                                                                                  \
        shmem_##N##_p(&N##_flag, (T)10, right);                                                               \
        shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_NE, (T)0);                                                \
        shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_GT, (T)9);                                                \
        shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_GE, (T)10);                                               \
        shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_LT, (T)11);                                               \
        shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_LE, (T)10);                                               \
        shmem_##N##_wait_until(&N##_flag, SHMEM_CMP_EQ, (T)10);                                               \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_EQ, (T)10) == 1, #N "_test EQ");                         \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_NE, (T)10) == 0, #N "_test NE");                         \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_GT, (T)10) == 0, #N "_test GT");                         \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_GE, (T)10) == 1, #N "_test GE");                         \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_LT, (T)10) == 0, #N "_test LT");                         \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_LE, (T)10) == 1, #N "_test LE");                         \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_LT, (T)11) == 1, #N "_test LT true");                    \
        CHECK(shmem_##N##_test(&N##_flag, SHMEM_CMP_GT, (T)9) == 1, #N "_test GT true");                     \
        shmem_barrier_all();                                                                                  \
    }
SHMEM_SYNC_TYPES(TEST_SYNC)

/* the generic names */
static long gen_flag;
static void test_generic(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    gen_flag = 0;
    shmem_barrier_all();
    shmem_long_p(&gen_flag, 42, (me + 1) % n);
    shmem_wait_until(&gen_flag, SHMEM_CMP_EQ, 42L);
    CHECK(shmem_test(&gen_flag, SHMEM_CMP_EQ, 42L) == 1, "generic test");
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
#define RUN(T, N) test_##N();
    SHMEM_SYNC_TYPES(RUN)
    test_generic();
    if (shmem_my_pe() == 0) printf("wait/test: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}

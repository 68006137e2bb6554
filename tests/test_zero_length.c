/* Zero-length operations with null pointers (OpenSHMEM 1.5, annex "Undefined Behavior": "len is 0, pointer is
 * null: supported"): every routine that takes a pointer and a length accepts them, does nothing to memory, and a
 * collective among them still synchronizes. A put-with-signal of no data still delivers its signal. With the
 * argument checks on, each of these calls used to end the run with status 134 ("dest = 0x0 (0 bytes) is not
 * symmetric"). */
#include <shmem.h>
#include <stdint.h>

#include "check.h"

static long guard[8];                     /* must stay untouched */
static long pSync[SHMEM_SYNC_SIZE];       /* the active-set forms still take a real pSync */
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static uint64_t sig;
static int counter;

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < 8; ++i) guard[i] = 1000 + i;
    shmem_barrier_all();

    /* remote memory access, every form */
    shmem_putmem(NULL, NULL, 0, right);
    shmem_getmem(NULL, NULL, 0, right);
    shmem_putmem_nbi(NULL, NULL, 0, right);
    shmem_getmem_nbi(NULL, NULL, 0, right);
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, NULL, NULL, 0, right);
    shmem_ctx_getmem_nbi(SHMEM_CTX_DEFAULT, NULL, NULL, 0, right);
    shmem_long_put(NULL, NULL, 0, right);
    shmem_long_get(NULL, NULL, 0, right);
    shmem_double_put_nbi(NULL, NULL, 0, right);
    shmem_char_get_nbi(NULL, NULL, 0, right);
    shmem_long_iput(NULL, NULL, 1, 1, 0, right);
    shmem_long_iget(NULL, NULL, 1, 1, 0, right);
    shmem_put64(NULL, NULL, 0, right);
    shmem_get32(NULL, NULL, 0, right);
    shmem_iput128(NULL, NULL, 2, 3, 0, right);
    shmem_iget16(NULL, NULL, 1, 1, 0, right);
    shmem_put8_nbi(NULL, NULL, 0, right);
    shmem_quiet();

    /* put-with-signal: no data, but the signal arrives */
    shmem_putmem_signal(NULL, NULL, 0, &sig, 5, SHMEM_SIGNAL_SET, right);
    shmem_long_put_signal_nbi(NULL, NULL, 0, &sig, 2, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 7);

    /* point-to-point synchronization on an empty set */
    CHECK(shmem_int_test_any(NULL, 0, NULL, SHMEM_CMP_EQ, 0) == SIZE_MAX, "test_any on no ivars");
    CHECK(shmem_int_test_some(NULL, 0, NULL, NULL, SHMEM_CMP_EQ, 0) == 0, "test_some on no ivars");
    shmem_int_wait_until_all(NULL, 0, NULL, SHMEM_CMP_EQ, 0);
    CHECK(shmem_long_wait_until_any_vector(NULL, 0, NULL, SHMEM_CMP_EQ, NULL) == SIZE_MAX, "wait_until_any");

    /* team collectives: no data, still collective (each ends after every PE has entered) */
    shmem_int_atomic_inc(&counter, 0);
    CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0) == 0, "broadcastmem");
    CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, NULL, NULL, 0, n - 1) == 0, "long_broadcast");
    CHECK(shmem_collectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "collectmem");
    CHECK(shmem_int_collect(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "int_collect");
    CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "fcollectmem");
    CHECK(shmem_double_fcollect(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "double_fcollect");
    CHECK(shmem_alltoallmem(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "alltoallmem");
    CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "long_alltoall");
    CHECK(shmem_alltoallsmem(SHMEM_TEAM_WORLD, NULL, NULL, 1, 1, 0) == 0, "alltoallsmem");
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "long_sum_reduce");
    CHECK(shmem_uint_and_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "uint_and_reduce");
    CHECK(shmem_double_max_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "double_max_reduce");
    CHECK(shmem_int_atomic_fetch(&counter, 0) == n, "a collective of no data returned before every PE entered");

    /* the deprecated active-set forms, over every PE */
    shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, n, pSync);
    shmem_collect32(NULL, NULL, 0, 0, 0, n, pSync);
    shmem_fcollect64(NULL, NULL, 0, 0, 0, n, pSync);
    shmem_alltoall32(NULL, NULL, 0, 0, 0, n, pSync);
    shmem_alltoalls64(NULL, NULL, 1, 1, 0, 0, 0, n, pSync);
    shmem_long_sum_to_all(NULL, NULL, 0, 0, 0, n, pWrk, pSync);

    /* the heap */
    shmem_free(NULL);

    shmem_barrier_all();
    for (int i = 0; i < 8; ++i) CHECK(guard[i] == 1000 + i, "guard[%d] = %ld", i, guard[i]);
    if (me == 0) printf("zero_length: %d PEs passed\n", n);
    shmem_finalize();
    return 0;
}

/* Distributed locks.
 *  - mutual exclusion: every PE takes one lock L times and, inside it, increments a counter on PE 0 with a
 *    non-atomic get, +1, put, quiet; the total must be exactly n * L, and the log of holders (written inside
 *    the lock) must show every PE exactly L times;
 *  - FIFO: PE 0 holds a lock while PEs 1, 2, ..., n-1 queue up one after the other; they must get it in exactly
 *    that order (white box: a PE waits until its predecessor's enqueue is visible in the lock's tail);
 *  - shmem_test_lock: 1 while another PE holds the lock (and never waits), 0 when it takes it, exactly one taker
 *    when all try at once;
 *  - several locks at once: M locks, each guarding its own counter, taken one at a time and two at a time
 *    (nested, in a global order), and their queues' homes are spread over the PEs. */
#include "check.h"

#define L 40
#define M 7
#define MAX_LOG (TEST_MAX_PES * L)

static long lock_a, lock_fifo, lock_t;
static long locks[M];
static long counter, counters[M];
static int holders[MAX_LOG];
static int order[TEST_MAX_PES], order_next;
static int go;

static void mutual_exclusion(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < L; ++i) {
        shmem_set_lock(&lock_a);
        const long c = shmem_long_g(&counter, 0);
        shmem_int_p(&holders[c], me, 0);
        shmem_long_p(&counter, c + 1, 0);
        shmem_quiet();
        shmem_clear_lock(&lock_a);
    }
    shmem_barrier_all();
    CHECK(shmem_long_g(&counter, 0) == (long)n * L, "counter %ld, expected %d", shmem_long_g(&counter, 0), n * L);
    if (me == 0) {
        int times[TEST_MAX_PES] = {0};
        for (int i = 0; i < n * L; ++i) ++times[holders[i]];
        for (int p = 0; p < n; ++p) CHECK(times[p] == L, "PE %d held the lock %d times, expected %d", p, times[p], L);
    }
    shmem_barrier_all();
}

/* The PE + 1 in the tail field of the lock's copy on its home PE (zero on every other PE): see src/lock.cpp,
 * whose tail is the low 32 bits of an 8-byte long, or the low 16 bits of a 4-byte long (Epiphany), the rest of
 * the word being the PE's own queue node. */
static uint32_t tail_of(long *lock, int home)
{
    const unsigned long word = (unsigned long)shmem_long_g(lock, home);
    return sizeof(long) == 8 ? (uint32_t)word : (uint32_t)(word & 0xffffu);
}

static int find_home(long *lock)
{
    for (int p = 0; p < shmem_n_pes(); ++p)
        if (tail_of(lock, p) != 0) return p;
    return -1;
}

static void fifo(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    go = 0;
    order_next = 0;
    shmem_barrier_all();
    if (me == 0) shmem_set_lock(&lock_fifo);
    shmem_barrier_all();
    const int home = find_home(&lock_fifo);
    CHECK(home >= 0 && tail_of(&lock_fifo, home) == 1, "PE 0 holds the lock, but no home PE has tail 1");
    shmem_barrier_all();
    if (n > 1) {
        /* PE k waits for its turn (PE k-1 is about to enqueue) and for PE k-1's enqueue to show in the tail,
         * then gives PE k+1 its turn and enqueues itself; PE 0, the holder, waits the same way for PE n-1. */
        if (me == 0) shmem_int_p(&go, 1, 1);
        shmem_int_wait_until(&go, SHMEM_CMP_EQ, 1);
        const uint32_t before_me = me == 0 ? (uint32_t)n : (uint32_t)me;
        while (tail_of(&lock_fifo, home) != before_me) {
        } /* a few loads at most: the predecessor announced itself just before its swap */
        if (me != 0) {
            shmem_int_p(&go, 1, (me + 1) % n);
            shmem_set_lock(&lock_fifo);
        }
    }
    shmem_int_p(&order[shmem_int_atomic_fetch_inc(&order_next, 0)], me, 0);
    shmem_quiet();
    shmem_clear_lock(&lock_fifo);
    shmem_barrier_all();
    if (me == 0)
        for (int i = 0; i < n; ++i) CHECK(order[i] == i, "position %d of the queue went to PE %d", i, order[i]);
    shmem_barrier_all();
}

static int takers;
static long counter2;
static void test_lock(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    takers = 0;
    counter2 = 0;
    shmem_barrier_all();
    if (me == n - 1) CHECK(shmem_test_lock(&lock_t) == 0, "test_lock of a free lock");
    shmem_barrier_all();
    if (me != n - 1) CHECK(shmem_test_lock(&lock_t) == 1, "test_lock of a lock PE %d holds", n - 1);
    shmem_barrier_all();
    if (me == n - 1) shmem_clear_lock(&lock_t);
    shmem_barrier_all();
    /* all at once: exactly one takes it, the others are told it is held */
    const int took = shmem_test_lock(&lock_t) == 0;
    if (took) shmem_int_atomic_inc(&takers, 0);
    shmem_barrier_all();
    CHECK(shmem_int_atomic_fetch(&takers, 0) == 1, "%d PEs took the lock at once", shmem_int_atomic_fetch(&takers, 0));
    shmem_barrier_all();
    if (took) shmem_clear_lock(&lock_t);
    /* test_lock and set_lock mixed on one lock: still mutual exclusion, and test_lock never breaks the queue */
    for (int i = 0; i < L; ++i) {
        if (shmem_test_lock(&lock_t) != 0) shmem_set_lock(&lock_t);
        shmem_long_p(&counter2, shmem_long_g(&counter2, 0) + 1, 0);
        shmem_quiet();
        shmem_clear_lock(&lock_t);
    }
    shmem_barrier_all();
    CHECK(shmem_long_g(&counter2, 0) == (long)n * L, "test/set mix: counter %ld", shmem_long_g(&counter2, 0));
    shmem_barrier_all();
}

static void several(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    for (int j = 0; j < M; ++j) counters[j] = 0;
    shmem_barrier_all();
    for (int r = 0; r < L; ++r) {
        const int a = (me + r) % M, b = (a + 3) % M, lo = a < b ? a : b, hi = a < b ? b : a;
        shmem_set_lock(&locks[a]);
        shmem_long_p(&counters[a], shmem_long_g(&counters[a], a % n) + 1, a % n);
        shmem_quiet();
        shmem_clear_lock(&locks[a]);
        shmem_set_lock(&locks[lo]); /* two at once, in one global order */
        shmem_set_lock(&locks[hi]);
        shmem_long_p(&counters[lo], shmem_long_g(&counters[lo], lo % n) + 1, lo % n);
        shmem_long_p(&counters[hi], shmem_long_g(&counters[hi], hi % n) + 1, hi % n);
        shmem_quiet();
        shmem_clear_lock(&locks[hi]);
        shmem_clear_lock(&locks[lo]);
    }
    shmem_barrier_all();
    long expected[M] = {0};
    for (int p = 0; p < n; ++p)
        for (int r = 0; r < L; ++r) {
            const int a = (p + r) % M;
            expected[a] += 2;
            expected[(a + 3) % M] += 1;
        }
    for (int j = 0; j < M; ++j)
        CHECK(shmem_long_g(&counters[j], j % n) == expected[j], "lock %d: counter %ld, expected %ld", j,
              shmem_long_g(&counters[j], j % n), expected[j]);
    shmem_barrier_all();
    /* the homes of the M locks (white box): with 4 PEs or more they are not all one PE */
    if (me == 0) {
        int homes = 0, first = -1;
        for (int j = 0; j < M; ++j) shmem_set_lock(&locks[j]);
        for (int j = 0; j < M; ++j) {
            const int h = find_home(&locks[j]);
            CHECK(h >= 0, "lock %d held, but no home has a tail", j);
            if (first < 0) first = h;
            homes += h != first;
        }
        for (int j = 0; j < M; ++j) shmem_clear_lock(&locks[j]);
        CHECK(n < 4 || homes > 0, "all %d locks live on PE %d", M, first);
    }
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    CHECK(shmem_n_pes() <= TEST_MAX_PES, "this test runs on at most %d PEs", TEST_MAX_PES);
    mutual_exclusion();
    fifo();
    test_lock();
    several();
    if (shmem_my_pe() == 0) printf("lock: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}

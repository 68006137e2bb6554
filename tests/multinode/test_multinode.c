/* A run across nodes (oshrun --nodes K): what differs from a run on one node, checked from every PE.
 *  - shmem_ptr and shmem_team_ptr give an address for the PEs of this PE's node and NULL for the others;
 *  - SHMEM_TEAM_SHARED is this PE's node: a contiguous range of PEs holding this one, the same on all of them;
 *  - puts, gets, AMOs and put-with-signal reach every PE, on this node or another, in every direction at once,
 *    with shmem_quiet completing them and shmem_barrier_all ordering them;
 *  - a reduction on SHMEM_TEAM_SHARED (one node) and on SHMEM_TEAM_WORLD (every node) gives the sum;
 *  - the symmetric heap is symmetric across nodes;
 *  - a broadcast and a collect of more than a network message's 1 MiB reach every PE whole (in pieces), and a
 *    reduction larger than the teams' work area (in chunks) gives the sum;
 *  - a PE that polls with shmem_int_test (no wait, no progress of its own) still answers a get and takes a put.
 * The node layout comes from oshrun's environment (SHMEM_LINUX_NODE_FIRST/NPES), or under a PMIx launcher on one
 * machine from SHMEM_LINUX_EMULATED_NODES: the test checks the library's view against it (under a PMIx launcher
 * across machines, SHMEM_TEAM_SHARED is taken as the node, and the rest is checked against it). */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 1000

static long data[N];
static long table[TEST_MAX_PES];
static long counter;
static uint64_t bits;
static uint64_t sig;
static long got[N];
static long strided[N];

static int env_int(const char *name, int otherwise)
{
    const char *v = getenv(name);
    return v != NULL ? atoi(v) : otherwise;
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n <= TEST_MAX_PES, "%d PEs: the test's tables hold %d", n, TEST_MAX_PES);
    int first = env_int("SHMEM_LINUX_NODE_FIRST", 0), count = env_int("SHMEM_LINUX_NODE_NPES", n);
    const int emulated = env_int("SHMEM_LINUX_EMULATED_NODES", 0);  /* under a PMIx launcher on one machine */
    if (getenv("SHMEM_LINUX_NODE_FIRST") == NULL && emulated >= 1 && emulated <= n) {
        first = 0;
        for (int j = 0;; ++j) {
            count = n / emulated + (j < n % emulated ? 1 : 0);
            if (me < first + count) break;
            first += count;
        }
    } else if (getenv("SHMEM_LINUX_NODE_FIRST") == NULL && getenv("PMIX_RANK") != NULL) {
        /* a real launch across machines: the node is what SHMEM_TEAM_SHARED says, and the rest must agree */
        first = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
        count = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    }

    /* The library's view of the node. */
    for (int pe = 0; pe < n; ++pe) {
        const int local = pe >= first && pe < first + count;
        void *p = shmem_ptr(data, pe);
        CHECK((p != NULL) == local, "shmem_ptr(data, %d) = %p; PE %d is %s this PE's node (PEs %d..%d)", pe, p, pe,
              local ? "on" : "not on", first, first + count - 1);
    }
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == count, "SHMEM_TEAM_SHARED has %d PEs; the node has %d",
          shmem_team_n_pes(SHMEM_TEAM_SHARED), count);
    CHECK(shmem_team_my_pe(SHMEM_TEAM_SHARED) == me - first, "this PE is %d of SHMEM_TEAM_SHARED; expected %d",
          shmem_team_my_pe(SHMEM_TEAM_SHARED), me - first);
    for (int r = 0; r < count; ++r) {
        const int w = shmem_team_translate_pe(SHMEM_TEAM_SHARED, r, SHMEM_TEAM_WORLD);
        CHECK(w == first + r, "SHMEM_TEAM_SHARED's PE %d is world PE %d; expected %d", r, w, first + r);
        CHECK(shmem_team_ptr(SHMEM_TEAM_SHARED, data, r) != NULL, "shmem_team_ptr(SHARED, data, %d) is NULL", r);
    }

    /* Puts: every PE writes its row into every PE's table, and a block into its right neighbour's data. */
    for (int round = 0; round < 3; ++round) {
        for (int pe = 0; pe < n; ++pe) shmem_long_p(&table[me], (long)test_pattern(me, (size_t)pe, round), pe);
        long block[N];
        for (size_t i = 0; i < N; ++i) block[i] = (long)test_pattern(me, i, round);
        shmem_long_put(data, block, N, (me + 1) % n);
        shmem_barrier_all();
        for (int pe = 0; pe < n; ++pe)
            CHECK(table[pe] == (long)test_pattern(pe, (size_t)me, round), "round %d: table[%d] = %ld", round, pe,
                  table[pe]);
        const int left = (me + n - 1) % n;
        for (size_t i = 0; i < N; ++i)
            CHECK(data[i] == (long)test_pattern(left, i, round), "round %d: data[%zu] = %ld from PE %d", round, i,
                  data[i], left);
        /* Gets: the left neighbour's block, element by element and at once, and every PE's table row. */
        shmem_long_get(got, data, N, left);
        const int left2 = (left + n - 1) % n;
        for (size_t i = 0; i < N; ++i)
            CHECK(got[i] == (long)test_pattern(left2, i, round), "round %d: got[%zu] = %ld", round, i, got[i]);
        for (int pe = 0; pe < n; ++pe) {
            const long v = shmem_long_g(&table[pe], pe);
            CHECK(v == (long)test_pattern(pe, (size_t)pe, round), "round %d: PE %d's table[%d] = %ld", round, pe, pe, v);
        }
        /* Strided: every other element of this PE's block into every other one of the right neighbour's. */
        shmem_long_iput(strided, data, 2, 2, N / 2, (me + 1) % n);
        shmem_barrier_all();
        for (size_t i = 0; i < N; i += 2)
            CHECK(strided[i] == (long)test_pattern(left2, i, round), "round %d: strided[%zu] = %ld", round, i,
                  strided[i]);
        shmem_barrier_all();
    }

    /* AMOs: every PE adds to every PE's counter, sets its own bit everywhere, and takes a ticket from PE 0. */
    counter = 0;
    bits = 0;
    shmem_barrier_all();
    long ticket = -1;
    for (int pe = 0; pe < n; ++pe) {
        shmem_long_atomic_add(&counter, me + 1, pe);
        shmem_uint64_atomic_or(&bits, (uint64_t)1 << (me % 64), pe);
    }
    ticket = shmem_long_atomic_fetch_inc(&table[0], 0);
    shmem_barrier_all();
    CHECK(counter == (long)n * (n + 1) / 2, "counter = %ld; expected %ld", counter, (long)n * (n + 1) / 2);
    const uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    CHECK(bits == all, "bits = %#llx; expected %#llx", (unsigned long long)bits, (unsigned long long)all);
    const long base = (long)test_pattern(0, 0, 2);
    CHECK(ticket >= base && ticket < base + n, "ticket %ld outside [%ld, %ld)", ticket, base, base + n);
    const long last = shmem_long_atomic_fetch(&table[0], 0);
    CHECK(last == base + n, "PE 0's ticket counter = %ld; expected %ld", last, base + n);
    shmem_barrier_all();
    /* Compare-and-swap: PE k swaps in its number where the right neighbour's word holds the left one's. */
    counter = me;
    shmem_barrier_all();
    const int right = (me + 1) % n;
    const long old = shmem_long_atomic_compare_swap(&counter, right, -me - 1, right);
    CHECK(old == right, "compare_swap on PE %d found %ld", right, old);
    shmem_barrier_all();
    CHECK(counter == -((me + n - 1) % n) - 1, "counter = %ld after the left neighbour's compare_swap", counter);

    /* Put-with-signal: the data is there when the signal is. */
    sig = 0;
    shmem_barrier_all();
    long block[N];
    for (size_t i = 0; i < N; ++i) block[i] = (long)test_pattern(me, i, 7);
    shmem_long_put_signal(data, block, N, &sig, (uint64_t)me + 1, SHMEM_SIGNAL_SET, (me + 1) % n);
    shmem_signal_wait_until(&sig, SHMEM_CMP_NE, 0);
    const int left = (me + n - 1) % n;
    CHECK(sig == (uint64_t)left + 1, "signal %llu; expected %d", (unsigned long long)sig, left + 1);
    for (size_t i = 0; i < N; ++i)
        CHECK(data[i] == (long)test_pattern(left, i, 7), "data[%zu] = %ld with the signal", i, data[i]);

    /* A collective on the node's team. */
    static long one = 1, sum;
    shmem_long_sum_reduce(SHMEM_TEAM_SHARED, &sum, &one, 1);
    CHECK(sum == count, "sum over SHMEM_TEAM_SHARED = %ld; expected %d", sum, count);
    static long mine, total;
    mine = me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total, &mine, 1);
    CHECK(total == (long)n * (n + 1) / 2, "sum over SHMEM_TEAM_WORLD = %ld; expected %ld", total, (long)n * (n + 1) / 2);

    /* The symmetric heap across nodes. */
    long *h = shmem_malloc(64 * sizeof(long));
    CHECK(h != NULL, "shmem_malloc");
    shmem_long_p(&h[me % 64], me, right);
    shmem_barrier_all();
    CHECK(h[left % 64] == left, "heap word %d = %ld from PE %d", left % 64, h[left % 64], left);
    shmem_free(h);

    /* Large collectives from the heap: a broadcast of 3 MiB + 5 bytes from the last PE; a collect in which PE 0
     * gives 1 MiB + 3 bytes and the others 7 bytes each; a sum of 5,000 longs (the teams' work area holds 2 KiB). */
    const size_t big = ((size_t)3 << 20) + 5, first_block = ((size_t)1 << 20) + 3, other_block = 7;
    const size_t gathered = first_block + (size_t)(n - 1) * other_block;
    unsigned char *bsrc = shmem_malloc(big), *bdst = shmem_malloc(big);
    unsigned char *csrc = shmem_malloc(first_block), *cdst = shmem_malloc(gathered);
    long *rsrc = shmem_malloc(5000 * sizeof(long)), *rdst = shmem_malloc(5000 * sizeof(long));
    CHECK(bsrc && bdst && csrc && cdst && rsrc && rdst, "shmem_malloc of the large collectives' arrays");
    for (size_t i = 0; i < big; ++i) bsrc[i] = (unsigned char)test_pattern(me, i, 11);
    memset(bdst, 0, big);
    const size_t mine_block = me == 0 ? first_block : other_block;
    for (size_t i = 0; i < mine_block; ++i) csrc[i] = (unsigned char)test_pattern(me, i, 13);
    for (int i = 0; i < 5000; ++i) rsrc[i] = (long)i * (me + 1);
    shmem_barrier_all();
    CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, bdst, bsrc, big, n - 1) == 0, "shmem_broadcastmem of %zu bytes", big);
    for (size_t i = 0; i < big; ++i)
        CHECK(bdst[i] == (unsigned char)test_pattern(n - 1, i, 11), "broadcast byte %zu = %d", i, bdst[i]);
    CHECK(shmem_collectmem(SHMEM_TEAM_WORLD, cdst, csrc, mine_block) == 0, "shmem_collectmem");
    for (int pe = 0; pe < n; ++pe) {
        const size_t at = pe == 0 ? 0 : first_block + (size_t)(pe - 1) * other_block;
        const size_t len = pe == 0 ? first_block : other_block;
        for (size_t i = 0; i < len; ++i)
            CHECK(cdst[at + i] == (unsigned char)test_pattern(pe, i, 13), "collected byte %zu of PE %d = %d", i, pe,
                  cdst[at + i]);
    }
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, rdst, rsrc, 5000) == 0, "shmem_long_sum_reduce of 5000");
    for (int i = 0; i < 5000; ++i)
        CHECK(rdst[i] == (long)i * n * (n + 1) / 2, "sum[%d] = %ld; expected %ld", i, rdst[i], (long)i * n * (n + 1) / 2);
    shmem_barrier_all();
    shmem_free(rdst), shmem_free(rsrc), shmem_free(cdst), shmem_free(csrc), shmem_free(bdst), shmem_free(bsrc);

    /* Progress without the target: PE 0 polls a flag with shmem_int_test, which reads its memory and calls nothing
     * else, while the last PE (on another node) reads PE 0's heap word and data and then sets the flag. Over a
     * transport that emulates RMA (TCP), PE 0's progress thread (SHMEM_PROGRESS_INTERVAL) is what answers both. */
    static int away;
    static long answer;
    answer = 1000 + me;
    shmem_barrier_all();
    if (n > 1 && me == n - 1) {
        const long a = shmem_long_g(&answer, 0);
        CHECK(a == 1000, "PE 0's answer = %ld while it polls; expected 1000", a);
        shmem_int_p(&away, 1, 0);
        shmem_quiet();
    } else if (n > 1 && me == 0) {
        unsigned long looks = 0;
        while (!shmem_int_test(&away, SHMEM_CMP_EQ, 1)) ++looks;
        CHECK(away == 1, "away = %d after %lu looks", away, looks);
    }
    shmem_barrier_all();

    shmem_finalize();
    return 0;
}

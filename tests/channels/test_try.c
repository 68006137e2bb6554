/* try_send / try_recv / try_recv_any: they never block and say whether they did anything.
 *
 * Part 1, on a ring (ring[p]: PE p -> right neighbour, K = 3; PE to itself at one PE): an empty channel gives 0
 * and leaves *value alone; K try_sends into an empty channel succeed and the next one finds it full; the
 * receiver then takes exactly those K values in order; once they are taken the sender has room again.
 * Part 2 (two PEs or more): a blocking send into a full channel returns only after the receiver took a value.
 * Part 3: try_recv_any over the channels to PE 0. */
#include <shmem.h>
#include <shmemx.h>

#include "check.h"

#define SLOTS 3

static shmemx_channel_t *ring, pair_ch, *to_root;
static int released;

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int left = (me + n - 1) % n;
    ring = shmem_malloc((size_t)n * sizeof *ring);
    to_root = shmem_malloc((size_t)n * sizeof *to_root);
    CHECK(ring != NULL && to_root != NULL, "shmem_malloc");

    /* ---- part 1 */
    for (int p = 0; p < n; ++p) shmemx_channel_init(&ring[p], p, (p + 1) % n, SLOTS);
    shmem_barrier_all();
    uint64_t v = 12345;
    CHECK(shmemx_channel_try_recv(&ring[left], &v) == 0 && v == 12345, "empty channel: try_recv gave %llu",
          (unsigned long long)v);
    shmem_barrier_all(); /* every PE saw its channel empty before anybody sends */
    for (int i = 0; i < SLOTS; ++i)
        CHECK(shmemx_channel_try_send(&ring[me], 100u * (unsigned)me + (unsigned)i) == 1, "try_send %d of %d into "
              "an empty channel failed", i, SLOTS);
    CHECK(shmemx_channel_try_send(&ring[me], 999) == 0, "try_send into a full channel (%d values) succeeded", SLOTS);
    shmem_barrier_all();
    for (int i = 0; i < SLOTS; ++i) {
        CHECK(shmemx_channel_try_recv(&ring[left], &v) == 1, "try_recv %d of %d failed", i, SLOTS);
        CHECK(v == 100u * (unsigned)left + (unsigned)i, "value %d is %llu; expected %u", i, (unsigned long long)v,
              100u * (unsigned)left + (unsigned)i);
    }
    v = 12345;
    CHECK(shmemx_channel_try_recv(&ring[left], &v) == 0 && v == 12345, "drained channel: try_recv gave %llu",
          (unsigned long long)v);
    shmem_barrier_all(); /* the values are taken (and handed back): the senders have room again */
    CHECK(shmemx_channel_try_send(&ring[me], 7) == 1, "try_send after the receiver emptied the channel failed");
    shmem_barrier_all();
    CHECK(shmemx_channel_try_recv(&ring[left], NULL) == 1, "try_recv with value = NULL failed");
    CHECK(shmemx_channel_try_recv(&ring[left], &v) == 0, "try_recv with value = NULL did not take the value");
    shmem_barrier_all();

    /* ---- part 2: PE 0 -> PE 1 */
    if (n >= 2) {
        if (me <= 1) shmemx_channel_init(&pair_ch, 0, 1, 2);
        shmem_barrier_all();
        static int ready;
        if (me == 0) {
            shmemx_channel_send(&pair_ch, 1);
            shmemx_channel_send(&pair_ch, 2);
            CHECK(shmemx_channel_try_send(&pair_ch, 0) == 0, "PE 0 -> 1: a full channel took a third value");
            shmem_int_p(&ready, 1, 1);
            shmemx_channel_send(&pair_ch, 3); /* full: returns once PE 1 has taken value 1 */
            CHECK(__atomic_load_n(&released, __ATOMIC_ACQUIRE) == 1, "a send into a full channel returned before "
                  "the receiver took a value");
        } else if (me == 1) {
            shmem_int_wait_until(&ready, SHMEM_CMP_EQ, 1);
            shmem_int_p(&released, 1, 0); /* stored before the first value is taken (and its slot handed back) */
            for (uint64_t i = 1; i <= 3; ++i) {
                const uint64_t got = shmemx_channel_recv(&pair_ch);
                CHECK(got == i, "PE 0 -> 1: value %llu; expected %llu", (unsigned long long)got, (unsigned long long)i);
            }
        }
        shmem_barrier_all();
    }

    /* ---- part 3: every PE -> PE 0, try_recv_any */
    for (int p = 0; p < n; ++p) shmemx_channel_init(&to_root[p], p, 0, 1);
    shmemx_channel_set_t set;
    int index = -7;
    if (me == 0) {
        shmemx_channel_set_init(&set, to_root, n);
        v = 12345;
        CHECK(shmemx_channel_try_recv_any(&set, &v, &index) == 0 && v == 12345 && index == -7,
              "empty set: try_recv_any gave %llu from %d", (unsigned long long)v, index);
    }
    shmem_barrier_all();
    if (me == n - 1) CHECK(shmemx_channel_try_send(&to_root[me], 4242) == 1, "try_send to PE 0 failed");
    shmem_barrier_all();
    if (me == 0) {
        CHECK(shmemx_channel_try_recv_any(&set, &v, &index) == 1, "try_recv_any missed PE %d's value", n - 1);
        CHECK(v == 4242 && index == n - 1, "try_recv_any gave %llu from %d; expected 4242 from %d",
              (unsigned long long)v, index, n - 1);
        CHECK(shmemx_channel_try_recv_any(&set, &v, NULL) == 0, "try_recv_any found a second value");
    }
    shmem_barrier_all();
    if (me == 0) printf("try: %d PEs: ok\n", n);
    shmem_free(to_root);
    shmem_free(ring);
    shmem_finalize();
    return 0;
}

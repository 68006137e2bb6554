/* K-slot streaming for K = 1, 2, 4, 8 (and 5, not a power of two), thousands of values per channel.
 *
 * Part 1, one-way streams: PE 2j streams COUNT values to PE 2j+1 (an odd PE count leaves the last PE out, one
 * PE streams to itself in rounds of K). The receiver sometimes works for a while between receives, so the
 * sender finds every slot full and has to sleep until one is handed back.
 *
 * Part 2, a pipelined ring: every PE first sends K values to its right neighbour, then alternately receives
 * one from its left and sends the next, so K values per link are in flight all the time and sends block on
 * full channels while receives block on empty ones.
 *
 * Every received value carries its sender, K and its sequence number, and is checked against the next one
 * expected: each value arrives exactly once and in order. */
#include <shmem.h>
#include <shmemx.h>

#include "check.h"

#define COUNT 3000

static shmemx_channel_t stream_ch, *ring;
static volatile uint64_t sink;

static uint64_t value(int pe, int slots, int seq)
{
    return ((uint64_t)pe << 48) | ((uint64_t)slots << 40) | (uint64_t)seq;
}

/* Some work that is not waiting (the receiver is busy, the sender runs ahead and fills the slots). */
static void work(int units)
{
    for (int i = 0; i < units; ++i) sink = sink * 6364136223846793005ull + 1442695040888963407ull;
}

static void expect(uint64_t got, int from, int slots, int seq, const char *part)
{
    CHECK(got == value(from, slots, seq), "%s K=%d: value %d from PE %d is %#llx (PE %d, K %d, seq %d); expected %#llx",
          part, slots, seq, from, (unsigned long long)got, (int)(got >> 48), (int)((got >> 40) & 0xff),
          (int)(got & 0xffffffffff), (unsigned long long)value(from, slots, seq));
}

static void one_way(int slots)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (n == 1) {
        /* a PE's channel to itself: at most K values may wait in it */
        shmemx_channel_init(&stream_ch, 0, 0, slots);
        for (int seq = 0; seq < COUNT;) {
            const int burst = seq + slots <= COUNT ? slots : COUNT - seq;
            for (int i = 0; i < burst; ++i) shmemx_channel_send(&stream_ch, value(0, slots, seq + i));
            CHECK(shmemx_channel_try_send(&stream_ch, 0) == 0, "K=%d: a full channel took one more", slots);
            for (int i = 0; i < burst; ++i) expect(shmemx_channel_recv(&stream_ch), 0, slots, seq + i, "self");
            seq += burst;
        }
        return;
    }
    const int pair = me & ~1, in_pair = pair + 1 < n;
    if (in_pair) shmemx_channel_init(&stream_ch, pair, pair + 1, slots);
    shmem_barrier_all();
    if (in_pair && me == pair) {
        for (int seq = 0; seq < COUNT; ++seq) shmemx_channel_send(&stream_ch, value(me, slots, seq));
    } else if (in_pair) {
        for (int seq = 0; seq < COUNT; ++seq) {
            expect(shmemx_channel_recv(&stream_ch), pair, slots, seq, "one-way");
            if (seq % 97 == 0) work(200 + 50 * (seq % 7));
        }
    }
    shmem_barrier_all();
}

static void pipelined_ring(int slots)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int left = (me + n - 1) % n;
    for (int p = 0; p < n; ++p) shmemx_channel_init(&ring[p], p, (p + 1) % n, slots); /* ring[p]: p -> p + 1 */
    shmem_barrier_all();
    int sent = 0;
    while (sent < slots) shmemx_channel_send(&ring[me], value(me, slots, sent++));
    for (int seq = 0; seq < COUNT; ++seq) {
        expect(shmemx_channel_recv(&ring[left]), left, slots, seq, "ring");
        if (sent < COUNT) shmemx_channel_send(&ring[me], value(me, slots, sent++));
        if (seq % 113 == me % 5) work(100 * (1 + me % 3));
    }
    uint64_t extra;
    CHECK(shmemx_channel_try_recv(&ring[left], &extra) == 0, "ring K=%d: an extra value %#llx", slots,
          (unsigned long long)extra);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    const int n = shmem_n_pes();
    ring = shmem_malloc((size_t)n * sizeof *ring);
    CHECK(ring != NULL, "shmem_malloc of %d channels", n);
    const int kinds[] = {1, 2, 4, 8, 5};
    for (int k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); ++k) {
        one_way(kinds[k]);
        pipelined_ring(kinds[k]);
    }
    if (shmem_my_pe() == 0) printf("stream: %d values per channel at K = 1, 2, 4, 8, 5 on %d PEs: ok\n", COUNT, n);
    shmem_free(ring);
    shmem_finalize();
    return 0;
}

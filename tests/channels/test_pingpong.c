/* Ping-pong between neighbours over one-slot and K-slot channels. In round r every PE pings its right
 * neighbour with (its PE, K, r), answers its left neighbour's ping with the ping's complement, then waits for
 * its own pong. Each PE checks every ping and pong it receives against the one of this round from the expected
 * PE, so a lost, doubled, stale or reordered message fails. At one PE every channel is the PE's channel to
 * itself. */
#include <shmem.h>
#include <shmemx.h>

#include "check.h"

#define ROUNDS 500

static uint64_t ping_value(int pe, int slots, int r)
{
    return ((uint64_t)pe << 40) | ((uint64_t)slots << 32) | (uint64_t)r;
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    /* A channel has one sender and one receiver, so the ring needs one object per link: ping[p] carries PE p's
     * pings to right(p), pong[p] carries right(p)'s answers back to p. Initialisation is local; every PE
     * initialises all of them (only the endpoints would have to). */
    shmemx_channel_t *ping = shmem_malloc((size_t)n * sizeof *ping);
    shmemx_channel_t *pong = shmem_malloc((size_t)n * sizeof *pong);
    CHECK(ping != NULL && pong != NULL, "shmem_malloc of %d channels", 2 * n);

    const int kinds[] = {1, 2, 3, SHMEMX_CHANNEL_MAX_SLOTS};
    for (int k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); ++k) {
        const int slots = kinds[k];
        for (int p = 0; p < n; ++p) {
            shmemx_channel_init(&ping[p], p, (p + 1) % n, slots);
            shmemx_channel_init(&pong[p], (p + 1) % n, p, slots);
        }
        shmem_barrier_all(); /* both endpoints initialised before the first send */
        for (int r = 0; r < ROUNDS; ++r) {
            shmemx_channel_send(&ping[me], ping_value(me, slots, r));
            const uint64_t got = shmemx_channel_recv(&ping[left]);
            CHECK(got == ping_value(left, slots, r), "K=%d round %d: ping from PE %d is %#llx, expected %#llx", slots,
                  r, left, (unsigned long long)got, (unsigned long long)ping_value(left, slots, r));
            shmemx_channel_send(&pong[left], ~got);
            const uint64_t back = shmemx_channel_recv(&pong[me]);
            CHECK(back == ~ping_value(me, slots, r), "K=%d round %d: pong from PE %d is %#llx, expected %#llx",
                  slots, r, right, (unsigned long long)back, (unsigned long long)~ping_value(me, slots, r));
        }
        /* nothing left over: every channel is empty */
        uint64_t extra;
        CHECK(shmemx_channel_try_recv(&ping[left], &extra) == 0, "K=%d: an extra ping %#llx", slots,
              (unsigned long long)extra);
        CHECK(shmemx_channel_try_recv(&pong[me], &extra) == 0, "K=%d: an extra pong %#llx", slots,
              (unsigned long long)extra);
        shmem_barrier_all(); /* no message in flight before the channels are initialised again */
    }
    if (me == 0) printf("pingpong: %d rounds at K = 1, 2, 3, %d on %d PEs: ok\n", ROUNDS, SHMEMX_CHANNEL_MAX_SLOTS, n);
    shmem_free(pong);
    shmem_free(ping);
    shmem_finalize();
    return 0;
}

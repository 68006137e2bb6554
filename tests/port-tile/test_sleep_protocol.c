/* The TILE port's sleep protocol on the chip (port/tile/shmem_port.hpp, udn::sleep_until): the scenario that the
 * host's simulation of it checks (port/tile/tests/test_tile_port.cpp), run by the real library on tiles. PE 0
 * sleeps in library waits that two kinds of event end: a memory write with its wake-up (PE 1's half of a team
 * barrier of PEs 0 and 1, over memory) and channel messages on the UDN from every other PE (each on a channel of
 * its own, 1..8 slots), which arrive during those sleeps; senders that run out of slots sleep until PE 0's
 * receive gives one back (a memory write and its wake-up the other way). Every PE waits a pseudo-random time
 * between its steps, and the simulator's seed varies the rest, so the events fall on every point of a sleep.
 * Checks: every value arrives, in order, from its sender; the run ends (a lost wake-up leaves a tile asleep for
 * ever: the simulator's deadlock report); no wake-up is left over (a second one before the first is taken ends
 * the run: the port's report). Argument: the rounds (default 300). */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#ifndef SHMEM_TARGET_MAX_PES
#define SHMEM_TARGET_MAX_PES 64
#endif

static shmemx_channel_t chan[SHMEM_TARGET_MAX_PES]; /* chan[p]: PE p -> PE 0, for p >= 2 */
static uint64_t rng_state;

static unsigned next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)rng_state;
}

/* Up to 127 turns of a loop of nothing: where the next step falls against the other PEs' steps. */
static void pause_randomly(void)
{
    for (volatile unsigned i = next_random() % 128; i != 0; --i) {
    }
}

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int rounds = argc > 1 ? atoi(argv[1]) : 300;
    rng_state = 0x9e3779b97f4a7c15ull * (uint64_t)(me + 1);
    CHECK(n >= 2, "needs 2 PEs or more, got %d", n);
    CHECK(n <= SHMEM_TARGET_MAX_PES, "at most %d PEs", SHMEM_TARGET_MAX_PES);

    shmem_team_t pair = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, NULL, 0, &pair);
    for (int p = 2; p < n; ++p)
        if (me == 0 || me == p) shmemx_channel_init(&chan[p], p, 0, 1 + (p * 3) % SHMEMX_CHANNEL_MAX_SLOTS);
    shmem_barrier_all();

    if (me == 0) {
        /* each round: the pair's barrier, then one value from every sender, from a different one first each time,
         * so that PE 0 sleeps in one channel's receive while the others' senders write theirs */
        for (int r = 0; r < rounds; ++r) {
            pause_randomly();
            shmem_team_sync(pair);
            for (int i = 0; i < n - 2; ++i) {
                const int p = 2 + (r + i) % (n - 2);
                const uint64_t v = shmemx_channel_recv(&chan[p]);
                CHECK(v == ((uint64_t)p << 32 | (uint64_t)r), "round %d: from PE %d got %#llx, expected %#llx", r, p,
                      (unsigned long long)v, (unsigned long long)((uint64_t)p << 32 | (uint64_t)r));
            }
        }
    } else if (me == 1) {
        for (int r = 0; r < rounds; ++r) {
            pause_randomly();
            shmem_team_sync(pair);
        }
    } else {
        for (int v = 0; v < rounds; ++v) {
            pause_randomly();
            shmemx_channel_send(&chan[me], (uint64_t)me << 32 | (uint64_t)v);
        }
    }
    shmem_barrier_all();
    if (me == 0) printf("sleep protocol: %d rounds, %d senders: every value in order\n", rounds, n > 2 ? n - 2 : 0);
    shmem_finalize();
    return 0;
}

/* The one-slot shared-memory channel written by hand with OpenSHMEM 1.5 routines, which the channel benchmarks
 * compare against: PE 0 and PE 1 ping-pong a counter, each a shmem_long_p into the other's word and a
 * shmem_long_wait_until on its own (no slots, no flow control: one value in flight, which the counter itself is).
 * Other PEs only take part in the barrier at the end. */
#ifndef BENCH_P_WAIT_UNTIL_H
#define BENCH_P_WAIT_UNTIL_H

#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>

static long bench_ping_count, bench_pong_count; /* symmetric; the counts only grow: call it once per run */

/* PE 0's and PE 1's cycles per round trip, over `reps` of them after one untimed round trip. */
static uint64_t p_wait_until_round_trip(int reps)
{
    const int me = shmem_my_pe();
    uint64_t t = 0;
    long count = 0;
    for (int timed = 0; timed < 2; ++timed) {
        const int n = timed ? reps : 1;
        const uint64_t t0 = shmemx_cycles();
        for (int r = 0; r < n; ++r) {
            ++count;
            if (me == 0) {
                shmem_long_p(&bench_ping_count, count, 1);
                shmem_long_wait_until(&bench_pong_count, SHMEM_CMP_GE, count);
            } else if (me == 1) {
                shmem_long_wait_until(&bench_ping_count, SHMEM_CMP_GE, count);
                shmem_long_p(&bench_pong_count, count, 0);
            }
        }
        t = (shmemx_cycles() - t0) / (uint64_t)n;
    }
    shmem_barrier_all();
    return t;
}

#endif

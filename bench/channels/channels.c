/* Cost of the channels (shmemx.h, docs/channels.md) under `oshrun --icount`, at two PEs or more (the many-to-one
 * table wants 16: up to 15 idle senders).
 *
 * Under -icount shift=0,sleep=off a cycle is one retired instruction of the whole machine: QEMU runs the harts
 * in turn and its clock advances with every instruction of any of them. Only PE 0 and PE 1 (and the idle
 * senders' channels) take part; every other PE sleeps in a barrier, so a figure is the instructions of the two
 * active PEs together: both halves of every transfer, the waits' re-checks and the wake-ups included.
 *
 *  (a) channel_pingpong: PE 0 sends to PE 1 on a K-slot channel, PE 1 answers on another. kind spsc: one value
 *      each way per round trip; kind burst: K values each way per round trip (PE 1 answers after the K-th), so
 *      the slots are used. cycles_per_message = round trip / (2 x values each way).
 *      kind p_wait_until: the same ping-pong by hand, shmem_long_p of a counter + shmem_long_wait_until.
 *  (b) channel_stream: PE 0 streams values to PE 1 as fast as the K slots let it; per value.
 *  (c) channel_many_to_one: PE 1 ping-pongs with PE 0, which receives with shmemx_channel_recv_any over a set
 *      of PE 1's channel and the channels of `idle_senders` other PEs (registered, never sending) and answers
 *      on a one-slot channel (PE 0 -> PE 1). cycles_per_message = round trip / 2, like spsc above.
 *
 * Each table prints human-readable lines and `csv:<table>:...` lines, the first of them the header. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>

#include "../cycles.h"
#include "../p_wait_until.h"

#ifndef SHMEM_TARGET_MAX_PES /* set by cmake/shmem.cmake: the most PEs a run of the target can have */
#define SHMEM_TARGET_MAX_PES 512
#endif
#define REPS 400
#define STREAM 4000

static shmemx_channel_t there, back; /* PE 0 -> PE 1, PE 1 -> PE 0 */
static shmemx_channel_t *to_root;    /* to_root[p]: PE p -> PE 0 */

static void pair_init(int slots)
{
    if (shmem_my_pe() <= 1) {
        shmemx_channel_init(&there, 0, 1, slots);
        shmemx_channel_init(&back, 1, 0, slots);
    }
    shmem_barrier_all();
}

/* PE 0's cycles per round trip of `each` values each way, after one untimed round trip. */
static uint64_t pingpong(int each)
{
    const int me = shmem_my_pe();
    uint64_t t = 0;
    for (int timed = 0; timed < 2; ++timed) {
        const int reps = timed ? REPS : 1;
        if (me == 0) {
            const uint64_t t0 = shmemx_cycles();
            for (int r = 0; r < reps; ++r) {
                for (int i = 0; i < each; ++i) shmemx_channel_send(&there, (uint64_t)i);
                for (int i = 0; i < each; ++i) (void)shmemx_channel_recv(&back);
            }
            t = (shmemx_cycles() - t0) / (uint64_t)reps;
        } else if (me == 1) {
            for (int r = 0; r < reps; ++r) {
                for (int i = 0; i < each; ++i) (void)shmemx_channel_recv(&there);
                for (int i = 0; i < each; ++i) shmemx_channel_send(&back, (uint64_t)i);
            }
        }
    }
    shmem_barrier_all();
    return t;
}

/* PE 0's cycles per value of a one-way stream, until PE 1 confirms the last one. */
static uint64_t stream(void)
{
    const int me = shmem_my_pe();
    uint64_t t = 0;
    if (me == 0) {
        const uint64_t t0 = shmemx_cycles();
        for (int i = 0; i < STREAM; ++i) shmemx_channel_send(&there, (uint64_t)i);
        (void)shmemx_channel_recv(&back);
        t = (shmemx_cycles() - t0) / STREAM;
    } else if (me == 1) {
        uint64_t sum = 0;
        for (int i = 0; i < STREAM; ++i) sum += shmemx_channel_recv(&there);
        shmemx_channel_send(&back, sum);
    }
    shmem_barrier_all();
    return t;
}

/* PE 1's cycles per round trip through PE 0's recv_any over 1 + idle channels: to_root[0] is PE 1's, the
 * others those of PEs 2, 3, ..., n - 1 and finally PE 0's own (so 16 PEs give up to 15 idle senders). */
static uint64_t many_to_one(int idle)
{
    const int me = shmem_my_pe();
    uint64_t t = 0;
    shmemx_channel_set_t set;
    if (me == 0) shmemx_channel_set_init(&set, to_root, 1 + idle);
    for (int timed = 0; timed < 2; ++timed) {
        const int reps = timed ? REPS : 1;
        if (me == 1) {
            const uint64_t t0 = shmemx_cycles();
            for (int r = 0; r < reps; ++r) {
                shmemx_channel_send(&to_root[0], (uint64_t)r);
                (void)shmemx_channel_recv(&there);
            }
            t = (shmemx_cycles() - t0) / (uint64_t)reps;
        } else if (me == 0) {
            for (int r = 0; r < reps; ++r) {
                int index;
                const uint64_t v = shmemx_channel_recv_any(&set, &index);
                shmemx_channel_send(&there, v + (uint64_t)index);
            }
        }
    }
    shmem_barrier_all();
    return t;
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (n < 2) {
        if (me == 0) printf("channels: needs two PEs or more (16 for the many-to-one table)\n");
        shmem_finalize();
        return 0;
    }
    if (me == 0) printf("channels: a cycle = " BENCH_CYCLE_IS ", %d PEs\n", n);

    const uint64_t by_hand = p_wait_until_round_trip(REPS);
    static const int kinds[] = {1, 2, 4, 8};
    uint64_t spsc[4], burst[4], streamed[4];
    for (int k = 0; k < 4; ++k) {
        pair_init(kinds[k]);
        spsc[k] = pingpong(1);
        burst[k] = pingpong(kinds[k]);
        streamed[k] = stream();
    }
    if (me == 0) {
        for (int k = 0; k < 4; ++k)
            printf("ping-pong K=%d: %5lu cycles per round trip (%lu per message); burst of %d each way: %5lu per "
                   "round trip (%lu per message); stream: %lu per message\n", kinds[k], (unsigned long)spsc[k],
                   (unsigned long)(spsc[k] / 2), kinds[k], (unsigned long)burst[k],
                   (unsigned long)(burst[k] / (2u * (unsigned)kinds[k])), (unsigned long)streamed[k]);
        printf("ping-pong by hand (shmem_long_p + shmem_long_wait_until): %lu cycles per round trip (%lu per "
               "message)\n", (unsigned long)by_hand, (unsigned long)(by_hand / 2));
        printf("csv:channel_pingpong:kind,slots,cycles_per_roundtrip,cycles_per_message\n");
        for (int k = 0; k < 4; ++k)
            printf("csv:channel_pingpong:spsc,%d,%lu,%lu\n", kinds[k], (unsigned long)spsc[k],
                   (unsigned long)(spsc[k] / 2));
        for (int k = 0; k < 4; ++k)
            printf("csv:channel_pingpong:burst,%d,%lu,%lu\n", kinds[k], (unsigned long)burst[k],
                   (unsigned long)(burst[k] / (2u * (unsigned)kinds[k])));
        printf("csv:channel_pingpong:p_wait_until,1,%lu,%lu\n", (unsigned long)by_hand, (unsigned long)(by_hand / 2));
        printf("csv:channel_stream:slots,cycles_per_message\n");
        for (int k = 0; k < 4; ++k) printf("csv:channel_stream:%d,%lu\n", kinds[k], (unsigned long)streamed[k]);
    }

    /* (c) many-to-one: to_root[i] is PE (i + 1) mod n's channel to PE 0, one slot; PE 0 answers on `there` */
    to_root = shmem_malloc((size_t)n * sizeof *to_root);
    if (to_root == NULL) {
        if (me == 0) printf("channels: no room for %d channels in the symmetric heap\n", n);
        shmem_global_exit(2);
    }
    for (int i = 0; i < n; ++i) shmemx_channel_init(&to_root[i], (i + 1) % n, 0, 1);
    pair_init(1);
    static uint64_t m2o[SHMEM_TARGET_MAX_PES]; /* symmetric: PE 1 measures, PE 0 prints */
    uint64_t mine[SHMEM_TARGET_MAX_PES];
    const int max_idle = n - 1;
    for (int idle = 0; idle <= max_idle; ++idle) mine[idle] = many_to_one(idle);
    if (me == 1) shmem_putmem(m2o, mine, (size_t)(max_idle + 1) * sizeof m2o[0], 0);
    shmem_barrier_all();
    if (me == 0) {
        for (int idle = 0; idle <= max_idle; ++idle)
            printf("many-to-one, %2d idle senders: %5lu cycles per round trip (%lu per message, %+ld vs none)\n", idle,
                   (unsigned long)m2o[idle], (unsigned long)(m2o[idle] / 2), (long)m2o[idle] - (long)m2o[0]);
        if (max_idle > 0)
            printf("many-to-one: %.1f cycles per round trip per idle sender\n",
                   (double)((long)m2o[max_idle] - (long)m2o[0]) / (double)max_idle);
        printf("csv:channel_many_to_one:idle_senders,cycles_per_roundtrip,cycles_per_message\n");
        for (int idle = 0; idle <= max_idle; ++idle)
            printf("csv:channel_many_to_one:%d,%lu,%lu\n", idle, (unsigned long)m2o[idle], (unsigned long)(m2o[idle] / 2));
    }
    shmem_free(to_root);
    shmem_finalize();
    return 0;
}

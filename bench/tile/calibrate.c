/* The TILE-Gx simulator's timing against the published TILE figures (docs/tile-sim.md): the operations behind the
 * figures, timed with the cycle counter (shmemx_cycles: SPR CYCLE) by PE 0 against its east neighbour, PE 1, with
 * every other PE waiting in a barrier. Run it on the whole chip (36 PEs on tilegx) for the barrier row; the other
 * rows need two PEs. It prints numbers, never pass/fail:
 *   "csv:tile_calibration:<what>,<simulated>,<published or empty>,<unit>"
 * and a readable line for each.
 *
 * Published figures (DESIGN.md's prior art):
 *  - fine-grained channels on TILEPro64: a message through the UDN in about 42 cycles, through the best
 *    shared-memory channel in 124 (one value from one core to another);
 *  - TSHMEM on TILE-Gx36: its UDN barrier (a linear token) in about 3 us at 36 tiles.
 * Each is measured twice where libshmem's path differs from the published one: with libshmem's routines (the
 * channels, the barrier), and with the published algorithm written here on the raw UDN and memory (a one-word
 * ping-pong; TSHMEM's token passed around all PEs twice), which compares the simulator's model rather than two
 * programs. The rest (put, get, atomics) has no published cycle figure to hold the simulator to; they are
 * printed so that docs/benchmarks.md can quote them. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>

#include "../p_wait_until.h"

#define REPS 200
#define CHIP_MHZ 1200u /* TILE-Gx36's clock (Tilera's product brief): cycles to nanoseconds */
#define CHIP_COLS 6    /* TILE-Gx36: oshrun's plan fills min(n, 6) columns row by row from the top-left tile */

static long word[8];
static long amo_target;
static shmemx_channel_t there, back; /* PE 0 -> PE 1, PE 1 -> PE 0 */

static void row(const char *what, uint64_t simulated, uint64_t published, const char *unit)
{
    if (published != 0) {
        printf("csv:tile_calibration:%s,%lu,%lu,%s\n", what, (unsigned long)simulated, (unsigned long)published,
               unit);
        printf("%-28s %8lu %s (published %lu)\n", what, (unsigned long)simulated, unit, (unsigned long)published);
    } else {
        printf("csv:tile_calibration:%s,%lu,,%s\n", what, (unsigned long)simulated, unit);
        printf("%-28s %8lu %s\n", what, (unsigned long)simulated, unit);
    }
}

/* The best of `reps` timings of op() by PE 0, less the counter's own cost. */
static uint64_t best_of(void (*op)(void), int reps, uint64_t empty)
{
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < reps; ++r) {
        const uint64_t t0 = shmemx_cycles();
        op();
        const uint64_t t = shmemx_cycles() - t0;
        if (t < best) best = t;
    }
    return best > empty ? best - empty : 0;
}

static void op_put8(void) { shmem_putmem(&word[0], &word[4], 8, 1); }
static void op_put8_quiet(void)
{
    shmem_putmem(&word[0], &word[4], 8, 1);
    shmem_quiet();
}
static void op_get8(void) { shmem_getmem(&word[4], &word[0], 8, 1); }
static void op_g(void) { word[5] = shmem_long_g(&word[1], 1); }
static void op_fetch_add(void) { word[6] = shmem_long_atomic_fetch_add(&amo_target, 1, 1); }
static void op_add(void) { shmem_long_atomic_add(&amo_target, 1, 1); }

/* PE 0's cycles per one-way message of a ping-pong with PE 1: round trips / 2. */
static uint64_t channel_message(void)
{
    const int me = shmem_my_pe();
    uint64_t t = 0;
    for (int timed = 0; timed < 2; ++timed) {
        const int reps = timed ? REPS : 1;
        if (me == 0) {
            const uint64_t t0 = shmemx_cycles();
            for (int r = 0; r < reps; ++r) {
                shmemx_channel_send(&there, (uint64_t)r);
                (void)shmemx_channel_recv(&back);
            }
            t = (shmemx_cycles() - t0) / (2u * (uint64_t)reps);
        } else if (me == 1) {
            for (int r = 0; r < reps; ++r) shmemx_channel_send(&back, shmemx_channel_recv(&there));
        }
    }
    shmem_barrier_all();
    return t;
}

#ifdef __tilegx__
/* The raw UDN (TILE-Gx): a packet is a header word (x at bit 18, y at bit 7, the number of data words in the
 * low bits: port/tile/tilegx/shmem_chip.h) and its data words, written to udn0; the receiver reads its demux
 * queue 0, which libshmem's messages use too. So the raw parts run between two gates (below): no libshmem
 * message is in flight to any PE once every PE has passed one, and none is sent until every PE passes the next. */
#define SPR_TILE_COORD 0x270b
static unsigned long long udn_header_of(int pe)
{
    const unsigned long long c = __insn_mfspr(SPR_TILE_COORD);
    const int me = shmem_my_pe(), n = shmem_n_pes(), cols = n < CHIP_COLS ? n : CHIP_COLS;
    const unsigned long long x0 = ((c >> 18) & 0x7ff) - (unsigned)(me % cols), y0 = ((c >> 7) & 0x7ff) - (unsigned)(me / cols);
    return (x0 + (unsigned)(pe % cols)) << 18 | (y0 + (unsigned)(pe / cols)) << 7 | 1u;
}

/* Every PE arrives (an atomic add on PE 0's count), PE 0 waits for all, then lets each go (a store into its
 * flag); all by plain loads, stores and atomics through shmem_ptr, which send no UDN message. A PE passes it
 * only after leaving every libshmem routine it called before, so every libshmem message sent to it has been
 * taken: its barrier rounds, channel words and wake-ups are all received inside the routine that waits for them. */
static long gate_arrived, gate_go, gate_epoch;
static void gate(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    ++gate_epoch;
    if (me == 0) {
        while (__atomic_load_n(&gate_arrived, __ATOMIC_ACQUIRE) != (n - 1) * gate_epoch) {
        }
        for (int p = 1; p < n; ++p) __atomic_store_n((long *)shmem_ptr(&gate_go, p), gate_epoch, __ATOMIC_RELEASE);
    } else {
        __atomic_fetch_add((long *)shmem_ptr(&gate_arrived, 0), 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&gate_go, __ATOMIC_ACQUIRE) != gate_epoch) {
        }
    }
}

/* PE 0's cycles per one-way message of a raw one-word UDN ping-pong with PE 1 (the published channel's path). */
static uint64_t raw_udn_message(void)
{
    const int me = shmem_my_pe();
    uint64_t t = 0;
    int bad = 0;
    if (me <= 1) {
        const unsigned long long to = udn_header_of(1 - me);
        for (int timed = 0; timed < 2; ++timed) {
            const int reps = timed ? REPS : 1;
            const uint64_t t0 = shmemx_cycles();
            for (int r = 0; r < reps; ++r) {
                if (me == 0) {
                    __tile_udn_send(to);
                    __tile_udn_send((unsigned long long)r);
                    bad |= __tile_udn0_receive() != (unsigned long long)r + 1;
                } else {
                    const unsigned long long v = __tile_udn0_receive();
                    __tile_udn_send(to);
                    __tile_udn_send(v + 1);
                }
            }
            t = (shmemx_cycles() - t0) / (2u * (uint64_t)reps);
        }
    }
    if (bad) {
        printf("calibrate: PE 0 received a word that PE 1 did not send on the raw UDN\n");
        shmem_global_exit(1);
    }
    return t;
}

/* PE 0's cycles per barrier of TSHMEM's kind: a token passed around all PEs over the raw UDN, twice (the first
 * round says all have arrived, the second lets them go). */
static uint64_t raw_token_barrier(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const unsigned long long next = udn_header_of((me + 1) % n);
    uint64_t t0 = 0;
    for (int timed = 0; timed < 2; ++timed) {
        const int reps = timed ? REPS : 1;
        t0 = shmemx_cycles();
        for (int r = 0; r < reps; ++r)
            for (int round = 0; round < 2; ++round) {
                if (me == 0) {
                    __tile_udn_send(next);
                    __tile_udn_send((unsigned long long)round);
                    (void)__tile_udn0_receive();
                } else {
                    const unsigned long long v = __tile_udn0_receive();
                    __tile_udn_send(next);
                    __tile_udn_send(v);
                }
            }
    }
    return (shmemx_cycles() - t0) / REPS;
}

/* The same ping-pong through memory by hand: a store into the other's flag (shmem_ptr), a spin on one's own. */
static long raw_ping, raw_pong;
static uint64_t raw_memory_message(void)
{
    const int me = shmem_my_pe();
    uint64_t t = 0;
    if (me <= 1) {
        volatile long *const there = (volatile long *)shmem_ptr(me == 0 ? &raw_ping : &raw_pong, 1 - me);
        volatile long *const here = me == 0 ? &raw_pong : &raw_ping;
        long count = 0;
        for (int timed = 0; timed < 2; ++timed) {
            const int reps = timed ? REPS : 1;
            const uint64_t t0 = shmemx_cycles();
            for (int r = 0; r < reps; ++r) {
                ++count;
                if (me == 0) {
                    *there = count;
                    while (*here != count) {
                    }
                } else {
                    while (*here != count) {
                    }
                    *there = count;
                }
            }
            t = (shmemx_cycles() - t0) / (2u * (uint64_t)reps);
        }
    }
    return t;
}
#endif

/* PE 0's cycles per barrier of all PEs, averaged over REPS after one untimed barrier. */
static uint64_t barrier_cycles(void)
{
    shmem_barrier_all();
    const uint64_t t0 = shmemx_cycles();
    for (int r = 0; r < REPS; ++r) shmem_barrier_all();
    return (shmemx_cycles() - t0) / REPS;
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (n < 2) {
        if (me == 0) printf("calibrate: needs two PEs or more (36 for the barrier of the whole chip)\n");
        shmem_finalize();
        return 0;
    }
    if (me == 0) printf("csv:tile_calibration:figure,simulated,published,unit\n");
    if (me == 0)
        printf("calibrate: %d PEs, cycles of PE 0's cycle counter (SPR CYCLE; on oshrun's simulator, its timing "
               "model); ns at %u MHz\n", n, CHIP_MHZ);
    if (me <= 1) {
        shmemx_channel_init(&there, 0, 1, 1);
        shmemx_channel_init(&back, 1, 0, 1);
    }
    shmem_barrier_all();
    if (me == 0) {
        uint64_t empty = UINT64_MAX;
        for (int r = 0; r < 16; ++r) {
            const uint64_t t0 = shmemx_cycles(), t = shmemx_cycles() - t0;
            if (t < empty) empty = t;
        }
        row("put_8B", best_of(op_put8, 16, empty), 0, "cycles");
        row("put_8B_quiet", best_of(op_put8_quiet, 16, empty), 0, "cycles");
        row("get_8B", best_of(op_get8, 16, empty), 0, "cycles");
        row("long_g", best_of(op_g, 16, empty), 0, "cycles");
        row("atomic_fetch_add", best_of(op_fetch_add, 16, empty), 0, "cycles");
        row("atomic_add", best_of(op_add, 16, empty), 0, "cycles");
    }
    shmem_barrier_all();
    const uint64_t udn = channel_message();
    const uint64_t mem = p_wait_until_round_trip(REPS) / 2;  /* one way */
    const uint64_t barrier = barrier_cycles();
#ifdef __tilegx__
    gate();
    const uint64_t raw_udn = raw_udn_message();
    gate();
    const uint64_t raw_mem = raw_memory_message();
    gate();
    const uint64_t token = raw_token_barrier();
    gate();
#endif
    if (me == 0) {
        char what[40];
#ifdef __tilegx__
        row("raw_udn_message", raw_udn, 42, "cycles");
        row("raw_memory_message", raw_mem, 124, "cycles");
#endif
        row("shmemx_channel_message", udn, 42, "cycles");
        row("shmem_p_wait_until_message", mem, 124, "cycles");
#ifdef __tilegx__
        snprintf(what, sizeof what, "token_barrier_%d_pes_ns", n);
        row(what, token * 1000u / CHIP_MHZ, n == 36 ? 3000 : 0, "ns");
#endif
        snprintf(what, sizeof what, "barrier_all_%d_pes_ns", n);
        row(what, barrier * 1000u / CHIP_MHZ, n == 36 ? 3000 : 0, "ns");
        snprintf(what, sizeof what, "barrier_all_%d_pes", n);
        row(what, barrier, 0, "cycles");
    }
    shmem_finalize();
    return 0;
}

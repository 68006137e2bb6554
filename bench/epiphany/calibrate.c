/* The Epiphany simulator's cycle model against the published hardware figures (docs/epiphany-sim.md): the same
 * operations as the measurements they come from, timed with CTIMER0 (shmemx_cycles) by PE 0 against its east
 * neighbour, PE 1. Run it on the whole chip (16 PEs on epiphany-e16: the WAND barrier needs every core). It
 * prints numbers, never pass/fail: "csv:calibration:<what>,<simulated>,<published>,<unit>".
 *
 * The code stays in local memory (no DRAM_CODE): the published figures were measured with local code, and an
 * instruction fetched from external DRAM costs more. So no printf either (it would not fit): a small decimal
 * writer instead. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "print.h"

#define BYTES 4096
#define ROUNDS 64
#define MHZ 600u

static char buf[BYTES] __attribute__((aligned(8)));   /* symmetric: the remote side */
static char mine[BYTES] __attribute__((aligned(8)));  /* local source or destination */

/* value, published figure, unit: one CSV row and one readable line */
static void row(const char *what, uint32_t sim, uint32_t published, const char *unit)
{
    put_str("csv:calibration:");
    put_str(what);
    put_str(",");
    put_u(sim);
    put_str(",");
    put_u(published);
    put_str(",");
    put_str(unit);
    put_str("\n");
}
/* bytes moved in `cycles` cycles, in MB/s at MHZ */
static uint32_t mbps(uint32_t bytes, uint32_t cycles) { return (uint32_t)((uint64_t)bytes * MHZ / cycles); }
/* cycles in nanoseconds at MHZ */
static uint32_t ns(uint32_t cycles) { return (uint32_t)((uint64_t)cycles * 1000u / MHZ); }

/* A memcpy's inner loop, four words per iteration (newlib's own memcpy is built for size here: a byte loop,
 * slower than the memcpy the published figures were measured with). */
static void copy_words(uint32_t *dst, const uint32_t *src, size_t n)
{
    for (size_t i = 0; i < n / 4; i += 4) {
        volatile uint32_t *d = dst + i;
        const volatile uint32_t *s = src + i;
        uint32_t a = s[0], b = s[1], c = s[2], e = s[3];
        d[0] = a;
        d[1] = b;
        d[2] = c;
        d[3] = e;
    }
}

/* e-lib's kind of counter barrier: every core raises its flag in PE 0's array, PE 0 waits for all of them,
 * lowers them and raises every core's release flag. (Written here from the algorithm; not e-lib's code.) */
static volatile uint32_t arrived[16], released;
static void counter_barrier(int me, int n)
{
    if (me == 0) {
        for (int i = 1; i < n; ++i)
            while (arrived[i] == 0) {
            }
        for (int i = 1; i < n; ++i) arrived[i] = 0;
        for (int i = 1; i < n; ++i) *(volatile uint32_t *)shmem_ptr((void *)&released, i) = 1;
    } else {
        *(volatile uint32_t *)shmem_ptr((void *)&arrived[me], 0) = 1;
        while (released == 0) {
        }
        released = 0;
    }
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < BYTES; ++i) mine[i] = (char)i;
    shmem_barrier_all();
    if (me == 0 && n >= 2) {
        char *remote = shmem_ptr(buf, 1);
        uint64_t t = shmemx_cycles();
        shmem_putmem(buf, mine, BYTES, 1);
        shmem_quiet();
        row("put_4KiB_MBps", mbps(BYTES, (uint32_t)(shmemx_cycles() - t)), 2400, "MB/s (ARL: 8 B per 2 cycles)");
        t = shmemx_cycles();
        shmem_getmem(mine, buf, BYTES, 1);
        row("get_4KiB_MBps", mbps(BYTES, (uint32_t)(shmemx_cycles() - t)), 240, "MB/s (ARL: about 10x slower than put)");
        t = shmemx_cycles();
        shmem_putmem_nbi(buf, mine, BYTES, 1);
        shmem_quiet();
        row("dma_write_MBps", mbps(BYTES, (uint32_t)(shmemx_cycles() - t)), 1950, "MB/s (DMA remote write)");
        t = shmemx_cycles();
        copy_words((uint32_t *)remote, (const uint32_t *)mine, BYTES);
        row("memcpy_write_MBps", mbps(BYTES, (uint32_t)(shmemx_cycles() - t)), 504, "MB/s (memcpy remote write)");
        t = shmemx_cycles();
        copy_words((uint32_t *)mine, (const uint32_t *)remote, BYTES);
        row("memcpy_read_MBps", mbps(BYTES, (uint32_t)(shmemx_cycles() - t)), 116, "MB/s (remote read)");
    }
    shmem_barrier_all();
    if (n == 16) {
        uint64_t t = shmemx_cycles();
        for (int r = 0; r < ROUNDS; ++r) shmemx_barrier_all_wand();
        const uint32_t wand = (uint32_t)(shmemx_cycles() - t) / ROUNDS;
        t = shmemx_cycles();
        for (int r = 0; r < ROUNDS; ++r) shmemx_barrier_all_dissemination();
        const uint32_t diss = (uint32_t)(shmemx_cycles() - t) / ROUNDS;
        t = shmemx_cycles();
        for (int r = 0; r < ROUNDS; ++r) counter_barrier(me, n);
        const uint32_t counter = (uint32_t)(shmemx_cycles() - t) / ROUNDS;
        if (me == 0) {
            row("wand_barrier_ns", ns(wand), 100, "ns per barrier, 16 cores");
            row("dissemination_barrier_ns", ns(diss), 230, "ns per barrier, 16 cores");
            row("counter_barrier_ns", ns(counter), 2000, "ns per barrier, 16 cores (e-lib's e_barrier)");
        }
    } else if (me == 0) {
        put_str("calibrate: the barriers need the whole chip (16 PEs); run with -np 16\n");
    }
    shmem_finalize();
    return 0;
}

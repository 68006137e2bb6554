/* libshmem against ARL's OpenSHMEM for Epiphany (docs/epiphany.md, issues 15 and 39), on oshrun's simulator.
 *
 * The table: PE 0's cycles for one call, best of 8, timed with CTIMER0 (shmemx_cycles), less the cost of the
 * timing itself (the same code around no call; each operation's timing is inlined on its own, so that it times
 * the call alone). Every PE calls the barrier before each timed call, so the PEs start it within a few cycles of
 * each other; a collective's figure is PE 0's time from its call to its return. Put and get go from PE 0 to PE 1,
 * its east neighbour. Run it at every PE count from 2 to 16: "csv:vs_arl:<npes>,<operation>,<cycles>".
 *
 * The curves of the figures of ARL's paper (at 16 cores): the same calls at growing sizes, best of 4, less the
 * timing's cost (the same loop around no call): "csv:arl_curve:<npes>,<operation>,<bytes>,<cycles>" for put and
 * get to the neighbour (8 B .. 8 KiB), broadcast64 and int_sum_to_all (8 B .. 4 KiB), fcollect64 and alltoall64
 * (8 B .. 512 B per PE). The barrier's curve is the table's barrier_all at each PE count.
 *
 * It prints numbers, never pass/fail, but checks the collectives' values (exit 1 if wrong). The code stays in
 * local memory (no DRAM_CODE), as in the runs ARL's figures come from; hence no printf. The collectives are the
 * active-set forms ARL's library has, over the whole run, with two pSync arrays used in turn as ARL's benchmarks
 * do. The buffers are one 16 KiB symmetric allocation: [0, 8K) the destinations, [8K, 16K) the sources. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "print.h"

#define MAX_PES 16
#define REGION 16384

static long sync_a[SHMEM_REDUCE_SYNC_SIZE], sync_b[SHMEM_REDUCE_SYNC_SIZE];
static long sync_c[SHMEM_ALLTOALL_SYNC_SIZE], sync_d[SHMEM_ALLTOALL_SYNC_SIZE];
static char *r; /* the region */
static int me, npes, turn;

enum op { NOP, PUT, GET, BARRIER, BCAST, SUM, FCOLLECT, ALLTOALL };

/* One call of op on `bytes` (per PE for fcollect and alltoall). The sum's pWrk, max(nreduce / 2 + 1,
 * SHMEM_REDUCE_MIN_WRKDATA_SIZE) ints, is at 12K: a sum of 4 KiB has its source at [8K, 12K). */
static inline __attribute__((always_inline)) void call(enum op o, uint32_t bytes)
{
    long *ps = (turn ^= 1) ? sync_a : sync_b;
    long *pa = turn ? sync_c : sync_d;
    switch (o) {
    case NOP: break;
    case PUT:
        if (me == 0) shmem_putmem(r, r + 8192, bytes, 1);
        break;
    case GET:
        if (me == 0) shmem_getmem(r + 8192, r, bytes, 1);
        break;
    case BARRIER: shmem_barrier_all(); break;
    case BCAST: shmem_broadcast64(r, r + 8192, bytes / 8, 0, 0, 0, npes, ps); break;
    case SUM: shmem_int_sum_to_all((int *)r, (int *)(r + 8192), (int)(bytes / 4), 0, 0, npes, (int *)(r + 12288), ps); break;
    case FCOLLECT: shmem_fcollect64(r, r + 8192, bytes / 8, 0, 0, npes, ps); break;
    case ALLTOALL: shmem_alltoall64(r, r + 8192, bytes / 8, 0, 0, npes, pa); break;
    }
}

/* best of `reps` calls, less `overhead` */
static inline __attribute__((always_inline)) uint32_t best(enum op o, uint32_t bytes, int reps, uint32_t overhead)
{
    uint32_t b = UINT32_MAX;
    for (int i = 0; i < reps; ++i) {
        shmem_barrier_all();
        const uint32_t t0 = (uint32_t)shmemx_cycles();
        call(o, bytes);
        const uint32_t t = (uint32_t)shmemx_cycles() - t0 - overhead;
        if (t < b) b = t;
    }
    return b;
}

/* PE 0's line "csv:<table>:<npes>,<op>[,<bytes>],<cycles>" (no bytes where bytes is 0) */
static void csv(const char *table, const char *op, uint32_t bytes, uint32_t cycles)
{
    if (me != 0) return;
    put_str("csv:");
    put_str(table);
    put_str(":");
    put_u((uint32_t)npes);
    put_str(",");
    put_str(op);
    if (bytes != 0) {
        put_str(",");
        put_u(bytes);
    }
    put_str(",");
    put_u(cycles);
    put_str("\n");
}
static void row(const char *op, uint32_t cycles) { csv("vs_arl", op, 0, cycles); }

/* one curve: the call is not inlined per operation here (one loop for all), so its own overhead is measured
 * through the same loop */
static __attribute__((noinline)) void curve(enum op o, const char *name, uint32_t max, uint32_t overhead)
{
    for (uint32_t bytes = 8; bytes <= max; bytes *= 2) csv("arl_curve", name, bytes, best(o, bytes, 4, overhead));
}
static __attribute__((noinline)) uint32_t curve_overhead(enum op o) { return best(o, 8, 4, 0); }

/* the region's byte j on PE pe: no period that a block of a power of two bytes (up to the region's) could hide a
 * misplaced block in: a block 2^k apart differs by 2^k + 2^k / 256, not a multiple of 256 below 64 KiB (a shift,
 * not a division: that would link libgcc's) */
static char val(int pe, uint32_t j) { return (char)(j + (j >> 8) + (uint32_t)pe * 13); }
static void fill(void)
{
    for (int i = 0; i < REGION; ++i) r[i] = val(me, (uint32_t)i);
    shmem_barrier_all();
}

/* block i of this PE's dest is block me of PE i's source, `bytes` each */
static int wrong_alltoall(uint32_t bytes)
{
    for (int i = 0; i < npes; ++i)
        for (uint32_t k = 0; k < bytes; ++k)
            if (r[i * bytes + k] != val(i, 8192 + (uint32_t)me * bytes + k)) return 1;
    return 0;
}

int main(void)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) sync_a[i] = sync_b[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_ALLTOALL_SYNC_SIZE; ++i) sync_c[i] = sync_d[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    r = shmem_malloc(REGION);
    if (npes < 2 || npes > MAX_PES || r == NULL) {
        if (me == 0) put_str("vs_arl: run it at 2 to 16 PEs, with 16 KiB free in the symmetric heap\n");
        shmem_global_exit(2);
    }
    fill();
    const uint32_t overhead = best(NOP, 0, 8, 0);
    if (me == 0) put_str("vs_arl: PE 0's cycles for one call, best of 8 (CTIMER0, less the timing's own cost)\n");
    row("put_8", best(PUT, 8, 8, overhead));
    row("put_64", best(PUT, 64, 8, overhead));
    row("put_4096", best(PUT, 4096, 8, overhead));
    row("get_8", best(GET, 8, 8, overhead));
    row("barrier_all", best(BARRIER, 0, 8, overhead));
    row("broadcast64_8", best(BCAST, 8, 8, overhead));
    row("int_sum_to_all_8", best(SUM, 8, 8, overhead));
    row("fcollect64_8", best(FCOLLECT, 8, 8, overhead));
    fill();
    row("alltoall64_8", best(ALLTOALL, 8, 8, overhead));
    if (wrong_alltoall(8)) {
        put_str("vs_arl: wrong values from alltoall64\n");
        shmem_global_exit(1);
    }
    if (npes == MAX_PES) {
        const uint32_t loop = curve_overhead(NOP);
        curve(PUT, "put", 8192, loop);
        curve(GET, "get", 8192, loop);
        fill();
        curve(BCAST, "broadcast64", 4096, loop);
        /* the last broadcast's 4 KiB: the root's source */
        int bad = 0;
        for (int k = 0; k < 4096; ++k) bad |= me != 0 && r[k] != val(0, 8192 + (uint32_t)k);
        fill();
        curve(SUM, "int_sum_to_all", 4096, loop);
        /* element k of the source is the int made of PE pe's bytes 8192 + 4k .. +3: the sums of the last call,
         * 1,024 ints, checked against the same sums made here */
        for (int k = 0; k < 1024; ++k) {
            uint32_t sum = 0; /* ints wrap in the library; unsigned here, so that the check is defined C */
            for (int pe = 0; pe < npes; ++pe) {
                char b[4];
                for (int j = 0; j < 4; ++j) b[j] = val(pe, (uint32_t)(8192 + 4 * k + j));
                uint32_t v;
                memcpy(&v, b, 4);
                sum += v;
            }
            bad |= ((uint32_t *)r)[k] != sum;
        }
        curve(FCOLLECT, "fcollect64", 512, loop);
        /* block i of the last fcollect's dest: PE i's 512 bytes from 8K */
        for (int i = 0; i < npes; ++i)
            for (uint32_t k = 0; k < 512; ++k) bad |= r[i * 512 + k] != val(i, 8192 + k);
        fill();
        curve(ALLTOALL, "alltoall64", 512, loop);
        bad |= wrong_alltoall(512);
        if (bad) {
            put_str("vs_arl: wrong values in the curves\n");
            shmem_global_exit(1);
        }
    }
    shmem_finalize();
    return 0;
}

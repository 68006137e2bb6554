/* Cost of synchronization, collectives and atomics at the current PE count, under `oshrun --icount`.
 *
 * Under -icount shift=0,sleep=off a cycle is one retired instruction of the whole machine (QEMU runs the harts
 * in turn and its clock advances with every instruction of any of them), so a collective's figure is the work of
 * all PEs together; a sleeping PE adds only the instructions it runs when woken. PE 0 reads the counter around
 * REPS back-to-back calls and reports the mean per call.
 *
 * Output: readable lines, and `csv:<table>:<values>` lines (the first of each table is its header) that
 * scripts/bench.sh collects into results/<table>.csv:
 *   sync      npes,operation,cycles                 barriers and team sync
 *   coll_size npes,operation,bytes,cycles           broadcast, fcollect (bytes per PE), sum_reduce vs size
 *   amo       npes,operation,cycles                 one fetching atomic to the right neighbour, others asleep */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>

#define REPS 10
#include "cycles.h"
#if BENCH_PER_PE_CLOCK
#define WHOSE "PE 0"
#else
#define WHOSE "machine"
#endif
/* Largest message: 64 KiB, or 512 B where a PE has 32 KB (SHMEM_SMALL_SIZES, set by cmake/shmem.cmake for
 * Epiphany), whose symmetric heap then holds the source and the 8 KB fcollect target. */
#if SHMEM_SMALL_SIZES
#define MAXB 512
#else
#define MAXB (64 * 1024)
#endif

static long *src, *dst;
static long counter;
static shmem_team_t team, half;

#define MEASURE(total, call)                                     \
    do {                                                         \
        call;                                                    \
        shmem_barrier_all();                                     \
        uint64_t t0_ = shmemx_cycles();                                \
        for (int r_ = 0; r_ < REPS; ++r_) call;                  \
        total = (shmemx_cycles() - t0_) / REPS;                        \
        shmem_barrier_all();                                     \
    } while (0)

static void sync_row(const char *op, uint64_t c)
{
    if (shmem_my_pe() != 0) return;
#if BENCH_PER_PE_CLOCK /* PE 0's time, not the machine's work: nothing to divide among the PEs */
    printf("%-38s %3d PEs: %9lu cycles/call (" WHOSE ")\n", op, shmem_n_pes(), (unsigned long)c);
#else
    printf("%-38s %3d PEs: %9lu cycles/call (" WHOSE "), %7lu per PE\n", op, shmem_n_pes(), (unsigned long)c,
           (unsigned long)(c / (uint64_t)shmem_n_pes()));
#endif
    printf("csv:sync:%d,%s,%lu\n", shmem_n_pes(), op, (unsigned long)c);
}

static void size_row(const char *op, size_t bytes, uint64_t c)
{
    if (shmem_my_pe() != 0) return;
    printf("%-24s %7lu B %3d PEs: %10lu cycles/call (" WHOSE ")\n", op, (unsigned long)bytes, shmem_n_pes(),
           (unsigned long)c);
    printf("csv:coll_size:%d,%s,%lu,%lu\n", shmem_n_pes(), op, (unsigned long)bytes, (unsigned long)c);
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    src = shmem_malloc(MAXB);
    dst = shmem_malloc(MAXB * (size_t)16); /* fcollect is measured while bytes * n <= MAXB * 16 */
    if (src == NULL || dst == NULL) {
        if (me == 0) printf("collectives: no room for %d + %d bytes in the symmetric heap\n", MAXB, MAXB * 16);
        shmem_global_exit(2);
    }
    for (int i = 0; i < MAXB / 8; ++i) src[i] = me + i;
    if (me == 0) {
        printf("collectives: a cycle = " BENCH_CYCLE_IS "\n");
        printf("csv:sync:npes,operation,cycles\n");
        printf("csv:coll_size:npes,operation,bytes,cycles\n");
        printf("csv:amo:npes,operation,cycles\n");
    }
    /* a team of all PEs (its sync is the port's hardware barrier, as for the world) and the even PEs (a software
     * dissemination barrier over ceil(n/2) PEs) */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &team);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &half);

    uint64_t c;
    MEASURE(c, shmem_barrier_all());
    sync_row("barrier_all", c);
    MEASURE(c, shmemx_barrier_all_wand());
    sync_row("barrier_wand", c);
    MEASURE(c, shmemx_barrier_all_dissemination());
    sync_row("barrier_dissemination", c);
    MEASURE(c, shmem_team_sync(team));
    sync_row("team_sync_all", c);
    if (half != SHMEM_TEAM_INVALID) {
        MEASURE(c, shmem_team_sync(half));
    } else {
        shmem_barrier_all(); /* odd PEs: not in the team; keep the barriers of MEASURE in step */
        shmem_barrier_all();
    }
    sync_row("team_sync_even_pes", c);

    /* 8 B to MAXB by fours, with 4 KiB in between (a point the fast-path goals are stated at) */
    for (size_t bytes = 8; bytes <= MAXB; bytes = bytes == 2048 ? 4096 : bytes == 4096 ? 8192 : bytes * 4) {
        const size_t elems = bytes / sizeof(long);
        MEASURE(c, shmem_long_broadcast(team, dst, src, elems, 0));
        size_row("broadcast", bytes, c);
        MEASURE(c, shmem_long_sum_reduce(team, dst, src, elems));
        size_row("sum_reduce", bytes, c);
        if (bytes * (size_t)n <= MAXB * 16) {
            MEASURE(c, shmem_long_fcollect(team, dst, src, elems));
            size_row("fcollect", bytes, c);
        }
    }

    /* one fetching atomic to the right neighbour, everybody else asleep in the barrier */
    shmem_barrier_all();
    if (me == 0 && n > 1) {
        uint64_t t0, fa, in, cs;
        (void)shmem_long_atomic_fetch_add(&counter, 1, 1);
        t0 = shmemx_cycles();
        for (int r = 0; r < REPS; ++r) (void)shmem_long_atomic_fetch_add(&counter, 1, 1);
        fa = (shmemx_cycles() - t0) / REPS;
        t0 = shmemx_cycles();
        for (int r = 0; r < REPS; ++r) shmem_long_atomic_inc(&counter, 1);
        in = (shmemx_cycles() - t0) / REPS;
        t0 = shmemx_cycles();
        for (int r = 0; r < REPS; ++r) (void)shmem_long_atomic_compare_swap(&counter, -1, 0, 1);
        cs = (shmemx_cycles() - t0) / REPS;
        printf("%-38s %3d PEs: %9lu cycles/call\n", "long_atomic_fetch_add (neighbour)", n, (unsigned long)fa);
        printf("%-38s %3d PEs: %9lu cycles/call\n", "long_atomic_inc (neighbour)", n, (unsigned long)in);
        printf("%-38s %3d PEs: %9lu cycles/call\n", "long_atomic_compare_swap (neighbour)", n, (unsigned long)cs);
        printf("csv:amo:%d,fetch_add,%lu\ncsv:amo:%d,inc,%lu\ncsv:amo:%d,compare_swap,%lu\n", n, (unsigned long)fa, n,
               (unsigned long)in, n, (unsigned long)cs);
    }
    shmem_barrier_all();
    shmem_team_destroy(half);
    shmem_team_destroy(team);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}

/* Cost of synchronization and collectives at the current PE count, under `oshrun --icount`.
 *
 * Under -icount shift=0,sleep=off a cycle is one retired instruction of the whole machine (QEMU runs the harts
 * in turn and its clock advances with every instruction of any of them), so a collective's figure is the work of
 * all PEs together, waits included only as the instructions a woken PE runs before it sleeps again. PE 0 reads
 * the counter around REPS calls (each preceded by nothing, so calls overlap as in a real program) and prints
 * the mean per call, and that divided by the PE count. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

#define REPS 20

static inline uint64_t rdcycle(void)
{
    uint64_t c;
    __asm__ volatile("rdcycle %0" : "=r"(c));
    return c;
}

static long src_long[512], dst_long[512 * 64];
static long psync[SHMEM_SYNC_SIZE];
static long counter;
static shmem_team_t team;

static void report(const char *what, uint64_t total)
{
    const int n = shmem_n_pes();
    if (shmem_my_pe() == 0)
        printf("%-34s %3d PEs: %9lu instructions/call (machine), %7lu per PE\n", what, n,
               (unsigned long)(total / REPS), (unsigned long)(total / REPS / (uint64_t)n));
}

#define MEASURE(what, call)                                      \
    do {                                                         \
        call;                                                    \
        shmem_barrier_all();                                     \
        uint64_t t0 = rdcycle();                                 \
        for (int r_ = 0; r_ < REPS; ++r_) call;                  \
        uint64_t t1 = rdcycle();                                 \
        shmem_barrier_all();                                     \
        report(what, t1 - t0);                                   \
    } while (0)

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (me == 0) printf("collectives: cycles = retired instructions of the whole machine (oshrun --icount)\n");
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &team); /* a team of all: software barrier */

    MEASURE("shmem_barrier_all", shmem_barrier_all());
    MEASURE("shmem_team_sync (split team)", shmem_team_sync(team));
    MEASURE("shmem_broadcast 8 B", shmem_long_broadcast(team, dst_long, src_long, 1, 0));
    MEASURE("shmem_broadcast 4 KiB", shmem_long_broadcast(team, dst_long, src_long, 512, 0));
    MEASURE("shmem_sum_reduce 8 B", shmem_long_sum_reduce(team, dst_long, src_long, 1));
    MEASURE("shmem_sum_reduce 4 KiB", shmem_long_sum_reduce(team, dst_long, src_long, 512));
    MEASURE("shmem_fcollect 8 B per PE", shmem_long_fcollect(team, dst_long, src_long, 1));

    /* one fetching atomic to the right neighbour, the others asleep in a barrier */
    shmem_barrier_all();
    if (me == 0 && n > 1) {
        (void)shmem_long_atomic_fetch_add(&counter, 1, 1);
        uint64_t t0 = rdcycle();
        for (int r = 0; r < REPS; ++r) (void)shmem_long_atomic_fetch_add(&counter, 1, 1);
        uint64_t t1 = rdcycle();
        printf("%-34s %3d PEs: %9lu instructions/call (PE 0 alone)\n", "shmem_long_atomic_fetch_add", n,
               (unsigned long)((t1 - t0) / REPS));
    }
    shmem_barrier_all();
    (void)psync;
    shmem_team_destroy(team);
    shmem_finalize();
    return 0;
}

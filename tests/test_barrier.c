/* Barriers: shmem_barrier_all (as built), both algorithms explicitly, and shmem_sync_all. In round r every PE
 * puts r into its slot on every PE; after the barrier every slot of every PE must read r, and nobody may have
 * run ahead into round r+1 (which would show as r+1 before the check). */
#include <shmemx.h>

#include "check.h"

#define ROUNDS 40
#define MAXPE 512

static int slot[MAXPE];

static void rounds(void (*barrier)(void), const char *name, int base)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    for (int r = base; r < base + ROUNDS; ++r) {
        for (int k = 0; k < n; ++k) {
            int pe = (me + k) % n; /* start at different PEs to vary the order of arrival */
            shmem_int_p(&slot[me], r, pe);
        }
        barrier();
        for (int pe = 0; pe < n; ++pe)
            CHECK(slot[pe] == r, "%s round %d: slot of PE %d is %d", name, r, pe, slot[pe]);
        barrier();
    }
}

/* sync_all orders nothing by itself, so quiet first: that is what shmem_barrier_all is */
static void quiet_sync_all(void)
{
    shmem_quiet();
    shmem_sync_all();
}

/* The two algorithms in turn, barrier by barrier: each keeps a count of its own (Epiphany: the dissemination epoch
 * and the WAND interrupt's count of completed barriers, one wait for both), which must not mix. */
static void alternate(void)
{
    static int k;
    if (k++ & 1)
        shmemx_barrier_all_wand();
    else
        shmemx_barrier_all_dissemination();
}

int main(void)
{
    shmem_init();
    rounds(shmem_barrier_all, "shmem_barrier_all", 0);
#if defined(__epiphany__)
    /* Epiphany's WAND is wired across the whole chip: it completes only when every core takes part. */
    if (shmem_n_pes() == SHMEM_TARGET_MAX_PES)
#endif
    {
        rounds(shmemx_barrier_all_wand, "wand", 1000);
        rounds(alternate, "wand and dissemination in turn", 4000);
    }
    rounds(shmemx_barrier_all_dissemination, "dissemination", 2000);
    rounds(quiet_sync_all, "sync_all", 3000);
    if (shmem_my_pe() == 0) printf("barrier: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}

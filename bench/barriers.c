/* Host time of the simulated machine, not the guest's work: shmem_init, R calls of shmem_barrier_all (argv[1],
 * default 1000) and shmem_finalize, nothing else. scripts/bench-host.sh times it on the host at 0 and R barriers
 * and several PE counts: start-up is the run with none, a barrier's host time the difference divided by R. The
 * program checks nothing and prints only what it did (a benchmark, never pass/fail). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    shmem_init();
    for (long r = 0; r < rounds; ++r) shmem_barrier_all();
    if (shmem_my_pe() == 0) printf("barriers: %ld at %d PEs\n", rounds, shmem_n_pes());
    shmem_finalize();
    return 0;
}

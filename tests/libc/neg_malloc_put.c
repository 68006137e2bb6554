/* A put whose target is malloc'd (private) memory must be reported as not symmetric, not performed. */
#include <shmem.h>
#include <stdlib.h>

int main(void)
{
    shmem_init();
    long *private_block = malloc(4 * sizeof(long));
    long v[4] = {1, 2, 3, 4};
    if (shmem_my_pe() == shmem_n_pes() - 1) shmem_putmem(private_block, v, sizeof v, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

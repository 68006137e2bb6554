/* A put to a PE that does not exist must be reported (routine, PE, argument, expected range), not performed. */
#include <shmem.h>

static long target[4];

int main(void)
{
    shmem_init();
    long v[4] = {1, 2, 3, 4};
    if (shmem_my_pe() == 0) shmem_long_put(target, v, 4, shmem_n_pes());
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

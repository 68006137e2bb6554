/* A put whose target is a stack variable (not symmetric) must be reported, not performed. */
#include <shmem.h>

int main(void)
{
    shmem_init();
    long on_stack[4] = {0, 0, 0, 0};
    long v[4] = {1, 2, 3, 4};
    if (shmem_my_pe() == shmem_n_pes() - 1) shmem_putmem(on_stack, v, sizeof v, 0);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

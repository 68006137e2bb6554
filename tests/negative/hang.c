/* The last PE waits for a flag nobody sets: the loader's time limit must end the run, say so, and fail. */
#include <shmem.h>

static int never;

int main(void)
{
    shmem_init();
    if (shmem_my_pe() == shmem_n_pes() - 1) shmem_int_wait_until(&never, SHMEM_CMP_EQ, 1);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

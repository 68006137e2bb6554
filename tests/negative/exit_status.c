/* PE 2 returns 3 from main: the whole run must end with status 3 (the loader's exit status). */
#include <shmem.h>

int main(void)
{
    shmem_init();
    if (shmem_my_pe() == 2) return 3;
    shmem_barrier_all(); /* PE 2 never arrives: the run ends through its status, not through this barrier */
    shmem_finalize();
    return 0;
}

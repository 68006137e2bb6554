/* Footprint program 1 (issue 5's anchor, ARL: 612 B of text + 168 B of bss): setup and a barrier only. */
#include <shmem.h>

int main(void)
{
    shmem_init();
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

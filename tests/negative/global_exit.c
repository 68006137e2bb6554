/* shmem_global_exit(7) on PE 0 while the others wait in a barrier: the run ends with 7 at once, and PE 0's
 * unfinished output line (no newline yet) still comes out. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    if (shmem_my_pe() == 0) {
        printf("partial line without newline");
        shmem_global_exit(7);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

/* The program the scripted gdb session (gdb_session.sh) debugs: it stops PE 1 on the marked line and prints me,
 * which must be 1. Built with -O0 so that me lives in the PE's stack frame where gdb can read it. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    printf("PE %d of %d\n", me, shmem_n_pes()); /* gdb-session: break here */
    shmem_finalize();
    return 0;
}

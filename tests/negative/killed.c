/* The last PE is killed by a signal the library does not catch (SIGKILL), while the others wait in a barrier: the
 * run must end with 128 + 9 and oshrun must name the PE and the signal (linux target). */
#include <shmem.h>
#include <signal.h>
#include <unistd.h>

int main(void)
{
    shmem_init();
    if (shmem_my_pe() == shmem_n_pes() - 1) kill(getpid(), SIGKILL);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

/* Wrong calls of the AMO, signal and lock routines (argv[1] says which), made by the last PE while the others
 * wait in a barrier: each must end the run with status 134 and a message naming the routine, the PE, the
 * argument and what was expected. */
#include <shmem.h>
#include <string.h>

static long word, lock;
static uint64_t sig, words[2];

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        long on_stack = 0;
        if (strcmp(kind, "stack") == 0) shmem_long_atomic_add(&on_stack, 1, 0);
        if (strcmp(kind, "misaligned") == 0) shmem_uint64_atomic_fetch((uint64_t *)((char *)words + 4), 0);
        if (strcmp(kind, "pe") == 0) shmem_int_atomic_inc((int *)&word, shmem_n_pes());
        if (strcmp(kind, "sig_op") == 0) shmem_long_put_signal(&word, &word, 1, &sig, 1, 7, 0);
        if (strcmp(kind, "sig_addr") == 0) shmem_putmem_signal(&word, &word, 8, (uint64_t *)&on_stack, 1, 0, 0);
        if (strcmp(kind, "not_held") == 0) shmem_clear_lock(&lock);
        if (strcmp(kind, "lock_stack") == 0) shmem_set_lock(&on_stack);
        if (strcmp(kind, "recursive") == 0) {
            shmem_set_lock(&lock);
            shmem_set_lock(&lock);
        }
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

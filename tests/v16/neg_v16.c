/* Wrong calls of the OpenSHMEM 1.6 routines (argv[1] says which), made by the last PE while the others wait in a
 * barrier (the collectives: by every PE): each must end the run with status 134 and a message naming the routine, the PE, the argument and what
 * was expected. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

static long arr[8];
static uint64_t sig;

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int n = shmem_n_pes();
    /* collectives: every PE makes the same wrong call (a call on one PE alone is a mismatch of its own) */
    long on_stack_all[4] = {0};
    if (strcmp(kind, "scan_overlap") == 0) shmem_long_sum_inscan(SHMEM_TEAM_WORLD, &arr[1], &arr[0], 4);
    if (strcmp(kind, "scan_symmetric") == 0) shmem_long_sum_exscan(SHMEM_TEAM_WORLD, arr, on_stack_all, 4);
    if (shmem_my_pe() == n - 1) {
        long on_stack[4] = {0};
        if (strcmp(kind, "ibput_stride") == 0) shmem_long_ibput(arr, arr, 2, 3, 3, 2, 0);
        if (strcmp(kind, "ibget_stride") == 0) shmem_ctx_ibget32(SHMEM_CTX_DEFAULT, on_stack, arr, 1, -1, 0, 2, 0);
        if (strcmp(kind, "ibput_overflow") == 0) shmem_long_ibput(arr, arr, PTRDIFF_MAX, 3, 3, 3, 0);
        if (strcmp(kind, "ibget_symmetric") == 0) shmem_long_ibget(arr, on_stack, 1, 2, 1, 2, 0);
        if (strcmp(kind, "team_ptr_pe") == 0) shmem_team_ptr(SHMEM_TEAM_WORLD, arr, n);
        if (strcmp(kind, "session_config") == 0)
            shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, SHMEM_CTX_SESSION_TOTAL_OPS);
        if (strcmp(kind, "session_ctx") == 0) {
            shmem_ctx_t ctx;
            shmem_ctx_create(0, &ctx);
            shmem_ctx_destroy(ctx);
            shmem_ctx_session_stop(ctx);
        }
        if (strcmp(kind, "pe_quiet") == 0) shmem_pe_quiet(&n, 1);
        if (strcmp(kind, "signal_addr") == 0) shmem_signal_add((uint64_t *)on_stack, 1, 0);
        if (strcmp(kind, "signal_pe") == 0) shmem_signal_set(&sig, 1, n);
        if (strcmp(kind, "get_config") == 0) shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, NULL);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

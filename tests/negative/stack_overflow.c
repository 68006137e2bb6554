/* Stack overflows (virt-rv64: the guard below the stack traps at once, and the report says so):
 *   unbounded  recursion without end (it ran until the time limit, silently, having overwritten the trap path)
 *   returning  a recursion that uses twice the stack and returns (it exited 0 with heap bytes changed)
 * The deepest PE is the last; the others wait in a barrier. */
#include <shmem.h>
#include <stdio.h>
#ifndef SHMEM_SMALL_SIZES
#define SHMEM_SMALL_SIZES 0
#endif
#include <string.h>

static volatile int sink;

static int recurse(int depth, int limit)
{
    volatile char frame[256]; /* 256 bytes a level, never optimised away */
    memset((char *)frame, depth, sizeof frame);
    if (limit >= 0 && depth >= limit) return frame[depth % 256];
    return recurse(depth + 1, limit) + frame[(depth * 7) % 256];
}

int main(int argc, char **argv)
{
    shmem_init();
    const int unbounded = argc > 1 && strcmp(argv[1], "unbounded") == 0;
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        /* virt: 64 KiB of stack, 256 levels of 256 bytes is 64 KiB of frames alone, 512 levels twice the stack;
         * Epiphany (SHMEM_SMALL_SIZES): 1.5 KB of stack, 12 levels are twice it (more would overwrite the program
         * before the guard is looked at, at the next barrier) */
        sink = recurse(0, unbounded ? -1 : (SHMEM_SMALL_SIZES ? 12 : 512));
        printf("the recursion returned: the overflow went unnoticed\n");
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}

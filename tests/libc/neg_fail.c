/* The ways a C program ends itself: argv[1] = "assert" (a failed assert), "abort". Each must end the run with 134
 * and a message that says where. What the program printed before comes out first. */
#undef NDEBUG /* assert is on in every build of this test */
#include <assert.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_positive(int v) { return v > 0; }

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe();
    shmem_barrier_all();
    if (me == shmem_n_pes() - 1) {
        fputs("partial stderr line before the end", stderr);
        if (argc > 1 && strcmp(argv[1], "assert") == 0) assert(is_positive(me - 1000));
        if (argc > 1 && strcmp(argv[1], "abort") == 0) abort();
        return 5;  /* neither: the test's expected status says so */
    }
    shmem_barrier_all();  /* the others wait here until the run ends */
    return 0;
}

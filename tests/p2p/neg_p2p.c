/* Misuse of the array routines must be reported with the routine's name (argv[1]): cmp, an invalid comparison,
 * even with an empty wait set; stack, ivars that are not symmetric. */
#include <shmem.h>
#include <string.h>

static long ivars[4];

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "cmp";
    const int none[4] = {1, 1, 1, 1};
    size_t idx[4];
    if (strcmp(kind, "cmp") == 0) {
        shmem_long_wait_until_some(ivars, 4, idx, none, 0, 0L);
    } else {
        long on_stack[4] = {1, 1, 1, 1};
        shmem_long_test_any(on_stack, 4, NULL, SHMEM_CMP_EQ, 1L);
    }
    shmem_finalize();
    return 0;
}

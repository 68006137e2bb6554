/* shmem_free and shmem_realloc of a pointer that is not a live block of the symmetric heap: reported (status 134) in
 * every build that keeps the cheap checks, Release included (before: Release freed a static object as if it were a
 * block, damaged the library's state, and faulted at pc 0 after the program had ended). Every PE makes the call.
 *   static   shmem_free of a static object
 *   inner    shmem_free of a pointer into a block
 *   twice    shmem_free of a block already freed
 *   realloc  shmem_realloc of a static object */
#include <shmem.h>
#include <string.h>

static long object[4];

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    long *a = shmem_malloc(4 * sizeof(long));
    long *b = shmem_malloc(4 * sizeof(long)); /* keeps a from being the last block */
    if (strcmp(kind, "static") == 0) shmem_free(object);
    if (strcmp(kind, "inner") == 0) shmem_free(a + 1);
    if (strcmp(kind, "twice") == 0) {
        shmem_free(a);
        shmem_free(a);
    }
    if (strcmp(kind, "realloc") == 0) (void)shmem_realloc(object, 64);
    shmem_free(b);
    shmem_finalize();
    return 0;
}

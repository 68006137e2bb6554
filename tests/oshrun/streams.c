/* One line to stdout and one to stderr per PE: oshrun must keep them on its own stdout and stderr. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    printf("to-stdout\n");
    fprintf(stderr, "to-stderr\n");
    shmem_finalize();
    return 0;
}

/* One line per PE, "hello from PE <me> of <n>": what oshrun's --tag-output and --output-filename tests look at. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    printf("hello from PE %d of %d\n", shmem_my_pe(), shmem_n_pes());
    shmem_finalize();
    return 0;
}

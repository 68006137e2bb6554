/* One line per PE. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    printf("Hello from PE %d of %d (%s)\n", shmem_my_pe(), shmem_n_pes(), name);
    shmem_finalize();
    return 0;
}

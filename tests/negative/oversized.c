/* An image whose static data cannot fit in any partition: the loader must refuse it before starting anything. */
#include <shmem.h>

static char huge[(size_t)3 << 29]; /* 1.5 GiB of .bss: more than any partition (at most 1 GiB) */

int main(void)
{
    shmem_init();
    huge[shmem_my_pe()] = 1;
    shmem_finalize();
    return huge[0];
}

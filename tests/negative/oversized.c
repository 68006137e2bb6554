/* An image whose static data cannot fit in any partition: the loader must refuse it before starting anything
 * (virt-rv64), or the link must fail (Epiphany, whose linker script checks the 32 KB of a core). */
#include <shmem.h>

#if defined(__epiphany__)
static char huge[32 * 1024]; /* a whole core's 32 KB of .bss, code and stack not counted */
#else
static char huge[(size_t)3 << 29]; /* 1.5 GiB of .bss: more than any partition (at most 1 GiB) */
#endif

int main(void)
{
    shmem_init();
    huge[shmem_my_pe()] = 1;
    shmem_finalize();
    return huge[0];
}

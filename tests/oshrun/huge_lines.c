/* Every PE prints one line of 70,000 bytes of its own letter ('A' + PE), a character at a time, all at once after a
 * barrier: longer than oshrun's 64 KiB line buffer, so each line spills (host_loader/core/console.hpp). oshrun must
 * still keep each line whole, with nothing of another PE inside it and no byte added. */
#include <shmem.h>
#include <stdio.h>

#define LENGTH 70000

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe();
    shmem_barrier_all();
    for (int i = 0; i < LENGTH; ++i) putchar('A' + me % 26);
    putchar('\n');
    shmem_finalize();
    return 0;
}

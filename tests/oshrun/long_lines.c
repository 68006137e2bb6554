/* Every PE prints one line of 1000 bytes of its own letter ('A' + PE, wrapping after 'Z'), all at once after a
 * barrier: many times the target's console record (255 bytes) and line buffer, so the lines reach oshrun in pieces
 * that interleave with the other PEs'. oshrun must put each line back together: every line of its output is one
 * PE's 1000 letters. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#define LENGTH 1000

static char line[LENGTH + 1];

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe();
    memset(line, 'A' + me % 26, LENGTH);
    line[LENGTH] = '\0';
    shmem_barrier_all();
    printf("%s\n", line);
    shmem_finalize();
    return 0;
}

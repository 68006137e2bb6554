/* A host program that is not linked with libshmem: oshrun --target linux must refuse it (its PEs would each run
 * alone, as runs of one PE). */
#include <stdio.h>

int main(void)
{
    puts("not a libshmem program");
    return 0;
}

/* The generic names of the AMO and signal families in C11 (_Generic selection). */
#include "generic_body.h"

int main(void)
{
    shmem_init();
    run_generic("C11");
    shmem_finalize();
    return 0;
}

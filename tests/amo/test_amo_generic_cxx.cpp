// The generic names of the AMO and signal families in C++ (overloads).
#include "generic_body.h"

int main()
{
    shmem_init();
    run_generic("C++");
    shmem_finalize();
    return 0;
}

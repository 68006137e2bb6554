// The profiling interface used from C++ (the same tool and program as test_interpose.c, compiled as C++17): the
// tool's definitions of names that shmem.h declares extern "C" keep C linkage, the C++ overloads of the generic
// names reach the tool's typed routines, and the program starts with shmem_init_thread (whose call of shmem_init
// the tool must not see).
#include "test_interpose.c"

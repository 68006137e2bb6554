// The deprecated active-set reductions (shmem_TYPE_OP_to_all, OpenSHMEM 1.4), over the engine's reduce (coll.hpp).
// The shared checks: coll_entry.hpp.
#include "coll_entry.hpp"

using namespace shmem;
using namespace shmem::detail;

extern "C" {

// pWrk holds max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements (OpenSHMEM 1.4); the engine chunks
// through whatever it is given.
#define SHMEM_DEFINE_TO_ALL_(T, N, OP, OPTYPE)                                                                   \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride,       \
                                   int PE_size, T *pWrk, long *pSync)                                            \
    {                                                                                                             \
        const char *routine = "shmem_" #N "_" #OP "_to_all";                                                    \
        const size_t n = nreduce > 0 ? size_t(nreduce) : 0;                                                      \
        const size_t wrk = n / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? n / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE; \
        reduction(routine, agreed(routine, active_set(routine, PE_start, logPE_stride, PE_size, pSync,          \
                                                      SHMEM_REDUCE_SYNC_SIZE, pWrk, wrk * sizeof(T)),             \
                                  "nreduce", nreduce),                                                                    \
                  dest, source, n, OPTYPE());                                                                     \
    }
#define SHMEM_DEFINE_TO_ALL_BITWISE_(T, N) \
    SHMEM_DEFINE_TO_ALL_(T, N, and, OpAnd) SHMEM_DEFINE_TO_ALL_(T, N, or, OpOr) SHMEM_DEFINE_TO_ALL_(T, N, xor, OpXor)
#define SHMEM_DEFINE_TO_ALL_MINMAX_(T, N) SHMEM_DEFINE_TO_ALL_(T, N, max, OpMax) SHMEM_DEFINE_TO_ALL_(T, N, min, OpMin)
#define SHMEM_DEFINE_TO_ALL_ARITH_(T, N) SHMEM_DEFINE_TO_ALL_(T, N, sum, OpSum) SHMEM_DEFINE_TO_ALL_(T, N, prod, OpProd)
SHMEM_TO_ALL_BITWISE_TYPES(SHMEM_DEFINE_TO_ALL_BITWISE_)
SHMEM_TO_ALL_MINMAX_TYPES(SHMEM_DEFINE_TO_ALL_MINMAX_)
SHMEM_TO_ALL_ARITH_TYPES(SHMEM_DEFINE_TO_ALL_ARITH_)

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_COLL_TO_ALL)

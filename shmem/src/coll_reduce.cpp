// The team reductions and scans (OpenSHMEM 1.5 §9.9.7, 1.6's scans): their entries, over the engine's reduce and
// scan (coll.hpp). The shared checks and fast path: coll_entry.hpp.
#include "coll_entry.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {
namespace {

// The checked path of a reduction, as the other entries' (collectives.cpp): written once (*_checked_inline) and
// called out of line where the entries have a fast path (*_checked), inline where they have not.
template <class T, class Op>
[[gnu::always_inline]] inline int reduction_checked_inline(shmem_team_t team, T *dest, const T *source,
                                                           size_t nreduce, const char *routine)
{
    return reduction(routine, checked_team(routine, team, "nreduce", int64_t(nreduce)), dest, source, nreduce, Op());
}
template <class T, class Op>
[[gnu::noinline]] int reduction_checked(shmem_team_t team, T *dest, const T *source, size_t nreduce,
                                        const char *routine)
{
    return reduction_checked_inline<T, Op>(team, dest, source, nreduce, routine);
}
template <class T, class Op>
[[gnu::always_inline]] inline int reduction_entry(const char *routine, shmem_team_t team, T *dest, const T *source,
                                                  size_t nreduce)
{
    size_t bytes;
    const Group *g;
    if (fast_team(team, nreduce, sizeof(T), bytes, g)) return reduction(routine, *g, dest, source, nreduce, Op());
    if constexpr (fast_entries) return reduction_checked<T, Op>(team, dest, source, nreduce, routine);
    return reduction_checked_inline<T, Op>(team, dest, source, nreduce, routine);
}
template <class T>
int scan_team(const char *routine, shmem_team_t team, T *dest, const T *source, size_t nelems, bool exclusive)
{
    const Group &g = checked_team(routine, team, "nelems", int64_t(nelems));
    if (nelems == 0) return 0;  // nothing to add up on any rank: no communication (any pointers are fine)
    const size_t bytes = bytes_of(routine, "nelems", nelems, sizeof(T));
    check_symmetric(routine, "dest", dest, bytes);
    check_symmetric(routine, "source", source, bytes);  // the other ranks read source remotely
    check_no_overlap(routine, dest, source, nelems);
    static_assert((sizeof(T) & (sizeof(T) - 1)) == 0, "element sizes are powers of two");
    scan(g, dest, source, bytes, __builtin_ctz(sizeof(T)), &combine<T, OpSum>, exclusive);
    return 0;
}

}  // namespace
}  // namespace shmem::detail

extern "C" {

#define SHMEM_DEFINE_REDUCE_(T, N, OP, OPTYPE)                                                                   \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce)                  \
    {                                                                                                             \
        return reduction_entry<T, OPTYPE>("shmem_" #N "_" #OP "_reduce", team, dest, source, nreduce);          \
    }
#define SHMEM_DEFINE_REDUCE_BITWISE_(T, N) \
    SHMEM_DEFINE_REDUCE_(T, N, and, OpAnd) SHMEM_DEFINE_REDUCE_(T, N, or, OpOr) SHMEM_DEFINE_REDUCE_(T, N, xor, OpXor)
#define SHMEM_DEFINE_REDUCE_MINMAX_(T, N) SHMEM_DEFINE_REDUCE_(T, N, max, OpMax) SHMEM_DEFINE_REDUCE_(T, N, min, OpMin)
#define SHMEM_DEFINE_REDUCE_ARITH_(T, N) SHMEM_DEFINE_REDUCE_(T, N, sum, OpSum) SHMEM_DEFINE_REDUCE_(T, N, prod, OpProd)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DEFINE_REDUCE_BITWISE_)
SHMEM_REDUCE_MINMAX_TYPES(SHMEM_DEFINE_REDUCE_MINMAX_)
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DEFINE_REDUCE_ARITH_)

#define SHMEM_DEFINE_SCAN_(T, N)                                                                                 \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems)                      \
    {                                                                                                             \
        return scan_team("shmem_" #N "_sum_inscan", team, dest, source, nelems, false);                         \
    }                                                                                                             \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems)                      \
    {                                                                                                             \
        return scan_team("shmem_" #N "_sum_exscan", team, dest, source, nelems, true);                          \
    }
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DEFINE_SCAN_)
#undef SHMEM_DEFINE_SCAN_

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_COLL_REDUCE)

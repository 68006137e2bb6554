// The collectives' entries' shared checks and fast path (collectives.cpp: data movement and synchronization;
// coll_reduce.cpp: the team reductions and scans; coll_to_all.cpp: the deprecated active-set reductions), in three
// sources so that a build compiles them side by side. Internal linkage, as when they were one source: each source
// keeps GCC's inlining of them as it was (the fast paths inline all of them).
#pragma once
#include "coll.hpp"

namespace shmem::detail {
namespace {

// The group of a deprecated active set: PE_start, PE_start + 2^logPE_stride, ... with the caller's pSync of
// sync_words longs (the routine's SHMEM_*_SYNC_SIZE) and pWrk for reductions. The calling PE must be in it.
[[maybe_unused]] Group active_set(const char *routine, int start, int log_stride, int size, long *pSync, int sync_words,
                 void *pWrk = nullptr, size_t wrk_bytes = 0)
{
    check_init(routine);
    const int n = port::n_pes(), me = port::my_pe();
    if constexpr (cheap_checks) {
        const int stride = log_stride >= 0 && log_stride < 31 ? 1 << log_stride : 0;
        if (size < 1 || start < 0 || start >= n || stride == 0 || ((n - 1 - start) >> log_stride) < size - 1) {
            Usage u(routine);
            u.m().s("active set (PE_start ").i(start).s(", logPE_stride ").i(log_stride).s(", PE_size ").i(size)
                .s(") does not fit in the ").i(n).s(" PEs of this run");
            u.fail();
        }
        if (me < start || ((me - start) & (stride - 1)) != 0 || ((me - start) >> log_stride) >= size) {
            Usage u(routine);
            u.m().s("this PE is not in the active set (PE_start ").i(start).s(", logPE_stride ").i(log_stride)
                .s(", PE_size ").i(size).s("); only its members may call");
            u.fail();
        }
        check_symmetric(routine, "pSync", pSync, size_t(sync_words) * sizeof(long));
        if (pWrk != nullptr) check_symmetric(routine, "pWrk", pWrk, wrk_bytes);
    }
    return make_group(start, 1 << log_stride, size, (me - start) >> log_stride, pSync,
                      static_cast<unsigned char *>(pWrk), wrk_bytes);
}

// With checks, the deprecated active-set collectives compare their arguments with the set's first PE
// (agree_active_set, coll_agree.cpp); without, the group as it is.
inline Group agreed(const char *routine, Group g, const char *n1 = nullptr, int64_t v1 = 0, const char *n2 = nullptr,
                    int64_t v2 = 0, const char *n3 = nullptr, int64_t v3 = 0)
{
    if constexpr (checks) agree_active_set(routine, g, n1, v1, n2, v2, n3, v3);
    return g;
}
// Teams' collectives: the team checked and, with checks, the arguments that must agree compared across it.
[[maybe_unused]] TeamGroup checked_team(const char *routine, shmem_team_t team, const char *n1 = nullptr, int64_t v1 = 0,
                   const char *n2 = nullptr, int64_t v2 = 0, const char *n3 = nullptr, int64_t v3 = 0)
{
    check_init(routine);
    check_team(routine, team);
    check_agreement(routine, team, n1, v1, n2, v2, n3, v3);
    return team_group(team);
}
// Reductions and scans: dest and source are the same array or disjoint ones.
template <class T>
void check_no_overlap(const char *routine, const T *dest, const T *source, size_t n)
{
    if constexpr (checks)
        if (dest != source && dest < source + n && source < dest + n) {
            Usage u(routine);
            u.m().s("dest = ").p(dest).s(" and source = ").p(source)
                .s(" overlap; expected the same array or disjoint arrays");
            u.fail();
        }
}

template <class T, class Op>
int reduction(const char *routine, const Group &g, T *dest, const T *source, size_t nreduce, Op op)
{
    const size_t bytes = bytes_of(routine, "nreduce", nreduce, sizeof(T));
    check_symmetric(routine, "dest", dest, bytes);
    check_symmetric(routine, "source", source, bytes);
    check_no_overlap(routine, dest, source, nreduce);
    return reduce(g, dest, source, nreduce, op);
}
// The team collectives' entries take a fast path where the build keeps only the cheap checks (no SHMEM_CHECKS) and
// all of them pass: the checks as one test (fast_team), then the routine, in which GCC sees them pass. Else the
// checked path, out of line (one for every type where the routine is untyped), which reports the bad argument.
// A report is a call of a noreturn function, which GCC never makes a tail call: one in an entry cost every call
// of it a stack frame (4 instructions a PE), where the fast path makes only tail calls now. Not where the groups
// are made at every call (Epiphany, whose 32 KB want one path).
inline constexpr bool fast_entries = !checks && team_group_table;
// Whether the team is valid and nelems elements of `size` bytes have a size_t byte count (bytes); g its group.
// The checked paths take the entries' arguments in the same order, so that the call to them moves few registers.
[[gnu::always_inline]] inline bool fast_team(shmem_team_t team, size_t nelems, size_t size, size_t &bytes,
                                             const Group *&g)
{
    if (!fast_entries || team == nullptr || team->size == 0 || __builtin_mul_overflow(nelems, size, &bytes))
        return false;
    g = team->group[0];
    return true;
}

}  // namespace
}  // namespace shmem::detail

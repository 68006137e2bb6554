// Team-based collectives and the deprecated active-set forms, on the engine in coll.hpp.
#include "coll.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

// Symmetric scratch of every team slot: the flags of its barrier and collectives, the collect count, and the
// reduction work area. SHMEM_MAX_TEAMS x (256 + SHMEM_TEAM_WORK_BYTES) bytes of every PE's .bss.
#ifndef SHMEM_TEAM_WORK_UNIT
#define SHMEM_TEAM_WORK_UNIT 256  // bytes per reduction round and parity; 64 keeps 2 complex doubles per slot
#endif
#ifndef SHMEM_TEAM_WORK_BYTES
#define SHMEM_TEAM_WORK_BYTES (2 * (1 + max_rounds) * SHMEM_TEAM_WORK_UNIT)
#endif
struct TeamScratch {
    long flags[SHMEM_SYNC_SIZE];
    alignas(16) unsigned char work[SHMEM_TEAM_WORK_BYTES];
};
TeamScratch team_scratch[max_teams];

Group team_group(shmem_team_s *t)
{
    TeamScratch &s = team_scratch[t->slot];
    return Group{t->start, t->stride, t->size, t->my_pe, s.flags, s.work, sizeof s.work,
                 t->start == 0 && t->stride == 1 && t->size == port::n_pes()};
}

namespace {

// The group of a deprecated active set: PE_start, PE_start + 2^logPE_stride, ... with the caller's pSync (and
// pWrk for reductions). The calling PE must be in it.
Group active_set(const char *routine, int start, int log_stride, int size, long *pSync, void *pWrk = nullptr,
                 size_t wrk_bytes = 0)
{
    check_init(routine);
    const int n = port::n_pes(), me = port::my_pe();
    const int stride = log_stride >= 0 && log_stride < 31 ? 1 << log_stride : 0;
    if constexpr (checks) {
        if (size < 1 || start < 0 || stride == 0 || start + int64_t(size - 1) * stride >= n) {
            Usage u(routine);
            u.m().s("active set (PE_start ").i(start).s(", logPE_stride ").i(log_stride).s(", PE_size ").i(size)
                .s(") does not fit in the ").i(n).s(" PEs of this run");
            u.fail();
        }
        if (me < start || (me - start) % stride != 0 || (me - start) / stride >= size) {
            Usage u(routine);
            u.m().s("this PE is not in the active set (PE_start ").i(start).s(", logPE_stride ").i(log_stride)
                .s(", PE_size ").i(size).s("); only its members may call");
            u.fail();
        }
        check_symmetric(routine, "pSync", pSync, SHMEM_SYNC_SIZE * sizeof(long));
        if (pWrk != nullptr) check_symmetric(routine, "pWrk", pWrk, wrk_bytes);
    }
    return Group{start, stride, size, (me - start) / stride, pSync, static_cast<unsigned char *>(pWrk), wrk_bytes,
                 start == 0 && stride == 1 && size == n};
}

Group checked_team(const char *routine, shmem_team_t team)
{
    check_init(routine);
    check_team(routine, team);
    return team_group(team);
}

void check_root(const char *routine, const Group &g, int root)
{
    if constexpr (checks)
        if (root < 0 || root >= g.size) {
            Usage u(routine);
            u.m().s("PE_root = ").i(root).s(" is not in the team/active set; expected 0 <= PE_root < ").i(g.size);
            u.fail();
        }
}

void bcast(const char *routine, const Group &g, void *dest, const void *source, size_t bytes, int root,
           bool copy_to_root)
{
    check_root(routine, g, root);
    check_symmetric(routine, "dest", dest, bytes);
    broadcast(g, dest, source, bytes, root, copy_to_root);
}

void fcollect(const char *routine, const Group &g, void *dest, const void *source, size_t bytes)
{
    check_symmetric(routine, "dest", dest, bytes * size_t(g.size));
    allgather(g, static_cast<unsigned char *>(dest), source, [bytes](int j) { return size_t(j) * bytes; });
}

// collect: every rank publishes its byte count, reads everyone's (one remote load each) and all-gathers blocks
// at the offsets they imply.
void collect(const char *routine, const Group &g, void *dest, const void *source, size_t bytes)
{
    g.flags[flag_publish] = long(bytes);
    group_barrier(g);
    size_t offsets[port::max_pes + 1];
    offsets[0] = 0;
    for (int j = 0; j < g.size; ++j)
        offsets[j + 1] = offsets[j] + size_t(__atomic_load_n(port::remote_ptr(&g.flags[flag_publish], g.world(j)),
                                                             __ATOMIC_RELAXED));
    check_symmetric(routine, "dest", dest, offsets[g.size]);
    allgather(g, static_cast<unsigned char *>(dest), source, [&offsets](int j) { return offsets[j]; });
    g.flags[flag_publish] = 0;  // everyone has read it (allgather ends in a barrier): pSync back to its value
}

void all2all(const char *routine, const Group &g, void *dest, const void *source, size_t elem, ptrdiff_t dst,
             ptrdiff_t sst, size_t nelems)
{
    check_stride(routine, "dst", dst);
    check_stride(routine, "sst", sst);
    if (nelems != 0)
        check_symmetric(routine, "dest", dest, ((size_t(g.size) * nelems - 1) * size_t(dst) + 1) * elem);
    alltoall(g, static_cast<unsigned char *>(dest), static_cast<const unsigned char *>(source), elem, dst, sst,
             nelems);
}

template <class T, class Op>
void reduction(const char *routine, const Group &g, T *dest, const T *source, size_t nreduce, Op op)
{
    check_symmetric(routine, "dest", dest, nreduce * sizeof(T));
    if constexpr (checks)
        if (dest != source && dest < source + nreduce && source < dest + nreduce) {
            Usage u(routine);
            u.m().s("dest = ").p(dest).s(" and source = ").p(source)
                .s(" overlap; expected the same array or disjoint arrays");
            u.fail();
        }
    reduce(g, dest, source, nreduce, op);
}

struct OpAnd { template <class T> T operator()(T a, T b) const { return T(a & b); } };
struct OpOr { template <class T> T operator()(T a, T b) const { return T(a | b); } };
struct OpXor { template <class T> T operator()(T a, T b) const { return T(a ^ b); } };
struct OpMax { template <class T> T operator()(T a, T b) const { return a < b ? b : a; } };
struct OpMin { template <class T> T operator()(T a, T b) const { return b < a ? b : a; } };
struct OpSum { template <class T> T operator()(T a, T b) const { return T(a + b); } };
struct OpProd { template <class T> T operator()(T a, T b) const { return T(a * b); } };

}  // namespace
}  // namespace shmem::detail

extern "C" {

int shmem_team_sync(shmem_team_t team)
{
    check_init("shmem_team_sync");
    if (team == SHMEM_TEAM_INVALID) return -1;
    check_team("shmem_team_sync", team);
    group_barrier(team_group(team));
    return 0;
}

#undef shmem_sync
int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }

void shmemi_sync_active_set(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    group_barrier(active_set("shmem_sync", PE_start, logPE_stride, PE_size, pSync));
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    const Group g = active_set("shmem_barrier", PE_start, logPE_stride, PE_size, pSync);
    port::quiet();
    group_barrier(g);
}

#define SHMEM_DEFINE_COLL_(T, N)                                                                                 \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root)          \
    {                                                                                                             \
        bcast("shmem_" #N "_broadcast", checked_team("shmem_" #N "_broadcast", team), dest, source,             \
              nelems * sizeof(T), PE_root, true);                                                                \
        return 0;                                                                                                 \
    }                                                                                                             \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems)                         \
    {                                                                                                             \
        collect("shmem_" #N "_collect", checked_team("shmem_" #N "_collect", team), dest, source,               \
                nelems * sizeof(T));                                                                              \
        return 0;                                                                                                 \
    }                                                                                                             \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)                        \
    {                                                                                                             \
        fcollect("shmem_" #N "_fcollect", checked_team("shmem_" #N "_fcollect", team), dest, source,            \
                 nelems * sizeof(T));                                                                             \
        return 0;                                                                                                 \
    }                                                                                                             \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)                        \
    {                                                                                                             \
        all2all("shmem_" #N "_alltoall", checked_team("shmem_" #N "_alltoall", team), dest, source,             \
                nelems * sizeof(T), 1, 1, 1);                                                                     \
        return 0;                                                                                                 \
    }                                                                                                             \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,       \
                              size_t nelems)                                                                      \
    {                                                                                                             \
        all2all("shmem_" #N "_alltoalls", checked_team("shmem_" #N "_alltoalls", team), dest, source,           \
                sizeof(T), dst, sst, nelems);                                                                     \
        return 0;                                                                                                 \
    }
SHMEM_RMA_TYPES(SHMEM_DEFINE_COLL_)
#undef SHMEM_DEFINE_COLL_

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root)
{
    bcast("shmem_broadcastmem", checked_team("shmem_broadcastmem", team), dest, source, nelems, PE_root, true);
    return 0;
}
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    collect("shmem_collectmem", checked_team("shmem_collectmem", team), dest, source, nelems);
    return 0;
}
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    fcollect("shmem_fcollectmem", checked_team("shmem_fcollectmem", team), dest, source, nelems);
    return 0;
}
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    all2all("shmem_alltoallmem", checked_team("shmem_alltoallmem", team), dest, source, nelems, 1, 1, 1);
    return 0;
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems)
{
    all2all("shmem_alltoallsmem", checked_team("shmem_alltoallsmem", team), dest, source, 1, dst, sst, nelems);
    return 0;
}

#define SHMEM_DEFINE_REDUCE_(T, N, OP, OPTYPE)                                                                   \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce)                  \
    {                                                                                                             \
        reduction("shmem_" #N "_" #OP "_reduce", checked_team("shmem_" #N "_" #OP "_reduce", team), dest,       \
                  source, nreduce, OPTYPE());                                                                     \
        return 0;                                                                                                 \
    }
#define SHMEM_DEFINE_REDUCE_BITWISE_(T, N) \
    SHMEM_DEFINE_REDUCE_(T, N, and, OpAnd) SHMEM_DEFINE_REDUCE_(T, N, or, OpOr) SHMEM_DEFINE_REDUCE_(T, N, xor, OpXor)
#define SHMEM_DEFINE_REDUCE_MINMAX_(T, N) SHMEM_DEFINE_REDUCE_(T, N, max, OpMax) SHMEM_DEFINE_REDUCE_(T, N, min, OpMin)
#define SHMEM_DEFINE_REDUCE_ARITH_(T, N) SHMEM_DEFINE_REDUCE_(T, N, sum, OpSum) SHMEM_DEFINE_REDUCE_(T, N, prod, OpProd)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DEFINE_REDUCE_BITWISE_)
SHMEM_REDUCE_MINMAX_TYPES(SHMEM_DEFINE_REDUCE_MINMAX_)
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DEFINE_REDUCE_ARITH_)

// ---- deprecated active-set forms -------------------------------------------------------------------------------

#define SHMEM_DEFINE_AS_SIZED_(BITS)                                                                             \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,        \
                               int logPE_stride, int PE_size, long *pSync)                                       \
    {                                                                                                             \
        bcast("shmem_broadcast" #BITS,                                                                          \
              active_set("shmem_broadcast" #BITS, PE_start, logPE_stride, PE_size, pSync), dest, source,        \
              nelems * (BITS / 8), PE_root, false);                                                              \
    }                                                                                                             \
    void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,     \
                             int PE_size, long *pSync)                                                           \
    {                                                                                                             \
        collect("shmem_collect" #BITS, active_set("shmem_collect" #BITS, PE_start, logPE_stride, PE_size, pSync), \
                dest, source, nelems * (BITS / 8));                                                              \
    }                                                                                                             \
    void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,    \
                              int PE_size, long *pSync)                                                          \
    {                                                                                                             \
        fcollect("shmem_fcollect" #BITS,                                                                        \
                 active_set("shmem_fcollect" #BITS, PE_start, logPE_stride, PE_size, pSync), dest, source,      \
                 nelems * (BITS / 8));                                                                           \
    }                                                                                                             \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,    \
                              int PE_size, long *pSync)                                                          \
    {                                                                                                             \
        all2all("shmem_alltoall" #BITS,                                                                         \
                active_set("shmem_alltoall" #BITS, PE_start, logPE_stride, PE_size, pSync), dest, source,       \
                nelems * (BITS / 8), 1, 1, 1);                                                                    \
    }                                                                                                             \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
                               int PE_start, int logPE_stride, int PE_size, long *pSync)                        \
    {                                                                                                             \
        all2all("shmem_alltoalls" #BITS,                                                                        \
                active_set("shmem_alltoalls" #BITS, PE_start, logPE_stride, PE_size, pSync), dest, source,      \
                BITS / 8, dst, sst, nelems);                                                                      \
    }
SHMEM_DEFINE_AS_SIZED_(32)
SHMEM_DEFINE_AS_SIZED_(64)
#undef SHMEM_DEFINE_AS_SIZED_

// pWrk holds max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements (OpenSHMEM 1.4); the engine chunks
// through whatever it is given.
#define SHMEM_DEFINE_TO_ALL_(T, N, OP, OPTYPE)                                                                   \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride,       \
                                   int PE_size, T *pWrk, long *pSync)                                            \
    {                                                                                                             \
        const char *routine = "shmem_" #N "_" #OP "_to_all";                                                    \
        const size_t n = nreduce > 0 ? size_t(nreduce) : 0;                                                      \
        const size_t wrk = n / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? n / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE; \
        reduction(routine, active_set(routine, PE_start, logPE_stride, PE_size, pSync, pWrk, wrk * sizeof(T)),   \
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

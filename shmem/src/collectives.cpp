// The collectives' entries: synchronization and data movement, team-based and the deprecated active-set forms,
// their argument checks and fast paths (the reductions' entries: coll_reduce.cpp, coll_to_all.cpp; what the three
// share: coll_entry.hpp). The engine: coll_sweep.cpp (sweeps, barriers), coll_gather.cpp (all-gathers, all-to-all,
// scans, large reductions), coll_agree.cpp (the agreement checks); coll.hpp and coll_engine.hpp between them.
#include "coll_entry.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

TeamScratch team_scratch[max_teams];
Group team_groups[team_group_table ? max_teams : 1];

Group make_team_group(const shmem_team_s *t)
{
    TeamScratch &s = team_scratch[t->slot];
    return make_group(t->start, t->stride, t->size, t->my_pe, s.flags, s.work, sizeof s.work);
}

void set_team_group(shmem_team_s *t)
{
    if constexpr (team_group_table) {
        team_groups[t->slot] = make_team_group(t);
        t->group[0] = &team_groups[t->slot];
    }
    if constexpr (port::has_network) net_team_created(t->slot);
}


namespace {

static_assert(sweep_flags <= SHMEM_BARRIER_SYNC_SIZE && sweep_flags <= SHMEM_BCAST_SYNC_SIZE &&
                  sweep_flags <= SHMEM_REDUCE_SYNC_SIZE && sweep_flags <= SHMEM_ALLTOALL_SYNC_SIZE &&
                  sweep_flags <= SHMEM_ALLTOALLS_SYNC_SIZE && flag_count <= SHMEM_COLLECT_SYNC_SIZE &&
                  SHMEM_COLLECT_SYNC_SIZE <= SHMEM_SYNC_SIZE,
              "the flags fit in each pSync");

void check_root(const char *routine, const Group &g, int root)
{
    if constexpr (cheap_checks)
        if (root < 0 || root >= g.size) {
            Usage u(routine);
            u.m().s("PE_root = ").i(root).s(" is not in the team/active set; expected 0 <= PE_root < ").i(g.size);
            u.fail();
        }
}

// Always inline where the build is for speed: GCC took these out of line, a second frame in every broadcast (where
// the build is for size, Epiphany's, out of line is the smaller).
#ifdef __OPTIMIZE_SIZE__
#define SHMEM_BCAST_INLINE inline
#else
#define SHMEM_BCAST_INLINE [[gnu::always_inline]] inline
#endif
// The deprecated active-set broadcasts leave dest on the root alone; the 1.5 team ones fill it too (bcast_team).
SHMEM_BCAST_INLINE void bcast(const char *routine, const Group &g, void *dest, const void *source, size_t bytes,
                                          int root)
{
    check_root(routine, g, root);
    check_symmetric(routine, "dest", dest, bytes);
    check_symmetric(routine, "source", source, bytes);
    if constexpr (port::own_sweep)
        sweep(g, root, Sweep{dest, source, bytes, sweep_down_only, nullptr});  // the port's sweep, its down half
    else
        broadcast_down(g, dest, source, bytes, root);
}

[[gnu::noinline]] int bcast_root(const Group &g, void *dest, const void *source, size_t bytes, int root)
{
    copy_local(dest, source, bytes);
    if constexpr (flat_capable)
        if (g.flat()) return sweep_flat_send(g, root, dest, dest, bytes);
    sweep(g, root, Sweep{dest, dest, bytes, 0, nullptr});  // not broadcast(): a second caller takes it out of line
    return 0;
}

// A rank but the root in a group that is not flat: its own routine, so that the flat ranks' caller needs no frame.
[[gnu::noinline]] int bcast_other(const Group &g, void *dest, const void *source, size_t bytes, int root)
{
    broadcast(g, dest, source, bytes, root);
    return 0;
}

// The root copies first and sends from its dest, which then holds the data whatever the overlap (bcast_root, out
// of line: the others' path then makes only tail calls, and keeps no registers across the sweep). Returns 0, the
// team broadcasts' value, so that those calls are tail calls, and a flat group's other ranks need no frame.
SHMEM_BCAST_INLINE int bcast_team(const char *routine, const Group &g, void *dest, const void *source,
                                              size_t bytes, int root)
{
    check_root(routine, g, root);
    check_symmetric(routine, "dest", dest, bytes);
    check_symmetric(routine, "source", source, bytes);
    if (g.rank == root) return bcast_root(g, dest, source, bytes, root);
    if constexpr (flat_capable) {  // (not on Epiphany, where a second out-of-line function costs its budget)
        if (g.flat()) return sweep_flat_leaf(g, root);
        return bcast_other(g, dest, source, bytes, root);
    }
    broadcast(g, dest, source, bytes, root);
    return 0;
}

// (entered: an active set's, coll.hpp)
SHMEM_BCAST_INLINE int fcollect(const char *routine, const Group &g, void *dest, const void *source, size_t bytes,
                                bool entered = false)
{
    check_symmetric(routine, "dest", dest, bytes_of(routine, "nelems (in bytes)", bytes, size_t(g.size)));
    check_symmetric(routine, "source", source, bytes);
    return allgather(g, static_cast<unsigned char *>(dest), source, nullptr, bytes, entered);
}

// collect: every rank publishes its byte count, reads everyone's (one remote load each) and all-gathers blocks
// at the offsets they imply.
void collect(const char *routine, const Group &g, void *dest, const void *source, size_t bytes)
{
    g.flags[flag_publish] = long(bytes);
    group_barrier(g);
    size_t offsets[port::max_pes + 1];
    offsets[0] = 0;
    for (int j = 0; j < g.size; ++j) {
        const size_t block = size_t(peer_load<__ATOMIC_RELAXED>(&g.flags[flag_publish], g.world(j)));
        if (__builtin_add_overflow(offsets[j], block, &offsets[j + 1]))
            if constexpr (cheap_checks) {
                Usage u(routine);
                u.m().s("the blocks of the team's PEs add up to more than the address space (PE ").i(j)
                    .s(" of the team brings ").u(block).s(" bytes)");
                u.fail();
            }
    }
    check_symmetric(routine, "dest", dest, offsets[g.size]);
    check_symmetric(routine, "source", source, bytes);
    allgather(g, static_cast<unsigned char *>(dest), source, offsets, 0, true);  // (after the barrier above)
    g.flags[flag_publish] = 0;  // everyone has read it (before sending its block, which is here): pSync as it was
}

// The alltoall routines: contiguous blocks of `block` bytes (their nelems elements).
void all2all_blocks(const char *routine, const Group &g, void *dest, const void *source, size_t block,
                    bool entered = false)
{
    if (block != 0) {
        const size_t extent = strided_extent(routine, size_t(g.size), "dst", 1, block);
        check_symmetric(routine, "dest", dest, extent);
        check_symmetric(routine, "source", source, extent);
    }
    alltoall_blocks(g, static_cast<unsigned char *>(dest), static_cast<const unsigned char *>(source), block,
                    entered);
}
void all2all(const char *routine, const Group &g, void *dest, const void *source, size_t elem, ptrdiff_t dst,
             ptrdiff_t sst, size_t nelems, bool entered = false)
{
    check_stride(routine, "dst", dst);
    check_stride(routine, "sst", sst);
    if (nelems != 0) {
        const size_t blocks = bytes_of(routine, "nelems", nelems, size_t(g.size));
        check_symmetric(routine, "dest", dest, strided_extent(routine, blocks, "dst", dst, elem));
        check_symmetric(routine, "source", source, strided_extent(routine, blocks, "sst", sst, elem));
    }
    alltoall(g, static_cast<unsigned char *>(dest), static_cast<const unsigned char *>(source), elem, dst, sst,
             nelems, entered);
}
// Each checked path is written once (*_checked_inline) and called out of line where the entries have a fast path
// (*_checked), inline where they have not.
[[gnu::always_inline]] inline int bcast_checked_inline(shmem_team_t team, void *dest, const void *source,
                                                       size_t nelems, int root, size_t size, const char *routine)
{
    return bcast_team(routine, checked_team(routine, team, "nelems", int64_t(nelems), "PE_root", root), dest,
                      source, bytes_of(routine, "nelems", nelems, size), root);
}
[[gnu::noinline]] int bcast_checked(shmem_team_t team, void *dest, const void *source, size_t nelems, int root,
                                    size_t size, const char *routine)
{
    return bcast_checked_inline(team, dest, source, nelems, root, size, routine);
}
[[gnu::always_inline]] inline int bcast_entry(const char *routine, shmem_team_t team, void *dest, const void *source,
                                              size_t nelems, size_t size, int root)
{
    size_t bytes;
    const Group *g;
    if (fast_team(team, nelems, size, bytes, g) && root >= 0 && root < g->size)  // check_root's test
        return bcast_team(routine, *g, dest, source, bytes, root);
    if constexpr (fast_entries) return bcast_checked(team, dest, source, nelems, root, size, routine);
    return bcast_checked_inline(team, dest, source, nelems, root, size, routine);
}
[[gnu::always_inline]] inline int fcollect_checked_inline(shmem_team_t team, void *dest, const void *source,
                                                          size_t nelems, size_t size, const char *routine)
{
    return fcollect(routine, checked_team(routine, team, "nelems", int64_t(nelems)), dest, source,
                    bytes_of(routine, "nelems", nelems, size));
}
[[gnu::noinline]] int fcollect_checked(shmem_team_t team, void *dest, const void *source, size_t nelems, size_t size,
                                       const char *routine)
{
    return fcollect_checked_inline(team, dest, source, nelems, size, routine);
}
[[gnu::always_inline]] inline int fcollect_entry(const char *routine, shmem_team_t team, void *dest,
                                                 const void *source, size_t nelems, size_t size)
{
    size_t bytes, all;
    const Group *g;
    if (fast_team(team, nelems, size, bytes, g) && !__builtin_mul_overflow(bytes, size_t(g->size), &all))
        return fcollect(routine, *g, dest, source, bytes);
    if constexpr (fast_entries) return fcollect_checked(team, dest, source, nelems, size, routine);
    return fcollect_checked_inline(team, dest, source, nelems, size, routine);
}

}  // namespace
}  // namespace shmem::detail

extern "C" {

int shmem_team_sync(shmem_team_t team)
{
    check_init("shmem_team_sync");
    if (team == SHMEM_TEAM_INVALID) return -1;
    check_team("shmem_team_sync", team);
    // the whole machine's barrier before the team's group is made up: 20 instructions of a PE's 27 there
    if (whole_machine(team->start, team->stride, team->size)) {
        barrier_world(barrier_hardware);
    } else {
        group_barrier(team_group(team));
    }
    return 0;
}

#undef shmem_sync
int shmem_sync(shmem_team_t team) { return pshmem_team_sync(team); }

void shmemi_sync_active_set(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    group_barrier(active_set("shmem_sync", PE_start, logPE_stride, PE_size, pSync, SHMEM_BARRIER_SYNC_SIZE));
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    const Group g = active_set("shmem_barrier", PE_start, logPE_stride, PE_size, pSync, SHMEM_BARRIER_SYNC_SIZE);
    port::quiet();
    group_barrier(g);
}

#define SHMEM_DEFINE_COLL_(T, N)                                                                                 \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root)          \
    {                                                                                                             \
        return bcast_entry("shmem_" #N "_broadcast", team, dest, source, nelems, sizeof(T), PE_root);             \
    }                                                                                                             \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems)                         \
    {                                                                                                             \
        collect("shmem_" #N "_collect", checked_team("shmem_" #N "_collect", team), dest, source,               \
                bytes_of("shmem_" #N "_collect", "nelems", nelems, sizeof(T)));                                       \
        return 0;                                                                                                 \
    }                                                                                                             \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)                        \
    {                                                                                                             \
        return fcollect_entry("shmem_" #N "_fcollect", team, dest, source, nelems, sizeof(T));                  \
    }                                                                                                             \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)                        \
    {                                                                                                             \
        all2all_blocks("shmem_" #N "_alltoall", checked_team("shmem_" #N "_alltoall", team, "nelems", int64_t(nelems)), dest, source, \
                       bytes_of("shmem_" #N "_alltoall", "nelems", nelems, sizeof(T)));                               \
        return 0;                                                                                                 \
    }                                                                                                             \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,       \
                              size_t nelems)                                                                      \
    {                                                                                                             \
        all2all("shmem_" #N "_alltoalls", checked_team("shmem_" #N "_alltoalls", team, "dst", dst, "sst", sst, "nelems", int64_t(nelems)), dest, source,           \
                sizeof(T), dst, sst, nelems);                                                                     \
        return 0;                                                                                                 \
    }
SHMEM_RMA_TYPES(SHMEM_DEFINE_COLL_)
#undef SHMEM_DEFINE_COLL_

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root)
{
    return bcast_entry("shmem_broadcastmem", team, dest, source, nelems, 1, PE_root);
}
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    collect("shmem_collectmem", checked_team("shmem_collectmem", team), dest, source, nelems);
    return 0;
}
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return fcollect_entry("shmem_fcollectmem", team, dest, source, nelems, 1);
    return 0;
}
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    all2all_blocks("shmem_alltoallmem", checked_team("shmem_alltoallmem", team, "nelems", int64_t(nelems)), dest, source, nelems);
    return 0;
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems)
{
    all2all("shmem_alltoallsmem", checked_team("shmem_alltoallsmem", team, "dst", dst, "sst", sst, "nelems", int64_t(nelems)), dest, source, 1, dst, sst, nelems);
    return 0;
}
// ---- deprecated active-set forms -------------------------------------------------------------------------------

#define SHMEM_DEFINE_AS_SIZED_(BITS)                                                                             \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,        \
                               int logPE_stride, int PE_size, long *pSync)                                       \
    {                                                                                                             \
        bcast("shmem_broadcast" #BITS,                                                                          \
              agreed("shmem_broadcast" #BITS, active_set("shmem_broadcast" #BITS, PE_start, logPE_stride, PE_size, pSync, SHMEM_BCAST_SYNC_SIZE), \
                     "nelems", int64_t(nelems), "PE_root", PE_root), dest, source,                                    \
              bytes_of("shmem_broadcast" #BITS, "nelems", nelems, BITS / 8), PE_root);                                \
    }                                                                                                             \
    void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,     \
                             int PE_size, long *pSync)                                                           \
    {                                                                                                             \
        collect("shmem_collect" #BITS,                                                                          \
                agreed("shmem_collect" #BITS, active_set("shmem_collect" #BITS, PE_start, logPE_stride, PE_size, pSync, SHMEM_COLLECT_SYNC_SIZE)), \
                dest, source, bytes_of("shmem_collect" #BITS, "nelems", nelems, BITS / 8));                           \
    }                                                                                                             \
    void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,    \
                              int PE_size, long *pSync)                                                          \
    {                                                                                                             \
        fcollect("shmem_fcollect" #BITS,                                                                        \
                 agreed("shmem_fcollect" #BITS, active_set("shmem_fcollect" #BITS, PE_start, logPE_stride, PE_size, pSync, SHMEM_COLLECT_SYNC_SIZE), \
                        "nelems", int64_t(nelems)), dest, source,                                                       \
                 bytes_of("shmem_fcollect" #BITS, "nelems", nelems, BITS / 8), true);                                 \
    }                                                                                                             \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,    \
                              int PE_size, long *pSync)                                                          \
    {                                                                                                             \
        all2all_blocks("shmem_alltoall" #BITS,                                                                  \
                       agreed("shmem_alltoall" #BITS, active_set("shmem_alltoall" #BITS, PE_start, logPE_stride, PE_size, pSync, SHMEM_ALLTOALL_SYNC_SIZE), \
                              "nelems", int64_t(nelems)), dest, source,                                                 \
                       bytes_of("shmem_alltoall" #BITS, "nelems", nelems, BITS / 8), true);                           \
    }                                                                                                             \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
                               int PE_start, int logPE_stride, int PE_size, long *pSync)                        \
    {                                                                                                             \
        all2all("shmem_alltoalls" #BITS,                                                                        \
                agreed("shmem_alltoalls" #BITS, active_set("shmem_alltoalls" #BITS, PE_start, logPE_stride, PE_size, pSync, SHMEM_ALLTOALLS_SYNC_SIZE), \
                       "dst", dst, "sst", sst, "nelems", int64_t(nelems)), dest, source,                                \
                BITS / 8, dst, sst, nelems, true);                                                                \
    }
SHMEM_DEFINE_AS_SIZED_(32)
SHMEM_DEFINE_AS_SIZED_(64)
#undef SHMEM_DEFINE_AS_SIZED_

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_COLL_MOVE)

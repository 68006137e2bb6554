// The collective engine: barrier, broadcast, all-gather (collect/fcollect), all-to-all and reductions over a
// Group, which is either a team (its scratch slot) or a deprecated active set (the caller's pSync and pWrk).
//
// Synchronization is by one-shot flags in the group's symmetric flag array: a message puts its data into the
// receiver's symmetric buffer and then raises a flag there (a release store: 1) and wakes the receiver; wait()
// sleeps until its own flag is raised and lowers it again (stores 0). Plain loads and stores, no atomic
// read-modify-write: on a core without atomics (Epiphany: TESTSET only) a signal is one posted store. The one
// exception is where the port has atomics on every PE's memory: a flat group's ranks (at most flat_max) arrive at
// the root of a sweep by an atomic add to its arrival count, which the root lowers to zero before it sends
// anything. That is enough because of two invariants (coll_sweep.cpp and coll_gather.cpp say why each algorithm
// keeps them):
//   - within a collective, a flag of a PE is raised at most once before that PE lowers it;
//   - a PE writes into another PE's flags, reduction slots or dest only after that PE has finished its
//     previous collective of the group: every collective starts with a sweep (of the binomial tree, or flat) or
//     a barrier, and nothing is sent down before the root has heard from every rank. Not where the program
//     ensures it instead (a deprecated active set's broadcast, fcollect, collect and alltoall: its dest ready and
//     its pSync free before any PE calls), nor across the network (coll_net.cpp numbers a team's collectives).
// So every flag is back at zero when a PE returns (bar raises and arrivals of a collective that another PE has
// already started), which is what OpenSHMEM requires of a pSync (SHMEM_SYNC_VALUE) and what lets a team slot be
// reused.
//
// The engine is out of line (coll_sweep.cpp, coll_gather.cpp) and untyped: a program links one copy of each
// algorithm however many types and operations it uses; a reduction adds only its combine loop.
#pragma once

#include <string.h>

#include "team.hpp"

namespace shmem::detail {

// Flat sweeps (coll_engine.hpp, coll_sweep.cpp): in a group of at most flat_max ranks, the ranks arrive at the
// root by an atomic add to its arrival count, and the root sends to each of them in turn, where a binomial tree
// takes 2 log2 n steps of a message and a sleep each. Where the port has atomics on every PE's memory and no sweep of its own.
// Not with SHMEM_ATOMICS=testset, which builds the library as for a port without atomics.
inline constexpr bool flat_capable = !port::own_sweep && port::has_native_atomics && !SHMEM_ATOMICS_TESTSET;
inline constexpr int flat_max = 16;
// An all-gather of a flat group is flat up to this many bytes of dest: rank 0 copies all of it to every rank.
inline constexpr size_t flat_gather_bytes = 1024;
// A reduction of this many bytes a rank or more takes reduce_large (below).
inline constexpr size_t reduce_large_slice = 256;

// Flag indices in a group's flag array (SHMEM_SYNC_SIZE longs).
enum : int {
    flag_tree = 0,                          // .. + max_rounds: arrivals from the children (the barrier's tree)
    flag_release = flag_tree + max_rounds,  // down the tree: a barrier's release, broadcast data, a result
    flag_arrive = flag_release + 1,         // a flat sweep's root: the ranks arrived (a count; flat_capable only)
    flag_data = flag_arrive + int(flat_capable),  // .. + max_rounds: the all-gather's rounds
    flag_publish = flag_data + max_rounds,  // collect: this PE's byte count (a value others read, not a flag)
    flag_count
};
// The flags a sweep uses (barrier, broadcast, reductions, alltoall's barriers): its tree, its release and, in a
// flat group, the arrival count.
inline constexpr int sweep_flags = flag_release + 1 + int(flat_capable);
// The deprecated active-set broadcast's one flag (broadcast_down): none of a sweep's, so that a barrier of the same
// pSync just before it (the checked build's agreement, or the program's) cannot have a raise of it still pending.
inline constexpr int flag_bcast = sweep_flags;
static_assert(flag_count <= SHMEM_SYNC_SIZE, "the flags fit in a pSync");
static_assert(port::own_sweep || flag_bcast < SHMEM_BCAST_SYNC_SIZE, "the broadcast's flag fits in its pSync");

// Where the port's partitions are equal and in PE order (port::has_pe_step), a group's ranks' copies of a symmetric
// object, worked out once when the group is made: rank r's copy of x is at x + rank0 + r * step (modulo 2^64).
// Working it out from the geometry at every arrival cost a flat sweep's rank some 9 instructions, these 3 (5 with
// a root in a register). Empty elsewhere.
// And, as one compare, whether a reduction is a flat group's sweep (reduce): fewer bytes than flat_reduce_below.
struct RankSteps {
    uintptr_t step;   // bytes from a rank's copy to the next rank's: stride * pe_step()
    uintptr_t rank0;  // bytes from this PE's copy to rank 0's
    size_t flat_reduce_below;  // flat: reduce_large_slice * size (no limit for one rank); else 0
};
struct NoRankSteps {  // (read only where port::has_pe_step, but compiled everywhere)
    static constexpr uintptr_t step = 0, rank0 = 0;
    static constexpr size_t flat_reduce_below = 0;
};

// Where the port has a network (port::has_network), whether a group has a PE that this PE reaches only through it:
// such a group's collectives take the network's algorithms (coll_net.cpp), never the flat ones. Empty elsewhere.
struct Span {
    bool across;
};
struct NoSpan {
    static constexpr bool across = false;
};

struct Group {
    int start, stride, size, rank;  // world PE of rank r: start + r * stride
    long *flags;                    // flag_count symmetric longs
    unsigned char *work;            // symmetric reduction work area
    size_t work_bytes;
    [[no_unique_address]] choose_t<port::has_pe_step, RankSteps, NoRankSteps> steps;  // set by make_group
    [[no_unique_address]] choose_t<port::has_network, Span, NoSpan> span;           // set by make_group

    // start + r * stride: a multiply where the port has a cheap one, else by shifts and adds: a multiply is a
    // floating-point-unit mode switch on Epiphany (some 40 bytes wherever it is written), and ranks are small. Most
    // groups have stride 1. Unsigned, since a team's stride may be negative (1.6) and a negative number must not be
    // shifted; the sum wraps to the right PE.
    // A flat group (flat_capable, at most flat_max ranks): its sweeps and barriers are flat (coll_sweep.cpp).
    [[gnu::always_inline]] static bool flat(int size) { return flat_capable && size <= flat_max; }
    [[gnu::always_inline]] bool flat() const
    {
        if constexpr (port::has_network) return flat(size) && !span.across;
        return flat(size);
    }

    [[gnu::always_inline]] int world(int r) const
    {
        if constexpr (port::has_int_multiply) return int(unsigned(start) + unsigned(r) * unsigned(stride));
        if (stride == 1) return start + r;
        unsigned w = unsigned(start);
        for (unsigned s = unsigned(stride); r != 0; r >>= 1, s <<= 1)
            if (r & 1) w += s;
        return int(w);
    }
    // Rank r's copy of the symmetric object at x (port::has_pe_step).
    template <class T>
    [[gnu::always_inline]] T *of_rank(T *x, int r) const
    {
        static_assert((port::has_pe_step && port::has_int_multiply) || sizeof(T *) == 0, "of_rank steps by a multiply");
        return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(x) + steps.rank0 + uintptr_t(r) * steps.step);
    }
};
// r * bytes for a rank r >= 0: a multiply where the port has a cheap one, else by shifts and adds over the bits
// of r (a rank is small; on Epiphany a multiply is a call that switches the floating-point unit's mode, some 35
// cycles).
[[gnu::always_inline]] inline size_t rank_times(int r, size_t bytes)
{
    if constexpr (port::has_int_multiply) return size_t(r) * bytes;
    size_t t = 0;
    for (unsigned k = unsigned(r); k != 0; k >>= 1, bytes <<= 1)
        if (k & 1) t += bytes;
    return t;
}
template <bool Steps = port::has_pe_step>
choose_t<Steps, RankSteps, NoRankSteps> rank_steps(int start, int stride, int size, long *flags)
{
    if constexpr (Steps) {
        return RankSteps{uintptr_t(intptr_t(stride)) * port::pe_step(),
                         reinterpret_cast<uintptr_t>(port::remote_ptr(flags, start)) - reinterpret_cast<uintptr_t>(flags),
                         !Group::flat(size) ? 0 : size == 1 ? SIZE_MAX : reduce_large_slice * size_t(size)};
    } else {
        return {};
    }
}
// Whether a group spans the network: the PEs reachable by remote_ptr are one contiguous range (port.hpp), so a
// group whose lowest and highest PEs are reachable is reachable as a whole.
template <bool Network = port::has_network>
choose_t<Network, Span, NoSpan> group_span(int start, int stride, int size)
{
    if constexpr (Network) {
        const int last = int(unsigned(start) + unsigned(size - 1) * unsigned(stride));
        return Span{by_network(start) || by_network(last)};
    } else {
        return {};
    }
}
// A group, with its steps where the port has them. (Built in one expression: a group built and then given its
// steps cost Epiphany's fp_rma 140 bytes, where it has none.)
inline Group make_group(int start, int stride, int size, int rank, long *flags, unsigned char *work,
                        size_t work_bytes)
{
    return Group{start,      stride, size, rank, flags, work, work_bytes, rank_steps(start, stride, size, flags),
                 group_span(start, stride, size)};
}

// Can the port's hardware barrier serve a group (every PE of the run, in order)? Only asked where it is used.
inline bool whole_machine(int start, int stride, int size)
{
    return hw_barrier_serves_run() && start == 0 && stride == 1 && size == port::n_pes();
}

// Symmetric scratch of every team slot: the flags of its barrier and collectives, the collect count, and the
// reduction work area. SHMEM_MAX_TEAMS x (flag_count longs + SHMEM_TEAM_WORK_BYTES) bytes of every PE's .bss.
#ifndef SHMEM_TEAM_WORK_UNIT
// bytes per child slot of a reduction in Epiphany's assembly sweep (the generic sweep reads its children's results
// in place), and the scans' chunks; 64 keeps 2 complex doubles
#define SHMEM_TEAM_WORK_UNIT 256
#endif
#ifndef SHMEM_TEAM_WORK_BYTES
#define SHMEM_TEAM_WORK_BYTES (max_rounds * SHMEM_TEAM_WORK_UNIT)
#endif
struct TeamScratch {
    long flags[flag_count];
    alignas(16) unsigned char work[SHMEM_TEAM_WORK_BYTES];
    // With checks: the arguments of the team's collectives, published for check_agreement, by the parity of the
    // team's count of them: rank 0 may be one such collective ahead of a member, never two (each starts with a
    // barrier of the team), so the member reads the words of its own collective.
    uint64_t agree[checks ? 2 : 0][4];
};
extern TeamScratch team_scratch[max_teams];

// The group of a team: made once, when the team is (set_team_group, in collectives.cpp with the team
// scratch), in a table by the team's slot (a PE is in one team of a slot at a time). Making it up at every call
// cost a collective some 20 instructions a PE. Not on a port with its own sweep (Epiphany), whose 32 KB have no
// room for the table: there team_group makes it up at every call (make_team_group).
extern Group team_groups[team_group_table ? max_teams : 1];
void set_team_group(shmem_team_s *team);
Group make_team_group(const shmem_team_s *team);
using TeamGroup = choose_t<team_group_table, const Group &, Group>;
template <bool Table = team_group_table>
inline choose_t<Table, const Group &, Group> team_group(const shmem_team_s *team)
{
    if constexpr (Table) {
        return *team->group[0];
    } else {
        return make_team_group(team);
    }
}

// The port's copies, through its inline small-copy path first where it has one (has_copy_inline), else one aligned
// double word inline (a long's fcollect, an 8-byte broadcast): the collectives' messages are mostly a few words,
// and the copy loop's call and set-up cost more than they do (Epiphany: some 20 cycles for 8 bytes).
// (word64 and whole_words serve the engine's runs of words too: put_run, get_run.)
typedef uint64_t __attribute__((may_alias)) word64;
// Whether to, from and m are whole 8-byte words (Words: the caller knows they are).
template <bool Words = false>
[[gnu::always_inline]] inline bool whole_words(const void *to, const void *from, size_t m)
{
    return Words || ((reinterpret_cast<uintptr_t>(to) | reinterpret_cast<uintptr_t>(from) | m) & 7) == 0;
}
[[gnu::always_inline]] inline bool one_word(void *dst, const void *src, size_t bytes)
{
    if (bytes != sizeof(word64) || !whole_words(dst, src, bytes)) return false;
    *static_cast<word64 *>(dst) = *static_cast<const word64 *>(src);
    return true;
}
[[gnu::always_inline]] inline void put_small(void *dst_remote, const void *src, size_t bytes)
{
    if constexpr (port::has_copy_inline) {
        if (port::copy_inline(dst_remote, src, bytes)) return;
    } else if (one_word(dst_remote, src, bytes)) {
        return;
    }
    port::put_bytes(dst_remote, src, bytes);
}
[[gnu::always_inline]] inline void get_small(void *dst, const void *src_remote, size_t bytes)
{
    if constexpr (port::has_copy_inline) {
        if (port::copy_inline(dst, src_remote, bytes)) return;
    } else if (one_word(dst, src_remote, bytes)) {
        return;
    }
    port::get_bytes(dst, src_remote, bytes);
}

// A local copy with the port's copy loop (picolibc's memmove goes byte by byte); memmove only for overlap.
inline void copy_local(void *dst, const void *src, size_t bytes)
{
    const auto *d = static_cast<const unsigned char *>(dst), *s = static_cast<const unsigned char *>(src);
    if (d + bytes <= s || s + bytes <= d) {
        get_small(dst, src, bytes);
    } else if (d != s) {
        memmove(dst, src, bytes);
    }
}

// Reductions: the communication is untyped; the type and the operation are in the combine function,
// acc[i] = op(acc[i], in[i]) over `bytes` bytes of elements.
using Combine = void (*)(void *acc, const void *in, size_t bytes);
// acc = op(in[0], ..., in[k - 1]) elementwise, 1 <= k <= 5 (combine_many, below).
using CombineMany = void (*)(void *acc, const void *const *in, int k, size_t bytes);
// acc = op(own, in, in + step, ..., in + (k - 1) step) elementwise, k >= 1 (combine_run, below): a flat sweep's root
// where the port's partitions step (port::has_pe_step), the other ranks' inputs a run step bytes apart.
using CombineRun = void (*)(void *acc, const void *own, const void *in, uintptr_t step, int k, size_t bytes);
using FlatCombine = choose_t<port::has_pe_step, CombineRun, CombineMany>;  // a flat sweep root's combine here

// What a sweep of the binomial tree carries (coll_sweep.cpp). A reduction (combine set): dest, with source
// copied into it first, goes up combined with the others, and the result comes down into dest; dest and
// source are the same array or disjoint. A broadcast (no combine): the root's source comes down into dest (the
// root's dest is not written: the team forms copy it). No bytes: a barrier.
struct Sweep {
    void *dest;
    const void *source;
    size_t bytes;
    int elem_shift;    // a reduction's elements are 1 << elem_shift bytes; a broadcast's: sweep_down_only or 0
    Combine combine;
};
// A broadcast's elem_shift for a port's own sweep (own_sweep): the down half only, on the tree's last flag
// (flag_release - 1), for a deprecated active set's broadcast, whose arrivals the program ensures (broadcast_down
// says why, coll_sweep.cpp). Not the release flag: a barrier's release on the same pSync just before may still be
// pending at a rank when the root sends. A tree flag cannot be: a rank lowers its children's arrivals before it
// arrives itself, so all of a group's are down before any rank of a sweep or barrier is released.
inline constexpr int sweep_down_only = 1;
void sweep_generic(const Group &g, int root, const Sweep &s);  // the binomial tree
// A flat group's (Group::flat); `many` is a reduction's operation again, many inputs a pass (the root's).
void sweep_flat(const Group &g, int root, const Sweep &s, FlatCombine many);
// A flat group's rank but the root's with nothing to copy first: arrive, wait for the root's message; returns 0.
int sweep_flat_leaf(const Group &g, int root);
int sweep_flat_leaf0(const Group &g);  // root 0
// A flat reduction's root, where it reads the other ranks' sources (port::has_pe_step); returns 0.
int reduce_flat_root(const Group &g, void *dest, const void *source, size_t bytes, CombineRun run);
// A flat group's root where it has nothing to do before it sends (a barrier, a broadcast); returns 0.
int sweep_flat_send(const Group &g, int root, void *dest, const void *from, size_t m);
// The port's own where it has one (own_sweep: Epiphany's, in assembly; coll_sweep.cpp checks its layout).
inline void sweep(const Group &g, int root, const Sweep &s, FlatCombine many = nullptr)
{
    if constexpr (port::own_sweep) {
        port::sweep(&g, root, &s);
    } else if (g.flat()) {
        sweep_flat(g, root, s, many);
    } else {
        sweep_generic(g, root, s);
    }
}

// With checks, a deprecated active-set collective's arguments compared with those of the set's first PE, in words of
// the library's own (coll_agree.cpp; the teams' check_agreement is declared in team.hpp).
void agree_active_set(const char *routine, const Group &g, const char *n1, int64_t v1, const char *n2, int64_t v2,
                      const char *n3, int64_t v3);

// The algorithms (coll_sweep.cpp, coll_gather.cpp).
void tree_barrier(const Group &g);  // a sweep rooted at rank 0 with nothing to carry
inline constexpr Sweep nothing_to_carry{nullptr, nullptr, 0, 0, nullptr};

// A group that spans the network (Group::span; coll_net.cpp): its barrier, sweep and all-gather. The barrier
// completes this PE's puts first (port::quiet), so that what a rank put before it is in place after it.
void net_barrier(const Group &g);
void net_sweep(const Group &g, int root, const Sweep &s);
int net_allgather(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block);
// A team was made in scratch slot `slot`: its collectives across the network are numbered from the start.
void net_team_created(int slot);
// n bytes between this PE and world PE pe's copy of the symmetric object at `local`, through the network where the
// port reaches pe only that way; put_to then needs a quiet (or a net_barrier) to be complete.
[[gnu::always_inline]] inline void put_to(int pe, void *local, const void *from, size_t n)
{
    if (by_network(pe)) return network_put(pe, local, from, n);
    port::put_bytes(port::remote_ptr(local, pe), from, n);
}
[[gnu::always_inline]] inline void get_from(void *to, int pe, const void *local, size_t n)
{
    if (by_network(pe)) return network_get(to, pe, local, n);
    port::get_bytes(to, port::remote_ptr(local, pe), n);
}

// Where the port has a barrier of its own for every PE of the run and a group's other barrier is the tree
// (Epiphany), the test inline at every caller, so that the run's barrier is a tail call with no frame.
inline constexpr bool group_barrier_small = port::own_barrier_world && !flat_capable && !port::has_network;
// The kind of the port's own barrier for every PE of the run: the build's choice, which the port's barrier makes
// itself; a build that forces the hardware barrier asks for it, as whole_machine says.
inline constexpr int own_barrier_kind = port::has_hw_barrier && SHMEM_BARRIER_WAND ? barrier_hardware : barrier_build;
template <bool Small = group_barrier_small>
inline void group_barrier(const Group &g)
{
    if constexpr (port::has_network)
        if (g.span.across) return net_barrier(g);
    if (port::own_barrier_world && g.size == port::n_pes()) {
        barrier_world(own_barrier_kind);  // every PE of the run (a group of them all is the run, in order)
    } else if (whole_machine(g.start, g.stride, g.size)) {
        barrier_world(barrier_hardware);
    } else if (g.flat()) {
        port::check_stack();  // as tree_barrier does
        if (g.rank == 0) {
            sweep_flat_send(g, 0, nullptr, nullptr, 0);
        } else {
            sweep_flat_leaf0(g);
        }
    } else {
        tree_barrier(g);
    }
}
template <>
[[gnu::always_inline]] inline void group_barrier<true>(const Group &g)
{
    if (g.size == port::n_pes()) return barrier_world(own_barrier_kind);
    tree_barrier(g);  // (it checks the stack)
}
inline void broadcast(const Group &g, void *dest, const void *source, size_t bytes, int root)
{
    sweep(g, root, Sweep{dest, source, bytes, 0, nullptr});
}
// The deprecated active-set broadcasts: the down half only (coll_sweep.cpp says why that is enough); returns 0.
int broadcast_down(const Group &g, void *dest, const void *source, size_t bytes, int root);
// All-gather of blocks in rank order from every rank to every rank's dest; source is this rank's block. Block j
// is at off[j] .. off[j + 1], or with off == nullptr at j * block .. (j + 1) * block.
// In a flat group up to flat_gather_bytes of dest: rank 0 gathers and sends the whole (allgather_flat); else
// ceil(log2 n) rounds (allgather_rounds). The choice inline: the out-of-line routines make only tail calls then.
// Both return 0 (so do allgather and reduce), for the team routines' tail calls.
// `entered` (the rounds, all-to-all): every rank is known to be done with its dest and the group's flags, so
// that no barrier is needed first: where the program ensures it (a deprecated active set's collectives: before
// any PE calls one, every PE's dest must be ready and its pSync not in use by a previous call, OpenSHMEM 1.4 and
// on), or a barrier of the collective's own came just before (collect's). Not a team's: its flags are the
// library's, which the program knows nothing of.
int allgather_flat(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block);
int allgather_rounds(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block,
                     bool entered);
inline int allgather(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block,
                     bool entered)
{
    if (g.flat() && (off != nullptr ? off[g.size] : size_t(g.size) * block) <= flat_gather_bytes)
        return allgather_flat(g, dest, source, off, block);
    return allgather_rounds(g, dest, source, off, block, entered);
}
// All-to-all: block j of source goes to block r of dest on rank j; elem/dst/sst describe strided blocks
// (alltoall), or blocks are `block` contiguous bytes (alltoall_blocks).
void alltoall(const Group &g, unsigned char *dest, const unsigned char *source, size_t elem, ptrdiff_t dst,
              ptrdiff_t sst, size_t nelems, bool entered);
void alltoall_blocks(const Group &g, unsigned char *dest, const unsigned char *source, size_t block, bool entered);

// Scans (prefix sums, 1.6): rank r's dest is the sum of the sources of ranks 0 .. r (inclusive) or 0 .. r - 1
// (exclusive; rank 0 gets zeros), summed in rank order. dest and source are the same array or disjoint.
void scan(const Group &g, void *dest, const void *source, size_t bytes, int elem_shift, Combine combine,
          bool exclusive);

template <class T, class Op>
void combine(void *acc, const void *in, size_t bytes)
{
    T *a = static_cast<T *>(acc);
    const T *b = static_cast<const T *>(in);
    // Unrolled by four: one index update and one compare per four elements, where the loop's own overhead was
    // three of its seven instructions per element (sum of longs on virt).
    // (Not where the build optimizes for size: Epiphany's 32 KB, where a loop of pointers to the end is the
    // smallest. bytes is a whole number of elements, and `<` stops at the end whatever.)
#ifdef __OPTIMIZE_SIZE__
    T *const end = reinterpret_cast<T *>(static_cast<char *>(acc) + bytes);
    if (a < end) do {  // the test at the bottom: one taken branch an element
            *a = Op()(*a, *b);
            ++b;
        } while (++a < end);
#else
    size_t i = 0;
    const size_t n = bytes / sizeof(T);
    for (; n - i >= 4; i += 4) {
        a[i] = Op()(a[i], b[i]);
        a[i + 1] = Op()(a[i + 1], b[i + 1]);
        a[i + 2] = Op()(a[i + 2], b[i + 2]);
        a[i + 3] = Op()(a[i + 3], b[i + 3]);
    }
    for (; i < n; ++i) a[i] = Op()(a[i], b[i]);
#endif
}

// acc[i] = op(...op(op(in[0][i], in[1][i]), in[2][i])..., in[k - 1][i]) for 1 <= k <= many_max inputs, in[0] acc
// itself or another array (the large reductions' reduce-scatter, a flat sweep's root). Up to nine inputs in one
// pass, unrolled by eight (where the build is not for size) with one pointer step per input and eight elements:
// acc loaded and stored once for eight others, where eight two-operand combines load and store it eight times. At
// 16 PEs a slice takes two passes, of nine inputs and of eight, where five a pass took four. One kernel per number
// of inputs: a program links those of the types and operations it uses.
inline constexpr int many_max = 9;
template <class T, class Op, int K>
[[gnu::always_inline]] inline void combine_k(T *a, const void *const *in, size_t n)
{
    const T *b[K];
#pragma GCC unroll 16
    for (int j = 0; j < K; ++j) b[j] = static_cast<const T *>(in[j]);  // unrolled: GCC made it a call of memcpy
    const Op op;
    auto one = [&](size_t i) __attribute__((always_inline)) {  // GCC called it out of line for nine inputs
        T v = op(b[0][i], b[1][i]);
        for (int j = 2; j < K; ++j) v = op(v, b[j][i]);
        a[i] = v;
    };
#ifndef __OPTIMIZE_SIZE__
    for (; n >= 8; n -= 8, a += 8) {
        one(0);
        one(1);
        one(2);
        one(3);
        one(4);
        one(5);
        one(6);
        one(7);
        for (int j = 0; j < K; ++j) b[j] += 8;
    }
#endif
    for (size_t i = 0; i < n; ++i) one(i);
}
template <class T, class Op>
void combine_many(void *acc, const void *const *in, int k, size_t bytes)
{
    T *const a = static_cast<T *>(acc);
    const size_t n = bytes / sizeof(T);
    switch (k) {
    case 1: if (in[0] != acc) copy_local(acc, in[0], bytes); return;
    case 2: return combine_k<T, Op, 2>(a, in, n);
    case 3: return combine_k<T, Op, 3>(a, in, n);
    case 4: return combine_k<T, Op, 4>(a, in, n);
    case 5: return combine_k<T, Op, 5>(a, in, n);
    case 6: return combine_k<T, Op, 6>(a, in, n);
    case 7: return combine_k<T, Op, 7>(a, in, n);
    case 8: return combine_k<T, Op, 8>(a, in, n);
    default: return combine_k<T, Op, many_max>(a, in, n);
    }
}

template <class T, class Op>
void combine_run(void *acc, const void *own, const void *in, uintptr_t step, int k, size_t bytes)
{
    T *a = static_cast<T *>(acc);
    const T *o = static_cast<const T *>(own);
    const auto *p = static_cast<const unsigned char *>(in);
    const uintptr_t span = uintptr_t(k) * step;
    const Op op;
    size_t n = bytes / sizeof(T);
#ifndef __OPTIMIZE_SIZE__
    for (; n >= 4; n -= 4, a += 4, o += 4, p += 4 * sizeof(T)) {  // four elements a walk over the inputs
        T v0 = o[0], v1 = o[1], v2 = o[2], v3 = o[3];
        for (const unsigned char *q = p, *end = p + span; q != end; q += step) {
            const T *b = reinterpret_cast<const T *>(q);
            v0 = op(v0, b[0]);
            v1 = op(v1, b[1]);
            v2 = op(v2, b[2]);
            v3 = op(v3, b[3]);
        }
        a[0] = v0;
        a[1] = v1;
        a[2] = v2;
        a[3] = v3;
    }
#endif
    for (; n != 0; --n, ++a, ++o, p += sizeof(T)) {
        T v = *o;
        for (const unsigned char *q = p, *end = p + span; q != end; q += step) v = op(v, *reinterpret_cast<const T *>(q));
        *a = v;
    }
}
template <class T, class Op>
constexpr FlatCombine flat_combine()
{
    if constexpr (port::has_pe_step)
        return &combine_run<T, Op>;
    else
        return &combine_many<T, Op>;
}

// A large reduction where the port's PEs read each other's memory as they read their own (every port without its
// own sweep): reduce-scatter, each rank combining its slice of every rank's source (nine inputs a pass) and writing
// it into rank 0's dest, then the result goes down from rank 0 as a broadcast; a barrier of the group and the
// broadcast's sweep (coll_gather.cpp). Taken from reduce_large_slice bytes a rank, where it does less work than the
// sweep's combines (at 16 PEs, 4 KiB: 45,982 instructions of the machine; 73,576 with the tree), and only for a
// symmetric source, which the other ranks read (a sweep reads a rank's source only where it is). reduce_large_slice
// is defined above Group, which works out from it where a flat group's reductions end.
void reduce_scatter_gather(const Group &g, void *dest, const void *source, size_t bytes, int elem_shift,
                           CombineMany combine);
// A reduction of reduce_large_slice bytes a rank or more: reduce_scatter_gather for a symmetric source, else the
// sweep. Out of line, so that a reduction's entry makes only tail calls and keeps no registers across a call.
int reduce_large(const Group &g, void *dest, const void *source, size_t bytes, int elem_shift, Combine combine,
                 CombineMany many, FlatCombine flat);
// The sweep of a reduction, out of line: its caller then makes only tail calls, and needs no stack frame. Returns 0.
int reduce_sweep(const Group &g, void *dest, const void *source, size_t bytes, int elem_shift, Combine combine,
                 FlatCombine many);

// Where a flat reduction's root reads the other ranks' inputs: their sources where the source is in the symmetric
// space (the specification's reductions ask for that; then the others copy nothing), else their dests, into which
// each copied its source before it arrived. Every rank decides alike: the array is the same on all of them.
[[gnu::always_inline]] inline bool read_their_source(const void *source, size_t bytes)
{
    return in_symmetric_space(source, bytes);
}

template <class T, class Op>
inline int reduce(const Group &g, T *dest, const T *source, size_t nreduce, Op)
{
    static_assert((sizeof(T) & (sizeof(T) - 1)) == 0, "element sizes are powers of two");
    const size_t bytes = nreduce * sizeof(T);
    if constexpr (port::has_pe_step) {  // the flat sweep's test below, as one compare
        if (bytes < g.steps.flat_reduce_below && read_their_source(source, bytes)) {
            if (g.rank != 0) return sweep_flat_leaf0(g);
            return reduce_flat_root(g, dest, source, bytes, &combine_run<T, Op>);
        }
    }
    if constexpr (!port::own_sweep)
        if (bytes / reduce_large_slice >= size_t(g.size) && g.size > 1)
            return reduce_large(g, dest, source, bytes, __builtin_ctz(sizeof(T)), &combine<T, Op>,
                                &combine_many<T, Op>, flat_combine<T, Op>());
    if constexpr (flat_capable) {
        // a flat group's rank but the root's, whose source the root reads where it is: no Sweep to build
        if (!port::has_pe_step && g.flat() && g.rank != 0 && read_their_source(source, bytes))
            return sweep_flat_leaf0(g);
        return reduce_sweep(g, dest, source, bytes, __builtin_ctz(sizeof(T)), &combine<T, Op>,
                            flat_combine<T, Op>());
    }
    sweep(g, 0, Sweep{dest, source, bytes, __builtin_ctz(sizeof(T)), &combine<T, Op>});
    return 0;
}

struct OpAnd { template <class T> T operator()(T a, T b) const { return T(a & b); } };
struct OpOr { template <class T> T operator()(T a, T b) const { return T(a | b); } };
struct OpXor { template <class T> T operator()(T a, T b) const { return T(a ^ b); } };
struct OpMax { template <class T> T operator()(T a, T b) const { return a < b ? b : a; } };
struct OpMin { template <class T> T operator()(T a, T b) const { return b < a ? b : a; } };
struct OpSum { template <class T> T operator()(T a, T b) const { return T(a + b); } };
struct OpProd { template <class T> T operator()(T a, T b) const { return T(a * b); } };

}  // namespace shmem::detail

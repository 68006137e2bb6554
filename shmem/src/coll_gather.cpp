// The collectives that move more than one sweep carries: the large reductions (reduce-scatter into rank 0, then a
// broadcast), the all-gathers (flat, or in ceil(log2 n) rounds), all-to-all and the scans.
#include "coll_engine.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

void reduce_scatter_gather(const Group &g, void *dest_, const void *source_, size_t bytes, int elem_shift,
                           CombineMany combine)
{
    auto *const dest = static_cast<unsigned char *>(dest_);
    const auto *const source = static_cast<const unsigned char *>(source_);
    const int n = g.size, r = g.rank;
    // Rank j's slice: elements [j base + min(j, extra), (j + 1) base + min(j + 1, extra)), in bytes.
    const size_t elems = bytes >> elem_shift, base = elems / unsigned(n), extra = elems % unsigned(n);
    auto start = [base, extra, elem_shift](int j) {
        return (size_t(j) * base + (size_t(j) < extra ? size_t(j) : extra)) << elem_shift;
    };
    auto next = [n, r](int s) { return r + s < n ? r + s : r + s - n; };  // the ranks after this one, in turn
    const size_t lo = start(r), len = start(r + 1) - lo;
    group_barrier(g);  // every rank's source is final, and its dest free
    // This rank's slice: its own source and the next eight ranks', then the slice so far and the next eight, and
    // so on (combine_many, nine inputs a pass). The last pass writes the slice into rank 0's dest, so that rank 0
    // holds the whole result when every rank is done, with no gather (rank 0 reads its dest only in its own slice).
    // dest and source are the same array or disjoint, and no rank but this one reads this slice of a source: rank
    // 0's dest may be its source, and is written here only where this rank alone reads it, each element after it.
    // A pass's inputs are worked out in a loop of their own, with no call in it: the port's geometry is loaded once
    // a pass, not once an input.
    unsigned char *const result = port::remote_ptr(dest + lo, g.world(0));
    const void *in[many_max] = {source + lo};
    for (int s = 1; s < n;) {
        int k = 1;
        for (; k < many_max && s < n; ++k, ++s) in[k] = port::remote_ptr(source + lo, g.world(next(s)));
        combine(s == n ? result : dest + lo, in, k, len);
        in[0] = dest + lo;
    }
    // The broadcast of rank 0's dest begins with every rank's arrival at rank 0 (a flat sweep's count, the tree's
    // way up, or the hardware barrier), after its slice is in rank 0's dest: no barrier of its own is needed before
    // it. No rank returns, and lets its source change, before every rank has arrived, done with the sources.
    // The broadcast's sweep, called as broadcast() does: a second caller of broadcast() made GCC take that inline
    // function out of line, 52 bytes more in Epiphany's fp_rma, which has no use for this routine.
    sweep(g, 0, Sweep{dest, dest, bytes, 0, nullptr});
}

[[gnu::noinline]] int reduce_large(const Group &g, void *dest, const void *source, size_t bytes, int elem_shift,
                                   Combine combine, CombineMany many, FlatCombine flat)
{
    if constexpr (port::has_network)
        if (g.span.across) return reduce_sweep(g, dest, source, bytes, elem_shift, combine, flat);
    if (is_symmetric(source, bytes)) {
        reduce_scatter_gather(g, dest, source, bytes, elem_shift, many);
        return 0;
    }
    return reduce_sweep(g, dest, source, bytes, elem_shift, combine, flat);
}

// All-gather, ceil(log2 n) rounds for any n, every rank receiving each block once, every block put at its
// final place; round k's flag is raised once per call. The opening barrier (not where `entered`): the ranks write
// into each other's dest and flags from the first round.
// n a power of two: recursive doubling; in round k rank r holds the 2^k blocks of its aligned group (from
// r & ~(2^k - 1)) and swaps them with rank r ^ 2^k, which holds the group next to it.
// Otherwise dissemination (Bruck's algorithm without the rotation): after round k, rank r holds blocks
// r .. r + 2^(k+1) - 1 (mod n); in round k it puts the first min(2^k, n - 2^k) blocks it holds to rank
// r - 2^k, which holds the 2^k blocks before them.
// A flat group and a small dest: a flat sweep. Each rank arrives with its block in its source (fcollect, whose
// source the specification makes symmetric) or copied into its dest (collect, whose ranks' blocks differ, and any
// source that is not symmetric), rank 0 gathers the blocks from where they are (nobody writes them before rank 0
// sends) and sends the whole dest to every rank: 2 (n - 1) copies and n sleeps, where the rounds take n log2 n
// messages and sleeps. Rank 0's part out of line, so that the others' needs few registers.
[[gnu::always_inline]] inline bool from_their_source(const void *source, const size_t *off, size_t block)
{
    return off == nullptr && in_symmetric_space(source, block);  // alike on every rank: the same array and block
}
template <class Others, class At>
[[gnu::always_inline]] inline void gather_each(const Others &o, unsigned char *dest, const void *source, bool theirs,
                                               At at)
{
    each_other(o, [&](int j, auto remote) {
        const size_t a = at(j);
        get_small(dest + a, theirs ? remote(source) : remote(dest + a), at(j + 1) - a);
    });
}
// The gather of allgather_flat's root: from each other rank its block, in its source (theirs) or at its place in
// its dest; with runs and blocks of one size (fcollect), each run of ranks is one get_run.
template <class At>
[[gnu::always_inline]] inline void gather_others(const FlatRuns &o, unsigned char *dest, const void *source,
                                                 bool theirs, const size_t *off, size_t block, At at)
{
    if (off == nullptr) {
        for (int i = 0; i < 2; ++i) {
            const size_t a = at(o.first[i]);
            const auto *from = (theirs ? static_cast<const unsigned char *>(source) : dest + a) + o.disp[i];
            get_run(dest + a, from, theirs ? o.step : o.step + block, o.ranks[i], block);
        }
        return;
    }
    gather_each(o, dest, source, theirs, at);
}
template <class At>
[[gnu::always_inline]] inline void gather_others(const FlatTable &o, unsigned char *dest, const void *source,
                                                 bool theirs, const size_t *, size_t, At at)
{
    gather_each(o, dest, source, theirs, at);
}
[[gnu::noinline]] static int allgather_flat_root(const Group &g, unsigned char *dest, const void *source,
                                                 const size_t *off, size_t block)
{
    auto at = [off, block](int j) { return off != nullptr ? off[j] : size_t(j) * block; };
    const bool theirs = from_their_source(source, off, block);
    sweep_flat(g, 0, dest, dest, at(g.size), [dest, source, theirs, off, block, &at](const auto &others) {
        gather_others(others, dest, source, theirs, off, block, at);
    });
    return 0;
}

[[gnu::noinline]] int allgather_flat(const Group &g, unsigned char *dest, const void *source, const size_t *off,
                                     size_t block)
{
    const int r = g.rank;
    const size_t a = off != nullptr ? off[r] : size_t(r) * block, b = off != nullptr ? off[r + 1] : a + block;
    if (r == 0) {
        copy_local(dest + a, source, b - a);
        return allgather_flat_root(g, dest, source, off, block);
    }
    if (!from_their_source(source, off, block)) copy_local(dest + a, source, b - a);
    sweep_flat(g, 0, nullptr, nullptr, 0, at_root_nothing);  // arrive, and wait for rank 0's message
    return 0;
}

// All-to-all: every rank puts its blocks straight into their places, its own first, then the ranks after it in
// turn, so that the ranks do not all write to the same PE at once. The opening barrier (not where `entered`): every
// rank is done with its dest; the closing one: all blocks have arrived.
// Ranks r .. n - 1, then 0 .. r - 1: the world PE w and rank j's block of source step by adds, with no wrap to
// test (a stride's add, not world()'s shifts per rank). put(w, from) puts the block that starts at from.
template <class Put>
[[gnu::always_inline]] inline void each_block(const Group &g, const unsigned char *source, size_t sblock, Put put)
{
    const int n = g.size, r = g.rank;
    const unsigned step = unsigned(g.stride);  // a negative stride wraps to the right PE
    const unsigned char *from = source + rank_times(r, sblock);
    for (int j = r, w = g.world(r); j < n; ++j, w = int(unsigned(w) + step), from += sblock) put(w, from);
    from = source;
    for (int j = 0, w = g.start; j < r; ++j, w = int(unsigned(w) + step), from += sblock) put(w, from);
}
// Contiguous blocks of `block` bytes (every alltoall): one put each.
void alltoall_blocks(const Group &g, unsigned char *dest, const unsigned char *source, size_t block, bool entered)
{
    if (!entered) group_barrier(g);
    unsigned char *const mine = dest + rank_times(g.rank, block);  // this rank's place in every rank's dest
    each_block(g, source, block, [mine, block](int w, const unsigned char *from) __attribute__((always_inline)) {
        if constexpr (port::has_network) {
            if (by_network(w)) return network_put(w, mine, from, block);  // (the closing barrier's quiet completes it)
        }
        put_small(port::remote_ptr(mine, w), from, block);
    });
    port::fence();
    group_barrier(g);
}
// Strided (alltoalls): element k of block j is at source + (j nelems + k) sst elem, and goes to dest + (r nelems +
// k) dst elem on rank j. The offsets are stepped, and made by shifts where a multiply is not cheap (on Epiphany it
// is a call of some 35 cycles): elem is an element's size, a power of two. Unit strides: contiguous blocks.
void alltoall(const Group &g, unsigned char *dest, const unsigned char *source, size_t elem, ptrdiff_t dst,
              ptrdiff_t sst, size_t nelems, bool entered)
{
    int lg = -1;  // elem == 1 << lg where a multiply is not cheap; -1: multiply
    if constexpr (!port::has_int_multiply) {
        lg = 0;
        while ((size_t(1) << lg) < elem) ++lg;
        if ((size_t(1) << lg) != elem) lg = -1;
    }
    auto by_elem = [elem, lg](size_t a) { return lg < 0 ? a * elem : a << lg; };
    if (dst == 1 && sst == 1) return alltoall_blocks(g, dest, source, by_elem(nelems), entered);
    if (!entered) group_barrier(g);
    const size_t dstep = by_elem(size_t(dst)), sstep = by_elem(size_t(sst));
    const size_t dblock = dst == 1 ? by_elem(nelems) : nelems * dstep;
    const size_t sblock = sst == 1 ? by_elem(nelems) : nelems * sstep;
    unsigned char *const mine = dest + rank_times(g.rank, dblock);
    each_block(g, source, sblock, [&](int w, const unsigned char *from) __attribute__((always_inline)) {
        if constexpr (port::has_network) {
            if (by_network(w)) {
                for (size_t k = 0, d = 0, s = 0; k < nelems; ++k, d += dstep, s += sstep)
                    network_put(w, mine + d, from + s, elem);
                return;
            }
        }
        unsigned char *to = port::remote_ptr(mine, w);
        for (size_t k = 0, d = 0, s = 0; k < nelems; ++k, d += dstep, s += sstep)
            port::put_bytes(to + d, from + s, elem);
    });
    port::fence();
    group_barrier(g);
}

// Scans: each rank reads the sources of the ranks below it (the port's get into the work area) and adds them up
// in rank order, a chunk of the work area at a time: the last rank reads n - 1 sources, n (n - 1) / 2 reads in
// all, and no rank waits for another between the barriers (a logarithmic scan reads less but waits for a partner
// in each of its rounds). Every rank sums in the same order, so equal prefixes are equal bit for bit.
// The opening barrier: every rank's source is ready (1.6 does not ask the caller to synchronize first) and every
// rank is done with its previous collective. The closing one: no rank returns (and lets its source be reused, or
// its work area be written by the next collective) while another may still read its source.
// In place (dest == source), a rank must not write its dest before the ranks above it have read that part of
// its source: it sums into the second half of the work area and copies the chunk into dest after a barrier. Else
// it sums straight into dest and the work area holds the chunk being read.
void scan(const Group &g, void *dest, const void *source, size_t bytes, int elem_shift, Combine combine,
          bool exclusive)
{
    const int r = g.rank;
    const bool in_place = dest == source;
    size_t chunk = in_place ? g.work_bytes / 2 : g.work_bytes;
    chunk &= ~((size_t(1) << elem_shift) - 1);  // whole elements (the area holds two of the largest at least)
    unsigned char *const in = g.work, *const sum = g.work + chunk;
    group_barrier(g);
    for (size_t o = 0; o < bytes; o += chunk) {
        const size_t m = bytes - o < chunk ? bytes - o : chunk;
        const unsigned char *mine = static_cast<const unsigned char *>(source) + o;
        unsigned char *acc = in_place ? sum : static_cast<unsigned char *>(dest) + o;
        if (r == 0) {
            if (exclusive) {
                memset(acc, 0, m);  // the zero of every sum type is all bits zero
            } else {
                copy_local(acc, mine, m);
            }
        } else {
            get_from(acc, g.world(0), mine, m);
            for (int k = 1; k < r; ++k) {
                get_from(in, g.world(k), mine, m);
                combine(acc, in, m);
            }
            if (!exclusive) combine(acc, mine, m);
        }
        if (in_place) {
            group_barrier(g);  // every rank has read this chunk of every source below it
            copy_local(static_cast<unsigned char *>(dest) + o, acc, m);
        }
    }
    group_barrier(g);
}

}  // namespace shmem::detail

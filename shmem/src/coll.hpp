// The collective engine: barrier, broadcast, all-gather (collect/fcollect), all-to-all and reductions over a
// Group, which is either a team (its scratch slot) or a deprecated active set (the caller's pSync and pWrk).
//
// Synchronization is by counting flags in the group's symmetric flag array: signal() adds one to a flag on the
// target PE and wakes it; wait() sleeps until its own flag is positive and takes one away. A signal is never
// lost or counted twice however far ahead the sender runs, and every flag is back at zero when a collective
// returns, which is what OpenSHMEM requires of a pSync (SHMEM_SYNC_VALUE) and what lets a team slot be reused.
// Data always moves by puts into the receiver's symmetric buffer, followed by a fence, followed by the signal.
// Every collective but the barrier ends with a barrier of the group, so that no PE can overwrite a buffer that
// another is still reading for the same collective.
#pragma once

#include <string.h>

#include "team.hpp"

namespace shmem::detail {

// Flag indices in a group's flag array (SHMEM_SYNC_SIZE longs).
inline constexpr int max_rounds = 10;  // dissemination / doubling rounds for up to 1024 PEs
enum : int {
    flag_barrier = 0,                     // .. + max_rounds: dissemination barrier, one counter per round
    flag_fold = flag_barrier + max_rounds, // reduction: data folded in from a rank beyond the power of two
    flag_round = flag_fold + 1,           // .. + max_rounds: recursive doubling rounds (reduce, fcollect)
    flag_result = flag_round + max_rounds,  // reduction: result sent back to a folded rank
    flag_bcast = flag_result + 1,         // broadcast: data has arrived from the parent
    flag_ring = flag_bcast + 1,           // ring all-gather: the next block has arrived from the left
    flag_publish = SHMEM_SYNC_SIZE - 1,   // collect: this PE's element count, published for the others
};
static_assert(flag_ring < flag_publish, "flags fit in SHMEM_SYNC_SIZE");

struct Group {
    int start, stride, size, rank;  // world PE of rank r: start + r * stride
    long *flags;                    // SHMEM_SYNC_SIZE symmetric longs
    unsigned char *work;            // symmetric reduction work area
    size_t work_bytes;
    bool is_world;                  // the whole machine: the port's hardware barrier serves

    int world(int r) const { return start + r * stride; }
};

// The group of a team (defined in collectives.cpp, where the team scratch lives).
Group team_group(shmem_team_s *team);

inline void signal(const Group &g, int rank, int flag)
{
    const int pe = g.world(rank);
    __atomic_fetch_add(port::remote_ptr(&g.flags[flag], pe), 1L, __ATOMIC_RELEASE);
    port::notify(pe);
}

inline void wait(const Group &g, int flag)
{
    long *f = &g.flags[flag];
    port::wait_until([f] { return __atomic_load_n(f, __ATOMIC_ACQUIRE) > 0; });
    __atomic_fetch_sub(f, 1L, __ATOMIC_ACQ_REL);
}

// Dissemination barrier: ceil(log2 n) rounds, in round k rank r signals rank (r + 2^k) mod n.
inline void group_barrier(const Group &g)
{
    if constexpr (port::has_hw_barrier && SHMEM_BARRIER_WAND) {
        if (g.is_world) {
            port::hw_barrier();
            return;
        }
    }
    for (int k = 0, d = 1; d < g.size; ++k, d <<= 1) {
        signal(g, (g.rank + d) % g.size, flag_barrier + k);
        wait(g, flag_barrier + k);
    }
}

// A local copy with the port's copy loop (picolibc's memmove goes byte by byte); memmove only for overlap.
inline void copy_local(void *dst, const void *src, size_t bytes)
{
    const auto *d = static_cast<const unsigned char *>(dst), *s = static_cast<const unsigned char *>(src);
    if (d + bytes <= s || s + bytes <= d) {
        port::get_bytes(dst, src, bytes);
    } else if (d != s) {
        memmove(dst, src, bytes);
    }
}

inline void put_to(const Group &g, int rank, void *symmetric_dest, const void *src, size_t bytes)
{
    if (bytes != 0) port::put_bytes(port::remote_ptr(symmetric_dest, g.world(rank)), src, bytes);
}

inline int highest_power_of_two_below(int n)  // n >= 2
{
    int m = 1;
    while (m * 2 < n) m *= 2;
    return m;
}

// Binomial-tree broadcast from `root`, farthest subtree first: relative rank v receives from v - lowbit(v) and
// sends to v + m for every power of two m < lowbit(v) (every m < n for the root), largest m first, so the data
// that has the longest way to go leaves first. ceil(log2 n) steps of latency.
// copy_to_root: 1.5 team broadcasts also fill dest on the root; the deprecated active-set ones do not.
inline void broadcast(const Group &g, void *dest, const void *source, size_t bytes, int root, bool copy_to_root)
{
    const int n = g.size, v = (g.rank - root + n) % n;
    if (v == 0) {
        if (copy_to_root) copy_local(dest, source, bytes);
    } else {
        wait(g, flag_bcast);
    }
    const void *from = v == 0 ? source : dest;
    const int limit = v == 0 ? n : (v & -v);
    for (int m = n > 1 ? highest_power_of_two_below(n) : 0; m >= 1; m >>= 1) {
        if (m >= limit || v + m >= n) continue;
        const int child = (v + m + root) % n;
        put_to(g, child, dest, from, bytes);
        port::fence();
        signal(g, child, flag_bcast);
    }
    group_barrier(g);
}

// All-gather of blocks: block j (offset off(j), off(j + 1) - off(j) bytes, blocks in rank order) from every
// rank to every rank's dest. Recursive doubling when n is a power of two (log2 n rounds, each doubling what a
// rank holds), a ring otherwise (n - 1 steps, each passing one block to the right).
template <class Offset>
inline void allgather(const Group &g, unsigned char *dest, const void *source, Offset off)
{
    const int n = g.size, r = g.rank;
    copy_local(dest + off(r), source, off(r + 1) - off(r));
    if ((n & (n - 1)) == 0) {
        for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
            const int partner = r ^ d, base = r & ~(d - 1);
            put_to(g, partner, dest + off(base), dest + off(base), off(base + d) - off(base));
            port::fence();
            signal(g, partner, flag_round + k);
            wait(g, flag_round + k);
        }
    } else {
        const int right = (r + 1) % n;
        for (int s = 0; s < n - 1; ++s) {
            const int b = (r - s + n) % n;
            put_to(g, right, dest + off(b), dest + off(b), off(b + 1) - off(b));
            port::fence();
            signal(g, right, flag_ring);
            wait(g, flag_ring);
        }
    }
    group_barrier(g);
}

// All-to-all: block j of source goes to block r of dest on rank j, starting with the right neighbour so that
// the ranks do not all write to the same PE at once. elem/dst/sst describe strided (alltoalls) blocks; for the
// contiguous form they are (nelems * size, 1, 1) with elem the block size in bytes.
inline void alltoall(const Group &g, unsigned char *dest, const unsigned char *source, size_t elem, ptrdiff_t dst,
                     ptrdiff_t sst, size_t nelems)
{
    const int n = g.size, r = g.rank;
    for (int i = 0; i < n; ++i) {
        const int j = (r + i) % n;
        unsigned char *to = port::remote_ptr(dest, g.world(j));
        for (size_t k = 0; k < nelems; ++k) {
            const size_t d = (size_t(r) * nelems + k) * size_t(dst) * elem;
            const size_t s = (size_t(j) * nelems + k) * size_t(sst) * elem;
            port::put_bytes(to + d, source + s, elem);
        }
    }
    port::fence();
    group_barrier(g);
}

// Reduction of nreduce elements with `op`, result on every rank, chunked through the work area.
// Powers of two: recursive doubling (log2 n rounds, each exchanging the partial result with rank r ^ 2^k).
// Other n: ranks p2..n-1 (p2 the largest power of two <= n) first fold their data into rank r - p2, the first
// p2 ranks do recursive doubling, and the folded ranks get the result back. Work area layout: 2 parities x
// (1 fold + max_rounds rounds) slots; chunk c uses parity c % 2, so a partner that runs one chunk ahead writes
// into the other parity while this rank still reads its slot (it cannot run two chunks ahead: it needs this
// rank's messages of the chunk in between). Each rank combines in the same order (own op partner's), and the
// operations are commutative, so every rank ends with the same bits, floating point included.
template <class T, class Op>
inline void reduce(const Group &g, T *dest, const T *source, size_t nreduce, Op op)
{
    const int n = g.size, r = g.rank;
    int p2 = 1, rounds = 0;
    while (p2 * 2 <= n) {
        p2 *= 2;
        ++rounds;
    }
    constexpr int slots = 1 + max_rounds;
    const size_t chunk = g.work_bytes / (2 * slots) / sizeof(T);  // elements per slot (at least 2: see pWrk size)
    const size_t slot_bytes = chunk * sizeof(T);
    auto slot = [&](int parity, int index) {
        return reinterpret_cast<T *>(g.work + (size_t(parity) * slots + size_t(index)) * slot_bytes);
    };
    auto combine = [&](T *acc, const T *in, size_t m) {
        for (size_t i = 0; i < m; ++i) acc[i] = op(acc[i], in[i]);
    };
    size_t c = 0;
    for (size_t o = 0; o < nreduce; o += chunk, ++c) {
        const size_t m = nreduce - o < chunk ? nreduce - o : chunk;
        const int parity = int(c & 1);
        T *acc = dest + o;
        copy_local(acc, source + o, m * sizeof(T));
        if (r >= p2) {
            put_to(g, r - p2, slot(parity, 0), acc, m * sizeof(T));
            port::fence();
            signal(g, r - p2, flag_fold);
            wait(g, flag_result);  // rank r - p2 put the result into our dest
            continue;
        }
        if (r + p2 < n) {
            wait(g, flag_fold);
            combine(acc, slot(parity, 0), m);
        }
        for (int k = 0; k < rounds; ++k) {
            const int partner = r ^ (1 << k);
            put_to(g, partner, slot(parity, 1 + k), acc, m * sizeof(T));
            port::fence();
            signal(g, partner, flag_round + k);
            wait(g, flag_round + k);
            combine(acc, slot(parity, 1 + k), m);
        }
        if (r + p2 < n) {
            put_to(g, r + p2, acc, acc, m * sizeof(T));
            port::fence();
            signal(g, r + p2, flag_result);
        }
    }
    group_barrier(g);
}

}  // namespace shmem::detail

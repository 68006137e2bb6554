// The collectives of a group that spans the network (Group::span: a team with PEs that this PE reaches only
// through the port's network, port::has_network). The engine's own algorithms (coll_sweep.cpp, coll_gather.cpp)
// read and write the ranks' memory by remote_ptr; here a rank is reached by a signal (raise: bytes, then a count
// raised; through the network, network_put_signal, one message, where the rank is beyond reach) or by put_to and
// get_from. The counts are flags of the group's scratch that only raise (its CPU atomics, or the port's handler of
// the network's signal, which applies them with the target's CPU atomics) and their owner (take) change: never an
// AMO of the network, so they are in the CPU's atomic domain whatever the run's. Every count is back at zero when
// its owner returns (a team's scratch serves the next team of its slot as it is), but for raises by ranks that
// are already in a later collective of the group, which that collective takes.
//  - the barrier: dissemination, ceil(log2 n) rounds; a round's flag is a count that the partner raises by one and
//    its owner lowers by one when it has seen it, so that a partner already in the next barrier (at most one
//    ahead: it has left this one, which every rank entered) leaves a count the next barrier takes;
//  - a broadcast: the root signals its data into every other rank's dest; the others wait for it;
//  - an all-gather: every rank signals its block into every other rank's dest and waits for theirs;
//  - a small all-reduce (one that fits in the work area, a slot a rank): every rank signals its contribution into
//    every other rank's slot, then combines the n contributions in rank order (so every rank's result is the same
//    bit for bit);
//  - a large one: a barrier (the others' contributions are read where they are), a reduce-scatter by reads (each
//    rank reads every rank's contribution to its own block of the elements and combines them in rank order), then
//    an all-gather of the blocks by signals.
// No barrier before the broadcast, the all-gather or the small all-reduce. The specification makes the program
// ensure that every PE's dest is ready before any PE calls one (and, for an active set, that its pSync and pWrk
// are no longer in use by a previous call): so data may land in a rank's dest before that rank has called. What
// the library must keep apart itself is a team's own scratch, whose counts and work area the program knows
// nothing of (data_flag, below): a rank that has left a collective may already signal into the next ones at a
// rank that is still in an earlier one, and the network need not deliver one sender's messages in order.
// The alltoall and the scans are the engine's (coll_gather.cpp), whose accesses go through put_to and get_from.
// This file's functions are called only where the port has a network; elsewhere --gc-sections drops them.
#include "coll.hpp"

namespace shmem::detail {

namespace {

// The large reductions' buffer (reduce_block, on its stack): a piece of every rank's contribution at once.
constexpr size_t read_buffer = 65536;

// A team's collectives across the network that carry data (broadcasts, all-gathers, all-reduces: "data
// collectives"), numbered 1, 2, ... on every member alike, count their signals at a flag of ring_flags by their
// number, and a small all-reduce uses one of the two halves of the work area by its own number among them:
//  - synced is the number of data collectives every member had completed when this PE last saw all of them in a
//    collective (a barrier, or an all-gather or all-reduce, whose every rank waits for every other: then every
//    rank had completed the data collectives before it, and taken all their counts);
//  - this PE enters data collective t only where t - synced <= ring_flags, with a barrier first otherwise (a
//    broadcast's root waits for nobody: without it, a root could run any number of broadcasts ahead). So the
//    collectives still in progress anywhere when any rank signals for t are synced + 1 .. t, which differ modulo
//    ring_flags: their counts never meet, in whatever order the network delivers them;
//  - a rank in all-reduce q (a count of the small ones) has completed q - 1, which every rank entered: so every
//    rank is done with q - 2's half of the work area, q's.
// A deprecated active set has none of this: the program ensures that its pSync and pWrk are not in use by a previous
// call before any PE calls (and numbers nothing): its collectives use flag_data and the whole pWrk.
constexpr uint32_t ring_flags = 4;
// (Where the port has a network: elsewhere this file is compiled, never called, and a port of few PEs, whose
// all-gather has fewer rounds, has no room for the ring.)
static_assert(!port::has_network || flag_data + int(ring_flags) <= flag_publish,
              "the ring's flags are the all-gather's rounds' (unused here)");
// A barrier of a group with two or more ranks on some node is hierarchical (net_barrier): each node's ranks (a
// contiguous range of ranks, since a node's PEs are a contiguous range of PEs and ranks follow PE order) arrive at
// its lowest, the node's leader; the leaders run the dissemination among themselves; each leader releases its
// node's ranks. Its plan: this rank's node's ranks, and a leader's partner in each round.
struct Hier {
    int lo, hi;         // this rank's node's ranks in the group; lo is their leader
    int rounds;         // the leaders' dissemination rounds (ceil(log2 leaders))
    int partner[32];    // a leader's partner in round k: the leader (index + 2^k) mod leaders, as a rank
    bool hierarchical;  // some node holds two or more ranks (the same answer on every rank: node_first is global)
    bool planned;       // the plan is made (a team's is zero until its first barrier)
};
struct TeamSeq {
    uint32_t entered;  // data collectives this PE has entered
    uint32_t synced;   // see above
    uint32_t reduces;  // small all-reduces this PE has entered
    Hier hier;         // the barrier's plan (made at the team's first barrier)
};
TeamSeq team_seq[max_teams];

// The numbering of the team whose scratch holds the group's flags; null for an active set.
TeamSeq *seq_of(const Group &g)
{
    const uintptr_t off = reinterpret_cast<uintptr_t>(g.flags) - reinterpret_cast<uintptr_t>(team_scratch);
    if (off >= sizeof team_scratch) return nullptr;
    return &team_seq[off / sizeof(TeamScratch)];
}

// What a signal of n bytes counts: a piece a message of at most signal_piece bytes (one if it carries none), so
// that no message needs more than signal_piece of the target's memory to arrive in. Raiser and taker agree on it.
constexpr size_t signal_piece = size_t(1) << 20;
inline long pieces(size_t n) { return n == 0 ? 1 : long((n + signal_piece - 1) / signal_piece); }

// Copies n bytes from `from` into rank j's copy of the symmetric object at `local` (none: n == 0) and raises
// rank j's count at flag index f by pieces(n), after the bytes are in place there.
void raise(const Group &g, int j, int f, void *local = nullptr, const void *from = nullptr, size_t n = 0)
{
    const int pe = g.world(j);
    long *const flag = &g.flags[f];
    if (by_network(pe)) {
        const auto *s = static_cast<const unsigned char *>(from);
        auto *d = static_cast<unsigned char *>(local);
        size_t left = n;
        do {
            const size_t m = left < signal_piece ? left : signal_piece;
            network_put_signal(pe, d, s, m, flag, sizeof(long), true, 1);
            d += m, s += m, left -= m;
        } while (left != 0);
    } else {
        if (n != 0) port::put_bytes(port::remote_ptr(local, pe), from, n);
        __atomic_fetch_add(port::remote_ptr(flag, pe), pieces(n), __ATOMIC_RELEASE);  // after the bytes
        port::notify(pe);
    }
}

// Waits for this PE's count at flag index f to reach v, and takes v from it. A PE of the group that ended (one of
// this PE's node: the others' ends are not announced here) makes the wait a report, as in a run on one node.
void take(const Group &g, int f, long v)
{
    long *const flag = &g.flags[f];
    library_wait_until([&g] { return PeSet{g.start, g.stride, g.size}; },
                       [flag, v] { return __atomic_load_n(flag, __ATOMIC_ACQUIRE) >= v; });
    __atomic_fetch_sub(flag, v, __ATOMIC_RELAXED);
}

// Signals n bytes from `from` into every other rank's copy of `local` at flag index f, from the right neighbour
// on (not all to one rank at once), and waits for the other ranks' signals to this PE: their(j), the bytes rank j
// signals here.
template <class Their>
void exchange(const Group &g, int f, void *local, const void *from, size_t n, Their their)
{
    const int size = g.size, r = g.rank;
    long expect = 0;
    for (int i = 1; i < size; ++i) {
        const int j = r + i < size ? r + i : r + i - size;
        raise(g, j, f, local, from, n);
        expect += pieces(their(j));
    }
    take(g, f, expect);
}

// Rank j's m bytes at `local` (a symmetric object) into `to`: this PE's own by a local copy, a PE of its node's
// by loads, another node's by a get left in flight (network_get_wait completes it).
void read_rank(const Group &g, int j, void *to, const void *local, size_t m)
{
    const int pe = g.world(j);
    if (j == g.rank)
        copy_local(to, local, m);
    else if (by_network(pe))
        network_get_nbi(to, pe, local, m);
    else
        port::get_bytes(to, port::remote_ptr(local, pe), m);
}

// The reduce-scatter's part of one rank (net_sweep): its block, bytes [at, at + m) of the elements, from every
// rank's contribution into this rank's dest, combined in rank order. A round reads a piece of every rank's at once
// (the gets of all the other nodes' in flight together, one wait), then combines them.
[[gnu::noinline]] void reduce_block(const Group &g, unsigned char *dest, const unsigned char *contribution, size_t at,
                                    size_t m, int elem_shift, Combine combine)
{
    const int n = g.size;
    alignas(16) unsigned char buf[read_buffer];
    const size_t piece = (read_buffer / size_t(n)) & ~((size_t(1) << elem_shift) - 1);
    static_assert(read_buffer / port::max_pes >= 16, "a piece holds an element of every size (16 bytes at most)");
    for (size_t o = at; o < at + m; o += piece) {
        const size_t k = at + m - o < piece ? at + m - o : piece;
        for (int j = 0; j < n; ++j) read_rank(g, j, buf + size_t(j) * piece, contribution + o, k);
        network_get_wait();
        for (int j = 1; j < n; ++j) combine(buf, buf + size_t(j) * piece, k);
        copy_local(dest + o, buf, k);
    }
}

}  // namespace

// The barrier's plan for group g (Hier): O(n) looks at node_first, made once for a team, at every barrier of an
// active set.
void plan_barrier(const Group &g, Hier &h)
{
    const int n = g.size, r = g.rank;
    h.lo = h.hi = r;
    while (h.lo > 0 && port::reachable(g.world(h.lo - 1))) --h.lo;
    while (h.hi + 1 < n && port::reachable(g.world(h.hi + 1))) ++h.hi;
    // The leaders: rank 0 and every rank whose node is not the one of the rank before it.
    int leaders = 0, index = 0;
    for (int j = 0, prev = -1; j < n; ++j) {
        const int first = port::node_first(g.world(j));
        if (first == prev) continue;
        prev = first;
        if (j == h.lo) index = leaders;
        ++leaders;
    }
    h.hierarchical = leaders < n;
    h.planned = true;
    h.rounds = 0;
    while ((1 << h.rounds) < leaders) ++h.rounds;
    if (!h.hierarchical || h.lo != r) return;
    for (int j = 0, prev = -1, i = 0; j < n; ++j) {  // the partners: the leaders (index + 2^k) mod leaders
        const int first = port::node_first(g.world(j));
        if (first == prev) continue;
        prev = first;
        for (int k = 0; k < h.rounds; ++k)
            if ((index + (1 << k)) % leaders == i) h.partner[k] = j;
        ++i;
    }
}

// The hierarchical barrier: flag_release counts the node's arrivals at its leader and is a rank's release from its
// leader (a leader is never released, the others never counted at); the leaders' rounds are the dissemination's
// flags, which a partner at most one barrier ahead may have raised already (as below). A rank raises its arrival
// for the next barrier only after its release from this one, which its leader sends only after it took this one's
// arrivals: the counts never mix.
void hier_barrier(const Group &g, const Hier &h)
{
    if (g.rank != h.lo) {
        raise(g, h.lo, flag_release);
        take(g, flag_release, 1);
        return;
    }
    if (h.hi != h.lo) take(g, flag_release, h.hi - h.lo);
    for (int k = 0; k < h.rounds; ++k) {
        raise(g, h.partner[k], flag_tree + k);
        take(g, flag_tree + k, 1);
    }
    for (int j = h.lo + 1; j <= h.hi; ++j) raise(g, j, flag_release);
}

void net_barrier(const Group &g)
{
    port::quiet();  // this PE's puts (the network's too) are in place before any rank leaves the barrier
    TeamSeq *const q = seq_of(g);
    if (whole_machine(g.start, g.stride, g.size)) {
        barrier_world(barrier_hardware);  // the port's, by node
    } else {
        Hier own;
        Hier &h = q != nullptr ? q->hier : own;
        if (q == nullptr || !h.planned) plan_barrier(g, h);
        if (h.hierarchical) {
            hier_barrier(g, h);
        } else {
            const int n = g.size, r = g.rank;
            for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
                raise(g, r + d < n ? r + d : r + d - n, flag_tree + k);
                take(g, flag_tree + k, 1);
            }
        }
    }
    if (q != nullptr) q->synced = q->entered;  // every rank is here: done with all before
}

void net_team_created(int slot) { team_seq[slot] = TeamSeq{}; }

namespace {

// Enters a data collective of the group (a barrier first where the team's ring needs one); the flag its signals
// count at.
int data_flag(const Group &g)
{
    TeamSeq *const q = seq_of(g);
    if (q == nullptr) return flag_data;
    if (q->entered + 1 - q->synced > ring_flags) net_barrier(g);
    return flag_data + int(++q->entered % ring_flags);
}
// A data collective whose every rank waited for every other's signals is over: every rank had entered it.
void all_seen(const Group &g)
{
    if (TeamSeq *const q = seq_of(g)) q->synced = q->entered - 1;
}

// The work area of a small all-reduce: a team's half by the parity of its number (TeamSeq), an active set's whole
// pWrk; its bytes (area_bytes).
unsigned char *reduce_area(const Group &g, size_t *area_bytes)
{
    TeamSeq *const q = seq_of(g);
    if (q == nullptr) {
        *area_bytes = g.work_bytes;
        return g.work;
    }
    *area_bytes = g.work_bytes / 2;
    return g.work + (q->reduces & 1u) * (g.work_bytes / 2);
}

// A reduction that fits in its work area, a slot a rank: rank k's contribution goes into slot k of every other
// rank's work area, counted at the collective's flag; each rank combines into its own slot, which no other rank
// writes.
void reduce_pushed(const Group &g, unsigned char *slots, unsigned char *dest, const unsigned char *source,
                   size_t bytes, Combine combine)
{
    const int n = g.size, r = g.rank;
    if (TeamSeq *const q = seq_of(g)) ++q->reduces;
    exchange(g, data_flag(g), slots + size_t(r) * bytes, source, bytes, [bytes](int) { return bytes; });
    unsigned char *const acc = slots + size_t(r) * bytes;
    copy_local(acc, r == 0 ? source : slots, bytes);
    for (int k = 1; k < n; ++k) combine(acc, k == r ? source : slots + size_t(k) * bytes, bytes);
    copy_local(dest, acc, bytes);
    all_seen(g);
}

}  // namespace

void net_sweep(const Group &g, int root, const Sweep &s)
{
    const size_t bytes = s.bytes;
    if (bytes == 0) return net_barrier(g);
    auto *const dest = static_cast<unsigned char *>(s.dest);
    const auto *const source = static_cast<const unsigned char *>(s.source);
    if (s.combine == nullptr) {  // a broadcast: the root's source into every other rank's dest
        const int f = data_flag(g);
        if (g.rank != root) {
            take(g, f, pieces(bytes));
            return;
        }
        for (int i = 1; i < g.size; ++i)
            raise(g, root + i < g.size ? root + i : root + i - g.size, f, dest, source, bytes);
        return;
    }
    // Small (a slot a rank in the work area): pushed.
    size_t area;
    unsigned char *const slots = reduce_area(g, &area);
    if (bytes <= area / size_t(g.size)) return reduce_pushed(g, slots, dest, source, bytes, s.combine);
    // Large: a reduce-scatter by reads, then an all-gather by signals. Rank k owns block k of the elements
    // (block(k), below). Each rank reads every rank's contribution to its block, a piece of each at a time into its
    // stack (reduce_block; a get's destination need not be symmetric), combines them in rank order and writes the result into its own
    // dest; then it signals that block into every other rank's dest, and waits for theirs. A contribution is read
    // where it is: in its source where that is symmetric and apart from dest, else in dest, into which its source
    // is copied first (every rank decides alike: the arrays are the same on every rank). Rank r's dest block k is
    // written by rank k's signal only after rank k has read it (its own phase came first), and rank r's own block
    // only by rank r after it has read it: so in place too, with no barrier but the first. A rank returns once
    // every other rank's block is in: every rank has then read all it reads of this rank.
    const bool in_source = source != dest && is_symmetric(source, bytes);
    if (!in_source && source != dest) copy_local(dest, source, bytes);
    const unsigned char *const contribution = in_source ? source : dest;
    const int n = g.size, r = g.rank;
    const size_t elems = bytes >> s.elem_shift, per = (elems + size_t(n) - 1) / size_t(n);
    auto block = [elems, per, shift = s.elem_shift](int k, size_t *at) {  // rank k's block: its offset, its bytes
        const size_t first = size_t(k) * per < elems ? size_t(k) * per : elems;
        const size_t end = first + per < elems ? first + per : elems;
        *at = first << shift;
        return (end - first) << shift;
    };
    size_t mine;
    const size_t mine_bytes = block(r, &mine);
    net_barrier(g);  // every rank's contribution is in place
    const int f = data_flag(g);
    reduce_block(g, dest, contribution, mine, mine_bytes, s.elem_shift, s.combine);
    exchange(g, f, dest + mine, dest + mine, mine_bytes, [&block](int j) {
        size_t at;
        return block(j, &at);
    });
    all_seen(g);
}

int net_allgather(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block)
{
    auto at = [off, block](int j) { return off != nullptr ? off[j] : size_t(j) * block; };
    const size_t mine = at(g.rank), bytes = at(g.rank + 1) - mine;
    const int f = data_flag(g);
    copy_local(dest + mine, source, bytes);
    exchange(g, f, dest + mine, source, bytes, [&at](int j) { return at(j + 1) - at(j); });
    all_seen(g);
    return 0;
}

}  // namespace shmem::detail

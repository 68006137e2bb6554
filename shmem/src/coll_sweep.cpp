// The sweep engine: one sweep of the binomial tree up and down (sweep_generic), the flat sweep's routines out of
// line, the reduction's sweep and the tree barrier. The algorithms' shared parts are in coll_engine.hpp.
#include "coll_engine.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

namespace {

// A message of a collective: `bytes` (none: a pure signal) from source into the receiver's symmetric dest,
// then its flag raised. (One argument instead of four: a 32-bit core passes only four in registers.)
struct Msg {
    void *dest;
    const void *source;
    size_t bytes;
    int flag;
};

// A message's data, then its flag raised (raise_flag, coll_engine.hpp): the algorithms' building block.
void send(const Group &g, int rank, const Msg &msg)
{
    const int pe = g.world(rank);
    const RemoteFlag flag = remote_flag(g, pe, msg.flag);  // before the copy, a call: one look at the PE's base
    if (msg.bytes != 0) put_small(port::remote_ptr(msg.dest, pe), msg.source, msg.bytes);
    flag.raise();
}

}  // namespace

// One sweep of the binomial tree rooted at `root`, up and then down. Relative rank v = rank - root (mod n) has
// the children v + d for every power of two d below lowbit(v) (every d < n for the root) and the parent
// v - lowbit(v).
// Up: a rank waits for the arrival of each child, nearest first (flag_tree + log2 of the child's distance); in
// a reduction it then combines the child's partial result into its own (dest), reading it where it is: in the
// child's dest, final once the child's flag is raised, and not written again before this rank has sent its own
// up (the result comes down only after that). Then it raises the flag of its own distance at its parent.
// Otherwise the arrivals carry nothing (the port's hardware barrier does the same for the whole machine, where
// it has one). Epiphany's assembly sweep is the older form: each child puts its partial result into a slot of
// its parent's work area, a chunk of the reduction a sweep (a remote read there is a round trip of the mesh),
// and it leaves the arrivals out for size, waiting for them through the tree.
// Down: the root sends its data (a broadcast's source, a reduction's result) to its children, farthest subtree
// first so that what has the longest way to go leaves first; the others wait for it (flag_release) in dest and
// pass it on. No data either way: a barrier.
// 2 ceil(log2 n) steps, 2 (n - 1) messages, every flag raised once per sweep, one sweep for a reduction of any
// size (no copy into a work area, no chunks). Every element is combined n - 1 times in all (recursive doubling:
// n log2 n), and every rank ends with rank 0's bits, floating point included.
//
// A sweep is also what makes the one-shot flags safe, and every collective starts with one (or a barrier):
// nothing goes down before the root has heard from every rank, so a rank that has received anything of a
// sweep knows that every rank has finished its previous collective (lowered its flags, read its slots and
// buffers). Therefore a rank writes into another's flags, slots or dest only when that one is done
// with them (but where the program ensures that instead: coll.hpp, the invariants).
// The port's assembly sweep (own_sweep) reads Group and Sweep where port::SweepLayout says, and raises and waits
// for the same flags. (A template: without its own sweep, SweepLayout is port.hpp's declaration and never defined.)
template <class L>
constexpr bool sweep_layout_matches()
{
    if constexpr (port::own_sweep) {
        return offsetof(Group, start) == L::g_start && offsetof(Group, stride) == L::g_stride &&
               offsetof(Group, size) == L::g_size && offsetof(Group, rank) == L::g_rank &&
               offsetof(Group, flags) == L::g_flags && offsetof(Group, work) == L::g_work &&
               offsetof(Group, work_bytes) == L::g_work_bytes && offsetof(Sweep, dest) == L::s_dest &&
               offsetof(Sweep, source) == L::s_source && offsetof(Sweep, bytes) == L::s_bytes &&
               offsetof(Sweep, elem_shift) == L::s_elem_shift && offsetof(Sweep, combine) == L::s_combine &&
               flag_tree == L::flag_tree && flag_release == L::flag_release && sizeof(long) == 4;
    } else {
        return true;
    }
}
static_assert(sweep_layout_matches<port::SweepLayout>(), "port::SweepLayout matches Group, Sweep and the flags");

void sweep_wait_ended(const void *group, const volatile long *flag)
{
    if constexpr (port::own_sweep && port::ends_observed) {
        const Group &g = *static_cast<const Group *>(group);
        wait_ended({g.start, g.stride, g.size},
                   [](const void *f) { return __atomic_load_n(static_cast<const volatile long *>(f), fenced_load) != 0; },
                   const_cast<const long *>(flag));
    }
}

// A reduction's root: dest = op(own, every other rank's input) in the order of each_other. With runs, a pass of
// the port's combine_run for each (nine inputs a pass of combine_many took some 11 instructions a rank to list).
[[gnu::always_inline]] inline void combine_others(const FlatRuns &o, void *dest, const void *own, const void *theirs,
                                                  size_t bytes, CombineRun run)
{
    for (int i = 0; i < 2; ++i)
        if (o.ranks[i] > 0) {
            run(dest, own, static_cast<const unsigned char *>(theirs) + o.disp[i], o.step, o.ranks[i], bytes);
            own = dest;
        }
    if (own != dest) copy_local(dest, own, bytes);  // a group of one
}
[[gnu::always_inline]] inline void combine_others(const FlatTable &o, void *dest, const void *own,
                                                  const void *theirs, size_t bytes, CombineMany many)
{
    const void *in[many_max] = {own};  // this rank's own input first, then the others', nine a pass
    int k = 1;
    each_other(o, [&](int, auto remote) {
        in[k++] = remote(theirs);
        if (k == many_max) {
            many(dest, in, k, bytes);
            in[0] = dest;
            k = 1;
        }
    });
    if (k > 1 || in[0] != dest) many(dest, in, k, bytes);  // k == 1: a copy of the source (a group of one)
}

// The root's part of a flat sweep with nothing to do before it sends (a barrier, a broadcast): its own function,
// apart from a reduction's root (which keeps twelve registers). Where the data is whole words (or none: a
// barrier), it makes no call: its puts are put_run's word loops, and it saves eight registers. Any other data,
// sweep_flat_any. Returns 0, for the broadcasts' tail calls.
[[gnu::noinline]] static int sweep_flat_any(const Group &g, int root, void *dest, const void *from, size_t m)
{
    sweep_flat(g, root, dest, from, m, at_root_nothing);
    return 0;
}
[[gnu::noinline]] int sweep_flat_send(const Group &g, int root, void *dest, const void *from, size_t m)
{
    if constexpr (port::has_pe_step) {
        if (m != 0 && !whole_words(dest, from, m)) return sweep_flat_any(g, root, dest, from, m);
        sweep_flat<decltype(at_root_nothing), true>(g, root, dest, from, m, at_root_nothing);
        return 0;
    }
    return sweep_flat_any(g, root, dest, from, m);
}

// The flat sweep of a barrier, a broadcast or a reduction: the root's part out of line, so that the other ranks'
// part needs no registers saved.
[[gnu::noinline]] static void sweep_flat_root(const Group &g, int root, const Sweep &s, FlatCombine many)
{
    void *const dest = s.dest;
    const void *const theirs = read_their_source(s.source, s.bytes) ? s.source : dest;
    sweep_flat(g, root, dest, dest, s.bytes, [&s, dest, theirs, many](const auto &others) {
        combine_others(others, dest, s.source, theirs, s.bytes, many);
    });
}

// A reduction's rank with its source apart from its dest, where the root reads its dest: the copy, then the rest.
// Out of line, so that the others need no stack frame.
[[gnu::noinline]] static void sweep_flat_copy(const Group &g, int root, const Sweep &s)
{
    get_small(s.dest, s.source, s.bytes);
    sweep_flat(g, root, nullptr, nullptr, 0, at_root_nothing);
}

// A rank but the root's in a flat group where it has nothing to copy first (a barrier, a broadcast, a reduction
// whose root reads its source): no Sweep to build, and its callers only tail-call (returns 0 for the team
// broadcasts' and reductions' int). Rank 0 the root (barriers, reductions): its arrival count's address is a load
// and an add (Group::steps).
[[gnu::noinline]] int sweep_flat_leaf(const Group &g, int root)
{
    flat_arrive_wait(g, root);
    return 0;
}
[[gnu::noinline]] int sweep_flat_leaf0(const Group &g)
{
    flat_arrive_wait(g, 0);
    return 0;
}

// The root of a flat reduction whose other ranks' sources it reads where they are (has_pe_step): the arrivals,
// one pass of the combine over the run of the others' sources, then the result to every rank. Its own function,
// out of the sweep's: it keeps three registers across its one call (the sweep's root kept twelve), and sends by a
// tail call.
[[gnu::noinline]] static int flat_send_any(const Group &g, void *dest, size_t m)
{
    flat_send_runs(g, 0, dest, dest, m);
    return 0;
}
[[gnu::noinline]] int reduce_flat_root(const Group &g, void *dest, const void *source, size_t bytes, CombineRun run)
{
    if constexpr (port::has_pe_step) {
        flat_wait_arrivals(g);
        combine_others(flat_runs(g, 0), dest, source, source, bytes, run);
        if (bytes != 0 && !whole_words(dest, dest, bytes)) return flat_send_any(g, dest, bytes);
        flat_send_runs<true>(g, 0, dest, dest, bytes);
    }
    return 0;
}

[[gnu::noinline]] void sweep_flat(const Group &g, int root, const Sweep &s, FlatCombine many)
{
    if (g.rank == root) {
        if (s.combine == nullptr) {
            sweep_flat_send(g, root, s.dest, s.source, s.bytes);
            return;
        }
        return sweep_flat_root(g, root, s, many);
    }
    if (s.combine != nullptr && s.dest != s.source && !read_their_source(s.source, s.bytes)) {
        bool copied = false;  // a few words by the port's inline copy, which needs no stack frame
        if constexpr (port::has_copy_inline) copied = port::copy_inline(s.dest, s.source, s.bytes);
        if (!copied) return sweep_flat_copy(g, root, s);
    }
    sweep_flat(g, root, nullptr, nullptr, 0, at_root_nothing);  // arrive, and wait for the root's message
}

// A sweep's down half (sweep_generic's, and the active-set broadcast's): rank v relative to the root (low: its
// lowest set bit, n for the root) waits for its parent's message on `flag` (all but the root), then passes what came
// down (the root: from) to its children v + d, for every power of two d below both low and n - v, farthest first.
static void sweep_down(const Group &g, int root, int v, int low, void *dest, const void *from, size_t m, int flag)
{
    const int n = g.size;
    if (v != 0) {
        wait(g, flag);
        from = dest;
    }
    int d = 1;
    while (d < low && v + d < n) d <<= 1;
    const Msg down{dest, from, m, flag};
    while ((d >>= 1) != 0) send(g, v + d + root < n ? v + d + root : v + d + root - n, down);
}

void sweep_generic(const Group &g, int root, const Sweep &s)
{
    if constexpr (port::has_network)
        if (g.span.across) return net_sweep(g, root, s);
    const int n = g.size;
    int v = g.rank - root;
    if (v < 0) v += n;
    const int low = v == 0 ? n : (v & -v);
    auto rank = [n, root](int u) { return u + root < n ? u + root : u + root - n; };
    auto *const dest = static_cast<unsigned char *>(s.dest);
    const unsigned char *from = static_cast<const unsigned char *>(s.source);  // what goes down
    const size_t m = s.bytes;
    const bool up = s.combine != nullptr;
    if (!up && whole_machine(g.start, g.stride, g.size)) {
        barrier_world(barrier_hardware);  // checks the stack
        if (m == 0) return;  // a barrier
    } else {
        if (up) {
            if (dest != from) get_small(dest, from, m);
            from = dest;
        }
        int flag = flag_tree;
        for (int d = 1; d < low; d <<= 1, ++flag)
            if (v + d < n) {
                wait(g, flag);
                if (up) s.combine(dest, port::remote_ptr(dest, g.world(rank(v + d))), m);
            }
        if (v != 0) raise_flag(g, g.world(rank(v - low)), flag);
    }
    sweep_down(g, root, v, low, dest, from, m, flag_release);
}

// The deprecated active-set broadcasts (OpenSHMEM 1.4): before any PE calls one, the program must ensure that the
// pSync is no longer in use by a previous call and that every PE's dest is ready for the data ("synchronization
// via a barrier or some other method is often needed"). That is what the sweep's up half proves, so here it is left
// out: the root sends, the others wait for it (a flat group: the root to every rank; else down the binomial tree,
// each rank passing it on). Its one flag, flag_bcast, is no sweep's: a barrier's release on the same pSync just
// before (the checked build's agreement barriers, or the program's own) may still be pending at a rank when the root
// sends, and two raises of one flag before it is lowered would be one. The flag stays one-shot by the rule above: a
// rank lowers it before it returns, and the next raise comes from a call the program may make only after that. (Not
// the teams' broadcasts: a team's scratch is the library's own, and the program owes it no synchronization.)
// (Where the port has its own sweep, Epiphany's, its down half: sweep_down_only, coll.hpp.)
int broadcast_down(const Group &g, void *dest, const void *source, size_t bytes, int root)
{
    if constexpr (port::has_network)
        if (g.span.across) return net_sweep(g, root, Sweep{dest, source, bytes, 0, nullptr}), 0;
    {
        if (g.flat()) {
            if (g.rank != root) {
                wait(g, flag_bcast);
                return 0;
            }
            if (port::has_pe_step && (bytes == 0 || whole_words(dest, source, bytes)))
                flat_send<decltype(at_root_nothing), true>(g, root, dest, source, bytes, at_root_nothing, flag_bcast);
            else
                flat_send(g, root, dest, source, bytes, at_root_nothing, flag_bcast);
            return 0;
        }
        const int n = g.size;
        int v = g.rank - root;
        if (v < 0) v += n;
        sweep_down(g, root, v, v == 0 ? n : (v & -v), dest, source, bytes, flag_bcast);
        return 0;
    }
}

[[gnu::noinline]] int reduce_sweep(const Group &g, void *dest, const void *source, size_t bytes, int elem_shift,
                                   Combine combine, FlatCombine many)
{
    sweep(g, 0, Sweep{dest, source, bytes, elem_shift, combine}, many);
    return 0;
}

// The sweep with nothing to carry, written out with its signals inline: a barrier is on the hot path, the
// sweep's messages are not.
void tree_barrier(const Group &g)
{
    port::check_stack();  // the stack guard of a port without memory protection (Epiphany); a no-op elsewhere
    if (g.flat()) return sweep_flat(g, 0, nothing_to_carry, nullptr);  // group_barrier calls it directly
    const int n = g.size, r = g.rank;
    const int low = r == 0 ? n : (r & -r);
    int flag = flag_tree, d = 1;
    for (; d < low; d <<= 1, ++flag)
        if (r + d < n) wait(g, flag);
    if (r != 0) {
        raise_flag(g, g.world(r - low), flag);
        wait(g, flag_release);
    }
    while ((d >>= 1) != 0)
        if (r + d < n) raise_flag(g, g.world(r + d), flag_release);
}

// All-gather in rounds (the algorithm: coll_gather.cpp, above allgather_flat): messages of the sweep's kind.
int allgather_rounds(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block,
                     bool entered)
{
    if constexpr (port::has_network)
        if (g.span.across) return net_allgather(g, dest, source, off, block);
    const int n = g.size, r = g.rank;
    // Offsets in dest by additions and shifts from this rank's and the whole's, not a multiply a block (on
    // Epiphany a multiply is a call of some 35 cycles).
    const size_t mine = off != nullptr ? off[r] : rank_times(r, block);
    copy_local(dest + mine, source, off != nullptr ? off[r + 1] - mine : block);
    if (!entered) group_barrier(g);
    if ((n & (n - 1)) == 0) {
        // Round k sends blocks base .. base + d - 1 (base = r with its k low bits cleared): with equal blocks, their
        // offset is the last round's less the block bit k - 1 of r stood for, and their length block << k. (Two
        // loops: the test of off in every round cost each a taken branch.)
        if (off == nullptr) {
            size_t lo = mine, len = block;
            for (int k = 0, d = 1; d < n; ++k, d <<= 1, len <<= 1) {
                if (r & (d >> 1)) lo -= len >> 1;
                send(g, r ^ d, Msg{dest + lo, dest + lo, len, flag_data + k});
                wait(g, flag_data + k);
            }
            return 0;
        }
        for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
            const int base = r & ~(d - 1);
            const size_t lo = off[base];
            send(g, r ^ d, Msg{dest + lo, dest + lo, off[base + d] - lo, flag_data + k});
            wait(g, flag_data + k);
        }
        return 0;
    }
    if (n == 3) {
        // Round k puts one block (min(2^k, n - 2^k) = 1), its own, to r - 2^k: the same puts without the wait between
        // the rounds, and without the wrapped rounds' arithmetic. The flags are the rounds' (the block from r + 2^k
        // raises flag_data + k).
        const size_t len = off != nullptr ? off[r + 1] - mine : block;
        send(g, r == 0 ? 2 : r - 1, Msg{dest + mine, dest + mine, len, flag_data});
        send(g, r == 2 ? 0 : r + 1, Msg{dest + mine, dest + mine, len, flag_data + 1});
        wait(g, flag_data);
        wait(g, flag_data + 1);
        return 0;
    }
    const size_t all = off != nullptr ? off[n] : rank_times(n, block);
    for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
        const int to = r - d < 0 ? r - d + n : r - d;
        const int count = d < n - d ? d : n - d;  // blocks r .. r + count - 1, wrapping at n
        // where they end in dest, past `all` where they wrap (equal blocks: d of them, or all but d)
        size_t hi;
        if (off != nullptr) {
            hi = r + count > n ? all + off[r + count - n] : off[r + count];
        } else {
            hi = mine + (d < n - d ? block << k : all - (block << k));
        }
        if (hi > all) {  // the wrapped part first: send() raises the flag after its own part
            port::put_bytes(port::remote_ptr(dest, g.world(to)), dest, hi - all);
            hi = all;
        }
        send(g, to, Msg{dest + mine, dest + mine, hi - mine, flag_data + k});
        wait(g, flag_data + k);
    }
    return 0;
}

}  // namespace shmem::detail

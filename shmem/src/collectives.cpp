// Team-based collectives and the deprecated active-set forms, on the engine in coll.hpp.
#include "coll.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

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
}

// A routine's identity across PEs (each has its own copy of the image, at its own address): its name, hashed.
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s != '\0'; ++s) h = (h ^ uint8_t(*s)) * 0x100000001b3ull;
    return h;
}


// Compares the words this PE published for an agreement check with those of its group's first PE (world PE pe0)
// and reports the first that differs: word 0 stands for the routine, words 1..3 for the named arguments. W is the
// word of the storage: a team slot's uint64_t, a pSync's long. `first` names pe0's place in the group, `group` the
// group, `routine_tail` ends the report of another routine.
template <class W>
void compare_with_first(const char *routine, const W *mine, int pe0, const char *const names[4], const char *first,
                        const char *group, const char *routine_tail)
{
    const W *theirs = port::remote_ptr(mine, pe0);
    for (int i = 0; i < 4; ++i) {
        const W v = __atomic_load_n(&theirs[i], __ATOMIC_ACQUIRE);
        if (v == mine[i]) continue;
        Usage u(routine);
        if (i == 0)
            u.m().s("PE ").i(pe0).s(" (").s(first).s(") called another collective routine ").s(routine_tail);
        else
            u.m().s(names[i]).s(" = ").i(long(int64_t(mine[i]))).s(", but PE ").i(pe0).s(" (").s(first)
                .s(") passed ").s(names[i]).s(" = ").i(long(int64_t(v))).s("; every PE of the ").s(group)
                .s(" must pass the same");
        u.fail();
    }
}

void check_agreement(const char *routine, shmem_team_s *t, const char *n1, int64_t v1, const char *n2, int64_t v2,
                     const char *n3, int64_t v3)
{
    if constexpr (checks) {
        if (t->size == 1) return;
        uint64_t *mine = team_scratch[t->slot].agree[t->agree_seq++ & 1];
        const uint64_t values[4] = {name_hash(routine), uint64_t(v1), uint64_t(v2), uint64_t(v3)};
        for (int i = 0; i < 4; ++i) __atomic_store_n(&mine[i], values[i], __ATOMIC_RELAXED);
        group_barrier(team_group(t));  // every member has published (a release barrier)
        if (t->my_pe == 0) return;
        const char *names[4] = {nullptr, n1, n2, n3};
        compare_with_first(routine, mine, team_world_pe(t, 0), names, "PE 0 of the team", "team",
                           "at this point; every PE of a team calls the same collectives in the same order");
    }
}

namespace {

// A message of a collective: `bytes` (none: a pure signal) from source into the receiver's symmetric dest,
// then its flag raised. (One argument instead of four: a 32-bit core passes only four in registers.)
struct Msg {
    void *dest;
    const void *source;
    size_t bytes;
    int flag;
};

// The PEs of a group, as library_wait's who().
[[gnu::always_inline]] inline auto group_pes(const Group &g)
{
    return [&g] { return PeSet{g.start, g.stride, g.size}; };
}

// Raises a flag on a PE and wakes it. A release store: whatever was put before it is there when it is seen.
[[gnu::always_inline]] inline void raise_flag(const Group &g, int pe, int flag)
{
    // Both addresses before the store, from one load of the PE's base (port::notify's fence would load it again).
    long *f = port::remote_ptr(&g.flags[flag], pe);
    const port::Waker waker = port::waker(pe);
    __atomic_store_n(f, 1L, __ATOMIC_RELEASE);
    port::notify_waiter(waker);
}

// The same with the data of a message before the flag: the algorithms' building block.
void send(const Group &g, int rank, const Msg &msg)
{
    const int pe = g.world(rank);
    if (msg.bytes != 0) put_small(port::remote_ptr(msg.dest, pe), msg.source, msg.bytes);
    raise_flag(g, pe, msg.flag);
}

// Sleeps until this PE's flag is raised, then lowers it. Only this PE lowers its flags, and the writer raises
// this flag again only after it has heard from this PE again (see the algorithms): a plain store cannot hide a
// newer raise.
// The look at a flag (plain loads) and, once it is up, its lowering after one acquire fence: wait's, and a flat
// sweep's rank's (flat_arrive_wait).
[[gnu::always_inline]] inline auto flag_raised(const long *f)
{
    return [f] { return __atomic_load_n(f, fenced_load) != 0; };
}
[[gnu::always_inline]] inline void lower_flag(long *f)
{
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    __atomic_store_n(f, 0L, __ATOMIC_RELAXED);
}
[[gnu::always_inline]] inline void wait(const Group &g, int flag)
{
    long *f = &g.flags[flag];
    library_wait_notified(group_pes(g), flag_raised(f));  // raise_flag wakes it (notify_waiter)
    lower_flag(f);
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
// with them.
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

// A flat sweep (Group::flat: at most flat_max ranks, atomics on every PE's memory). Up: every rank but the root
// adds one to the root's arrival count (flag_arrive, an atomic add with release: in a reduction its dest holds its
// source by then) and the last wakes the root; the root lowers the count and, in a reduction, combines every
// rank's dest into its own, reading them where they are (nine inputs a pass). Down: the root sends its data to
// every other rank in turn, as the tree's root sends to its children; they wait for it (flag_release) in dest.
// Per rank one atomic add, one message and one sleep, where the tree takes 2 (n - 1) messages and as many sleeps
// on 2 log2 n steps; the root's n - 1 messages one after the other are what limits it to small groups.
// The one-shot flags stay safe: a rank is counted only once it has finished its previous collective (lowered its
// flags, read what it reads of others), and the root sends nothing before it has counted every rank. The count
// itself is back at zero before the root sends anything, so every arrival that comes early (from a rank already in
// the group's next collective, which this root may root again) counts for the next.
// A rank's part but the root's: arrive, and wait for the root's message.
[[gnu::always_inline]] inline void flat_arrive_wait(const Group &g, int root)
{
    const int n = g.size;
    long *const f = &g.flags[flag_release];
    long *count;  // the root's arrival count: by the group's steps where it has them
    if constexpr (port::has_pe_step) {
        count = g.of_rank(&g.flags[flag_arrive], root);
    } else {
        count = port::remote_ptr(&g.flags[flag_arrive], g.world(root));
    }
    library_wait(
        group_pes(g),
        [count, n, &g, root](auto done) __attribute__((always_inline)) {
            port::wait_notified_after(
                [count, n, &g, root] {  // the root's waker worked out only by the last rank to arrive
                    if (__atomic_fetch_add(count, 1L, __ATOMIC_RELEASE) == n - 2)
                        port::notify_waiter(port::waker(g.world(root)));
                },
                done);
        },
        flag_raised(f));
    lower_flag(f);
}

// The other ranks as the root walks them, in the order root + 1 .. n - 1, 0 .. root - 1, and each one's copy of a
// symmetric object: each_other(others, f) calls f(rank, remote) with remote(x) that rank's copy of x.
// Where the port's partitions are equal and in PE order (port::has_pe_step): two runs of consecutive ranks, whose
// copies of any symmetric object lie g.stride * pe_step() bytes apart, so that a rank costs an add where a table of
// every rank's addresses cost some 16 instructions a rank to fill (rank first[i] + k's copy of x is at
// x + disp[i] + k * step).
struct FlatRuns {
    uintptr_t step;
    uintptr_t disp[2];
    int first[2], ranks[2];  // run 0: ranks root + 1 .. n - 1; run 1: ranks 0 .. root - 1
};
template <class F>
[[gnu::always_inline]] inline void each_other(const FlatRuns &o, F f)
{
    for (int i = 0; i < 2; ++i) {
        uintptr_t d = o.disp[i];
        for (int k = 0; k < o.ranks[i]; ++k, d += o.step)
            f(o.first[i] + k, [d](auto *x) {
                return reinterpret_cast<decltype(x)>(reinterpret_cast<uintptr_t>(x) + d);
            });
    }
}
// Elsewhere a table of every other rank's PE and the remote addresses of its dest and its release flag, worked out
// in a loop that stores only into the table: the port's geometry is loaded once, where the copies and the fences
// made the compiler load it again for every rank of every loop. Rank root + i (mod n) is entry i.
struct FlatTarget {
    int pe;
    long *flag;           // its flag_release
    unsigned char *dest;  // its dest
};
struct FlatTable {
    const FlatTarget *t;
    int n, root;
};
template <class F>
[[gnu::always_inline]] inline void each_other(const FlatTable &o, F f)
{
    for (int i = 1, r = o.root + 1; i < o.n; ++i, ++r) {
        if (r == o.n) r = 0;
        const int pe = o.t[i].pe;
        f(r, [pe](auto *x) { return port::remote_ptr(x, pe); });
    }
}

// The root's m bytes at `from` to a run of ranks, at `to` and every `step` bytes after it (has_pe_step: step is a
// multiple of 8). Whole aligned words are loaded once and stored at every rank, four at a time: 1.5 instructions a
// word a rank, where the copy loop takes some 2 (a load and a store) and its set-up 25 a rank.
template <bool Words = false>
[[gnu::always_inline]] inline bool whole_words(const void *to, const void *from, size_t m)
{
    return Words || ((reinterpret_cast<uintptr_t>(to) | reinterpret_cast<uintptr_t>(from) | m) & 7) == 0;
}
template <bool Words = false>
[[gnu::always_inline]] inline void put_run(unsigned char *to, uintptr_t step, int ranks, const void *from, size_t m)
{
    typedef uint64_t __attribute__((may_alias)) word;
    static_assert(sizeof(word) == 8, "whole_words tests 8-byte words");
    const auto *src = static_cast<const word *>(from);
    if (whole_words<Words>(to, from, m)) {
        const uintptr_t span = uintptr_t(ranks) * step;
        size_t w = 0;
        for (; m - w >= 4 * sizeof(word); w += 4 * sizeof(word), src += 4) {
            const word v0 = src[0], v1 = src[1], v2 = src[2], v3 = src[3];
            for (unsigned char *p = to + w, *end = p + span; p != end; p += step) {
                word *d = reinterpret_cast<word *>(p);
                d[0] = v0;
                d[1] = v1;
                d[2] = v2;
                d[3] = v3;
            }
        }
        for (; w < m; w += sizeof(word), ++src) {
            const word v = *src;
            for (unsigned char *p = to + w, *end = p + span; p != end; p += step) *reinterpret_cast<word *>(p) = v;
        }
        return;
    }
    for (int k = 0; k < ranks; ++k, to += step) put_small(to, from, m);
}
// The other way, for an all-gather's root: m bytes from each rank of a run, `from` and every from_step bytes after
// it, to `to` and every m bytes after it. One aligned word (fcollect's of a long) is a load and a store a rank.
[[gnu::always_inline]] inline void get_run(unsigned char *to, const unsigned char *from, uintptr_t from_step,
                                           int ranks, size_t m)
{
    typedef uint64_t __attribute__((may_alias)) word;
    if (m == sizeof(word) && ((reinterpret_cast<uintptr_t>(to) | reinterpret_cast<uintptr_t>(from)) & (m - 1)) == 0) {
        for (unsigned char *end = to + uintptr_t(ranks) * m; to != end; to += m, from += from_step)
            *reinterpret_cast<word *>(to) = *reinterpret_cast<const word *>(from);
        return;
    }
    for (int k = 0; k < ranks; ++k, to += m, from += from_step) get_small(to, from, m);
}

// The root's part: wait for every rank's arrival and lower the count (flat_wait_arrivals), at_root(others) (a
// reduction's combines, an all-gather's gather), then the data to every rank, one release fence, and every flag
// and wake-up (flat_send).
// Words: the caller knows that m is 0 or dest, from and m whole words (put_run's fast case): no copy loop's call.
[[gnu::always_inline]] inline void flat_wait_arrivals(const Group &g)
{
    const int n = g.size;
    long *const count = &g.flags[flag_arrive];
    library_wait_notified(group_pes(g), [count, n] { return __atomic_load_n(count, fenced_load) == n - 1; });
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    __atomic_store_n(count, 0L, __ATOMIC_RELAXED);
}
// The two runs of the other ranks (has_pe_step): root + 1 .. n - 1, then 0 .. root - 1.
[[gnu::always_inline]] inline FlatRuns flat_runs(const Group &g, int root)
{
    const uintptr_t step = g.steps.step, d1 = g.steps.rank0, d0 = d1 + uintptr_t(root + 1) * step;
    return FlatRuns{step, {d0, d1}, {root + 1, 0}, {g.size - 1 - root, root}};
}
template <bool Words = false>
[[gnu::always_inline]] inline void flat_send_runs(const Group &g, int root, void *dest, const void *from, size_t m)
{
    // locals, none in memory: the stores below may alias g or a struct, and GCC would load it again
    const int stride = g.stride, pe0 = g.world(root + 1), pe1 = g.start;
    const FlatRuns o = flat_runs(g, root);
    long *const flags = g.flags;
    const uintptr_t step = o.step, d0 = o.disp[0], d1 = o.disp[1];
    const int ranks0 = o.ranks[0], ranks1 = o.ranks[1];
    if (m != 0) {
        put_run<Words>(static_cast<unsigned char *>(dest) + d0, step, ranks0, from, m);
        put_run<Words>(static_cast<unsigned char *>(dest) + d1, step, ranks1, from, m);
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    const uintptr_t flag = reinterpret_cast<uintptr_t>(&flags[flag_release]);
    const auto release = [stride, step](uintptr_t f, port::Waker waker, int ranks) {
        for (const uintptr_t end = f + uintptr_t(ranks) * step; f != end; f += step) {
            __atomic_store_n(reinterpret_cast<long *>(f), 1L, fenced_store);
            port::notify_waiter(waker);
            waker = port::waker_step(waker, stride, step);
        }
    };
    release(flag + d0, port::waker(pe0), ranks0);
    release(flag + d1, port::waker(pe1), ranks1);
}
template <class AtRoot, bool Words = false>
[[gnu::always_inline]] inline void sweep_flat(const Group &g, int root, void *dest, const void *from, size_t m,
                                              AtRoot at_root)
{
    const int n = g.size;
    if (g.rank != root) return flat_arrive_wait(g, root);
    flat_wait_arrivals(g);
    if constexpr (port::has_pe_step) {
        at_root(flat_runs(g, root));
        flat_send_runs<Words>(g, root, dest, from, m);
    } else {
        FlatTarget t[flat_max];
        for (int i = 1, r = root + 1; i < n; ++i, ++r) {
            if (r == n) r = 0;
            const int p = g.world(r);
            t[i].pe = p;
            t[i].flag = port::remote_ptr(&g.flags[flag_release], p);
            if (dest != nullptr) t[i].dest = static_cast<unsigned char *>(port::remote_ptr(dest, p));
        }
        at_root(FlatTable{t, n, root});
        if (m != 0)
            for (int i = 1; i < n; ++i) put_small(t[i].dest, from, m);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        for (int i = 1; i < n; ++i) {
            const port::Waker waker = port::waker(t[i].pe);
            __atomic_store_n(t[i].flag, 1L, fenced_store);
            port::notify_waiter(waker);
        }
    }
}
inline constexpr auto at_root_nothing = [](const auto &) {};

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

void sweep_generic(const Group &g, int root, const Sweep &s)
{
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
    if (v != 0) {
        wait(g, flag_release);
        from = dest;
    }
    // the children: v + d for every power of two d below both low and n - v
    int d = 1;
    while (d < low && v + d < n) d <<= 1;
    const Msg down{dest, from, m, flag_release};
    while ((d >>= 1) != 0) send(g, rank(v + d), down);
}

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
    if (is_symmetric(source, bytes)) {
        reduce_scatter_gather(g, dest, source, bytes, elem_shift, many);
        return 0;
    }
    return reduce_sweep(g, dest, source, bytes, elem_shift, combine, flat);
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

// All-gather, ceil(log2 n) rounds for any n, every rank receiving each block once, every block put at its
// final place; round k's flag is raised once per call. The opening barrier: the ranks write into each other's
// dest from the first round.
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

int allgather_rounds(const Group &g, unsigned char *dest, const void *source, const size_t *off, size_t block)
{
    const int n = g.size, r = g.rank;
    auto at = [off, block](int j) { return off != nullptr ? off[j] : size_t(j) * block; };
    copy_local(dest + at(r), source, at(r + 1) - at(r));
    group_barrier(g);
    if ((n & (n - 1)) == 0) {
        for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
            const int base = r & ~(d - 1);
            send(g, r ^ d, Msg{dest + at(base), dest + at(base), at(base + d) - at(base), flag_data + k});
            wait(g, flag_data + k);
        }
        return 0;
    }
    for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
        const int to = r - d < 0 ? r - d + n : r - d;
        const int count = d < n - d ? d : n - d;  // blocks r .. r + count - 1, wrapping at n
        int end = r + count;
        if (end > n) {  // the wrapped part first: send() raises the flag after its own part
            if (at(end - n) != 0) port::put_bytes(port::remote_ptr(dest, g.world(to)), dest, at(end - n));
            end = n;
        }
        send(g, to, Msg{dest + at(r), dest + at(r), at(end) - at(r), flag_data + k});
        wait(g, flag_data + k);
    }
    return 0;
}

// Every rank puts its blocks straight into their places, starting with the right neighbour so that the ranks
// do not all write to the same PE at once. The opening barrier: every rank is done with its dest; the closing
// one: all blocks have arrived.
void alltoall(const Group &g, unsigned char *dest, const unsigned char *source, size_t elem, ptrdiff_t dst,
              ptrdiff_t sst, size_t nelems)
{
    const int n = g.size, r = g.rank;
    group_barrier(g);
    for (int i = 0; i < n; ++i) {
        const int j = r + i < n ? r + i : r + i - n;
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
            port::get_bytes(acc, port::remote_ptr(mine, g.world(0)), m);
            for (int k = 1; k < r; ++k) {
                port::get_bytes(in, port::remote_ptr(mine, g.world(k)), m);
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

namespace {

// The group of a deprecated active set: PE_start, PE_start + 2^logPE_stride, ... with the caller's pSync of
// sync_words longs (the routine's SHMEM_*_SYNC_SIZE) and pWrk for reductions. The calling PE must be in it.
Group active_set(const char *routine, int start, int log_stride, int size, long *pSync, int sync_words,
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

// With checks, the deprecated active-set collectives compare their arguments with the set's first PE too, in
// 4 words of the library's own (active_agree: a pSync holds only the engine's flags, so that the header can size
// it for them): publish, barrier, compare, barrier, clear (the second barrier lets no PE clear or republish its
// words before every other has read the first PE's). A PE takes part in one collective at a time, and the first PE
// of a set reads nobody's words but its own set's, so sets that run at once do not meet here. Two barriers of the
// set, in checked builds only, for a deprecated interface. The routines that only sweep (barrier, broadcast,
// reductions, alltoall) use the first sweep_flags flags of their pSync; collect and fcollect all flag_count.
static_assert(sweep_flags <= SHMEM_BARRIER_SYNC_SIZE && sweep_flags <= SHMEM_BCAST_SYNC_SIZE &&
                  sweep_flags <= SHMEM_REDUCE_SYNC_SIZE && sweep_flags <= SHMEM_ALLTOALL_SYNC_SIZE &&
                  sweep_flags <= SHMEM_ALLTOALLS_SYNC_SIZE && flag_count <= SHMEM_COLLECT_SYNC_SIZE &&
                  SHMEM_COLLECT_SYNC_SIZE <= SHMEM_SYNC_SIZE,
              "the flags fit in each pSync");
long active_agree[checks ? 4 : 0];
Group agreed(const char *routine, Group g, const char *n1 = nullptr, int64_t v1 = 0, const char *n2 = nullptr,
             int64_t v2 = 0, const char *n3 = nullptr, int64_t v3 = 0)
{
    if constexpr (checks) {
        if (g.size == 1) return g;
        long *mine = active_agree;
        const long values[4] = {long(name_hash(routine)), long(v1), long(v2), long(v3)};
        for (int i = 0; i < 4; ++i) __atomic_store_n(&mine[i], values[i], __ATOMIC_RELAXED);
        group_barrier(g);
        if (g.rank != 0) {
            const char *names[4] = {nullptr, n1, n2, n3};
            compare_with_first(routine, mine, g.world(0), names, "the first PE of the active set", "active set",
                               "with this pSync; every PE of an active set calls the same collectives in the same order");
        }
        group_barrier(g);
        for (int i = 0; i < 4; ++i) mine[i] = SHMEM_SYNC_VALUE;
    }
    return g;
}

// Teams' collectives: the team checked and, with checks, the arguments that must agree compared across it.
TeamGroup checked_team(const char *routine, shmem_team_t team, const char *n1 = nullptr, int64_t v1 = 0,
                   const char *n2 = nullptr, int64_t v2 = 0, const char *n3 = nullptr, int64_t v3 = 0)
{
    check_init(routine);
    check_team(routine, team);
    check_agreement(routine, team, n1, v1, n2, v2, n3, v3);
    return team_group(team);
}

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
    broadcast(g, dest, source, bytes, root);
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

SHMEM_BCAST_INLINE int fcollect(const char *routine, const Group &g, void *dest, const void *source, size_t bytes)
{
    check_symmetric(routine, "dest", dest, bytes_of(routine, "nelems (in bytes)", bytes, size_t(g.size)));
    check_symmetric(routine, "source", source, bytes);
    return allgather(g, static_cast<unsigned char *>(dest), source, nullptr, bytes);
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
        const size_t block = size_t(__atomic_load_n(port::remote_ptr(&g.flags[flag_publish], g.world(j)),
                                                    __ATOMIC_RELAXED));
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
    allgather(g, static_cast<unsigned char *>(dest), source, offsets, 0);
    g.flags[flag_publish] = 0;  // everyone has read it (before the allgather's barrier or arrival): pSync as it was
}

void all2all(const char *routine, const Group &g, void *dest, const void *source, size_t elem, ptrdiff_t dst,
             ptrdiff_t sst, size_t nelems)
{
    check_stride(routine, "dst", dst);
    check_stride(routine, "sst", sst);
    if (nelems != 0) {
        const size_t blocks = bytes_of(routine, "nelems", nelems, size_t(g.size));
        check_symmetric(routine, "dest", dest, strided_extent(routine, blocks, "dst", dst, elem));
        check_symmetric(routine, "source", source, strided_extent(routine, blocks, "sst", sst, elem));
    }
    alltoall(g, static_cast<unsigned char *>(dest), static_cast<const unsigned char *>(source), elem, dst, sst,
             nelems);
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
        all2all("shmem_" #N "_alltoall", checked_team("shmem_" #N "_alltoall", team, "nelems", int64_t(nelems)), dest, source,             \
                bytes_of("shmem_" #N "_alltoall", "nelems", nelems, sizeof(T)), 1, 1, 1);                             \
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
    all2all("shmem_alltoallmem", checked_team("shmem_alltoallmem", team, "nelems", int64_t(nelems)), dest, source, nelems, 1, 1, 1);
    return 0;
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems)
{
    all2all("shmem_alltoallsmem", checked_team("shmem_alltoallsmem", team, "dst", dst, "sst", sst, "nelems", int64_t(nelems)), dest, source, 1, dst, sst, nelems);
    return 0;
}

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
                 bytes_of("shmem_fcollect" #BITS, "nelems", nelems, BITS / 8));                                       \
    }                                                                                                             \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,    \
                              int PE_size, long *pSync)                                                          \
    {                                                                                                             \
        all2all("shmem_alltoall" #BITS,                                                                         \
                agreed("shmem_alltoall" #BITS, active_set("shmem_alltoall" #BITS, PE_start, logPE_stride, PE_size, pSync, SHMEM_ALLTOALL_SYNC_SIZE), \
                       "nelems", int64_t(nelems)), dest, source,                                                        \
                bytes_of("shmem_alltoall" #BITS, "nelems", nelems, BITS / 8), 1, 1, 1);                               \
    }                                                                                                             \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
                               int PE_start, int logPE_stride, int PE_size, long *pSync)                        \
    {                                                                                                             \
        all2all("shmem_alltoalls" #BITS,                                                                        \
                agreed("shmem_alltoalls" #BITS, active_set("shmem_alltoalls" #BITS, PE_start, logPE_stride, PE_size, pSync, SHMEM_ALLTOALLS_SYNC_SIZE), \
                       "dst", dst, "sst", sst, "nelems", int64_t(nelems)), dest, source,                                \
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

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_COLL)

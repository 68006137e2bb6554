// The collectives' engine inside the library, shared by the files that use it (coll_sweep.cpp: the sweeps and the
// tree barrier; coll_gather.cpp: the all-gathers and the large reductions): the one-shot flags, the messages that
// raise them, and the flat sweep's parts, inline (each is a few instructions at its call).
#pragma once
#include "coll.hpp"

namespace shmem::detail {

// The PEs of a group, as library_wait's who().
[[gnu::always_inline]] inline auto group_pes(const Group &g)
{
    return [&g] { return PeSet{g.start, g.stride, g.size}; };
}

// A flag on a PE and its wake-up, both addresses worked out from one load of the PE's base (port::notify's fence
// would load it again; so would anything after a call), raised later by raise(). A release store: whatever was put
// before it is there when it is seen.
struct RemoteFlag {
    long *flag;
    port::Waker waker;
    [[gnu::always_inline]] void raise() const
    {
        __atomic_store_n(flag, 1L, __ATOMIC_RELEASE);
        port::notify_waiter(waker);
    }
};
[[gnu::always_inline]] inline RemoteFlag remote_flag(const Group &g, int pe, int flag)
{
    return {port::remote_ptr(&g.flags[flag], pe), port::waker(pe)};
}
// Raises a flag on a PE and wakes it.
[[gnu::always_inline]] inline void raise_flag(const Group &g, int pe, int flag) { remote_flag(g, pe, flag).raise(); }

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
[[gnu::always_inline]] inline void put_run(unsigned char *to, uintptr_t step, int ranks, const void *from, size_t m)
{
    using word = word64;
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
    using word = word64;
    if (m == sizeof(word) && whole_words(to, from, m)) {
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
[[gnu::always_inline]] inline void flat_send_runs(const Group &g, int root, void *dest, const void *from, size_t m,
                                                  int flag_index = flag_release)
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
    const uintptr_t flag = reinterpret_cast<uintptr_t>(&flags[flag_index]);
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
// The root's part after the arrivals: at_root(others), then the data and the flags to every other rank.
template <class AtRoot, bool Words = false>
[[gnu::always_inline]] inline void flat_send(const Group &g, int root, void *dest, const void *from, size_t m,
                                             AtRoot at_root, int flag_index = flag_release)
{
    const int n = g.size;
    if constexpr (port::has_pe_step) {
        at_root(flat_runs(g, root));
        flat_send_runs<Words>(g, root, dest, from, m, flag_index);
    } else {
        FlatTarget t[flat_max];
        for (int i = 1, r = root + 1; i < n; ++i, ++r) {
            if (r == n) r = 0;
            const int p = g.world(r);
            t[i].pe = p;
            t[i].flag = port::remote_ptr(&g.flags[flag_index], p);
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
template <class AtRoot, bool Words = false>
[[gnu::always_inline]] inline void sweep_flat(const Group &g, int root, void *dest, const void *from, size_t m,
                                              AtRoot at_root)
{
    if (g.rank != root) return flat_arrive_wait(g, root);
    flat_wait_arrivals(g);
    flat_send<AtRoot, Words>(g, root, dest, from, m, at_root);
}
inline constexpr auto at_root_nothing = [](const auto &) {};

}  // namespace shmem::detail

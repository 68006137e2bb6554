// What the library's translation units share: the port, the library state, and the one family of checks.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "heap.hpp"
#include "message.hpp"
#include "port.hpp"
#include "pshmemx.h" /* shmem.h, shmemx.h and their pshmem_ names */

// ---- the profiling interface (OpenSHMEM 1.5 §10, pshmem.h) ----------------------------------------------------
// Each source file ends with SHMEMI_PROFILING_ALIASES(its name lists of pshmem.h/pshmemx.h): every public routine
// it defines becomes a weak symbol, and pshmem_NAME a strong alias of the same body: the same address in the same
// section, so it costs no code, and --gc-sections keeps or drops the two names together. A tool's own strong
// shmem_NAME replaces the library's at link time, and its call of pshmem_NAME still reaches the library's body.
// (copy: pshmem_NAME gets shmem_NAME's attributes, noreturn and nothrow, as GCC asks of an alias.)
//
// Inside the library a public routine calls another only by its pshmem_ name, never by its shmem_ name: a tool
// sees the program's calls and no others, and the call compiles as it did before the names were weak (a call of
// a weak name cannot be inlined, since the link may replace its body; one of the strong alias can).
// tests/profiling (profiling_internal_calls) fails on any reference to a shmem_ name from inside libshmem.a.
#define SHMEMI_NAME(name)                                                  \
    extern "C" {                                                           \
    decltype(name) name __attribute__((weak));                             \
    decltype(name) p##name __attribute__((alias(#name), copy(name)));      \
    }
#define SHMEMI_PROFILING_ALIASES(LISTS) LISTS

namespace shmem::detail {

inline constexpr bool checks = SHMEM_CHECKS != 0;
// The checks kept without SHMEM_CHECKS (config.hpp, SHMEM_CHEAP_CHECKS): a compare and a branch on the fast path each.
inline constexpr bool cheap_checks = checks || SHMEM_CHEAP_CHECKS != 0;

// ---- PEs reached through the port's network (port::has_network) --------------------------------------------
// by_network(pe): PE pe's memory is reached through the port's transfer hooks, not through remote_ptr. A constant
// false on a port without a network, where every branch on it folds away; the network_* calls compile on every
// port (their bodies are discarded where there is no network) and are made only where by_network(pe) is true.
[[gnu::always_inline]] inline bool by_network(int pe)
{
    if constexpr (port::has_network) return !port::reachable(pe);
    (void)pe;
    return false;
}
// amo_by_network(pe): an AMO on PE pe goes through the network: pe is beyond reach, or the run's atomic domain is
// the network's (port::atomics_by_network).
[[gnu::always_inline]] inline bool amo_by_network(int pe)
{
    if constexpr (port::has_network) return !port::reachable(pe) || port::atomics_by_network();
    (void)pe;
    return false;
}
inline void network_put(int pe, void *dest, const void *source, size_t n)
{
    if constexpr (port::has_network) port::net_put(pe, dest, source, n);
}
inline void network_put_signal(int pe, void *dest, const void *source, size_t n, void *flag, unsigned flag_bytes,
                               bool add, uint64_t v)
{
    if constexpr (port::has_network) port::net_put_signal(pe, dest, source, n, flag, flag_bytes, add, v);
}
inline void network_get(void *dest, int pe, const void *source, size_t n)
{
    if constexpr (port::has_network) port::net_get(dest, pe, source, n);
}
inline void network_get_nbi(void *dest, int pe, const void *source, size_t n)
{
    if constexpr (port::has_network) port::net_get_nbi(dest, pe, source, n);
}
inline void network_get_wait()
{
    if constexpr (port::has_network) port::net_get_wait();
}
inline uint64_t network_amo(port::AmoOp op, int pe, void *word, unsigned bytes, uint64_t v, uint64_t cond)
{
    if constexpr (port::has_network) return port::net_amo(op, pe, word, bytes, v, cond);
    return 0;
}
inline void network_post(port::AmoOp op, int pe, void *word, unsigned bytes, uint64_t v)
{
    if constexpr (port::has_network) port::net_post(op, pe, word, bytes, v);
}
inline void network_fence()
{
    if constexpr (port::has_network) port::net_fence();
}
// Called on every port: nothing without a network.
inline void network_progress()
{
    if constexpr (port::has_network) port::net_progress();
}
// PE pe's copy of the word at `local` (a word of the library's own), by an atomic load (of memory order Order)
// where remote_ptr reaches it, else through the network.
template <int Order = __ATOMIC_ACQUIRE, class T>
inline T peer_load(const T *local, int pe)
{
    if (by_network(pe)) {
        T v;
        network_get(&v, pe, local, sizeof v);
        return v;
    }
    return __atomic_load_n(port::remote_ptr(local, pe), Order);
}

// What does not run across machines yet: the locks and the channels read and write their peers' memory by
// remote_ptr (docs/multinode.md). A group of them with a PE that the port reaches
// only through its network is refused (134), naming the routine, `what` and that PE. The PEs reachable by remote_ptr are one
// contiguous range (port.hpp), so a group whose lowest and highest PEs are reachable is reachable as a whole.
[[noreturn, gnu::cold]] void fail_across_network(const char *routine, const char *what, int pe);
inline void check_within_reach(const char *routine, const char *what, int lo, int hi)
{
    if constexpr (port::has_network) {
        if (__builtin_expect(by_network(lo), 0)) fail_across_network(routine, what, lo);
        if (__builtin_expect(by_network(hi), 0)) fail_across_network(routine, what, hi);
    }
    (void)routine, (void)what, (void)lo, (void)hi;
}

// choose_t<B, T, F>: T where B is true, else F (std::conditional_t; no <type_traits> where the C++ library is bare).
template <bool B, class T, class F>
struct Choose {
    using type = F;
};
template <class T, class F>
struct Choose<true, T, F> {
    using type = T;
};
template <bool B, class T, class F>
using choose_t = typename Choose<B, T, F>::type;

// Rounds of a logarithmic algorithm (the dissemination barrier, the collectives' trees) over up to
// port::max_pes PEs: ceil(log2(max_pes)), at least 1.
inline constexpr int max_rounds = port::max_pes > 1 ? 32 - __builtin_clz(uint32_t(port::max_pes - 1)) : 1;

// Exit statuses of a run that the library ends (documented in README.md).
inline constexpr int exit_usage_error = 134;

// Constant-initialized (every member has an initializer): no constructor runs for it at startup.
struct State {
    bool debug = false;   // SHMEM_DEBUG was set (environment.cpp); see debug()
    BrkHeap heap;         // set up before main by alloc.cpp (symmetric_end)
};
extern State state;

// Initialization (setup.cpp), apart from State so that a program that only initializes and synchronizes links
// these two words and not the heap's. 1.6: shmem_init may be called again, each call matched by a shmem_finalize;
// the last shmem_finalize releases what the library holds (the teams and contexts, the symmetric heap) and a
// later shmem_init starts afresh. Each part that holds something chains its release in front of `release` from a
// constructor, so that only the programs that link that part run (and link) its release.
struct Init {
    int count = 0;                   // shmem_init calls not yet matched by shmem_finalize
    void (*release)() = nullptr;     // what the last shmem_finalize calls: the chain of releases
};
extern Init init_state;

// SHMEM_DEBUG's extra diagnostics are on (only on a port with an environment; elsewhere this is a constant false
// and the diagnostics compile away).
inline bool debug()
{
    if constexpr (port::has_environment)
        return state.debug;
    else
        return false;
}

// Reads SHMEM_VERSION, SHMEM_INFO and SHMEM_DEBUG and prints what they ask for (environment.cpp); shmem_init
// calls it on a port with an environment.
void read_environment();

// Start of the symmetric static data (.rodata onwards; see the linker script), and its end on a port with a
// private heap (port::has_private_heap), which lies between the static data and the symmetric heap.
extern "C" char __shmem_symmetric_start[], __shmem_static_end[];

// Reports a wrong call: "libshmem: PE <pe>: <routine>: <what>", then ends the whole run with
// exit_usage_error. The caller fills in <what> through the returned Message.
class Usage {
public:
    explicit Usage(const char *routine);
    Message &m() { return msg_; }
    [[noreturn]] void fail();

private:
    Message msg_;
};

// The end of the symmetric memory in use on this PE: the heap's break. The heap is set up before main by
// alloc.cpp, in the programs that allocate; in the others its break stays where the heap starts.
inline uintptr_t symmetric_end()
{
    const uintptr_t brk = state.heap.brk();
    return brk != 0 ? brk : port::geometry.heap_lo;
}

inline bool in_range(uintptr_t a, size_t bytes, uintptr_t lo, uintptr_t hi)
{
    return a >= lo && a <= hi && bytes <= hi - a;
}

// Is [addr, addr + bytes) symmetric: inside static data or the live part of the heap on this PE? (Not in the
// private heap, malloc's, where a port has one.)
inline bool is_symmetric(const void *addr, size_t bytes)
{
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    const uintptr_t lo = reinterpret_cast<uintptr_t>(__shmem_symmetric_start);
    const uintptr_t hi = symmetric_end();
    if constexpr (port::has_private_heap)
        return in_range(a, bytes, lo, reinterpret_cast<uintptr_t>(__shmem_static_end)) ||
               in_range(a, bytes, port::geometry.heap_lo, hi);
    else
        return in_range(a, bytes, lo, hi);
}

// Whether [addr, addr + bytes) lies where every PE has memory at the same place: the static symmetric data or the
// symmetric heap's whole reserve (above the break too). For decisions every PE must make alike about an array the
// caller passes on every PE (may the others read it where it is?): is_symmetric's test without the break, which
// costs a load and a branch more.
inline bool in_symmetric_space(const void *addr, size_t bytes)
{
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    const uintptr_t lo = reinterpret_cast<uintptr_t>(__shmem_symmetric_start);
    if constexpr (port::has_private_heap)
        return in_range(a, bytes, lo, reinterpret_cast<uintptr_t>(__shmem_static_end)) ||
               in_range(a, bytes, port::geometry.heap_lo, port::geometry.heap_hi);
    else
        return in_range(a, bytes, lo, port::geometry.heap_hi);
}

// The check family: the test is inline (a compare and a branch on the fast path), the report out of line.
// Each is a no-op in builds without SHMEM_CHECKS.
[[noreturn]] void fail_not_initialized(const char *routine);
[[noreturn]] void fail_bad_pe(const char *routine, int pe);
[[noreturn]] void fail_not_symmetric(const char *routine, const char *arg, const void *addr, size_t bytes);
[[noreturn]] void fail_bad_stride(const char *routine, const char *arg, ptrdiff_t stride);
[[noreturn]] void fail_size_overflow(const char *routine, const char *arg, size_t n, size_t size);
[[noreturn]] void fail_extent_overflow(const char *routine, size_t n, const char *stride_arg, ptrdiff_t stride,
                                       size_t size);

// The routine the calling PE is in, for the report of a wait that a PE's end left endless (ended.cpp): set by
// check_init, so only where checks are on (null otherwise).
extern const char *current_routine;
inline void check_init(const char *routine)
{
    if constexpr (checks) {
        if (__builtin_expect(init_state.count <= 0, 0)) fail_not_initialized(routine);
        if constexpr (port::ends_observed) current_routine = routine;
    }
}
inline void check_pe(const char *routine, int pe)
{
    if constexpr (cheap_checks)
        if (__builtin_expect(unsigned(pe) >= unsigned(port::n_pes()), 0)) fail_bad_pe(routine, pe);
}
// Zero bytes at any address, null included, are accepted: nothing is accessed, and the specification supports a
// null pointer with a length of 0 (1.5, annex "Undefined Behavior") in every routine that takes both.
// With checks the heap is guarded (heap.hpp): a range in the heap must lie inside one live block. A range inside
// the block the last such check found (heap.hpp, in_seen) is symmetric and needs nothing more: two compares. Else
// it must be symmetric, and one that meets the heap's blocks is looked at out of line, and refused if it runs past
// its block's end or lies in a header or in a block that shmem_free has freed.
void check_heap_range(const char *routine, const char *arg, const void *addr, size_t bytes);
inline void check_symmetric(const char *routine, const char *arg, const void *addr, size_t bytes)
{
    if constexpr (checks) {
        const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
        if (__builtin_expect(state.heap.in_seen(a, bytes), 1)) return;
        if constexpr (port::has_private_heap) {  // static data, then malloc's heap, then the symmetric heap
            if (bytes == 0 || in_range(a, bytes, reinterpret_cast<uintptr_t>(__shmem_symmetric_start),
                                       reinterpret_cast<uintptr_t>(__shmem_static_end)))
                return;
            if (__builtin_expect(!in_range(a, bytes, port::geometry.heap_lo, symmetric_end()), 0))
                fail_not_symmetric(routine, arg, addr, bytes);
            check_heap_range(routine, arg, addr, bytes);  // in the heap, not in the block last found
        } else {
            if (__builtin_expect(bytes != 0 && !is_symmetric(addr, bytes), 0))
                fail_not_symmetric(routine, arg, addr, bytes);
            if (__builtin_expect(!state.heap.outside_blocks(a, bytes), 0)) check_heap_range(routine, arg, addr, bytes);
        }
    }
}
[[noreturn]] void fail_misaligned(const char *routine, const char *arg, const void *addr, size_t align);
inline void check_aligned(const char *routine, const char *arg, const void *addr, size_t align)
{
    if constexpr (checks)
        if (__builtin_expect((reinterpret_cast<uintptr_t>(addr) & (align - 1)) != 0, 0))
            fail_misaligned(routine, arg, addr, align);
}
inline void check_stride(const char *routine, const char *arg, ptrdiff_t stride)
{
    if constexpr (cheap_checks)
        if (__builtin_expect(stride <= 0, 0)) fail_bad_stride(routine, arg, stride);
}

// Size arithmetic, checked (issue: a count whose byte size wraps moved a fraction of what was asked, or nothing,
// and said nothing). n elements of `size` bytes, in bytes: with checks, a product that does not fit in size_t is
// reported as a bad `arg`; without, it wraps as before. Where size is 1 the check folds away; elsewhere it is a
// shift and a branch.
[[gnu::always_inline]] inline size_t bytes_of(const char *routine, const char *arg, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        if constexpr (cheap_checks) fail_size_overflow(routine, arg, n, size);
    return bytes;
}
// The bytes a strided array of n > 0 elements of `size` bytes spans, ((n - 1) * stride + 1) * size, checked.
[[gnu::always_inline]] inline size_t strided_extent(const char *routine, size_t n, const char *stride_arg,
                                                    ptrdiff_t stride, size_t size)
{
    size_t e;
    if (__builtin_mul_overflow(n - 1, size_t(stride), &e) || __builtin_add_overflow(e, size_t(1), &e) ||
        __builtin_mul_overflow(e, size, &e))
        if constexpr (cheap_checks) fail_extent_overflow(routine, n, stride_arg, stride, size);
    return e;
}

// The user's writes and the user's waits. shmem_wait_until, the wait/test families and shmem_signal_wait_until
// wait on memory that the user's puts, p, iput, AMOs and signal updates change. Where waking costs the writer
// next to nothing (virt: a read of the target's `sleeping` word in coherent memory; linux: the same, then a
// futex call only for a sleeper), those routines notify their target and the waiter sleeps (port::wait_until).
// Where it does not (Epiphany: a wake-up is a second mesh transaction and an interrupt on a core that may be
// computing, and whether the target sleeps is a remote read, a round trip), port::user_writes_notify is false:
// the routines write and nothing else, and the waiter polls its own memory, which costs no other core anything.
// The library's own waits (barriers, collectives, locks, channels) are always woken by their writers.
//
// A user write's wake-up can be worked out before the write (user_wake): an AMO does, since after the atomic (a
// compiler barrier) the compiler would load the geometry again, where before it the wake-up shares the remote
// address's arithmetic. `remote`: the target is another PE, or notifying this one is harmless.
struct UserWake {
    bool remote;
    port::Waker waker;
};
[[gnu::always_inline]] inline UserWake user_wake(int pe)
{
    return {port::notify_self_harmless || pe != port::my_pe(), port::waker(pe)};
}
// AfterRmw: after a native atomic, whose own ordering notify_after_rmw may count on (linux on x86-64).
// Inline everywhere: out of line it cost the fast paths a call and a second load of the geometry's address.
template <bool AfterRmw = false>
[[gnu::always_inline]] inline void notify_user_write(UserWake w)
{
    if constexpr (port::user_writes_notify) {
        if (w.remote) {
            if constexpr (AfterRmw)
                port::notify_after_rmw(w.waker);
            else
                port::notify(w.waker);
        }
    }
}
template <bool AfterRmw = false>
[[gnu::always_inline]] inline void notify_user_write(int pe)
{
    notify_user_write<AfterRmw>(user_wake(pe));
}
template <class Done>
inline void wait_user_write(Done done)
{
    if constexpr (port::user_writes_notify) {
        port::wait_until(done);
    } else {
        while (!done()) port::fence();  // the compiler reloads what done() reads
    }
}

// The library's own waits (barriers, collectives, locks) end only when other PEs write. Where the port sees PEs
// end (port::ends_observed), such a wait also ends when shmemi_peer_ended is non-zero (a PE has ended since the run
// began, and told this one), and then, if done() is still false, wait_ended (ended.cpp) finds out whether one of the
// PEs `who` can write has ended, in which case the wait can no longer end and is reported; otherwise it waits on.
// The PEs a wait depends on: a group's (start, stride, size). The cost while no PE has ended: a load and a branch
// in each look at done() that finds it false, and one after the wait.
struct PeSet {
    int start, stride, size;
};
[[gnu::cold]] void wait_ended(PeSet who, bool (*done)(const void *), const void *arg);
template <class Done>
bool call_done(const void *done)
{
    return (*static_cast<const Done *>(done))();
}
inline bool any_peer_ended() { return __atomic_load_n(port::peer_ended_word(), __ATOMIC_RELAXED) != 0; }
// A library wait's done() as a port with ends_seen_on_wake waits on it (port.hpp, end_seen): done() itself, and
// what to do after a wake-up that did not end the wait: if a PE has ended, finish the wait in wait_ended.
// (Out of line, with who and done by value: the waits' fast paths keep no frame for it, and reach it by a jump.)
template <class Who, class Done>
[[gnu::cold, gnu::noinline]] void finish_ended(Who who, Done done)
{
    wait_ended(who(), call_done<Done>, &done);  // returns once done() is true
    port::end_taken();
}
template <class Who, class Done>
struct EndAware {
    Who who;
    Done done;
    [[gnu::always_inline]] bool operator()() const { return done(); }
    [[gnu::always_inline]] bool end_seen() const
    {
        if (__builtin_expect(!any_peer_ended(), 1)) return false;
        finish_ended(who, done);
        return true;
    }
};
// A wait of the port's (wait(f) waits until f()) on the PEs who() names (called only after a PE's end).
template <class Who, class Wait, class Done>
[[gnu::always_inline]] inline void library_wait(Who who, Wait wait, Done done)
{
    if constexpr (port::ends_observed && port::ends_seen_on_wake) {
        wait(EndAware<Who, Done>{who, done});
    } else if constexpr (port::ends_observed) {
        wait([done]() __attribute__((always_inline)) { return done() || any_peer_ended(); });
        if (__builtin_expect(any_peer_ended(), 0) && !done()) wait_ended(who(), call_done<Done>, &done);
    } else {
        wait(done);
    }
}
template <class Who, class Done>
[[gnu::always_inline]] inline void library_wait_notified(Who who, Done done)
{
    library_wait(who, [](auto d) __attribute__((always_inline)) { port::wait_notified(d); }, done);
}
template <class Who, class Done>
[[gnu::always_inline]] inline void library_wait_until(Who who, Done done)
{
    library_wait(who, [](auto d) __attribute__((always_inline)) { port::wait_until(d); }, done);
}
// Every PE of the run, as who() for library_wait.
inline PeSet world_pes() { return {0, 1, port::n_pes()}; }

// Whether shmem_barrier_all (and a group barrier over every PE) uses the port's hardware barrier in this run:
// always with SHMEM_BARRIER=wand (barrier_wand reports a run that cannot use it), where the run allows it with auto.
inline bool hw_barrier_serves_run()
{
    return port::has_hw_barrier && (SHMEM_BARRIER_WAND || (SHMEM_BARRIER_AUTO && port::hw_barrier_usable()));
}

// The memory order of a flag's store or load whose ordering comes from an explicit fence next to it (a release
// fence before the first of several stores, an acquire fence after the last of several looks): relaxed, except
// under ThreadSanitizer, which does not model fences and would see the order lost.
#if defined(__SANITIZE_THREAD__)
inline constexpr int fenced_store = __ATOMIC_RELEASE, fenced_load = __ATOMIC_ACQUIRE;
#else
inline constexpr int fenced_store = __ATOMIC_RELAXED, fenced_load = __ATOMIC_RELAXED;
#endif

// Barriers (sync.cpp). barrier_world is the barrier of every PE of the run, after the port's stack check: the
// port's hardware barrier or dissemination, as kind says (barrier_build: the build's SHMEM_BARRIER, with auto the
// hardware one where hw_barrier_serves_run). It is the port's own where the port has one (own_barrier_world:
// Epiphany's, in assembly), else sync.cpp's. sync_all is shmem_barrier_all without the quiet.
enum : int { barrier_build = 0, barrier_hardware = 1, barrier_dissemination = 2 };
void barrier_wand();  // barrier_hardware, or a clear error where the run cannot use it
void barrier_world_generic(int kind);
inline void barrier_world(int kind)
{
    if constexpr (port::own_barrier_world) {
        port::barrier_world(kind);
    } else {
        barrier_world_generic(kind);
    }
}
inline void sync_all()
{
    if constexpr (port::has_hw_barrier && SHMEM_BARRIER_WAND) {
        barrier_wand();
    } else {
        barrier_world(barrier_build);
    }
}

}  // namespace shmem::detail

// The linux port: each PE is a process on the host (x86-64 or aarch64 Linux), forked by oshrun; the symmetric
// memory of all PEs is one shared memory object (a memfd that oshrun creates), mapped by every PE.
//
// Memory model (the same as on the bare-metal targets: every symmetric object is reachable by plain loads and
// stores from every PE; crt/linux/crt.cpp sets it up before any constructor runs):
//  - the shared object is a control page (oshrun's: the run's exit word) then one slice per PE, [its static data
//    pages | its symmetric heap];
//  - a PE sees its own symmetric memory where the program expects it: its slice's first pages mapped over its own
//    .data/.bss ([__shmem_symmetric_start, __shmem_static_end) rounded out to pages, after copying their contents
//    there), and the heap at static_lo + heap_offset, right after them unless the C library's brk heap is already
//    there (PE 0 chooses heap_offset, every PE uses the same);
//  - it sees every PE's (its own again included) in one view, laid out the same way: PE k's at view + k * stride,
//    its static pages at +0 and its heap at +heap_offset.
// So remote_ptr is one add and one multiply-add, as on virt: an address moves by (view - static_lo) + pe * stride.
// The addresses themselves are the same in every PE when the image is not position-independent or ASLR is off
// (oshrun turns it off for the PEs), but nothing here relies on it.
//
// Waiting: a PE that waits sleeps in futex(FUTEX_WAIT) on a word of its own static data after a short bounded
// spin (only where every PE has a CPU of its own); `notify` wakes it (futex(FUTEX_WAKE)) only if it said it sleeps.
// The futex words are in shared memory, so the futexes are the shared (not FUTEX_PRIVATE) kind, which the kernel
// keys by the memory object and offset: a waker and a sleeper may use different virtual addresses for the word.
#pragma once

#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// The hooks' contract is shmem/src/port.hpp, which includes this file; the defaults it gives serve this port for
// DMA (none), the inline small copy (none: the C library's memmove is the copy), the wake-ups (a Waker is the PE
// number; wait_notified is wait_until and notify_waiter is notify; no stepping through the PEs' copies), and the
// core's own barrier of the whole run and sweep.
namespace shmem::port {

inline constexpr bool has_native_atomics = true;  // the CPU's own atomics work on shared memory
inline constexpr bool has_hw_barrier = true;      // WAND-style: a counter in PE 0's memory, one futex to wake all
// The shmemx channels' values go through shared memory, unless the build sets SHMEM_LINUX_MSG_CHANNEL: then they
// travel as messages through a small queue per PE (port.cpp), as they do over TILE's UDN, so that the core's
// message path (shmem/src/channel.cpp) runs and is tested here.
#if SHMEM_LINUX_MSG_CHANNEL
inline constexpr bool has_msg_channel = true;
inline constexpr unsigned msg_words = 2;    // the object's offset, the value
inline constexpr unsigned msg_budget = 16;  // the queue's words (as TILE's): a message beyond it is a core bug
#endif
inline constexpr int max_pes = 512;  // what the library's tables are sized for (PEs are processes: no chip limit)

// Filled in by the startup code (crt/linux/crt.cpp) before any constructor runs.
struct Geometry {
    uintptr_t base;       // static_lo: where this PE's symmetric memory starts
    uintptr_t heap_lo;    // symmetric heap: [heap_lo, heap_hi) = static_lo + heap_offset + [0, heap size)
    uintptr_t heap_hi;
    uintptr_t static_lo;  // this PE's static data pages (the start of its slice is mapped over them)
    uintptr_t stride;     // heap_hi - static_lo: the distance between two PEs' memory in the view of all
    intptr_t delta;       // (where the view of every PE's memory starts) - static_lo
    uint32_t *exit_word;  // oshrun's: the run's status, set once by the PE that ends the run
    int pe;
    int npes;
    int node_first;       // this PE's node: PEs node_first .. node_first + node_npes - 1 share its memory object
    int node_npes;
    bool networked;       // node_npes < npes: the run spans nodes, and the others are reached through UCX (net.cpp)
    bool pmix;            // a PMIx launcher (mpirun, srun) started the run (pmix.cpp), not oshrun
    bool net_atomics;     // a run across nodes whose atomic domain is the network's (SHMEM_ATOMIC_DOMAIN, net.cpp)
    int spin;             // how often a waiter polls before it sleeps (0 with more PEs than CPUs)
    int yields;           // with more PEs than CPUs: then at least how often it polls after sched_yield (poll)
};
extern Geometry geometry;

inline int my_pe() { return geometry.pe; }
inline int n_pes() { return geometry.npes; }

// ---- the network (net.cpp): the PEs of other nodes, through UCX ----------------------------------------------
// A run started by `oshrun --nodes K` (emulated nodes) spans nodes; the PEs of this PE's node are reached by
// remote_ptr, the others through the network (port.hpp, has_network). A run on one node never calls UCX.
inline constexpr bool has_network = true;
inline bool reachable(int pe) { return unsigned(pe - geometry.node_first) < unsigned(geometry.node_npes); }
inline bool atomics_by_network() { return geometry.net_atomics; }
void net_start(int board_fd);                          // crt/linux: the exchange of addresses and keys
void net_flush();                                      // every put of this PE is in place at its target, every get_nbi here
void net_progress_now();                               // net_progress of a run across nodes
inline void net_progress()
{
    if (__builtin_expect(geometry.networked, 0)) net_progress_now();
}
void net_wait(bool (*done)(void *), void *arg);        // a wait that progresses the network (wait_until)
void net_stop();                                       // this PE's process ends (crt/linux: at exit)
void net_leaders_barrier();                            // hw_barrier's among the nodes' first PEs (port.cpp)

template <class T>
inline T *remote_ptr(T *local, int pe)
{
    return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(local) + geometry.delta + uintptr_t(pe) * geometry.stride);
}

// The C library's copy is the fastest there is on the host; memmove because a PE may put to itself, over itself.
// A zero-length transfer may have null pointers (1.5 §9.5), which memmove must not be given (UBSan says so).
inline void put_bytes(void *dst_remote, const void *src, size_t n)
{
    if (n != 0) memmove(dst_remote, src, n);
}
inline void get_bytes(void *dst, const void *src_remote, size_t n)
{
    if (n != 0) memmove(dst, src_remote, n);
}

// A full fence: orders this PE's stores before its later loads too (the sleep/wake protocol below needs it).
#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer does not model fences (GCC warns): a sequentially consistent read-modify-write instead, a full
// barrier on x86-64 (a locked instruction) and ordered like one for the protocols here.
inline void fence()
{
    static uint32_t word;
    __atomic_fetch_add(&word, 0u, __ATOMIC_SEQ_CST);
}
#elif defined(__x86_64__)
// A locked add to the stack is a full barrier on x86-64 and cheaper than mfence (the Linux kernel's smp_mb); GCC 12
// gives mfence for __atomic_thread_fence.
inline void fence() { __asm__ volatile("lock addl $0, -4(%%rsp)" ::: "memory", "cc"); }
#else
inline void fence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#endif
// A store is complete when it is visible: no DMA, no buffer beyond what the fence drains; the network's puts when
// the network flushes them.
inline void quiet()
{
    fence();
    if (__builtin_expect(geometry.networked, 0)) net_flush();
}

inline bool test_and_set(uint32_t *remote_word)
{
    return __atomic_exchange_n(remote_word, 1u, __ATOMIC_ACQUIRE) != 0;
}
inline void clear(uint32_t *remote_word) { __atomic_store_n(remote_word, 0u, __ATOMIC_RELEASE); }

// shmemx_cycles: the time-stamp counter (x86-64: TSC, a constant rate on current CPUs, not the core's clock;
// aarch64: the generic timer's virtual count), else nanoseconds.
inline uint64_t cycles()
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return uint64_t(hi) << 32 | lo;
#elif defined(__aarch64__)
    uint64_t c;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(c));
    return c;
#else
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
#endif
}

inline void cpu_relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ volatile("yield" ::: "memory");
#endif
}

// ---- sleeping and waking --------------------------------------------------------------------------------
//
//   waiter:  poll a little (poll); sleeping = 1; loop { seq = wake_seq; fence; if (done()) break; futex_wait(&wake_seq,
//            seq, 1 ms) }; sleeping = outer
//   writer:  store the data; fence; if (target's sleeping) { ++target's wake_seq; futex_wake(target's wake_seq) }
// If the waiter's check misses the data, the fences order the writer's read of `sleeping` after the waiter set it:
// the writer bumps wake_seq, and the waiter's futex_wait either sees the new value and returns at once or is
// woken. The 1 ms timeout is the backstop for writers outside the library (plain stores through shmem_ptr).

extern uint32_t sleeping;  // this PE's "I sleep, wake me" word (symmetric)
extern uint32_t wake_seq;  // this PE's futex word (symmetric)

inline long futex(uint32_t *word, int op, uint32_t val, const timespec *timeout)
{
    return syscall(SYS_futex, word, op, val, timeout, nullptr, 0);
}

inline void wake(int pe)
{
    uint32_t *w = remote_ptr(&wake_seq, pe);
    __atomic_add_fetch(w, 1u, __ATOMIC_SEQ_CST);
    futex(w, FUTEX_WAKE, INT_MAX, nullptr);
}

// The bounded polling before a wait sleeps. Where every PE has a CPU: a short spin (a wake-up through the kernel
// costs microseconds). Oversubscribed: sched_yield() and a look, which lets the PE that will satisfy the wait run at
// once on this CPU (Open MPI's waiters yield at every poll), for at least `yields` looks and then for as long as the
// yield budget allows; then the wait sleeps. The budget adapts to how long recent waits took (wait_until): a wait
// that went to sleep and was woken within the budget again doubles it (yielding longer would have caught it), one
// that slept for much longer halves it (a long wait should not keep a CPU busy). True if done() became true.
// The looks are bounded in number too (yield_looks_max), so that end_grace_polls, which counts them, stays about a
// second (1 to 1.3 s) whether a yield phase makes few looks or all of them.
inline constexpr uint64_t yield_budget_min_ns = 20000, yield_budget_max_ns = 1000000;
inline constexpr int yield_looks_max = 256;
extern uint64_t yield_budget_ns;  // this PE's, private (relaxed atomics: a PE's threads may wait at once)
inline uint64_t now_ns()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}
template <class Done>
inline bool poll(Done done)
{
    for (int i = geometry.spin; i > 0; --i) {
        cpu_relax();
        if (done()) return true;
    }
    if (geometry.yields == 0) return false;
    const uint64_t start = now_ns(), budget = __atomic_load_n(&yield_budget_ns, __ATOMIC_RELAXED);
    for (int i = 1; i <= yield_looks_max; ++i) {
        sched_yield();
        if (done()) return true;
        if (i >= geometry.yields && (i & 7) == 0 && now_ns() - start > budget) break;
    }
    return false;
}
// After a wait that slept for `slept` ns (oversubscribed only): the budget for the next ones (poll, above).
inline void adapt_yield_budget(uint64_t slept)
{
    const uint64_t b = __atomic_load_n(&yield_budget_ns, __ATOMIC_RELAXED);
    uint64_t next = b;
    if (slept <= b)
        next = b * 2 < yield_budget_max_ns ? b * 2 : yield_budget_max_ns;
    else if (slept > 16 * b)
        next = b / 2 > yield_budget_min_ns ? b / 2 : yield_budget_min_ns;
    if (next != b) __atomic_store_n(&yield_budget_ns, next, __ATOMIC_RELAXED);
}

inline void check_stack() {}  // the kernel's guard gap below the stack faults at once (crt/linux: the report)

// Wakes PE pe if it said it sleeps; the caller has fenced its stores before (notify, notify_after_rmw).
// `sleeping` at sleeps_in_poll: the PE sleeps in poll() on its network's events (a run across nodes: net.cpp),
// which a futex wake-up does not reach; its doorbell through the network does (net_wake).
inline constexpr uint32_t sleeps_in_poll = 2;
void net_wake(int pe);
inline void wake_if_sleeping(int pe)
{
    const uint32_t s = __atomic_load_n(remote_ptr(&sleeping, pe), __ATOMIC_RELAXED);
    if (s != 0) {
        if (__builtin_expect(s == sleeps_in_poll, 0))
            net_wake(pe);
        else
            wake(pe);
    }
}

// A PE's end is seen by the others' waits (port.hpp, ends_observed): the C library's exit announces it (crt/linux),
// and its wake-up is the target's futex word whether it says it sleeps or not; hw_barrier's sleep has a backstop
// for it. wait_until polls, then looks at done() once a backstop period (1 ms) when nothing wakes it.
inline constexpr bool ends_observed = true;
inline void notify_end(int pe) { wake(pe); }  // a seq_cst add first: after the store that tells the PE
// A wait of a run across nodes (net.cpp, progress_until) makes net_plain_looks looks first (net_busy_looks where the
// PE has a CPU of its own: each look is a progress of UCX, a system call over TCP, so a few tenths of a second), then
// net_yield_looks with sched_yield between them, then one per wake-up or millisecond.
inline constexpr unsigned net_busy_looks = 1000000, net_yield_looks = 2000;
inline unsigned net_plain_looks() { return geometry.spin != 0 ? net_busy_looks : 16; }
inline unsigned end_grace_polls()
{
    if (geometry.networked) return net_plain_looks() + net_yield_looks + 1000u;
    return unsigned(geometry.spin + (geometry.yields != 0 ? yield_looks_max : 0)) + 1000u;
}

// The user's puts and AMOs notify their target, and the user's waits sleep (shmem::detail::wait_user_write):
// notify is a read of the target's `sleeping` word and, only for a sleeper, a wake-up.
inline constexpr bool user_writes_notify = true;
// The user's writes to this PE itself notify nobody (notify_self_harmless: see the virt-rv64 port); here a notify
// of this PE would cost a fence and a read for nothing.
inline constexpr bool notify_self_harmless = false;

inline void notify(int pe)
{
    fence();
    wake_if_sleeping(pe);
}
// After a native atomic on PE pe's memory: on x86-64 the atomic was a locked instruction, itself a full fence.
inline void notify_after_rmw(int pe)
{
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
    wake_if_sleeping(pe);
#else
    notify(pe);
#endif
}

template <class Done>
inline void wait_until(Done done)
{
    if (__builtin_expect(geometry.networked, 0)) {
        if (!done()) net_wait([](void *d) { return bool((*static_cast<Done *>(d))()); }, &done);
        return;
    }
    if (done() || poll(done)) return;
    const uint32_t outer = __atomic_load_n(&sleeping, __ATOMIC_RELAXED);
    __atomic_store_n(&sleeping, 1u, __ATOMIC_RELAXED);
    static const timespec backstop = {0, 1000000};
    const uint64_t asleep = geometry.yields != 0 ? now_ns() : 0;
    for (;;) {
        fence();
        const uint32_t seq = __atomic_load_n(&wake_seq, __ATOMIC_SEQ_CST);
        if (done()) break;
        futex(&wake_seq, FUTEX_WAIT, seq, &backstop);
    }
    __atomic_store_n(&sleeping, outer, __ATOMIC_RELAXED);
    if (geometry.yields != 0) adapt_yield_budget(now_ns() - asleep);
}

// On x86-64 the barrier's (hw_barrier, port.cpp) first access is a locked add, a full fence: shmem_barrier_all
// needs no quiet() before it (hw_barrier_fences).
#if defined(__x86_64__)
inline constexpr bool hw_barrier_fences = true;
#endif
// The counter in PE 0's memory serves a run on one node; across nodes each node's counter, with a dissemination
// among the nodes' first PEs between the arrivals and the release (port.cpp).
inline bool hw_barrier_usable() { return true; }
inline constexpr const char hw_barrier_needs[] = "nothing";  // (usable in every run)

// ---- platform ---------------------------------------------------------------------------------------------

inline constexpr bool has_environment = true;
// malloc's heap is the C library's, outside the symmetric memory: the core's checks take static data and the
// symmetric heap as two ranges (linker/linux/shmem.ld gives the empty "private heap" between them).
inline constexpr bool has_private_heap = true;
// The alignment of shmem_malloc's blocks: a cache line, so that memmove stores whole lines (a 64 KiB put into a
// 16-byte aligned block ran at 99 GB/s, into a 64-byte aligned one at 125).
inline constexpr size_t heap_alignment = 64;

// The library's own reports go straight to the PE's stdout or stderr (pipes that oshrun reads line by line);
// flush_console flushes the C library's streams. finish(0) leaves this PE's memory reachable (it is the shared
// object, which outlives the process); end_run's status goes to oshrun in the exit word, and oshrun stops the
// other PEs. end_run_early is end_run for the startup code before the exit word is known.
void flush_console();
[[noreturn]] void end_run_early(int status);

}  // namespace shmem::port

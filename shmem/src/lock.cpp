// Distributed locks: shmem_set_lock, shmem_test_lock, shmem_clear_lock.
//
// An MCS queue lock spread over the PEs. ARL's library kept every lock on PE 0, where all waiters polled; here a
// lock's queue tail lives on a home PE picked by hashing the lock's offset in the symmetric region over the PEs
// (different locks, different homes), and each waiter sleeps on its OWN PE's copy of the lock word until its
// predecessor hands the lock over. A hand-over is one remote store and one wake-up; nobody polls a remote word.
//
// The lock is the user's symmetric long (8 bytes, 8-aligned, zero on every PE before first use; 4 bytes on
// Epiphany, see below), used as
//   bytes 0-3  tail   uint32  on the home PE only: PE + 1 of the last PE in the queue, 0 = the lock is free
//   bytes 4-5  next   uint16  this PE's queue node: PE + 1 of the PE queued right behind it, 0 = none (yet)
//   bytes 6-7  state  uint16  this PE's queue node: idle, waiting or holding
// The tail is changed only by 32-bit AMOs (swap to join the queue, compare_swap to leave it empty), so it is
// atomic under either AMO mechanism of amo.cpp; the node fields only by 16-bit stores with one writer at a time:
//   next:  this PE (0 before it joins the queue, 0 after it hands over), then its successor (once, to link)
//   state: this PE (waiting before it joins, idle when it leaves), then its predecessor (holding, to hand over)
// Their bytes are disjoint from the tail's, so the stores and the AMOs never disturb each other (a TESTSET
// build's read-modify-write of the tail is one 32-bit load and one 32-bit store).
//
// No wake-up can be lost: every wait is port::wait_until on the waiter's own node, and every store that ends a
// wait is followed by port::notify of the waiter, which the port's sleep protocol makes reliable:
//   - a queued PE sleeps until its state leaves `waiting`; its predecessor stores `holding`, then notifies it;
//   - a releaser whose successor has joined (swapped the tail) but not yet linked sleeps until its next is set;
//     the successor stores it right after its swap, then notifies the releaser.
// The queue is FIFO: PEs get the lock in the order their swaps reached the tail.
//
// Across nodes (a port with a network, in a run that spans nodes; 8-byte long only): a queue may link PEs that
// reach each other only through the network, whose writes are AMOs (a put has no atomicity to speak of), and a
// node's next and state may then change at the same time by two writers of different paths. So in such a run every
// write to a queue node is a 32-bit AMO on its word (bytes 4-7: next | state << 16, little-endian), this PE's own
// included, through amo.cpp, which takes the run's one atomic domain (the CPU's, or the network's for every PE):
//   link:       fetch_or of PE + 1 into the predecessor's word, whose next is 0;
//   hand-over:  fetch_xor of (waiting ^ holding) << 16 into the successor's word, whose state is waiting;
//   own:        fetch_xor of (from ^ to) << 16 (a successor may link meanwhile), or a swap of the whole word when
//               no other PE can write it.
// The AMOs are the fetching ones: each is complete when it returns, as the stores it replaces are ordered. They
// notify an on-node target like every AMO; an off-node target's wait progresses the network, whose arrival wakes it.
#include "team.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

#if __SIZEOF_LONG__ == 4
// A 4-byte long: the tail uint16 in bytes 0-1, the node in bytes 2-3.
//  - Without native AMOs (Epiphany): the same encoding at half the width, next and state uint8 in bytes 2 and 3.
//    OpenSHMEM has no 16-bit AMOs, so the tail's swap and compare-swap are amo.cpp's TESTSET read-modify-write at 16
//    bits.
//  - With native AMOs (a 32-bit hosted port: linux on armhf, up to max_pes PEs): the tail by native 16-bit atomics,
//    and the node one uint16, next in its low 14 bits and state in its top 2. A successor may link (write next)
//    while this PE changes its state, and a predecessor hands over (writes state) while a successor links: every
//    write to a node that another PE may write at the same time is an atomic read-modify-write of the 16 bits.
inline constexpr bool packed_node = port::has_native_atomics;
static_assert(packed_node ? port::max_pes < (1 << 14) - 1 : port::max_pes < 255, "next holds PE + 1");
using Tail = uint16_t;
using Node = uint16_t;
uint16_t lock_tail_swap(uint16_t *tail, uint16_t value, int pe);
uint16_t lock_tail_compare_swap(uint16_t *tail, uint16_t cond, uint16_t value, int pe);
struct __attribute__((may_alias)) LockWord {
    Tail tail;
    Node node;  // packed: next | state << 14; else byte 0 next, byte 1 state
};
#else
static_assert(sizeof(long) == 8, "the lock encoding needs a 4- or 8-byte long");
inline constexpr bool packed_node = false;
using Tail = uint32_t;
using Node = uint16_t;
inline uint32_t lock_tail_swap(uint32_t *tail, uint32_t value, int pe) { return pshmem_uint32_atomic_swap(tail, value, pe); }
inline uint32_t lock_tail_compare_swap(uint32_t *tail, uint32_t cond, uint32_t value, int pe)
{
    return pshmem_uint32_atomic_compare_swap(tail, cond, value, pe);
}
struct __attribute__((may_alias)) LockWord {
    Tail tail;
    Node next;
    Node state;
};
#endif

namespace {

static_assert(sizeof(LockWord) == sizeof(long));

enum : Node { idle = 0, waiting = 1, holding = 2 };

// A node's fields (next: PE + 1 of the successor, 0 = none; state), read and written as the encoding says.
#if __SIZEOF_LONG__ == 4
inline constexpr unsigned state_shift = packed_node ? 14 : 8;
inline constexpr Node next_mask = packed_node ? Node((1u << 14) - 1) : Node(0xff);
inline Node state_of(const LockWord *w) { return Node(__atomic_load_n(&w->node, __ATOMIC_ACQUIRE) >> state_shift); }
inline Node next_of(const LockWord *w) { return Node(__atomic_load_n(&w->node, __ATOMIC_ACQUIRE) & next_mask); }
inline uint8_t *next_byte(LockWord *w) { return reinterpret_cast<uint8_t *>(&w->node); }
inline uint8_t *state_byte(LockWord *w) { return reinterpret_cast<uint8_t *>(&w->node) + 1; }
// This PE's node while no other PE can write it (before it joins the queue, after it has left it).
inline void set_own(LockWord *w, Node state)
{
    __atomic_store_n(&w->node, Node(state << state_shift), __ATOMIC_RELEASE);
}
// The state of a node whose next another PE may be linking meanwhile.
inline void set_state(LockWord *w, Node state)
{
    if constexpr (packed_node) {
        Node old = __atomic_load_n(&w->node, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&w->node, &old, Node((old & next_mask) | state << state_shift), true,
                                            __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
        }
    } else {
        __atomic_store_n(state_byte(w), uint8_t(state), __ATOMIC_RELEASE);
    }
}
// The next of a node whose next is 0 and whose state another PE may be changing meanwhile.
inline void set_next(LockWord *w, Node next)
{
    if constexpr (packed_node)
        __atomic_fetch_or(&w->node, next, __ATOMIC_RELEASE);
    else
        __atomic_store_n(next_byte(w), uint8_t(next), __ATOMIC_RELEASE);
}
#else
inline Node state_of(const LockWord *w) { return __atomic_load_n(&w->state, __ATOMIC_ACQUIRE); }
inline Node next_of(const LockWord *w) { return __atomic_load_n(&w->next, __ATOMIC_ACQUIRE); }
inline void set_own(LockWord *w, Node state)
{
    __atomic_store_n(&w->next, Node(0), __ATOMIC_RELEASE);
    __atomic_store_n(&w->state, state, __ATOMIC_RELEASE);
}
inline void set_state(LockWord *w, Node state) { __atomic_store_n(&w->state, state, __ATOMIC_RELEASE); }
inline void set_next(LockWord *w, Node next) { __atomic_store_n(&w->next, next, __ATOMIC_RELEASE); }
#endif

inline LockWord *check_lock(const char *routine, long *lock)
{
    check_init(routine);
    check_symmetric(routine, "lock", lock, sizeof *lock);
    check_aligned(routine, "lock", lock, sizeof *lock);
    if constexpr (port::has_network && sizeof(long) != 8)  // (the node's word below needs the 8-byte encoding)
        check_within_reach(routine, "a lock (its queue may link every PE of the run)", 0, port::n_pes() - 1);
    return reinterpret_cast<LockWord *>(lock);
}

// The run spans nodes: the queue's nodes are written by AMOs (above). A constant false without a network.
inline bool across_nodes()
{
    if constexpr (port::has_network && sizeof(long) == 8) return by_network(0) || by_network(port::n_pes() - 1);
    return false;
}
#if __SIZEOF_LONG__ == 8
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || !port::has_network, "node word: next | state << 16");
inline uint32_t *node_word(LockWord *w) { return reinterpret_cast<uint32_t *>(&w->next); }
#else
inline uint32_t *node_word(LockWord *) { __builtin_unreachable(); }  // (across_nodes() is false)
#endif
// This PE's state from `from` to `to` while a successor may link.
inline void change_state(LockWord *w, Node from, Node to)
{
    if (across_nodes())
        pshmem_uint32_atomic_fetch_xor(node_word(w), uint32_t(from ^ to) << 16, port::my_pe());
    else
        set_state(w, to);
}
// This PE's node while no other PE can write it.
inline void reset_own(LockWord *w, Node state)
{
    if (across_nodes())
        pshmem_uint32_atomic_swap(node_word(w), uint32_t(state) << 16, port::my_pe());  // (a set may be posted)
    else
        set_own(w, state);
}

[[noreturn]] void fail_lock(const char *routine, const long *lock, const char *what)
{
    Usage u(routine);
    u.m().s("lock = ").p(lock).s(" ").s(what);
    u.fail();
}

// The home PE: a Fibonacci hash of the lock's 8-byte slot in the symmetric region (the same on every PE).
inline int home_of(const long *lock)
{
    const uint64_t slot =
        (reinterpret_cast<uintptr_t>(lock) - reinterpret_cast<uintptr_t>(__shmem_symmetric_start)) >> 3;
    return int(uint32_t((slot * 0x9e3779b97f4a7c15ull) >> 32) % uint32_t(port::n_pes()));
}

inline Tail me1() { return Tail(port::my_pe() + 1); }

}  // namespace
}  // namespace shmem::detail

extern "C" {

void shmem_set_lock(long *lock)
{
    const char *routine = "shmem_set_lock";
    LockWord *w = check_lock(routine, lock);
    // (A load and a compare, in every build that keeps the cheap checks: a second set would wait for itself.)
    if constexpr (cheap_checks)
        if (state_of(w) != idle) fail_lock(routine, lock, "is already held by this PE (locks are not recursive)");
    reset_own(w, waiting);
    port::fence();  // the node is ready before a successor can find this PE in the tail
    const Tail prev = lock_tail_swap(&w->tail, me1(), home_of(lock));  // a full barrier
    if (prev == 0) {
        change_state(w, waiting, holding);  // (a successor may be linking already)
        return;
    }
    // Link behind the predecessor, wake it in case it is releasing and waits for the link, then sleep until it
    // hands the lock over.
    if (across_nodes()) {
        pshmem_uint32_atomic_fetch_or(node_word(w), uint32_t(me1()), int(prev) - 1);
    } else {
        set_next(port::remote_ptr(w, int(prev) - 1), Node(me1()));
        port::notify(int(prev) - 1);
    }
    // The predecessor hands it over: a report instead of a hang if it ends first, holding the lock.
    const int holder = int(prev) - 1;
    if constexpr (checks && port::ends_observed) current_routine = routine;  // the swap's AMO named itself
    library_wait_until([holder] { return PeSet{holder, 1, 1}; }, [w] { return state_of(w) != waiting; });
}

int shmem_test_lock(long *lock)
{
    LockWord *w = check_lock("shmem_test_lock", lock);
    if (state_of(w) != idle) return 1;  // held by this PE
    reset_own(w, idle);
    port::fence();
    // Join only an empty queue: never waits.
    if (lock_tail_compare_swap(&w->tail, 0, me1(), home_of(lock)) != 0) return 1;
    change_state(w, idle, holding);  // (a successor may be linking already)
    return 0;
}

void shmem_clear_lock(long *lock)
{
    const char *routine = "shmem_clear_lock";
    LockWord *w = check_lock(routine, lock);
    port::quiet();  // the critical section's puts are complete before the next holder can look
    // (Every build that keeps the cheap checks: a clear of a lock not held would hand another PE's lock away, or
    // wait for a successor that never links.)
    if constexpr (cheap_checks)
        if (state_of(w) != holding)
            fail_lock(routine, lock, "is not held by this PE; expected a lock it took with shmem_set_lock or "
                                     "shmem_test_lock");
    Node next = next_of(w);
    if (next == 0) {
        // No successor linked: leave an empty queue, unless one has just joined (the tail is no longer us).
        if (lock_tail_compare_swap(&w->tail, me1(), 0, home_of(lock)) == me1()) {
            change_state(w, holding, idle);  // (no successor: none can link now)
            return;
        }
        port::wait_until([w] { return next_of(w) != 0; });
        next = next_of(w);
    }
    reset_own(w, idle);
    // (its successor may be linking meanwhile)
    if (across_nodes()) {
        pshmem_uint32_atomic_fetch_xor(node_word(w), uint32_t(waiting ^ holding) << 16, int(next) - 1);
    } else {
        set_state(port::remote_ptr(w, int(next) - 1), holding);
        port::notify(int(next) - 1);
    }
}

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_LOCK)

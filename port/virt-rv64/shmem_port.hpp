// The virt-rv64 port: QEMU's RISC-V `virt` machine, one hart per PE, RAM cut into power-of-two partitions.
//
// Hardware facts this file relies on (QEMU 7.2, `-machine virt,aclint=on`, one socket):
//  - ACLINT MTIMER where the SiFive CLINT has it: mtimecmp[hart] at 0x2004000 + 8*hart, mtime at 0x200bff8,
//    10 MHz. ACLINT SSWI: SETSSIP[hart] at 0x2f00000 + 4*hart (write 1 = mip.SSIP of that hart).
//  - SiFive test device at 0x100000: 0x5555 ends QEMU with status 0, (code << 16) | 0x3333 with `code`.
//  - NS16550 UART at 0x10000000.
//  - Goldfish RTC at 0x101000: TIME_LOW (+0) then TIME_HIGH (+4) is the host's wall clock in ns since the epoch
//    (reading TIME_LOW latches TIME_HIGH).
//  - `wfi` returns when (mip & mie) != 0 even with mstatus.MIE = 0, so a hart can sleep on SSIP/MTIP without
//    ever taking an interrupt: no handler, no saved context, no race with the code that armed it.
// All of the partitioned address space is ordinary coherent RAM: a remote store is a store.
//
// The hooks' contract is shmem/src/port.hpp, which includes this file; the defaults it gives serve this port for
// DMA (none: _nbi transfers complete before they return), the message network (none: the shmemx channels run over
// shared memory) and the core's own barrier of the whole run and sweep.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace shmem::port {

inline constexpr bool has_native_atomics = true;  // A extension: amoswap/amoadd/lr/sc on any PE's memory
inline constexpr bool has_hw_barrier = true;      // WAND-style: set a bit, sleep, the last one wakes everyone
inline constexpr int max_pes = 512;               // QEMU virt's hart limit

// Filled in by the startup code from the boot block before any constructor runs; only `sleeping` and `peer_ended`
// change after.
struct Geometry {
    uintptr_t ram_base;  // partition base of PE 0
    uintptr_t mask;      // partition size - 1
    uintptr_t base;      // this PE's partition base
    uintptr_t heap_lo;   // symmetric heap: [heap_lo, heap_hi)
    uintptr_t heap_hi;
    uintptr_t guard_lo;  // the stack guard (no access): [guard_lo, guard_hi), heap_hi <= guard_lo
    uintptr_t guard_hi;
    uintptr_t stack_lo;  // the stack: [stack_lo, partition end)
    uint64_t *barrier_word;   // PE 0's `barrier_word`, the WAND-style barrier's (port.cpp)
    uint32_t log2;       // log2(partition size)
    int pe;
    int npes;
    // This PE's "I am asleep, wake me" word, the one field that changes (wait_until). Here, a known distance
    // from tp, a writer finds the target's copy from the remote displacement alone (waker).
    uint32_t sleeping;
    // The ends announced to this PE (port.hpp, peer_ended_word): written by the PEs that end, read tp-relative.
    uint32_t peer_ended;
};
// Every fast path reads the geometry, so it is the first object of the thread-local block, which tp points at
// (crt/virt-rv64/start.S, linker/virt-rv64/shmem.ld): through geo() a field is one tp-relative load, where a
// pc-relative address took an auipc and an addi first. (The startup code checks that tp is &geometry.)
extern __thread Geometry geometry __attribute__((tls_model("local-exec")));
register Geometry *geometry_at_tp asm("tp");
[[gnu::always_inline]] inline Geometry &geo() { return *geometry_at_tp; }

inline int my_pe() { return geo().pe; }
inline int n_pes() { return geo().npes; }

// The address of `local` (an address in this PE's partition) inside PE `pe`'s partition: the partitions are equal,
// contiguous and in PE order, so it is `local` moved by (pe - me) partitions. A load of `me`, which the callers
// mostly have already (the notify's pe != me), a subtraction, a shift and an add: 4 instructions where a mask and
// the partition base took 7. (Modulo 2^64, so a PE below this one is reached too.)
template <class T>
inline T *remote_ptr(T *local, int pe)
{
    return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(local) +
                                 ((uintptr_t(pe) - uintptr_t(geo().pe)) << geo().log2));
}

extern "C" void shmem_port_copy(void *dst, const void *src, size_t n);

// Puts store into the other partition, gets load from it; on this machine both are the same copy loop.
inline void put_bytes(void *dst_remote, const void *src, size_t n) { shmem_port_copy(dst_remote, src, n); }
inline void get_bytes(void *dst, const void *src_remote, size_t n) { shmem_port_copy(dst, src_remote, n); }

// The core's put/get fast path (has_copy_inline): 8 to 64 bytes of whole, 8-byte aligned double words. One test
// covers it all: the addresses' low 3 bits and every bit of n - 8 but those of 8, 16 and 32 must be 0 (0 bytes
// wraps to all ones).
inline constexpr bool has_copy_inline = true;
[[gnu::always_inline]] inline bool copy_inline(void *dst, const void *src, size_t n)
{
    typedef uint64_t __attribute__((may_alias)) dword;
    const size_t rest = n - 8;  // the bytes after the first double word
    if ((((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src)) & 7) | (rest & ~size_t(0x38))) != 0)
        return false;
    auto *d = static_cast<dword *>(dst);
    const auto *s = static_cast<const dword *>(src);
    d[0] = s[0];
    for (size_t i = 1; i < 8 && 8 * (i - 1) < rest; ++i) d[i] = s[i];  // unrolled: a compare per word
    return true;
}

// Orders memory and device accesses (the SETSSIP stores that wake other harts are device accesses).
inline void fence() { __asm__ volatile("fence iorw, iorw" ::: "memory"); }
// Puts are complete when the store retires (no DMA, no write buffers beyond what `fence` drains).
inline void quiet() { fence(); }

inline bool test_and_set(uint32_t *remote_word)
{
    return __atomic_exchange_n(remote_word, 1u, __ATOMIC_ACQUIRE) != 0;
}
inline void clear(uint32_t *remote_word) { __atomic_store_n(remote_word, 0u, __ATOMIC_RELEASE); }

// The AMOs' read-modify-writes: a sequentially consistent one is one AMO with both aq and rl (the ISA manual's
// mapping, "Linux mappings" / Table A.6: amo<op>.aqrl; lr.aqrl, sc.rl for compare-and-swap). GCC 12 puts a
// `fence iorw,ow` before an amo<op>.aq instead: the same order, one instruction more on every AMO.
#define SHMEM_RV_AMO(insn)                                                                                   \
    if constexpr (sizeof(B) == 8)                                                                            \
        __asm__ volatile(insn ".d.aqrl %0, %2, (%1)" : "=r"(r) : "r"(w), "r"(v) : "memory");            \
    else                                                                                                     \
        __asm__ volatile(insn ".w.aqrl %0, %2, (%1)" : "=r"(r) : "r"(w), "r"(v) : "memory")
template <AmoOp op, class B>
[[gnu::always_inline]] inline B atomic_rmw(B *w, B v, B cond)
{
    B r;
    if constexpr (op == AmoOp::swap) {
        SHMEM_RV_AMO("amoswap");
    } else if constexpr (op == AmoOp::add) {
        SHMEM_RV_AMO("amoadd");
    } else if constexpr (op == AmoOp::and_) {
        SHMEM_RV_AMO("amoand");
    } else if constexpr (op == AmoOp::or_) {
        SHMEM_RV_AMO("amoor");
    } else if constexpr (op == AmoOp::xor_) {
        SHMEM_RV_AMO("amoxor");
    } else {
        static_assert(op == AmoOp::cswap);
        // lr.w sign-extends the word it loads, so the 4-byte compare is against cond sign-extended too.
        const int64_t c = sizeof(B) == 8 ? int64_t(cond) : int64_t(int32_t(uint32_t(cond)));
        int64_t old;
        long fail;
        if constexpr (sizeof(B) == 8)
            __asm__ volatile("1: lr.d.aqrl %0, %2\n\tbne %0, %3, 2f\n\tsc.d.rl %1, %4, %2\n\tbnez %1, 1b\n2:"
                             : "=&r"(old), "=&r"(fail), "+A"(*w) : "r"(c), "r"(v) : "memory");
        else
            __asm__ volatile("1: lr.w.aqrl %0, %2\n\tbne %0, %3, 2f\n\tsc.w.rl %1, %4, %2\n\tbnez %1, 1b\n2:"
                             : "=&r"(old), "=&r"(fail), "+A"(*w) : "r"(c), "r"(v) : "memory");
        r = B(old);
    }
    return r;
}
#undef SHMEM_RV_AMO

inline uint64_t cycles()
{
    uint64_t c;
    __asm__ volatile("rdcycle %0" : "=r"(c));
    return c;
}

// ---- sleeping and waking --------------------------------------------------------------------------------
//
// A waiting PE never spins (DESIGN §4): it sleeps in `wfi` until its software interrupt is raised or a backstop
// timer fires. The protocol that makes a wake-up impossible to lose:
//   waiter:  sleeping = 1; fence; loop { clear SSIP; fence; if (done()) break; arm timer; wfi }; sleeping = 0
//   writer:  store the data; fence; if (sleeping on the target) raise the target's SSIP
// If the waiter's check misses the data, the data store is ordered after the check, so the writer's read of
// `sleeping` comes after `sleeping = 1` and it raises SSIP after the waiter cleared it: wfi falls through.
// The timer backstop (1 ms of mtime) covers writers outside the library, e.g. plain stores through shmem_ptr.
//
// The software interrupt is the supervisor one (mip.SSIP), raised through the ACLINT's SSWI device (oshrun runs
// QEMU's virt with aclint=on) and cleared by the hart itself with a CSR instruction: mip.SSIP is writable from
// machine mode. With the machine-mode one (CLINT msip) the clear was a device store too, and QEMU 7.2 pays for
// every device store of a hart in a TB with a retranslation round trip and a walk of its CPU list to the hart:
// at 512 PEs that was a quarter of a barrier's host time. Nothing takes the interrupt (mstatus.MIE = 0, and
// interrupts are never delegated): it only ends a wfi, through mie.SSIE.

namespace clint {
// A store of 1 raises the hart's mip.SSIP (the ACLINT SSWI's SETSSIP register; a store of 0 does nothing).
inline volatile uint32_t *setssip(int hart)
{
    return reinterpret_cast<volatile uint32_t *>(uintptr_t(0x2f00000) + 4 * uintptr_t(hart));
}
inline volatile uint64_t *mtimecmp(int hart)
{
    return reinterpret_cast<volatile uint64_t *>(0x2004000u + 8u * hart);
}
inline volatile uint64_t *mtime() { return reinterpret_cast<volatile uint64_t *>(0x200bff8u); }
inline constexpr uint64_t ticks_per_second = 10000000;  // mtime runs at 10 MHz
inline constexpr uint64_t backstop_ticks = 10000;  // 1 ms at 10 MHz
}  // namespace clint

// Wall-clock time (CLOCK_REALTIME, gettimeofday, time), nanoseconds since the epoch. Only QEMU's virt has this
// device at this address: a board port gives 0 here (or its own RTC).
// A read of the low word latches the high word, and the latch is the device's, shared by every hart: another hart's
// low read between ours and our high read re-latches it, later. That later high word differs from ours only if the
// low word wrapped in between (every 2^32 ns), and then a second low read is below the first: read again.
inline uint64_t rtc_ns()
{
    volatile uint32_t *rtc = reinterpret_cast<volatile uint32_t *>(0x101000u);
    for (;;) {
        const uint32_t lo = rtc[0];
        const uint32_t hi = rtc[1];
        if (rtc[0] >= lo) return uint64_t(hi) << 32 | lo;
    }
}

// Raise PE `pe`'s software interrupt unconditionally.
inline void wake(int pe) { *clint::setssip(pe) = 1; }
// Lower this PE's own software interrupt (mip.SSIP), so that the next wfi waits.
[[gnu::always_inline]] inline void clear_wake() { __asm__ volatile("csrci mip, 2" ::: "memory"); }

// The stack's guard is a PMP region (crt/virt-rv64), which traps at once: check_stack has nothing to check.

// A PE's end seen by the others' waits (port.hpp, ends_observed, ends_seen_on_wake): finish(0) announces it, and
// its wake-up is the target's timer interrupt, made pending by a store of 0 to the target's mtimecmp. Unlike SSIP,
// which every wait clears before it sleeps, it stays pending: the invariant is that once an end has been announced
// to a PE (peer_ended != 0), its mtimecmp is 0 whenever no wait_until has it armed for a backstop (disarm_timer).
// So every wfi of a wait falls through until a look after it sees the end (end_seen), a wait that begins after the
// end included, and no wait looks before it sleeps: while no PE has ended, nothing of this is on any wait's way.
// After an end, the library's waits finish in wait_ended, whose waits are wait_until's (woken by their writers,
// and by the backstop at least once a millisecond).
// In the builds with checks only: the call out of a wait's loop to finish it (end_seen) makes GCC keep the loop's
// values in saved registers, a stack frame in every collective with a wait (Release at 16 PEs: the dissemination
// barrier 1157 -> 1307 instructions, broadcast 8 B 1125 -> 1228, sum_reduce 1180 -> 1290, past issue 16's goals).
inline constexpr bool ends_observed = SHMEM_CHECKS != 0;
inline constexpr bool ends_seen_on_wake = true;
inline void notify_end(int pe)
{
    fence();
    *clint::mtimecmp(pe) = 0;
}
// One tp-relative load for a wait's look, where the core's word needed its address worked out first (which GCC
// hoisted out of the waits' loops, onto every wait's way).
inline uint32_t *peer_ended_word() { return &geo().peer_ended; }
// This PE's timer disarmed: never (~0), or, once an end has been announced to it, 0 (pending: see above). The look at
// peer_ended comes after the store, fenced: an end announced at the same time either is seen by it, or its store of
// 0 comes after this one's ~0 (notify_end: the count, a fence, then its store).
inline void disarm_timer()
{
    volatile uint64_t *const cmp = clint::mtimecmp(geo().pe);
    *cmp = ~uint64_t(0);
    fence();
    if (__atomic_load_n(&geo().peer_ended, __ATOMIC_RELAXED) != 0) *cmp = 0;
}
inline unsigned end_grace_polls() { return unsigned(clint::ticks_per_second / clint::backstop_ticks); }

// The user's puts and AMOs notify their target, and the user's waits sleep (shmem::detail::wait_user_write):
// notify is a read of the target's `sleeping` word and, only for a sleeper, a wake-up.
inline constexpr bool user_writes_notify = true;
// A notify of this PE itself is harmless: its `sleeping` word is 0 while it runs (set only inside a wait, whose
// done() writes nothing), and a wake-up would only make its next wfi return early. So the core notifies without
// testing pe != me (notify_self_harmless), which saves the test on every remote put and AMO.
inline constexpr bool notify_self_harmless = true;

// A wake-up worked out in advance: the target's `sleeping` word and its SETSSIP register. Worked out before the store
// (or the AMO) it follows: the fence (the AMO) after it makes the compiler load the geometry again, and here the
// address is the remote address's own displacement (pe - me) << log2, added to &geo().sleeping, which is tp plus
// a constant: one add, and the offset goes into the load.
struct Waker {
    const uint32_t *sleeping;
    volatile uint32_t *ssip;  // the target's SETSSIP: the wake-up itself is one store
};
[[gnu::always_inline]] inline Waker waker(int pe) { return {remote_ptr(&geo().sleeping, pe), clint::setssip(pe)}; }
// The partitions are equal and in PE order (has_pe_step), and so are the SETSSIP registers of their harts.
inline constexpr bool has_pe_step = true;
inline uintptr_t pe_step() { return uintptr_t(1) << geo().log2; }
[[gnu::always_inline]] inline Waker waker_step(Waker w, int k, uintptr_t bytes)
{
    return {reinterpret_cast<const uint32_t *>(reinterpret_cast<uintptr_t>(w.sleeping) + bytes), w.ssip + k};
}

// After the library wrote into a PE's memory (a store): fence, then wake it if it sleeps. Always inline: it is on
// every put's path.
[[gnu::always_inline]] inline void notify(Waker w)
{
    fence();
    if (__atomic_load_n(w.sleeping, __ATOMIC_RELAXED) != 0) *w.ssip = 1;
}
[[gnu::always_inline]] inline void notify(int pe) { notify(waker(pe)); }

// After a native atomic on the PE's memory: no fence. GCC's AMOs carry .aq (RVWMO: no later access of this hart
// is ordered before an AMO with .aq, its store included), so the read of `sleeping` already comes after the write.
[[gnu::always_inline]] inline void notify_after_rmw(Waker w)
{
    if (__atomic_load_n(w.sleeping, __ATOMIC_RELAXED) != 0) *w.ssip = 1;
}
[[gnu::always_inline]] inline void notify_after_rmw(int pe) { notify_after_rmw(waker(pe)); }

// The writer's side of wait_notified: after the store that ends the wait, fence and raise the PE's SSIP whether
// it sleeps or not. Its wait keeps no `sleeping` word, and a stray wake-up only ends a wfi early: one store where
// notify reads `sleeping` and branches, and the waiter saves three stores and a load per wait.
[[gnu::always_inline]] inline void notify_waiter(Waker w)
{
    fence();
    *w.ssip = 1;
}

// After a wait that a PE's end finished (end_seen): the timer disarmed, which keeps the end's wake-up pending.
inline void end_taken() { disarm_timer(); }

// Sleep until done() is true. done() reads memory that another PE writes and then notifies us about.
// `sleeping` is written by its PE only (volatile: one store, where GCC 12 makes an atomic store of a word an AMO).
inline volatile uint32_t &my_sleeping() { return *const_cast<volatile uint32_t *>(&geo().sleeping); }

// The backstop timer is armed before each wfi: a user may write through shmem_ptr, which notifies nobody.
template <class Done>
inline void wait_until(Done done)
{
    if (done()) return;
    // A wait may nest (done() may itself wait, e.g. for a TESTSET lock): restore the outer wait's flag.
    const uint32_t outer = my_sleeping();
    my_sleeping() = 1;
    for (bool woke = false;; woke = true) {
        clear_wake();
        fence();
        if (done()) break;
        if (woke && detail::end_seen(done)) break;  // (a wait of the library's: a PE ended, and the wait is over)
        *clint::mtimecmp(geo().pe) = *clint::mtime() + clint::backstop_ticks;
        __asm__ volatile("wfi" ::: "memory");
    }
    my_sleeping() = outer;
    if (outer == 0) disarm_timer();
}
// A wait whose every writer wakes it after its write with notify_waiter (the library's collective flags, the
// dissemination barrier's rounds): no backstop timer, which only writers outside the library need (arming it cost
// every sleep an mtime read and an mtimecmp store, disarming another store, and QEMU a timer insert), and no
// `sleeping` word, since its writers raise SSIP whatever it does. SSIP is cleared before each look at done() that
// a wfi follows: a writer's store is seen by that look, or its SSIP comes after the clear and ends the wfi.
// After a wake-up it looks first, and clears SSIP and fences only if it must sleep again: most wake-ups are the
// writer's, whose store is there by then. A look that misses only costs a round; SSIP left raised when it returns
// costs nothing, since every wait clears SSIP before it sleeps.
// Always inline: it is a few instructions, and GCC outlined it where a file has several (a call and a stack frame
// in every barrier round and collective message).
template <class Done>
[[gnu::always_inline]] inline void wait_notified(Done done)
{
    if (done()) return;
    for (;;) {
        clear_wake();
        fence();
        if (done()) return;
        __asm__ volatile("wfi" ::: "memory");
        if (done()) return;
        if (detail::end_seen(done)) return;
    }
}
// wait_notified for a PE that tells another it waits (arrive(), e.g. a flat sweep's arrival at its root) and is
// woken only after that, by notify_waiter: SSIP is cleared before the arrival, so the first wfi needs no look
// before it (it falls through if the wake-up came already), as in hw_barrier. arrive() must order the clear before
// its own write (an atomic with release: a `fence iorw,ow` before the AMO).
template <class Arrive, class Done>
[[gnu::always_inline]] inline void wait_notified_after(Arrive arrive, Done done)
{
    clear_wake();
    arrive();
    for (;;) {
        __asm__ volatile("wfi" ::: "memory");
        if (done()) return;
        if (detail::end_seen(done)) return;
        clear_wake();
        fence();
        if (done()) return;
    }
}

// The WAND-style barrier (hw_barrier, port.cpp) begins with a full fence (before its arrival): shmem_barrier_all's
// quiet() is that fence. Its word, used in PE 0's partition only: generation << 32 | PEs arrived.
inline constexpr bool hw_barrier_fences = true;
extern uint64_t barrier_word;

// ---- platform ---------------------------------------------------------------------------------------------

// The boot block carries oshrun's -x and SHMEM_* variables (getenv), and malloc's heap lies between the static data
// and the symmetric heap (linker/virt-rv64/shmem.ld).
inline constexpr bool has_environment = true;
inline constexpr bool has_private_heap = true;

// The console is a stream of records on the UART, which oshrun reassembles into each PE's stdout and stderr lines;
// console_write writes them under the machine-wide console lock (port.cpp). end_run's exit record (the status) is
// the last thing this PE writes on the console, under the lock, which it keeps; then the SiFive test device.
// console_write_early's bytes are raw, and oshrun passes them on. stdout and stderr are line-buffered per PE
// (crt.cpp), which flush_console ends.
void flush_console();
void console_write_early(const char *buf, size_t n);
void console_release_if_mine();

// end_run for the startup code before the machine is set up (no geometry, no lock): the exit record is written
// without the lock, with the hart id as its PE number.
[[noreturn]] void end_run_early(int status);

}  // namespace shmem::port

// The Epiphany port: Epiphany-III (16 cores) and -IV (64 cores), one core per PE, bare metal.
//
// Hardware facts this file relies on (Epiphany Architecture Reference, rev 14.03):
//  - Every core has 32 KB of SRAM at local 0x0000-0x7fff and memory-mapped registers at local 0xf0000-0xf0fff;
//    both are visible to every core at the global address (coreid << 20) | local, coreid = row << 6 | col.
//  - The mesh delivers the writes of one core to one destination in the order they were issued; reads are
//    round trips. Writes to different destinations may arrive in any order.
//  - TESTSET rd, [rn, rm] on a global address: if the word is 0 it becomes rd; rd gets the old word, atomically
//    at the target.
//  - Writing a bit to a core's ILATST register latches that interrupt on it (the "user" interrupt, bit 9, is
//    free for software). IDLE sleeps until an interrupt is latched.
//  - CTIMER0/1 count down while their CONFIG field selects clock cycles; reaching 0 latches the timer interrupt.
//  - No hardware atomics other than TESTSET, no integer divide, no caches.
//
// The hooks' contract is shmem/src/port.hpp, which includes this file; the defaults it gives serve this port for
// the atomics (TESTSET only: every AMO takes a TESTSET lock), the inline small copy (none), the message network
// (none: the shmemx channels run over shared memory) and the wake-ups (notify_after_rmw and notify_waiter are
// notify; wait_notified_after is the arrival, then wait_notified; no stepping through the PEs' copies).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "boot_block.h"
#include "shmem_chip.h"

extern "C" char __heap_end[];  // the symmetric heap's end, the stack's lowest word (linker/epiphany/sections.ld)

namespace shmem::port {

inline constexpr bool has_hw_barrier = true;       // WAND (all cores of the chip must take part)
inline constexpr bool has_dma = true;              // two DMA channels per core
inline constexpr int max_pes = SHMEM_CHIP_MAX_PES;
inline constexpr int chip_cores = SHMEM_CHIP_ROWS * SHMEM_CHIP_COLS;

// Memory-mapped core registers (local addresses; OR a core's global base in for another core's).
namespace reg {
inline constexpr uintptr_t config = 0xf0400, status = 0xf0404, imask = 0xf0424, ilatst = 0xf042c,
                           ilatcl = 0xf0430, ctimer0 = 0xf0438, ctimer1 = 0xf043c, coreid = 0xf0704,
                           dma0config = 0xf0500, dma0status = 0xf051c, dma_stride = 0x20;
inline volatile uint32_t &at(uintptr_t a) { return *reinterpret_cast<volatile uint32_t *>(a); }
}  // namespace reg

// Interrupt numbers: ILAT/IMASK bit and IVT entry (entry n at local address 4n).
namespace irq {
inline constexpr unsigned sync = 0, sw_exception = 1, mem_fault = 2, timer0 = 3, timer1 = 4, message = 5,
                          dma0 = 6, dma1 = 7, wand = 8, user = 9;
// The interrupts a PE takes (crt/epiphany/crt.cpp sets IMASK from this): the sleep's backstop (timer 1), WAND, the
// cycle counter's wrap (timer 0), the faults, and IPI get requests if built in. The others are masked, and a
// masked interrupt that is latched ends every IDLE at once: every sleep clears them first (`masked`). The wake-up
// (user) is one of them: it only has to end IDLE, and a masked one costs no entry into the vector and no rti, at
// the wake-up or later for one that came while the waiter was polling.
inline constexpr uint32_t taken = (1u << timer0) | (1u << timer1) | (1u << wand) | (1u << sw_exception) |
                                  (1u << mem_fault) | (SHMEM_USE_IPI_GET ? 1u << message : 0u);
inline constexpr uint32_t masked = 0x3ffu & ~taken;
}

// Filled in by the startup code from the boot block and COREID before any constructor runs.
struct Geometry {
    uintptr_t base;      // 0: local addresses are what the program uses
    uintptr_t heap_lo;   // symmetric heap: [heap_lo, heap_hi), local addresses
    uintptr_t heap_hi;
    uintptr_t mailbox;   // global address of this PE's console mailbox in external DRAM
    int pe;
    int npes;
    uint32_t global[max_pes];  // global base (coreid << 20) of every PE's core
};
extern Geometry geometry;

// The library's static data (.data, .bss) and the copy (.text.local) are in local memory in both layouts
// (linker/epiphany/sections.ld): below 32 KB, an address that one mov makes. GCC, which cannot know it, adds a movt
// (4 bytes) to every address it makes; near(x) makes x's in the mov alone (the port contract's near, port.hpp).
template <class T>
[[gnu::always_inline]] inline T &near(T &x)
{
    T *p;
    __asm__("mov %0, %%low(%1)" : "=r"(p) : "i"(&x));
    return *p;
}

inline int my_pe() { return near(geometry).pe; }
inline int n_pes() { return near(geometry).npes; }

// The address of `local` in PE `pe`'s memory: one load and one OR (ARL's shift-and-OR with the shift done
// once at startup). A global address of this core's own memory is accepted too.
template <class T>
[[gnu::always_inline]] inline T *remote_ptr(T *local, int pe)
{
    // The low 20 bits by two shifts, in asm: GCC would turn them into an AND with 0xfffff, a constant to load
    // (mov, movt: 8 bytes, or a register held through a loop) wherever an address is made.
    uintptr_t a = reinterpret_cast<uintptr_t>(local);
    __asm__("lsl %0, %0, #12\n\tlsr %0, %0, #12" : "+r"(a) : : "cc1");
    return reinterpret_cast<T *>(a | near(geometry).global[pe]);
}

// The global form of an address: this core's local addresses get its own global base; global addresses (other
// cores, external DRAM) are returned as they are. TESTSET and DMA need global addresses.
inline uintptr_t global_address(uintptr_t a) { return (a >> 20) == 0 ? a | geometry.global[geometry.pe] : a; }

// The hand-written copy (copy.S): a leaf without a frame, the hardware loop for the bulk. Remote stores are
// posted (a put costs what the local loads cost); remote loads are round trips, so get is several times slower
// per byte. With SHMEM_USE_IPI_GET, a large get asks the owner to put instead (get_bytes, port.cpp).
// long_call: it stays in local memory when the rest of the code is in DRAM (the library is built -mshort-calls);
// called through near(), which makes its address in one mov where a long_call takes a mov and a movt. A C call, so
// that a put or get that ends with it jumps to it (a tail call, no frame); the assembly sweep (port.cpp) calls it
// knowing what it clobbers (r0-r3, r12, r16-r25, lr).
extern "C" [[gnu::long_call]] void shmem_port_copy(void *dst, const void *src, size_t n);
[[gnu::always_inline]] inline void put_bytes(void *dst_remote, const void *src, size_t n)
{
    near(shmem_port_copy)(dst_remote, src, n);
}
#if !SHMEM_USE_IPI_GET
[[gnu::always_inline]] inline void get_bytes(void *dst, const void *src_remote, size_t n)
{
    near(shmem_port_copy)(dst, src_remote, n);
}
#endif

// Ordering. One core's writes to one destination arrive in order, so a put followed by a flag to the same PE
// needs nothing; the compiler must still not reorder them.
inline void fence() { __asm__ volatile("" ::: "memory"); }

// Waits for this core's DMA channels; every store the core issued itself is on its way in order. dma_started has
// the bit of each channel dma_copy started since its last wait (bit 0: DMA0, bit 1: DMA1), so that a quiet with no
// DMA in flight (every barrier's) is a load and a branch, not two polls of the channels' status registers.
extern uint32_t dma_started;
void wait_dma(unsigned channels);
[[gnu::always_inline]] inline void quiet()
{
    if (near(dma_started) != 0) wait_dma(3);
    fence();
}

// TESTSET needs a global address, even for this core's own word.
inline bool test_and_set(uint32_t *remote_word)
{
    uint32_t v = 1;
    auto *w = reinterpret_cast<uint32_t *>(global_address(reinterpret_cast<uintptr_t>(remote_word)));
    __asm__ volatile("testset %0, [%1, %2]" : "+r"(v) : "r"(w), "r"(0) : "memory");
    return v != 0;
}
inline void clear(uint32_t *remote_word)
{
    fence();
    *reinterpret_cast<volatile uint32_t *>(remote_word) = 0;
}

// Clock cycles since startup: CTIMER0 counts down from 0xffffffff, and its interrupt (crt/epiphany/start.S)
// starts it again and counts the wraps in shmem_cycles_hi. A wrap between the two reads of the high word makes
// the loop read again; while the interrupt is pending (interrupts disabled), the low word stays at 0xffffffff.
extern "C" volatile uint32_t shmem_cycles_hi;
inline uint64_t cycles()
{
    uint32_t hi, lo;
    do {
        hi = shmem_cycles_hi;
        lo = ~reg::at(reg::ctimer0);
    } while (hi != shmem_cycles_hi);
    return uint64_t(hi) << 32 | lo;
}
// The core clock the Parallella runs its Epiphany at (E16G301: up to 1 GHz; the board sets 600 MHz): what
// clock_gettime, gettimeofday and clock convert cycles() with (crt/epiphany/crt.cpp).
inline constexpr uint32_t clock_hz = 600000000;

// ---- sleeping and waking --------------------------------------------------------------------------------
//
// The library's own waits (barrier rounds, collective flags, locks, channels, an IPI get) sleep in IDLE
// (DESIGN §4). On the E16/E64, IDLE returns as soon as any interrupt is latched in ILAT, whatever GID and IMASK say
// (the reference's IDLE pseudocode; esim instead idles like the Epiphany-V, until an interrupt is taken). Writers
// store the data and then latch the (masked) user interrupt on the target: both are writes from one core to one
// core, so the data is there when the target wakes. A waiter clears the masked latches, then checks, then idles:
// a wake-up that comes after the clear is latched and ends IDLE, and one that came before it came after its data,
// which the check then sees, so none is lost. CTIMER1 is the backstop (~1 ms) for the one waiter no writer wakes:
// a PE sleeping for an AMO's lock stripe whose "waiter" hint another sleeper overwrote (shmem/src/amo.cpp).
//
// The user's puts, p, iput and AMOs do not wake anybody (user_writes_notify = false): a wake-up is a second mesh
// transaction and an interrupt on a core that may be busy. The user's waits (shmem_wait_until and the rest) poll
// their own SRAM instead, which costs the mesh nothing (shmem::detail::wait_user_write).

inline constexpr uint32_t backstop_cycles = 600000;  // 1 ms at 600 MHz

inline void wake(int pe)
{
    fence();
    reg::at(geometry.global[pe] | reg::ilatst) = 1u << irq::user;
}
inline void notify(int pe) { wake(pe); }
// A wake-up worked out in advance (the barrier's rounds): the address of the PE's ILATST register. notify raises
// the interrupt whatever the PE does, so it is notify_waiter too.
using Waker = volatile uint32_t *;
inline Waker waker(int pe) { return &reg::at(geometry.global[pe] | reg::ilatst); }
inline void notify(Waker w)
{
    fence();
    *w = 1u << irq::user;
}

// The stack guard's check: at every barrier (sync_all, group_barrier) and at the end of the run; a core has no
// memory protection. Inline, a load, a compare and a branch (not a call: the report never returns, and a call would
// make every caller save its link register); the report (port.cpp) out of line. (Not in every wait: each sleeping
// wait is inlined, and the checks would cost the budget programs some 80 B.)
extern "C" [[noreturn]] void shmem_stack_overflow();
[[gnu::always_inline]] inline void check_stack()
{
    uint32_t t;
    __asm__ volatile(
        "ldr %0, [%1]\n\t"
        "sub %0, %0, %2\n\t"
        "bne.l _shmem_stack_overflow"
        : "=&r"(t)
        : "r"(__heap_end), "i"(SHMEM_EP_STACK_GUARD)
        : "cc1", "memory");
}

// Clears the latched interrupts this PE never takes, so that IDLE sleeps: a SYNC that arrives after the core had
// already started (the host starts the cores one after another, and a PE's wake-up starts a core that has not had
// its SYNC yet), a CTIMER0 that ran out. Left latched, each would end every IDLE at once: every sleep a busy loop.
[[gnu::always_inline]] inline void clear_masked_irqs()
{
    __asm__ volatile("movts ilatcl, %0" ::"r"(irq::masked) : "memory");
}

// The sleep itself (the masked latches cleared and the condition checked since): arms the backstop (unless Backstop
// is false) and idles. One asm statement that makes its own constants, so that the compiler does not keep them in
// registers through the caller's loop (or load them before it) for a path that is taken only to sleep.
template <bool Backstop>
[[gnu::always_inline]] inline void idle_once()
{
    if constexpr (Backstop) {
        uint32_t a, v;
        __asm__ volatile(
            "mov %0, %%low(%2)\n\t"
            "movt %0, %%high(%2)\n\t"
            "mov %1, %%low(%3)\n\t"
            "movt %1, %%high(%3)\n\t"
            "str %1, [%0]\n\t"
            "idle"
            : "=&r"(a), "=&r"(v)
            : "i"(reg::ctimer1), "i"(backstop_cycles)
            : "memory");
    } else {
        __asm__ volatile("idle" ::: "memory");
    }
}
// Interrupts stay enabled: the one a wait sleeps for is masked, and no handler it takes changes what it waits for
// (the WAND barrier, whose handler does, is the port's assembly, which disables them around its sleep).
template <bool Backstop = true, class Done>
inline void wait_until(Done done)
{
    for (;;) {
        clear_masked_irqs();
        if (done()) break;
        idle_once<Backstop>();
    }
}
// A wait whose every writer notifies after its write (the library's collective flags: a release store, then
// ILATST, in order to one destination): the wake-up cannot be missed, so the sleep arms no backstop (18 B less at
// each such wait).
template <class Done>
inline void wait_notified(Done done)
{
    wait_until<false>(done);
}
// A multiply is a floating-point-unit mode switch (some 40 bytes wherever it is written).
inline constexpr bool has_int_multiply = false;

// The barrier of the whole run (own_barrier_world): the port's own, in assembly (port.cpp), since a core's budget
// counts every byte. kind: 0 the build's choice (SHMEM_BARRIER; with auto, WAND when the run has every core of the
// chip), 1 WAND, 2 dissemination (shmem/src/internal.hpp). Both algorithms share one sleeping wait: the WAND
// interrupt handler (crt/epiphany/start.S) counts completed WAND barriers in shmem_wand[0], and the barrier waits
// for that count as a dissemination round waits for its flag. The dissemination rounds' partners are a table the
// loader fills (boot_block.h). It checks the stack guard first. barrier_all is quiet() (this core's DMA) and kind 0
// in the same code: shmem_barrier_all is a branch to it.
inline constexpr bool own_barrier_world = true;
// Rounds of a dissemination barrier or a tree over max_pes PEs: ceil(log2(max_pes)), at least 1.
inline constexpr int barrier_rounds = max_pes > 1 ? 32 - __builtin_clz(uint32_t(max_pes - 1)) : 1;
// The collective engine's sweep (shmem/src/coll_sweep.cpp, sweep: the binomial tree up and down, with a
// reduction's chunks and its combine calls) in assembly (own_sweep), for the same reason: GCC's, with its send and
// wait, is 696 B, this one 564. It reads the core's Group and Sweep at these byte offsets and uses these flag
// indices; coll_sweep.cpp checks them against its own definitions.
inline constexpr bool own_sweep = true;
struct SweepLayout {
    static constexpr int g_start = 0, g_stride = 4, g_size = 8, g_rank = 12, g_flags = 16, g_work = 20,
                         g_work_bytes = 24;
    static constexpr int s_dest = 0, s_source = 4, s_bytes = 8, s_elem_shift = 12, s_combine = 16;
    static constexpr int flag_tree = 0, flag_release = barrier_rounds;
};

// The WAND barrier (has_hw_barrier): every core of the chip executes WAND; when all have, the WAND interrupt
// is latched on all of them. Only usable when the run has every core of the chip (checked by the caller).
inline void hw_barrier() { barrier_world(1); }
// It orders nothing (hw_barrier_fences is false): shmem_barrier_all does quiet() (the DMA) first.
inline bool hw_barrier_usable() { return near(geometry).npes == chip_cores; }
inline constexpr const char hw_barrier_needs[] = "every core of the chip (" SHMEM_CHIP_NAME ")";

// A PE's end seen by the others' waits (port.hpp, ends_observed), in the builds with checks: finish(0) announces
// it (shmem::detail::announce_end adds to the PE's shmemi_peer_ended, then notify_end latches its user interrupt:
// two writes from one core to one core, in order), and every wait that sleeps looks at shmemi_peer_ended after the
// check that found it not done: the core's waits in their done() (library_wait), the assembly barrier and sweep
// (port.cpp) where they would sleep, calling the core to finish the wait. The MinSizeRel build (the 32 KB
// budgets) has none of it: there, such a run waits until oshrun's --timeout.
inline constexpr bool ends_observed = SHMEM_CHECKS != 0;
inline void notify_end(int pe) { wake(pe); }
// wait_until's backstop wakes it once per backstop_cycles; a core's clock is clock_hz.
inline unsigned end_grace_polls() { return clock_hz / backstop_cycles; }

// ---- platform ---------------------------------------------------------------------------------------------

// No environment (has_environment: the boot block has no room for one): SHMEM_VERSION/INFO/DEBUG compile away. No
// private heap either (has_private_heap): malloc has nothing to give (crt/epiphany/crt.cpp, _sbrk), so static data
// and the symmetric heap are all there is, and they touch. shmem_malloc's blocks keep the default alignment
// (heap_alignment): every byte of 32 KB counts.

// Console records go to this PE's mailbox ring in shared DRAM (port.cpp, crt/common/console_ring.hpp); the host
// reassembles and prints whole lines per PE and stream. The ring is this PE's own and buffers nothing: the
// defaults of console_write_early, flush_console and console_release_if_mine serve it.

// DMA (has_dma, dma_copy in port.cpp): wait_dma waits. The smallest _nbi transfer worth a channel (below it, the
// copy loop is done before a descriptor is written):
inline constexpr size_t dma_min = 64;
// shmem_ctx_quiet: only this context's channel.
inline void quiet_channel(unsigned ch)
{
    wait_dma(1u << ch);
    fence();
}

}  // namespace shmem::port

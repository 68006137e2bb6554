// The template port: what a new port copies (docs/porting.md). It builds with the host's compiler and runs one PE
// as an ordinary program (port/template/CMakeLists.txt), so that it, and the contract it follows, always compile.
//
// shmem/src/port.hpp is the contract: it includes this file (by include path: port/<port>/ is on the library's
// include path), declares the hooks a port defines out of line (port.cpp here), states every hook's invariant and
// gives every optional hook its default. A port defines the required hooks below and only the optional ones it
// has; each stub here says what a real port's does. Keep a port's comments to the facts of its hardware that its
// code relies on: the invariants are port.hpp's.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace shmem::port {

// ---- identity and addresses (required) ------------------------------------------------------------------------

// The most PEs a run can have (the chip's cores, the emulator's harts): it sizes the library's tables.
inline constexpr int max_pes = 1;

// Filled in by the startup code before any constructor runs (crt/<port>/crt.cpp, from the boot block the loader
// wrote); here constant (port.cpp). A real port adds what its fast paths need in one load (partition size, its
// base, the PE's wake-up words).
struct Geometry {
    uintptr_t base;     // this PE's partition base
    uintptr_t heap_lo;  // the symmetric heap: [heap_lo, heap_hi)
    uintptr_t heap_hi;
    int pe;
    int npes;
};
extern Geometry geometry;

inline int my_pe() { return geometry.pe; }
inline int n_pes() { return geometry.npes; }

// A real port: the address of `local` in PE pe's partition, a few instructions (an offset, a shift, an OR with a
// mesh coordinate). One PE: its own memory is all there is.
template <class T>
inline T *remote_ptr(T *local, int)
{
    return local;
}

// ---- copies (required) ------------------------------------------------------------------------------------------

// A real port: its copy loop, unrolled for its bus (port/virt-rv64/copy.S, port/epiphany/copy.S). Here the C
// library's; memmove, since a PE may put to itself, over itself.
inline void put_bytes(void *dst_remote, const void *src, size_t n) { __builtin_memmove(dst_remote, src, n); }
inline void get_bytes(void *dst, const void *src_remote, size_t n) { __builtin_memmove(dst, src_remote, n); }

// ---- ordering (required) ----------------------------------------------------------------------------------------

// A real port: the ISA's full fence (RISC-V `fence iorw, iorw`, TILE `mf`), or only a compiler barrier where the
// interconnect keeps one core's writes in order (Epiphany).
inline void fence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// A real port with DMA also waits for its channels here.
inline void quiet() { fence(); }

// ---- atomics ----------------------------------------------------------------------------------------------------

// Required: the ISA's test-and-set (Epiphany TESTSET, TILE tns) or an atomic exchange.
inline bool test_and_set(uint32_t *remote_word) { return __atomic_exchange_n(remote_word, 1u, __ATOMIC_ACQUIRE) != 0; }
inline void clear(uint32_t *remote_word) { __atomic_store_n(remote_word, 0u, __ATOMIC_RELEASE); }
// Optional (default false): the host's atomics work on the one PE's memory. A port whose compiler's __atomic
// sequences are not the best also defines atomic_rmw (port/virt-rv64).
inline constexpr bool has_native_atomics = true;

// ---- sleeping and waking (required) -----------------------------------------------------------------------------

// A real port sleeps until a writer's notify (an interrupt, an event, a message) or a backstop timer; it never
// spins unboundedly. One PE: whatever it waits for, it wrote itself before it waited.
template <class Done>
inline void wait_until(Done done)
{
    while (!done()) fence();
}
// A real port: fence, then wake PE pe if it sleeps. One PE: nobody sleeps.
inline void notify(int) { fence(); }

// ---- platform (required) ----------------------------------------------------------------------------------------

// A real port: its CPU's cycle counter (rdcycle, CTIMER0 and its wraps, SPR CYCLE). The template has none it can
// read on every host: time stands still.
inline uint64_t cycles() { return 0; }

// console_write, finish and end_run: port.cpp.

// ---- optional -----------------------------------------------------------------------------------------------------
//
// Everything else has a default in port.hpp, which is right for a port that lacks it. A port that has one of
// these defines the group: the flag true and its hooks (port.hpp says what each must do):
//  - has_copy_inline + copy_inline: small transfers inline on the put/get fast path (virt-rv64)
//  - Waker + waker + notify(Waker), notify_after_rmw, notify_waiter, wait_notified, wait_notified_after,
//    user_writes_notify, notify_self_harmless: cheaper wake-ups (virt-rv64, Epiphany)
//  - check_stack: a stack guard word where nothing traps on overflow (Epiphany, TILE)
//  - has_pe_step + pe_step + waker_step; has_int_multiply (false where a multiply is slow: Epiphany)
//  - near: the library's own data and code where a shorter address reaches them (Epiphany: one mov)
//  - has_hw_barrier + hw_barrier (+ hw_barrier_fences, hw_barrier_usable, hw_barrier_needs): a hardware barrier
//  - own_barrier_world + barrier_world, own_sweep + SweepLayout + sweep: the core's barrier and sweep in assembly
//  - has_dma + dma_min + dma_copy + quiet_channel: DMA channels for the _nbi transfers (Epiphany)
//  - has_msg_channel + msg_words + msg_budget + msg_fits + msg_send + msg_poll + set_msg_handler: a message
//    network for the shmemx channels (TILE's UDN)
//  - console_write_early, flush_console, console_release_if_mine: a console with a lock or buffered lines
//  - has_environment, has_private_heap, heap_alignment: what the PE's C runtime and memory map give

}  // namespace shmem::port

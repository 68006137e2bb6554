// The tile port: TILE-Gx (tilegx) and TILEPro (tilepro) bare metal, one tile per PE. BUILT, NEVER RUN: no emulator
// of either chip exists (docs/tile.md); everything below follows the ISA documents and GCC's and binutils' TILE
// back ends, and its target-independent parts (copy.hpp, udn.hpp) are unit-tested on the host.
//
// Hardware facts this file relies on (sources in docs/tile.md):
//  - All tiles share one coherent physical memory (hardware cache coherence, each line homed at one tile); the boot
//    firmware maps the run's memory one to one for every tile. A remote store is a store.
//  - `mf` waits until every earlier load and store of this tile is complete (visible to all tiles).
//  - TILE-Gx has 4- and 8-byte exch, cmpexch, fetchadd, fetchand, fetchor performed at the line's home; GCC 12
//    compiles __atomic_* to them. TILEPro has only `tns` (test and set: the word becomes 1, the old value is
//    returned), GCC compiles __atomic read-modify-writes on it to library calls (Linux's kernel helpers), so the
//    core's TESTSET path does every AMO there (has_native_atomics = false).
//  - The user dynamic network (UDN): a message is a header word naming the destination tile (and on TILEPro a tag
//    word), then its payload words, written to the `udn0` register (__tile_udn_send); the receiver reads its
//    queue 0..3 (__tile_udn0_receive ...), and a read of an empty queue stalls the tile until a word arrives:
//    a waiting tile sleeps in the read. Words from one tile to another arrive in order (dimension-order routing).
//    The program's protection level must have been granted the UDN (MPL_UDN_ACCESS, _AVAIL, _COMPLETE) and the
//    world SPRs (MPL_WORLD_ACCESS: the cycle counter) by the boot firmware (docs/tile.md).
//
// The hooks' contract is shmem/src/port.hpp, which includes this file; the defaults it gives serve this port for
// DMA (none: _nbi transfers complete before they return), the inline small copy (none), the wake-ups (a Waker is
// the PE number; wait_notified is wait_until and notify_waiter is notify, since every claim of a sleep must be
// exact; no stepping through the PEs' copies) and the core's own barrier of the whole run and sweep.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "boot_block.h"
#include "shmem_chip.h"
#include "udn.hpp"

namespace shmem::port {

// The copy's machine word: 8 bytes on TILE-Gx, 4 on TILEPro.
using word_t = uintptr_t;

inline constexpr bool has_native_atomics = SHMEM_CHIP_NATIVE_ATOMICS != 0;
inline constexpr bool has_hw_barrier = true;  // the UDN dissemination barrier (hw_barrier, port.cpp)
// The shmemx channels' data travel as UDN messages (has_msg_channel; the "channel messages" section below).
inline constexpr bool has_msg_channel = true;
inline constexpr int max_pes = SHMEM_CHIP_MAX_PES;
inline constexpr uint32_t clock_hz = SHMEM_CHIP_HZ;

// Filled in by the startup code from the boot block and SPR_TILE_COORD before any constructor runs.
struct Geometry {
    uintptr_t ram_base;    // partition base of PE 0
    uintptr_t mask;        // partition size - 1
    uintptr_t base;        // this PE's partition base
    uintptr_t heap_lo;     // symmetric heap: [heap_lo, heap_hi)
    uintptr_t heap_hi;
    uintptr_t stack_lo;    // the stack: [stack_lo, partition end); its lowest word is the guard
    uintptr_t awake_base;  // PE 0's address of `awake`: PE k's is this + (k << log2)
    uintptr_t mailbox;     // this PE's console mailbox (struct shmem_tile_mailbox)
    uint32_t log2;         // log2(partition size)
    int pe;
    int npes;
    udn::word udn_header[max_pes];  // the UDN header word that reaches PE k's tile (udn.hpp)
};
extern Geometry geometry;

inline int my_pe() { return geometry.pe; }
inline int n_pes() { return geometry.npes; }

inline uintptr_t partition_base(int pe) { return geometry.ram_base + (uintptr_t(pe) << geometry.log2); }

// The address of `local` (an address in this PE's partition) inside PE `pe`'s partition: a mask and an add.
template <class T>
inline T *remote_ptr(T *local, int pe)
{
    return reinterpret_cast<T *>((reinterpret_cast<uintptr_t>(local) & geometry.mask) + partition_base(pe));
}

extern "C" void shmem_port_copy(void *dst, const void *src, size_t n);  // copy.hpp, string.cpp

// Puts store into the other partition, gets load from it: the same copy loop.
inline void put_bytes(void *dst_remote, const void *src, size_t n) { shmem_port_copy(dst_remote, src, n); }
inline void get_bytes(void *dst, const void *src_remote, size_t n) { shmem_port_copy(dst, src_remote, n); }

// Orders every earlier memory access of this tile before every later one, and waits until the earlier stores
// are visible to every tile.
inline void fence() { __asm__ volatile("mf" ::: "memory"); }
// Puts are complete when their stores are visible: what `mf` waits for (no DMA).
inline void quiet() { fence(); }

// The word becomes nonzero (1); returns what it was. Atomic at the word's home tile; ordered as a full fence.
inline uint32_t swap_in_one(uint32_t *word)
{
#if SHMEM_CHIP_NATIVE_ATOMICS
    return __atomic_exchange_n(word, 1u, __ATOMIC_SEQ_CST);
#else
    fence();
    const uint32_t old = uint32_t(__insn_tns(word));
    fence();
    return old;
#endif
}

inline bool test_and_set(uint32_t *remote_word) { return swap_in_one(remote_word) != 0; }
inline void clear(uint32_t *remote_word)
{
    fence();
    __atomic_store_n(remote_word, 0u, __ATOMIC_RELAXED);
}

// The tile's cycle counter (SPR CYCLE: 64 bits on TILE-Gx; on TILEPro CYCLE_HIGH and CYCLE_LOW, read until the
// high word is the same before and after the low one).
inline uint64_t cycles()
{
#if defined(__tilegx__)
    return uint64_t(__insn_mfspr(SHMEM_CHIP_SPR_CYCLE));
#else
    for (;;) {
        const uint32_t hi = uint32_t(__insn_mfspr(SHMEM_CHIP_SPR_CYCLE_HIGH));
        const uint32_t lo = uint32_t(__insn_mfspr(SHMEM_CHIP_SPR_CYCLE_LOW));
        if (uint32_t(__insn_mfspr(SHMEM_CHIP_SPR_CYCLE_HIGH)) == hi) return uint64_t(hi) << 32 | lo;
    }
#endif
}

// ---- sleeping and waking: one UDN word ---------------------------------------------------------------------
//
// A waiting PE sleeps in a UDN receive on its queue 0 (the read stalls the tile until a word arrives), and a
// writer that finds it asleep sends it one word. There is no timer backstop, so no wake-up may be lost and no
// word may be left over (a stale word would end a later sleep early, harmlessly, but unbounded stale words would
// fill the queue and stall their senders). `awake` (symmetric, one per PE) makes it exact:
//   waiter:  loop { awake = 0; mf; if (done()) { if (swap_in_one(&awake) != 0) receive; break; } receive }
//   (udn::sleep_until; a channel message that ends the receive is not a claim, see there)
//   writer:  store the data; mf; if (target's awake == 0 && swap_in_one(&target's awake) == 0) send a word
// A writer that changes `awake` from 0 to 1 has claimed the sleep and owes exactly one word, which the waiter
// receives whether or not it still needs it; a writer that finds `awake` nonzero owes nothing, and its data is
// seen by the waiter's next done() (its store came before its look at `awake`, which came after the waiter's
// `awake = 0`; both sides have an mf between). So every claim is one word, every word is received, and the queue
// never holds more than one.
// A wait nested in done() (a TESTSET lock inside the condition, TILEPro) polls instead of sleeping: a nested
// sleep would change the outer one's `awake` under it.

extern uint32_t awake;    // 0: this PE sleeps (or is about to) in a receive, and no writer has claimed it yet
extern int wait_depth;    // waits in progress on this PE (0 or 1; a nested one polls)
extern udn::Inbox inbox;  // queue 0's words that arrived before they were waited for (udn.hpp)

// A word on queue 0 that is not libshmem's: a stray UDN message (another program's, or a wrong header). Reported
// with the word; the run ends.
[[noreturn]] void udn_stray_word(udn::word w);

// One payload word to PE pe's queue 0: the header, on TILEPro the tag, the word.
inline void udn_send(int pe, udn::word w)
{
    __tile_udn_send(geometry.udn_header[pe]);
    if constexpr (SHMEM_CHIP_UDN_TAG_WORD != 0) __tile_udn_send(udn::word(SHMEM_CHIP_UDN_TAG_WORD));
    __tile_udn_send(w);
}
inline udn::word udn_receive() { return udn::word(__tile_udn0_receive()); }

inline void send_wake(int pe) { udn_send(pe, udn::wake_word(unsigned(geometry.pe))); }
inline void receive_wake()
{
    if (!inbox.take_wake(udn_receive)) udn_stray_word(inbox.last);
}

// wait_until's sleep (udn::sleep_until) on the chip.
struct Sleeper {
    void clear_awake() { __atomic_store_n(&awake, 0u, __ATOMIC_RELAXED); }
    void fence() { port::fence(); }
    uint32_t claim_awake() { return swap_in_one(&awake); }
    bool claimed() { return __atomic_load_n(&awake, __ATOMIC_RELAXED) != 0; }
    udn::word receive() { return udn_receive(); }
};

inline uint32_t *awake_of(int pe)
{
    return reinterpret_cast<uint32_t *>(geometry.awake_base + (uintptr_t(pe) << geometry.log2));
}

// Called by the library after it wrote into PE `pe`'s memory.
inline void notify(int pe)
{
    fence();
    uint32_t *target = awake_of(pe);
    if (__atomic_load_n(target, __ATOMIC_RELAXED) == 0 && swap_in_one(target) == 0) send_wake(pe);
}

// The user's puts and AMOs write and nothing else, and the user's waits poll their own memory (user_writes_notify
// is false, as on Epiphany): a user may also write through shmem_ptr, which notifies nobody, and a sleep here has
// no backstop to end it.

// Sleep until done() is true. done() reads memory that another PE writes and then notifies us about.
template <class Done>
inline void wait_until(Done done)
{
    if (done()) return;
    if (wait_depth != 0) {
        while (!done()) fence();
        return;
    }
    wait_depth = 1;
    Sleeper s;
    if (!udn::sleep_until(s, inbox, done)) udn_stray_word(inbox.last);
    wait_depth = 0;
}

// ---- channel messages (has_msg_channel) ------------------------------------------------------------------
//
// The core's shmemx channels (shmem/src/channel.cpp) send each value as one UDN message to the receiver (udn.hpp:
// the channel's offset, then the value), which the receiver's port hands to the core's handler as it arrives: in
// any receive (a sleep, a barrier) or in msg_poll. The data never touch shared memory, and the message itself
// wakes a receiver asleep in a receive. Credits (the channel's slots) bound the messages in flight to a
// receiver; the core keeps their words within msg_budget per receiving PE, so that queue 0 never fills: a full
// queue would stall its senders in their sends, and two PEs stalled sending to each other would never receive
// again. Channels beyond the budget fall back to shared memory.

// Queue words one message occupies, and how many the channels into one PE may have in flight (shmem_chip.h).
inline constexpr unsigned msg_words = udn::message_words;
inline constexpr unsigned msg_budget = SHMEM_CHIP_UDN_CHANNEL_WORDS;
// A message names an object of this PE's partition by its offset (8-byte aligned, within the tag's range).
inline bool msg_fits(const void *object)
{
    return udn::channel_offset_fits(reinterpret_cast<uintptr_t>(object) & geometry.mask);
}
// set_msg_handler: port.cpp.

// Begins with mf (the channel's ordering rule).
inline void msg_send(int pe, const void *object, uint64_t value)
{
    fence();
    __tile_udn_send(geometry.udn_header[pe] + (udn::message_words - 1));  // the length is in the header's low bits
    if constexpr (SHMEM_CHIP_UDN_TAG_WORD != 0) __tile_udn_send(udn::word(SHMEM_CHIP_UDN_TAG_WORD));
    __tile_udn_send(udn::channel_word(reinterpret_cast<uintptr_t>(object) & geometry.mask));
    if constexpr (udn::value_words == 1) {
        __tile_udn_send(udn::word(value));
    } else {
        __tile_udn_send(udn::word(value));
        __tile_udn_send(udn::word(value >> 32));
    }
}

// Sorts in whatever queue 0 holds now, without waiting: channel messages are delivered, wake-ups and barrier
// rounds kept for their waits. UDN_DATA_AVAIL has a bit per queue that is set while the queue is not empty.
inline void msg_poll()
{
    while ((__insn_mfspr(SHMEM_CHIP_SPR_UDN_DATA_AVAIL) & 1) != 0)
        if (!inbox.put(udn_receive(), udn_receive)) udn_stray_word(inbox.last);
}

// The stack guard: no memory protection is set up, so a word at the stack's lowest address (crt.cpp sets it),
// checked at every barrier of the whole run and at the end.
[[noreturn]] void stack_overflow();
inline void check_stack()
{
    if (*reinterpret_cast<const volatile uint64_t *>(geometry.stack_lo) != SHMEM_TILE_STACK_GUARD) stack_overflow();
}

// The barrier of every PE over the UDN (has_hw_barrier): a dissemination barrier of one-word messages,
// ceil(log2 n) rounds, no shared memory touched (hw_barrier, port.cpp). It begins with mf (hw_barrier_fences).
inline constexpr bool hw_barrier_fences = true;

// ---- platform ---------------------------------------------------------------------------------------------

// The boot block carries oshrun's -x and SHMEM_* variables: getenv works.
inline constexpr bool has_environment = true;
// malloc's heap lies between static data and the symmetric heap (linker/tile/shmem.ld).
inline constexpr bool has_private_heap = true;
// The alignment of shmem_malloc's blocks: a cache line (64 bytes on both chips), so that blocks of different
// PEs' traffic never share one.
inline constexpr size_t heap_alignment = 64;

// The console: records in this PE's mailbox ring, which the host drains (port.cpp, crt/common/console_ring.hpp);
// the defaults of console_write_early and console_release_if_mine serve it. newlib buffers stdout by line
// (crt.cpp says the console is a terminal): flush_console writes out a partial line before a report that ends
// the run (crt.cpp).
void flush_console();

}  // namespace shmem::port

// The out-of-line part of the Epiphany port: console mailbox, ending a run, WAND, DMA.
#include <stddef.h>

#include "boot_block.h"
#include "console_ring.hpp"
#include "port.hpp"

namespace shmem::port {

Geometry geometry;


namespace {

volatile shmem_ep_mailbox *mailbox()
{
    return reinterpret_cast<volatile shmem_ep_mailbox *>(near(geometry).mailbox);
}

// Done: sleep for good, still serving interrupts (an IPI get from a PE that is not done yet). The timers stop:
// nothing waits for the backstop any more, and a simulator (esim) steps every cycle a timer counts, idle or not.
[[noreturn]] void park()
{
    reg::at(reg::config) = reg::at(reg::config) & ~0xff0u;
    for (;;) {
        clear_masked_irqs();
        __asm__ volatile("idle" ::: "memory");
    }
}

void post_state(uint32_t state, int status)
{
    volatile shmem_ep_mailbox *mb = mailbox();
    if (mb == nullptr) park();
    mb->status = uint32_t(status);
    mb->state = state;  // after status and every console byte: one destination, in order
}

}  // namespace

void console_write(char kind, const char *buf, size_t n)
{
    crt::ring_write<SHMEM_EP_MAILBOX_RING>(mailbox(), kind, buf, n);
}

void end_run(int status)
{
    check_stack();
    const uint32_t code = (status > 0 && status < 256) ? uint32_t(status) : (status == 0 ? 0u : 255u);
    quiet();
    post_state(SHMEM_EP_STATE_END, int(code));
    park();
}

// The stack guard (crt.cpp sets it) was overwritten (check_stack branches here): this PE's stack overflowed (or its
// heap ran into it). The run ends with the state that makes the host say so (the message would not fit a core);
// nothing after it is trusted.
extern "C" void shmem_stack_overflow()
{
    post_state(SHMEM_EP_STATE_STACK, 139);
    park();
}

void finish(int status)
{
    check_stack();
    if (status != 0) end_run(status);
    if constexpr (ends_observed) detail::announce_end();  // to the PEs that may still wait for this one
    quiet();
    // Done, but the memory stays reachable: other PEs may still put to and get from this one.
    post_state(SHMEM_EP_STATE_DONE, 0);
    park();
}

// ---- the barrier of the whole run ----------------------------------------------------------------------
//
// Dissemination (shmem/src/sync.cpp has the same algorithm in C++ for the other ports): in round k, PE i writes
// its epoch into flag[k] of PE (i + 2^k) mod n, wakes it (ILATST, after the flag: one destination, in order) and
// sleeps until its own flag[k] reaches the epoch; ceil(log2 n) rounds. The partners are the loader's table
// (boot_block.h): a round loads its partner's ILATST and base as one pair, and a pair of zeros ends the rounds, so
// the code has neither the partner's arithmetic nor a count of rounds. A partner is at most one barrier ahead, so
// the signed difference flag - epoch >= 0 is exact, across the wrap too. WAND is one round of the same loop: the
// arrival (count it, execute WAND) instead of the store, the count of completed WAND barriers (the interrupt
// handler's, crt/epiphany/start.S) instead of the flag.
// The sleep arms no backstop (wait_until's does): every wake-up a barrier waits for is latched after what it waits
// for (the partner's ILATST after its flag; the WAND interrupt, whose handler counts), and IDLE ends on a latched
// interrupt whatever GID says (shmem_port.hpp), so none can be lost.
// Addresses in one mov: the data are in local memory (below 32 KB) in both layouts.
namespace {
uint32_t barrier_words[1 + barrier_rounds];  // the epoch, then a flag per round: one base address
}  // namespace
// Each round's partner, written by the loader (boot_block.h: SHMEM_EP_BARRIER_SECTION): (its ILATST, its global
// base), then zero pairs (at least the last).
extern "C" {
[[gnu::section(".bss.shmem_barrier")]] alignas(8) uint32_t shmem_ep_barrier_to[2 * (barrier_rounds + 1)];
}
static_assert(reg::ilatst == SHMEM_EP_ILATST, "the loader's ILATST");
extern "C" uint32_t shmem_wand[2];  // WAND barriers completed (the handler), begun (here): crt/epiphany/start.S

// ends_observed (shmem_port.hpp): where the barrier's wait and the sweep's would sleep, a non-zero
// shmemi_peer_ended sends them here, to finish the wait in the core (which returns once it is done, or reports it).
// The sweep keeps what it needs across the call in callee-saved registers it names; the barrier, code of its own,
// keeps it on the stack.
#if SHMEM_CHECKS
#define SHMEM_EP_ENDS(text) text
#define SHMEM_EP_ENDS_OPERANDS(fn) , [peer_ended] "i"(&shmemi_peer_ended), [ended] "i"(fn)
#define SHMEM_EP_SWEEP_CLOBBERS "r40", "r41",
#else
#define SHMEM_EP_ENDS(text)
#define SHMEM_EP_ENDS_OPERANDS(fn)
#define SHMEM_EP_SWEEP_CLOBBERS
#endif
#if SHMEM_CHECKS
namespace {
struct BarrierWait {
    const volatile uint32_t *flag;  // a round's flag, or the count of completed WAND barriers
    uint32_t target;                // the epoch, or the count that completes this barrier
};
bool barrier_done(const void *w)
{
    const auto *b = static_cast<const BarrierWait *>(w);
    return int32_t(*b->flag - b->target) >= 0;
}
[[gnu::cold]] void barrier_ended(const volatile uint32_t *flag, uint32_t target)
{
    const BarrierWait w{flag, target};
    detail::world_wait_ended(barrier_done, &w);
}
}  // namespace
#endif

// The polls of a library wait before it sleeps (the barrier's rounds, the sweep's flags): six instructions each. A
// partner a few cycles away is found without the sleep and the check after it; one that takes longer costs the wait
// these cycles and then sleeps as before. (A literal: the sweep's asm has no operand to spare.)
#define SHMEM_EP_SPIN "64"
// The code is emitted into a section of its own by this function's asm (the function itself is never called): it
// has entries of its own and returns by itself, which a function's inline asm may not (its `rts` would skip the
// epilogue GCC may add). Entries: barrier_all (quiet, then kind 0), barrier_world(kind).
#define SHMEM_EP_BARRIER_WORLD "__ZN5shmem4port13barrier_worldEi"
#define SHMEM_EP_BARRIER_ALL "__ZN5shmem4port11barrier_allEv"
[[gnu::used]] static void barrier_code()
{
    __asm__ volatile(
        ".pushsection .text.shmem_ep_barrier,\"ax\",@progbits\n\t"
        ".balign 4\n\t"
        ".global " SHMEM_EP_BARRIER_ALL "\n"
        SHMEM_EP_BARRIER_ALL ":\n\t"
        // quiet(): a DMA started since the last wait (dma_started) is waited for below; else r0 = 0, kind 0
        "mov r0, %%low(%[dma])\n\t"
        "ldr r0, [r0]\n\t"
        "sub r0, r0, #0\n\t"
        "bne 80f\n\t"
        ".global " SHMEM_EP_BARRIER_WORLD "\n"
        SHMEM_EP_BARRIER_WORLD ":\n\t"
        // the stack guard
        "mov r1, %%low(%[heap_end])\n\t"
        "ldr r1, [r1]\n\t"
        "sub r1, r1, %[guard]\n\t"
        "bne.l _shmem_stack_overflow\n\t"
#if SHMEM_BARRIER_AUTO
        "sub r1, r0, #0\n\t"  // the build's choice: WAND if the run has the whole chip
        "bne 0f\n\t"
        "mov r1, %%low(%[npes])\n\t"
        "ldr r1, [r1]\n\t"
        "sub r1, r1, %[cores]\n\t"
        "beq 1f\n\t"
#else
        "sub r1, r0, #1\n\t"
        "beq 1f\n\t"
#endif
        // dissemination: r0 = this round's flag, r1 = the epoch, r2 = the next round's pair, r16/r17 = this round's
        // (the partner's ILATST, its global base), r20 = the user interrupt
        "2: mov r0, %%low(%[words])\n\t"
        "ldr r1, [r0]\n\t"
        "add r1, r1, #1\n\t"
        "str r1, [r0], #1\n\t"
        "mov r20, %[user]\n\t"
        "mov r2, %%low(%[to])\n\t"
        "ldrd r16, [r2], #1\n\t"
        "3: orr r18, r0, r17\n\t"
        "str r1, [r18]\n\t"  // the flag, then the wake-up: back to back, to one destination, in order
        "str r20, [r16]\n\t"
        "mov r18, #" SHMEM_EP_SPIN "\n\t"
        // the wait: poll up to spin times; then sleep until an interrupt is latched, check again. The loop's way on
        // is the way without a taken branch (3 cycles each).
        "5: ldr r3, [r0]\n\t"
        "sub r3, r3, r1\n\t"
        "asr r3, r3, #31\n\t"
        "bne 51f\n\t"
        "6: ldrd r16, [r2], #1\n\t"
        "add r0, r0, #4\n\t"
        "sub r3, r16, #0\n\t"
        "bne 3b\n\t"
        "rts\n\t"
        "51: sub r18, r18, #1\n\t"
        "bgte 5b\n\t"
        SHMEM_EP_ENDS("mov r3, %%low(%[peer_ended])\n\t"
                      "ldr r3, [r3]\n\t"
                      "sub r3, r3, #0\n\t"
                      "bne 7f\n\t")
        // the sleep, with interrupts disabled (WAND's handler counts what its wait checks; the wake-up is masked):
        // clear the masked latches, check, idle; a WAND interrupt latched in IDLE is taken after it
        "gid\n\t"
        "mov r3, %[masked]\n\t"
        "movts ilatcl, r3\n\t"
        "ldr r3, [r0]\n\t"
        "sub r3, r3, r1\n\t"
        "asr r3, r3, #31\n\t"
        "beq 52f\n\t"
        "idle\n\t"
        "52: gie\n\t"
        "b 5b\n\t"
#if SHMEM_BARRIER_AUTO
        "0: sub r1, r0, #1\n\t"
        "bne 2b\n\t"
#endif
        // WAND: r0 = the count, r1 = the count that completes this barrier; r2 = the table's last pair (zeros), so
        // the loop ends after one wait
        "1: mov r0, %%low(%[wand])\n\t"
        "ldr r1, [r0, #1]\n\t"
        "add r1, r1, #1\n\t"
        "str r1, [r0, #1]\n\t"
        "wand\n\t"
        "mov r18, #" SHMEM_EP_SPIN "\n\t"  // the count is the handler's, which interrupts the polls
        "mov r2, %%low(%[to_end])\n\t"
        "b 5b\n\t"
        // barrier_all's quiet: wait for the DMA (wait_dma(3)), then kind 0
        "80: str lr, [sp], #-2\n\t"
        "mov r0, #3\n\t"
        "bl %[wait_dma]\n\t"
        "ldr lr, [sp, #2]\n\t"
        "add sp, sp, #8\n\t"
        "mov r0, #0\n\t"
        "b " SHMEM_EP_BARRIER_WORLD "\n\t"
        // a PE has ended: the core finishes the wait (flag r0, target r1), then on as if the check had passed
        SHMEM_EP_ENDS("7: sub sp, sp, #24\n\t"
                      "strd r0, [sp, #1]\n\t"
                      "str r2, [sp, #4]\n\t"
                      "str lr, [sp, #5]\n\t"
                      "mov r3, %%low(%[ended])\n\t"
                      "movt r3, %%high(%[ended])\n\t"
                      "jalr r3\n\t"
                      "ldrd r0, [sp, #1]\n\t"
                      "ldr r2, [sp, #4]\n\t"
                      "ldr lr, [sp, #5]\n\t"
                      "add sp, sp, #24\n\t"
                      "mov r20, %[user]\n\t"
                      "b 6b\n\t")
        ".popsection"
        :
        : [dma] "i"(&dma_started), [heap_end] "i"(__heap_end), [guard] "i"(SHMEM_EP_STACK_GUARD),
          [npes] "i"(&geometry.npes), [cores] "i"(chip_cores), [wand] "i"(shmem_wand), [words] "i"(barrier_words),
          [to] "i"(shmem_ep_barrier_to), [to_end] "i"(&shmem_ep_barrier_to[2 * barrier_rounds]),
          [user] "i"(1u << irq::user), [masked] "i"(irq::masked), [wait_dma] "i"(wait_dma)
          SHMEM_EP_ENDS_OPERANDS(barrier_ended));
}

// ---- the collective engine's sweep -------------------------------------------------------------------------
//
// shmem/src/coll_sweep.cpp's sweep (the algorithm, its invariants and why they hold are explained there), in
// assembly: the same binomial tree, messages and flags, so that it and the library's other collectives (which stay
// in C++) use a group's flags alike. The state lives in callee-saved registers (GCC saves the ones the asm names):
//   r4 group, r5 args, r6 v (rank relative to the root), r7 low (lowest set bit of v; n for the root), r8 n,
//   r9 root, r10 chunk, r32 dest, r33 from (what goes down), r34 m (this chunk's bytes), r35 up (bytes that go up:
//   m in a reduction, else 0), r36 flag, r37 slot, r38 d, r39 o (this chunk's offset), fp the flag that comes
//   down: flag_release after the arrivals, the tree's last flag where there are none (a broadcast to every core
//   of the chip, whose arrivals are the run's barrier; sweep_down_only's, coll.hpp).
// Two local subroutines: send (80: relative rank r0, dst r1, src r2, bytes r3, flag r16: the data, then the flag,
// then the wake-up, in order to one destination) and wait (90: flag r0: poll, then sleep, until it is raised;
// lower it). dst and the group's flags are symmetric, so local addresses: OR the PE's global base in and they are
// its.
// They keep what must survive the copy in r26, r27 and r44, which the copy does not touch (copy.S). The combine is a
// C function: everything it may clobber is named.
[[gnu::optimize("omit-frame-pointer")]] void sweep(const void *group, int root, const void *args)
{
    using L = SweepLayout;
    register const void *r0 __asm__("r0") = group;
    register int r1 __asm__("r1") = root;
    register const void *r2 __asm__("r2") = args;
    __asm__ volatile(
        "mov r4, r0\n\t"
        "mov r9, r1\n\t"
        "mov r5, r2\n\t"
        "ldr r8, [r4, %[g_size]]\n\t"
        "ldr r6, [r4, %[g_rank]]\n\t"
        "sub r6, r6, r9\n\t"  // v = rank - root, mod n
        "bgte 1f\n\t"
        "add r6, r6, r8\n\t"
        "1: mov r0, #0\n\t"  // low: v & -v, or n for the root
        "sub r0, r0, r6\n\t"
        "and r7, r0, r6\n\t"
        "bne 2f\n\t"
        "mov r7, r8\n\t"
        "2: ldr r10, [r5, %[s_bytes]]\n\t"  // chunk: all of it (a broadcast), or a reduction's slot
        "mov r11, %[flag_release]\n\t"
        "ldr r0, [r5, %[s_combine]]\n\t"
        "sub r0, r0, #0\n\t"
        "bne 20f\n\t"
        "ldr r0, [r5, %[s_elem_shift]]\n\t"  // a broadcast of the down half only (sweep_down_only)
        "sub r0, r0, #0\n\t"
        "bne 22f\n\t"
        // a broadcast to every core of the chip: the arrivals are the run's barrier, WAND
        "sub r1, r8, %[cores]\n\t"
        "bne 5f\n\t"
        "bl %[barrier]\n\t"  // r0 = 0: the build's barrier
        "21: mov r11, %[flag_last]\n\t"  // no arrivals: down on the tree's last flag
        "b 5f\n\t"
        // the down half only: low as the first power of two >= low, where the children's distances end (the
        // root's low is n; the others' are powers of two already)
        "22: mov r1, r7\n\t"
        "mov r7, #1\n\t"
        "23: sub r0, r7, r1\n\t"
        "bgte 21b\n\t"
        "lsl r7, r7, #1\n\t"
        "b 23b\n\t"
        // slots = ceil(log2 n), at least 1: float(n - 1)'s exponent less 126 (the FPU is in its float mode
        // outside a multiply's few instructions; small integers convert exactly)
        "20: sub r1, r8, #1\n\t"
        "float r1, r1\n\t"
        "lsr r1, r1, #23\n\t"
        "sub r1, r1, #126\n\t"
        "bgt 4f\n\t"
        "mov r1, #1\n\t"
        // the largest slot that fits, at least one element, and no larger than the first power of two >= bytes
        "4: ldr r2, [r5, %[s_elem_shift]]\n\t"
        "ldr r3, [r4, %[g_work_bytes]]\n\t"
        "sub r12, r10, #1\n\t"
        "41: lsr r0, r12, r2\n\t"
        "beq 42f\n\t"
        "add r0, r2, #1\n\t"
        "lsl r0, r1, r0\n\t"
        "sub r0, r0, r3\n\t"
        "bgtu 42f\n\t"
        "add r2, r2, #1\n\t"
        "b 41b\n\t"
        "42: mov r10, #1\n\t"
        "lsl r10, r10, r2\n\t"
        "5: mov r39, #0\n\t"
        // a chunk
        "10: ldr r0, [r5, %[s_bytes]]\n\t"
        "sub r34, r0, r39\n\t"
        "sub r0, r34, r10\n\t"
        "movgtu r34, r10\n\t"
        "ldr r32, [r5, %[s_dest]]\n\t"
        "add r32, r32, r39\n\t"
        "ldr r33, [r5, %[s_source]]\n\t"
        "add r33, r33, r39\n\t"
        "mov r35, #0\n\t"
        "ldr r0, [r5, %[s_combine]]\n\t"
        "sub r0, r0, #0\n\t"
        "beq 12f\n\t"
        "mov r35, r34\n\t"
        "lsl r0, r6, #31\n\t"  // an odd v has no children: its source goes up as it is
        "bne 12f\n\t"
        "mov r0, r32\n\t"  // a reduction starts from its own source, in dest (in place: a copy onto itself)
        "mov r1, r33\n\t"
        "mov r2, r34\n\t"
        "mov r3, %%low(%[copy])\n\t"
        "jalr r3\n\t"
        "mov r33, r32\n\t"
        // up: each child's arrival (and partial result, combined into dest), nearest first
        "12: mov r36, %[flag_tree]\n\t"
        "ldr r37, [r4, %[g_work]]\n\t"
        "mov r38, #1\n\t"
        "sub r0, r11, %[flag_release]\n\t"  // no arrivals to wait for: d = low (a power of two for the root too)
        "movne r38, r7\n\t"
        "bne 15f\n\t"
        "13: sub r0, r38, r7\n\t"
        "bgte 15f\n\t"
        "add r0, r6, r38\n\t"
        "sub r0, r0, r8\n\t"
        "bgte 14f\n\t"
        "mov r0, r36\n\t"
        "bl 90f\n\t"
        "sub r0, r35, #0\n\t"
        "beq 14f\n\t"
        "mov r0, r32\n\t"
        "mov r1, r37\n\t"
        "mov r2, r35\n\t"
        "ldr r3, [r5, %[s_combine]]\n\t"
        "jalr r3\n\t"
        "14: lsl r38, r38, #1\n\t"
        "add r36, r36, #1\n\t"
        "add r37, r37, r10\n\t"
        "b 13b\n\t"
        // to the parent (v - low): the partial result into the slot and flag of this rank's distance; then down
        "15: sub r0, r6, #0\n\t"
        "beq 16f\n\t"
        "sub r0, r11, %[flag_release]\n\t"
        "bne 151f\n\t"
        "sub r0, r6, r7\n\t"
        "mov r1, r37\n\t"
        "mov r2, r33\n\t"  // dest, or a leaf's source
        "mov r3, r35\n\t"
        "mov r16, r36\n\t"
        "bl 80f\n\t"
        "151: mov r0, r11\n\t"
        "bl 90f\n\t"
        "mov r33, r32\n\t"
        // down: to the children v + d (d below low, v + d below n), farthest first; d starts where the up loop
        // stopped (the first power of two >= low)
        "16: lsr r38, r38, #1\n\t"
        "beq 19f\n\t"
        "add r0, r6, r38\n\t"
        "sub r1, r0, r8\n\t"
        "bgte 16b\n\t"
        "mov r1, r32\n\t"
        "mov r2, r33\n\t"
        "mov r3, r34\n\t"
        "mov r16, r11\n\t"
        "bl 80f\n\t"
        "b 16b\n\t"
        "19: add r39, r39, r10\n\t"
        "ldr r0, [r5, %[s_bytes]]\n\t"
        "sub r0, r39, r0\n\t"
        "bltu 10b\n\t"
        "b 99f\n\t"
        // send: PE = start + ((r0 + root) mod n) * stride, by shifts and adds (no multiply; the stride may be
        // negative, the sum wraps to the right PE)
        "80: add r0, r0, r9\n\t"
        "sub r17, r0, r8\n\t"
        "movgte r0, r17\n\t"
        "ldr r17, [r4, %[g_stride]]\n\t"
        "ldr r18, [r4, %[g_start]]\n\t"
        "sub r19, r17, #1\n\t"
        "bne 81f\n\t"  // (a stride of 1 goes straight on)
        "add r18, r18, r0\n\t"
        "83: mov r17, %%low(%[global])\n\t"
        "lsl r18, r18, #2\n\t"
        "ldr r27, [r17, +r18]\n\t"
        "mov r26, lr\n\t"
        "mov r44, r16\n\t"
        "sub r3, r3, #0\n\t"
        "beq 84f\n\t"
        "orr r0, r1, r27\n\t"
        "mov r1, r2\n\t"
        "mov r2, r3\n\t"
        "mov r3, %%low(%[copy])\n\t"
        "jalr r3\n\t"
        "84: ldr r0, [r4, %[g_flags]]\n\t"
        "lsl r1, r44, #2\n\t"
        "add r0, r0, r1\n\t"
        "orr r0, r0, r27\n\t"
        "mov r2, %%low(%[ilatst])\n\t"
        "movt r2, %%high(%[ilatst])\n\t"
        "orr r2, r2, r27\n\t"
        "mov r1, #1\n\t"
        "lsl r3, r1, %[user_bit]\n\t"
        "str r1, [r0]\n\t"  // the flag, then the wake-up: back to back, to one destination, in order
        "str r3, [r2]\n\t"
        "jr r26\n\t"
        "81: sub r0, r0, #0\n\t"
        "beq 83b\n\t"
        "lsl r19, r0, #31\n\t"
        "beq 82f\n\t"
        "add r18, r18, r17\n\t"
        "82: lsr r0, r0, #1\n\t"
        "lsl r17, r17, #1\n\t"
        "b 81b\n\t"
        // wait: poll, then sleep, until this PE's flag r0 is raised (its writer wakes it after: no backstop); lower it
        "90: ldr r1, [r4, %[g_flags]]\n\t"
        "lsl r0, r0, #2\n\t"
        "add r0, r0, r1\n\t"
        "mov r2, #" SHMEM_EP_SPIN "\n\t"
        "91: ldr r1, [r0]\n\t"
        "sub r1, r1, #0\n\t"
        "bne 92f\n\t"
        "sub r2, r2, #1\n\t"
        "bgte 91b\n\t"
        SHMEM_EP_ENDS("mov r1, %%low(%[peer_ended])\n\t"
                      "ldr r1, [r1]\n\t"
                      "sub r1, r1, #0\n\t"
                      "bne 93f\n\t")
        "mov r1, %[masked]\n\t"  // the sleep: clear the masked latches (the wake-up among them), check, idle
        "movts ilatcl, r1\n\t"
        "ldr r1, [r0]\n\t"
        "sub r1, r1, #0\n\t"
        "bne 92f\n\t"
        "idle\n\t"
        "b 91b\n\t"
        "92: mov r1, #0\n\t"
        "str r1, [r0]\n\t"
        "rts\n\t"
        // a PE has ended: the core finishes the wait on the group's PEs (it returns once the flag is raised)
        SHMEM_EP_ENDS("93: mov r40, lr\n\t"
                      "mov r41, r0\n\t"
                      "mov r1, r0\n\t"
                      "mov r0, r4\n\t"
                      "mov r3, %%low(%[ended])\n\t"
                      "movt r3, %%high(%[ended])\n\t"
                      "jalr r3\n\t"
                      "mov lr, r40\n\t"
                      "mov r0, r41\n\t"
                      "b 92b\n\t")
        "99:"
        : "+r"(r0), "+r"(r1), "+r"(r2)
        : [g_start] "i"(L::g_start / 4), [g_stride] "i"(L::g_stride / 4), [g_size] "i"(L::g_size / 4),
          [g_rank] "i"(L::g_rank / 4), [g_flags] "i"(L::g_flags / 4), [g_work] "i"(L::g_work / 4),
          [g_work_bytes] "i"(L::g_work_bytes / 4), [s_dest] "i"(L::s_dest / 4), [s_source] "i"(L::s_source / 4),
          [s_bytes] "i"(L::s_bytes / 4), [s_elem_shift] "i"(L::s_elem_shift / 4), [s_combine] "i"(L::s_combine / 4),
          [flag_tree] "i"(L::flag_tree), [flag_release] "i"(L::flag_release), [flag_last] "i"(L::flag_release - 1), [copy] "i"(shmem_port_copy),
          [global] "i"(geometry.global), [ilatst] "i"(reg::ilatst), [user_bit] "i"(irq::user),
          [masked] "i"(irq::masked), [barrier] "i"(barrier_world),
          [cores] "i"(chip_cores)
          SHMEM_EP_ENDS_OPERANDS(detail::sweep_wait_ended)
        : SHMEM_EP_SWEEP_CLOBBERS "r3", "ip", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r16", "r17", "r18", "r19", "r20", "r21", "r22",
          "r23", "r24", "r25", "r26", "r27", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39", "fp", "r44", "r45",
          "r46", "r47", "r48", "r49", "r50", "r51", "r52", "r53", "r54", "r55", "r56", "r57", "r58", "r59", "r60",
          "r61", "r62", "r63", "lr", "cc1", "cc2", "memory");
}

// ---- DMA --------------------------------------------------------------------------------------------------
//
// Descriptor mode (the way e-lib starts a transfer; esim implements only this one): a 24-byte descriptor in
// local memory (config, inner strides, counts, outer strides, source, destination), then DMAnCONFIG =
// descriptor address << 16 | STARTUP. One descriptor moves up to 65535 elements of 1, 2, 4 or 8 bytes (the
// widest that src, dst and n allow); longer copies take several descriptors back to back.
// A channel's registers are 0x20 apart; DMAnSTATUS (register 7) is 0 when the channel is idle.

namespace {
struct alignas(8) DmaDescriptor {
    uint32_t config, inner_stride, count, outer_stride, src, dst;
};
DmaDescriptor descriptors[2];  // one per channel, reused once the channel is idle

volatile uint32_t *dma_regs(unsigned ch)
{
    return reinterpret_cast<volatile uint32_t *>(reg::dma0config + ch * reg::dma_stride);
}
bool dma_busy(unsigned ch) { return (dma_regs(ch)[7] & 0xf) != 0; }
}  // namespace

uint32_t dma_started;

void wait_dma(unsigned channels)
{
    // The channels are this core's own registers: polling them costs no mesh traffic.
    for (unsigned ch = 0; ch < 2; ++ch)
        if (channels & (1u << ch))
            while (dma_busy(ch)) {
            }
    dma_started &= ~channels;
}

void dma_copy(unsigned ch, void *dst, const void *src, size_t n)
{
    uintptr_t d = global_address(reinterpret_cast<uintptr_t>(dst));
    uintptr_t s = global_address(reinterpret_cast<uintptr_t>(src));
    const uintptr_t mix = d | s | n;
    const unsigned log2 = (mix & 7) == 0 ? 3 : (mix & 3) == 0 ? 2 : (mix & 1) == 0 ? 1 : 0;
    size_t elems = n >> log2;
    DmaDescriptor &desc = descriptors[ch];
    dma_started |= 1u << ch;
    while (elems != 0) {
        const uint32_t count = elems > 0xffff ? 0xffff : uint32_t(elems);
        while (dma_busy(ch)) {
        }
        desc.config = log2 << 5 | 0x3;                   // datasize, master, enable
        desc.inner_stride = (1u << log2) << 16 | (1u << log2);  // dst | src
        desc.count = 1u << 16 | count;                   // one outer round of `count` elements
        desc.outer_stride = 0;
        desc.src = s;
        desc.dst = d;
        fence();  // the descriptor is in memory before the channel reads it
        dma_regs(ch)[0] = uint32_t(reinterpret_cast<uintptr_t>(&desc)) << 16 | 0x8;  // STARTUP
        s += uintptr_t(count) << log2;
        d += uintptr_t(count) << log2;
        elems -= count;
    }
}

// ---- get ---------------------------------------------------------------------------------------------------
//
// Remote loads are round trips, so the copy loop moves bytes several times slower from another core than to
// it. With SHMEM_USE_IPI_GET, a get of at least SHMEM_IPI_GET_MIN bytes from another core into this core's
// memory asks the owner to put the data instead: the requester fills its slot in the owner's ipi_requests
// (length last), latches the owner's MESSAGE interrupt and sleeps; the owner's handler puts the bytes, frees
// the slot, then sets the requester's done word and wakes it. Data and done word go to the same core, so they
// arrive in order. One slot per requesting PE: a PE has at most one get in flight.

#if SHMEM_USE_IPI_GET
namespace {
struct IpiGet {
    uint32_t src;   // owner-local
    uint32_t dst;   // global, in the requester's memory
    uint32_t done;  // global address of the requester's ipi_done
    uint32_t n;     // 0: free
};
IpiGet ipi_requests[max_pes];  // on the owner: the slot of every requesting PE
uint32_t ipi_done;             // on the requester: set by the owner when the data is in
}  // namespace

// IVT entry 5 (crt/epiphany/start.S). GCC's interrupt attribute saves what the call clobbers and re-enables
// interrupts while it runs (a WAND or a wake-up may come in); the copy loop keeps its own interrupts off.
extern "C" __attribute__((interrupt)) void shmem_message_isr()
{
    for (int pe = 0; pe < geometry.npes; ++pe) {
        volatile IpiGet &r = ipi_requests[pe];
        const uint32_t n = r.n;
        if (n == 0) continue;
        const uint32_t dst = r.dst, done = r.done;
        shmem_port_copy(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(uintptr_t(r.src)), n);
        r.n = 0;
        *reinterpret_cast<volatile uint32_t *>(done) = 1;
        reg::at((done & 0xfff00000u) | reg::ilatst) = 1u << irq::user;
    }
}

void get_bytes(void *dst, const void *src_remote, size_t n)
{
    const uintptr_t s = reinterpret_cast<uintptr_t>(src_remote), d = reinterpret_cast<uintptr_t>(dst);
    const uintptr_t owner = s & 0xfff00000u, mine = geometry.global[geometry.pe];
    // The library's source is always a PE's core (remote_ptr); the destination must be this core's memory
    // (for the done word to arrive after the data).
    if (n >= SHMEM_IPI_GET_MIN && owner != 0 && owner != mine && ((d & 0xfff00000u) == 0 || (d & 0xfff00000u) == mine)) {
        volatile uint32_t *done = &ipi_done;
        *done = 0;
        volatile IpiGet &slot = *reinterpret_cast<volatile IpiGet *>(owner | reinterpret_cast<uintptr_t>(&ipi_requests[geometry.pe]));
        slot.src = s & 0xfffffu;
        slot.dst = global_address(d);
        slot.done = global_address(reinterpret_cast<uintptr_t>(&ipi_done));
        slot.n = uint32_t(n);  // last: the owner serves a slot whose length is set
        reg::at(owner | reg::ilatst) = 1u << irq::message;
        wait_until([done] { return *done != 0; });
        return;
    }
    shmem_port_copy(dst, src_remote, n);
}
#endif

}  // namespace shmem::port

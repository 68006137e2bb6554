// The out-of-line part of the tile port: the UDN barrier, the console mailbox, ending a run. Built, never run
// (docs/tile.md).
#include <stddef.h>

#include "boot_block.h"
#include "console_ring.hpp"
#include "message.hpp"
#include "port.hpp"

namespace shmem::port {

using detail::Message;

Geometry geometry;
// Nonzero while this PE is not asleep in a UDN receive (shmem_port.hpp): in .data, so the loader's image sets it
// before the tile starts, and a PE that never waited is never sent a word.
uint32_t awake = 1;
int wait_depth;
udn::Inbox inbox;

namespace {

volatile shmem_tile_mailbox *mailbox() { return reinterpret_cast<volatile shmem_tile_mailbox *>(geometry.mailbox); }

// Done: stop for good. `nap` sleeps until an interrupt, and this port enables none: the tile stays asleep, its
// memory still reachable by the other PEs (its cache lines are served by the hardware, not by its pipeline).
[[noreturn]] void park()
{
    for (;;) __asm__ volatile("nap" ::: "memory");
}

void post_state(uint32_t state, int status)
{
    volatile shmem_tile_mailbox *mb = mailbox();
    if (mb == nullptr) park();
    mb->status = uint32_t(status);
    fence();  // status and every console byte before the state the host acts on
    mb->state = state;
    fence();
}

}  // namespace

void console_write(char kind, const char *buf, size_t n)
{
    crt::ring_write<SHMEM_TILE_MAILBOX_RING>(mailbox(), kind, buf, n);
}

void end_run(int status)
{
    const uint32_t code = (status > 0 && status < 256) ? uint32_t(status) : (status == 0 ? 0u : 255u);
    quiet();
    post_state(SHMEM_TILE_STATE_END, int(code));
    park();
}

void finish(int status)
{
    check_stack();
    if (status != 0) end_run(status);
    quiet();
    // Done, but the memory stays reachable: other PEs may still put to and get from this one.
    post_state(SHMEM_TILE_STATE_DONE, 0);
    park();
}

// The stack guard was overwritten (check_stack): this PE's stack overflowed, or its heap ran into it.
void stack_overflow()
{
    const uintptr_t size = geometry.base + geometry.mask + 1 - geometry.stack_lo;
    Message()
        .s("libshmem: PE ").u(uint64_t(geometry.pe)).s(": stack overflow: the guard word at the bottom of the ")
        .u(size).s("-byte stack (").x(geometry.stack_lo).s(") was overwritten; link with a larger stack, e.g. ")
        .s("-Wl,--defsym=__stack_size=").u(size * 4)
        .write();
    end_run(139);
}

void udn_stray_word(udn::word w)
{
    if (udn::is_wake_word(w)) {  // stray only as udn::Inbox::put and udn::sleep_until find it
        Message()
            .s("libshmem: PE ").u(uint64_t(geometry.pe)).s(": UDN queue 0 received a wake-up from PE ")
            .u(uint64_t(w & 0xffff)).s(" that no claim of this PE's sleep owed (a second one before the first was ")
            .s("taken, or one while `awake` was 0): the sleep protocol lost count (port/tile/shmem_port.hpp)")
            .write();
        end_run(70);
    }
    Message()
        .s("libshmem: PE ").u(uint64_t(geometry.pe)).s(": UDN queue 0 received ").x(uint64_t(w))
        .s(", which is not a libshmem message (a wake-up, a barrier round or a channel message was expected): ")
        .s("another program uses ")
        .s("this tile's UDN queue 0, or a header went to the wrong tile")
        .write();
    end_run(70);
}

// ---- channel messages --------------------------------------------------------------------------------------

namespace {
MsgHandler msg_handler;

// The inbox's view: an offset in this PE's partition. One beyond the partition is stray.
bool deliver_at(uintptr_t offset, uint64_t value)
{
    if (offset > geometry.mask) return false;
    return msg_handler(reinterpret_cast<void *>(geometry.base + offset), value);
}
}  // namespace

void set_msg_handler(MsgHandler handler)
{
    msg_handler = handler;
    inbox.deliver = deliver_at;
}

// ---- the UDN barrier ------------------------------------------------------------------------------------
//
// Dissemination over the UDN: in round r, PE i sends the one-word message (parity, r) to PE (i + 2^r) mod n and
// waits in a receive for the message (parity, r) from PE (i - 2^r) mod n; ceil(log2 n) rounds. Messages from
// different senders may arrive in any order (one sender's words to one receiver arrive in the order sent), and a
// message for round r of barrier k can come early only from a PE that is ahead: in a later round of barrier k, or
// (at most) in barrier k + 1. So the parity and the round name every message that can be in flight, each at most
// once: words that come early wait in the inbox (udn.hpp), with any wake-up.
// Why dissemination and not TSHMEM's linear token: ceil(log2 n) message latencies on every tile instead of
// 2(n - 1) through the root (6 rounds at 36 tiles against 70 messages through one tile), and no tile is special.
// No memory is touched: the barrier orders nothing by itself, so it begins with mf (hw_barrier_fences), and each
// PE's stores are visible before any of its messages leaves.
namespace {
unsigned barrier_parity;
}  // namespace

void hw_barrier()
{
    fence();
    const int n = geometry.npes, me = geometry.pe;
    const unsigned parity = barrier_parity;
    for (unsigned r = 0; (1 << r) < n; ++r) {
        int to = me + (1 << r);
        if (to >= n) to -= n;
        udn_send(to, udn::barrier_word(parity, r));
        if (!inbox.take_round(parity, r, udn_receive)) udn_stray_word(inbox.last);
    }
    barrier_parity = parity ^ 1u;
}

}  // namespace shmem::port

// console_write for a port whose PEs each write console records into a ring of their own that the host drains
// (Epiphany, TILE: port.cpp includes this file once). The PE is the only writer of the ring's bytes and of the
// mailbox's head, the host the only writer of its tail; console byte i is ring[i % Ring], Ring a power of two. A ring
// of the PE's own needs no lock, and no record of one PE is interleaved with another's.
// port::fence() orders the bytes before the head that publishes them (on Epiphany the mesh delivers one core's
// writes to one destination in order, and its fence() only keeps the compiler from reordering them).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "port.hpp"

namespace shmem::crt {
namespace {

uint32_t console_head;  // bytes this PE has put in its ring
uint32_t console_tail;  // the host's tail as last read (only when the ring looks full: a remote read)

template <uint32_t Ring, class Mailbox>
void ring_put(volatile Mailbox *mb, uint32_t &head, char c)
{
    static_assert((Ring & (Ring - 1)) == 0, "the ring's size is a power of two");
    // The host empties the ring; while it is full, wait for it (rare: a ring's worth of output in flight). The host
    // notifies nobody, so this one wait polls.
    while (head - console_tail >= Ring) {
        port::fence();
        mb->head = head;
        console_tail = mb->tail;
    }
    mb->ring[head & (Ring - 1)] = c;
    ++head;
}

// buf[0 .. n) as records of `kind` (console_protocol.h) into the ring of mailbox mb; nothing before startup knew the
// mailbox (mb null).
template <uint32_t Ring, class Mailbox>
void ring_write(volatile Mailbox *mb, char kind, const char *buf, size_t n)
{
    if (mb == nullptr) return;
    uint32_t head = console_head;
    const unsigned pe = unsigned(port::my_pe());
    do {
        const size_t len = n < SHMEM_CONSOLE_MAX_PAYLOAD ? n : SHMEM_CONSOLE_MAX_PAYLOAD;
        const char header[SHMEM_CONSOLE_HEADER] = {SHMEM_CONSOLE_SOH, kind, char(pe & 0xff), char(pe >> 8),
                                                   char(len)};
        for (char c : header) ring_put<Ring>(mb, head, c);
        for (size_t i = 0; i < len; ++i) ring_put<Ring>(mb, head, buf[i]);
        buf += len;
        n -= len;
    } while (n != 0);
    console_head = head;
    port::fence();
    mb->head = head;
}

}  // namespace
}  // namespace shmem::crt

// The UDN messages of the tile port: header words, libshmem's payload words, and the bookkeeping of words that
// arrive before they are waited for. Pure code with no instruction of the chip in it, so that the host's unit tests
// check it (host_loader/tests/test_tile_port.cpp); shmem_port.hpp and port.cpp do the sends and receives.
//
// Every libshmem message is one payload word, sent to demultiplexing queue 0 of the destination tile; the word's
// top byte says what it is (a wake-up, a barrier round), and the receiver sorts them (Inbox). One queue, because
// where TILE-Gx's header selects a queue is not in any public source (docs/tile.md): the header below uses only
// the fields that are (destination x, y and the length), and its demux field is 0. On TILEPro a tag word follows
// the header; the startup code sets SPR_UDN_TAG_0 to it, so the payload lands in queue 0 there too.
// A tag also means that a word that is not libshmem's (another program's, a wrong header) is recognised and
// reported instead of being taken for a wake-up or a barrier round.
#pragma once

#include <stdint.h>

#include "shmem_chip.h"

namespace shmem::port::udn {

// A UDN word is a register: 64 bits on TILE-Gx, 32 on TILEPro (also when the host's tests compile this).
using word = SHMEM_CHIP_WORD;

// The header that sends one payload word to queue 0 of the tile at (x, y): y at bit 7, x at bit 18 (the layout
// of SPR_TILE_COORD), the length in the low bits (TILE-Gx: data words; TILEPro: the tag word and data words).
constexpr word header(unsigned x, unsigned y)
{
    return word(x) << SHMEM_CHIP_UDN_X_SHIFT | word(y) << SHMEM_CHIP_UDN_Y_SHIFT | word(SHMEM_CHIP_UDN_LENGTH);
}

inline constexpr unsigned tag_shift = sizeof(word) * 8 - 8;
inline constexpr word tag_wake = 0xa5, tag_barrier = 0xb7;

// A wake-up from PE `from`.
constexpr word wake_word(unsigned from) { return tag_wake << tag_shift | word(from & 0xffff); }
constexpr bool is_wake_word(word w) { return (w >> tag_shift) == tag_wake && (w & ~(tag_wake << tag_shift)) <= 0xffff; }

// Round `round` (0..15) of a barrier of parity `parity` (0, 1).
constexpr word barrier_word(unsigned parity, unsigned round)
{
    return tag_barrier << tag_shift | word(parity & 1) << 8 | word(round & 15);
}
// The bit of Inbox::rounds that a barrier word stands for (parity * 16 + round), or -1 if it is not one.
constexpr int barrier_bit(word w)
{
    if ((w >> tag_shift) != tag_barrier || (w & ~(tag_barrier << tag_shift | word(0x10f))) != 0) return -1;
    return int((w >> 8) & 1) * 16 + int(w & 15);
}

// What arrived on queue 0 and was not yet taken. A wake-up arrives only while its PE waits (shmem_port.hpp: a
// writer sends one only after claiming a sleep), and is taken before the wait ends; a barrier round can come
// early, from a PE that is ahead (port.cpp). Each (parity, round) is in flight at most once.
struct Inbox {
    uint32_t rounds = 0;  // bit parity * 16 + round: a barrier message arrived, not yet taken
    uint32_t wakes = 0;   // wake-ups arrived, not yet taken
    word last = 0;        // the last word received (for the report of a stray one)

    // Sorts one received word in; false if it is stray (not libshmem's, or a barrier round already pending).
    bool put(word w)
    {
        last = w;
        if (is_wake_word(w)) {
            ++wakes;
            return true;
        }
        const int bit = barrier_bit(w);
        if (bit < 0 || (rounds & (uint32_t(1) << bit)) != 0) return false;
        rounds |= uint32_t(1) << bit;
        return true;
    }

    // Takes a wake-up, receiving words with receive() until one is there; false if a stray word came first.
    template <class Receive>
    bool take_wake(Receive receive)
    {
        while (wakes == 0)
            if (!put(receive())) return false;
        --wakes;
        return true;
    }

    // Takes the barrier message (parity, round), receiving until it is there; false if a stray word came first.
    template <class Receive>
    bool take_round(unsigned parity, unsigned round, Receive receive)
    {
        const uint32_t want = uint32_t(1) << (parity * 16 + round);
        while ((rounds & want) == 0)
            if (!put(receive())) return false;
        rounds &= ~want;
        return true;
    }
};

}  // namespace shmem::port::udn

// The UDN messages of the tile port: header words, libshmem's payload words, and the bookkeeping of words that
// arrive before they are waited for. Pure code with no instruction of the chip in it, so that the host's unit tests
// check it (port/tile/tests/test_tile_port.cpp); shmem_port.hpp and port.cpp do the sends and receives.
//
// Every libshmem message goes to demultiplexing queue 0 of the destination tile; its first payload word's top byte
// says what it is (a wake-up, a barrier round, a channel message), and the receiver sorts them (Inbox). One queue, because
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

// A channel message (shmemx channels, the core's channel.cpp): the receiver's channel copy, as its offset in the
// partition in 8-byte units, then the 64-bit value in 1 (TILE-Gx) or 2 (TILEPro: low half first) more words.
// The whole message is one UDN packet, so its words arrive together and in order (wormhole routing holds the
// path for the packet). It carries the data and wakes the receiver if it sleeps in a receive: no shared memory,
// no `awake` claim (shmem_port.hpp).
inline constexpr word tag_channel = 0xc3;
inline constexpr unsigned value_words = sizeof(uint64_t) / sizeof(word);
inline constexpr unsigned message_words = 1 + value_words;  // what a channel message occupies in queue 0
constexpr bool channel_offset_fits(uintptr_t offset)
{
    return offset % 8 == 0 && (offset / 8) >> tag_shift == 0;
}
constexpr word channel_word(uintptr_t offset) { return tag_channel << tag_shift | word(offset / 8); }
constexpr bool is_channel_word(word w) { return (w >> tag_shift) == tag_channel; }
constexpr uintptr_t channel_offset(word w) { return uintptr_t(w & ~(tag_channel << tag_shift)) * 8; }

// Who receives a channel message: the core's channel code (set at shmemx_channel_init), given the channel's
// offset and the value; false if no channel of this PE expects it (reported as a stray message).
using Deliver = bool (*)(uintptr_t offset, uint64_t value);

// What a receive found: a wake-up (an `awake` claim's word), a channel message (delivered), or neither yet.
enum class Event { none, wake, message };

// What arrived on queue 0 and was not yet taken. A wake-up arrives only while its PE waits (shmem_port.hpp: a
// writer sends one only after claiming a sleep), and is taken before the wait ends; a barrier round can come
// early, from a PE that is ahead (port.cpp); a channel message is handed to `deliver` as it arrives. Each
// (parity, round) is in flight at most once.
struct Inbox {
    uint32_t rounds = 0;        // bit parity * 16 + round: a barrier message arrived, not yet taken
    uint32_t wakes = 0;         // wake-ups arrived, not yet taken
    uint32_t messages = 0;      // channel messages delivered (the wait counts them as events)
    word last = 0;              // the last word received (for the report of a stray one)
    word last_wake = 0;         // the last wake-up received (for the report of one no claim owed)
    Deliver deliver = nullptr;  // set by the core once a channel may receive messages

    // Sorts in the word w just received, receiving the rest of its packet if it is a channel message; false if it
    // is stray (not libshmem's, a barrier round already pending, a channel message nobody expects).
    template <class Receive>
    bool put(word w, Receive receive)
    {
        last = w;
        if (is_wake_word(w)) {
            // At most one claim is outstanding (sleep_until), so a second wake-up before the first is taken means
            // the protocol lost count: stray (udn_stray_word says which).
            if (wakes != 0) return false;
            last_wake = w;
            ++wakes;
            return true;
        }
        if (is_channel_word(w)) {
            uint64_t value = uint64_t(receive());
            if constexpr (value_words == 2) value |= uint64_t(receive()) << 32;
            if (deliver == nullptr || !deliver(channel_offset(w), value)) return false;
            ++messages;
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
            if (!put(receive(), receive)) return false;
        --wakes;
        return true;
    }

    // Receives until a wake-up or a channel message is there and takes it (barrier rounds are kept); none if a
    // stray word came first.
    template <class Receive>
    Event take_event(Receive receive)
    {
        const uint32_t seen = messages;
        while (wakes == 0 && messages == seen)
            if (!put(receive(), receive)) return Event::none;
        if (wakes != 0) {
            --wakes;
            return Event::wake;
        }
        return Event::message;
    }

    // Takes the barrier message (parity, round), receiving until it is there; false if a stray word came first.
    template <class Receive>
    bool take_round(unsigned parity, unsigned round, Receive receive)
    {
        const uint32_t want = uint32_t(1) << (parity * 16 + round);
        while ((rounds & want) == 0)
            if (!put(receive(), receive)) return false;
        rounds &= ~want;
        return true;
    }
};

// The sleep of shmem_port.hpp's wait_until, over an interface the host's tests can simulate (Sleeper: clear_awake
// stores awake = 0, fence, claim_awake swaps 1 into awake and returns what it was, claimed reads whether awake is
// nonzero, receive reads queue 0 and blocks while it is empty). The invariant: at most one claim is outstanding, because `awake` is set to 0 only
// when the previous claim's word has been taken (or there was none). A channel message ends the sleep without
// being a claim, so after one the waiter claims `awake` itself: if a writer got there first, its word is taken
// before `awake` goes back to 0. Returns false if a stray word arrived (inbox.last).
//
// SHMEM_TILE_SLEEP_MUTATION (tests only; 0 in every build of the library) breaks the protocol on purpose, so that
// the tests show they catch each break: the host's simulation (tests/test_tile_port.cpp) and the runs on the
// TILE-Gx simulator (tests/port-tile). 1: no claim after a channel message; 2: the claim at the end takes no word;
// 3: `awake` cleared after the look at done() instead of before it.
#ifndef SHMEM_TILE_SLEEP_MUTATION
#define SHMEM_TILE_SLEEP_MUTATION 0
#endif
template <class Sleeper, class Done>
bool sleep_until(Sleeper &s, Inbox &inbox, Done done)
{
    constexpr int mutation = SHMEM_TILE_SLEEP_MUTATION;
    auto receive = [&s] { return s.receive(); };
    for (;;) {
        if constexpr (mutation != 3) {
            s.clear_awake();
            s.fence();
        }
        if (done()) {
            if constexpr (mutation == 2) return s.claim_awake(), true;
            return s.claim_awake() == 0 || inbox.take_wake(receive);  // a claim owes its word
        }
        if constexpr (mutation == 3) {
            s.clear_awake();
            s.fence();
        }
        switch (inbox.take_event(receive)) {
        case Event::none: return false;
        case Event::wake:  // a claim's word: awake is 1 (every claim before the clear had its word taken then)
            if (!s.claimed()) {
                inbox.last = inbox.last_wake;  // the stray word is that wake-up
                return false;
            }
            break;
        case Event::message:
            if (mutation != 1 && s.claim_awake() != 0 && !inbox.take_wake(receive)) return false;
            break;
        }
    }
}

}  // namespace shmem::port::udn

// The TILE port's target-independent code, run on the host (no TILE chip or emulator exists here): the copy loop
// of put/get/memcpy (port/tile/copy.hpp) at both word sizes, and the UDN message encodings and the inbox that sorts
// early arrivals (port/tile/udn.hpp). Built twice, against port/tile/tilegx and port/tile/tilepro's shmem_chip.h
// (TILE_VARIANT names which).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

#include "copy.hpp"
#include "udn.hpp"

namespace udn = shmem::port::udn;
namespace tile_copy = shmem::port::tile_copy;

namespace {

// Every length 0..80 and every source and destination offset 0..15 against memmove's result; the bytes around
// the destination stay untouched.
template <class Word>
void check_copy_all_alignments()
{
    std::vector<unsigned char> src(160), dst(160), want(160);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 3);
    for (size_t so = 0; so < 16; ++so)
        for (size_t doff = 0; doff < 16; ++doff)
            for (size_t n = 0; n <= 80; ++n) {
                std::fill(dst.begin(), dst.end(), 0xee);
                want = dst;
                std::memmove(want.data() + 16 + doff, src.data() + 16 + so, n);
                tile_copy::copy<Word>(dst.data() + 16 + doff, src.data() + 16 + so, n);
                ASSERT_EQ(dst, want) << "word " << sizeof(Word) << ", src offset " << so << ", dst offset " << doff
                                     << ", " << n << " bytes";
            }
}

template <class Word>
void check_fill()
{
    std::vector<unsigned char> buf(120);
    for (size_t off = 0; off < 16; ++off)
        for (size_t n = 0; n <= 90; ++n) {
            std::fill(buf.begin(), buf.end(), 0x11);
            tile_copy::fill<Word>(buf.data() + off, 0xc3, n);
            for (size_t i = 0; i < buf.size(); ++i)
                ASSERT_EQ(buf[i], (i >= off && i < off + n) ? 0xc3 : 0x11) << "offset " << off << ", " << n << " bytes";
        }
}

}  // namespace

TEST(TilePortCopy, EightByteWordsEveryAlignment) { check_copy_all_alignments<uint64_t>(); }
TEST(TilePortCopy, FourByteWordsEveryAlignment) { check_copy_all_alignments<uint32_t>(); }
TEST(TilePortCopy, FillBothWordSizes)
{
    check_fill<uint64_t>();
    check_fill<uint32_t>();
}

TEST(TileUdn, WordIsTheChipsRegister)
{
    EXPECT_EQ(sizeof(udn::word), std::string(TILE_VARIANT) == "tilegx" ? 8u : 4u);
}

// The header's fields where TILE_COORD has them (y at bit 7, x at bit 18) and the length in the low bits: one data
// word on TILE-Gx, the tag word and one data word on TILEPro.
TEST(TileUdn, HeaderLayout)
{
    const bool gx = std::string(TILE_VARIANT) == "tilegx";
    EXPECT_EQ(udn::header(0, 0), gx ? 1u : 2u);
    EXPECT_EQ(udn::header(5, 3), (udn::word(5) << 18) | (udn::word(3) << 7) | (gx ? 1u : 2u));
    EXPECT_EQ(udn::header(7, 7), (udn::word(7) << 18) | (udn::word(7) << 7) | (gx ? 1u : 2u));
    // distinct tiles, distinct headers; no field runs into another
    for (unsigned x = 0; x < 8; ++x)
        for (unsigned y = 0; y < 8; ++y) {
            const udn::word h = udn::header(x, y);
            EXPECT_EQ((h >> 18) & 0x7ff, x);
            EXPECT_EQ((h >> 7) & 0x7ff, y);
            EXPECT_EQ(h & 0x7f, gx ? 1u : 2u);
        }
}

TEST(TileUdn, PayloadWordsAreTaggedAndDistinct)
{
    for (unsigned pe = 0; pe < 64; ++pe) {
        EXPECT_TRUE(udn::is_wake_word(udn::wake_word(pe)));
        EXPECT_EQ(udn::barrier_bit(udn::wake_word(pe)), -1);
    }
    for (unsigned parity = 0; parity < 2; ++parity)
        for (unsigned round = 0; round < 16; ++round) {
            const udn::word w = udn::barrier_word(parity, round);
            EXPECT_FALSE(udn::is_wake_word(w));
            EXPECT_EQ(udn::barrier_bit(w), int(parity * 16 + round));
        }
    // not libshmem's: zero, all ones, a header, a word with the barrier tag and stray bits
    for (udn::word w : {udn::word(0), ~udn::word(0), udn::header(3, 4), udn::barrier_word(1, 2) | udn::word(0x80)}) {
        EXPECT_FALSE(udn::is_wake_word(w)) << std::hex << w;
        EXPECT_EQ(udn::barrier_bit(w), -1) << std::hex << w;
    }
}

namespace {
// A queue 0 fed by the test: receive() pops the next word (the test never lets it run dry).
struct FakeQueue {
    std::deque<udn::word> words;
    udn::word operator()()
    {
        EXPECT_FALSE(words.empty()) << "receive on an empty queue: the tile would wait forever";
        if (words.empty()) return 0;
        const udn::word w = words.front();
        words.pop_front();
        return w;
    }
};
}  // namespace

// Barrier rounds that arrive early, from later rounds and from the next barrier (the other parity), wait in the
// inbox until their round is waited for; a wake-up in between is kept for the next wait.
TEST(TileUdn, InboxSortsEarlyArrivals)
{
    udn::Inbox inbox;
    FakeQueue q;
    q.words = {udn::barrier_word(0, 2), udn::barrier_word(1, 0), udn::wake_word(3), udn::barrier_word(0, 0)};
    ASSERT_TRUE(inbox.take_round(0, 0, std::ref(q)));
    EXPECT_TRUE(q.words.empty());
    EXPECT_EQ(inbox.rounds, (1u << 2) | (1u << 16));
    EXPECT_EQ(inbox.wakes, 1u);
    q.words = {udn::barrier_word(0, 1)};
    ASSERT_TRUE(inbox.take_round(0, 1, std::ref(q)));
    ASSERT_TRUE(inbox.take_round(0, 2, std::ref(q)));  // already there: no receive
    ASSERT_TRUE(inbox.take_wake(std::ref(q)));          // the one that came during the barrier
    ASSERT_TRUE(inbox.take_round(1, 0, std::ref(q)));
    EXPECT_EQ(inbox.rounds, 0u);
    EXPECT_EQ(inbox.wakes, 0u);
    EXPECT_TRUE(q.words.empty());
}

TEST(TileUdn, InboxReportsStrayWords)
{
    {
        udn::Inbox inbox;
        FakeQueue q;
        q.words = {udn::word(0x1234)};
        EXPECT_FALSE(inbox.take_wake(std::ref(q)));
        EXPECT_EQ(inbox.last, udn::word(0x1234));
    }
    {
        // the same round twice before it was taken: two barriers' messages of one parity cannot both be in flight
        udn::Inbox inbox;
        FakeQueue q;
        q.words = {udn::barrier_word(1, 3), udn::barrier_word(1, 3)};
        EXPECT_FALSE(inbox.take_round(1, 0, std::ref(q)));
        EXPECT_EQ(inbox.last, udn::barrier_word(1, 3));
    }
}

// A whole run of the dissemination barrier's message pattern, simulated: n PEs, each with its inbox, every send
// appended to the receiver's queue, PEs advanced one step at a time in a random order, each doing a random amount
// of "work" between barriers. Every barrier of every PE completes, no PE leaves barrier k before every PE has
// entered it, and nothing is left over.
TEST(TileUdn, DisseminationOverInboxesSynchronises)
{
    for (int n : {1, 2, 3, 4, 5, 7, 8, 12, 16, 36, 64}) {
        struct Pe {
            udn::Inbox inbox;
            FakeQueue q;
            int barrier = 0;      // barriers completed
            bool in = false;      // inside barrier `barrier`
            unsigned round = 0;   // its round there
            bool sent = false;    // sent this round's message
        };
        std::vector<Pe> pes(n);
        int rounds = 0;
        while ((1 << rounds) < n) ++rounds;
        const int barriers = 6;
        std::vector<int> entered(barriers, 0);
        std::mt19937 rng(unsigned(n) * 7919u);
        for (long step = 0; step < 400000; ++step) {
            const int i = int(rng() % unsigned(n));
            Pe &p = pes[i];
            if (p.barrier == barriers) continue;
            if (!p.in) {
                if (rng() % 4 != 0) continue;  // still working
                p.in = true;
                ++entered[p.barrier];
            }
            if (p.round < unsigned(rounds)) {
                const unsigned parity = unsigned(p.barrier & 1);
                if (!p.sent) {
                    pes[(i + (1 << p.round)) % n].q.words.push_back(udn::barrier_word(parity, p.round));
                    p.sent = true;
                }
                // a receive would stall: take the message only once it is there (or already sorted in)
                const uint32_t want = 1u << (parity * 16 + p.round);
                while ((p.inbox.rounds & want) == 0 && !p.q.words.empty()) {
                    ASSERT_TRUE(p.inbox.put(p.q.words.front())) << "n " << n << ", PE " << i;
                    p.q.words.pop_front();
                }
                if ((p.inbox.rounds & want) == 0) continue;
                ASSERT_TRUE(p.inbox.take_round(parity, p.round, std::ref(p.q)));
                p.sent = false;
                ++p.round;
            }
            if (p.round == unsigned(rounds)) {
                ASSERT_EQ(entered[p.barrier], n) << "n " << n << ": PE " << i << " left barrier " << p.barrier
                                                 << " before every PE entered it";
                p.round = 0;
                p.in = false;
                ++p.barrier;
            }
        }
        for (int i = 0; i < n; ++i) {
            EXPECT_EQ(pes[i].barrier, barriers) << "n " << n << ", PE " << i << " did not finish";
            EXPECT_EQ(pes[i].inbox.rounds, 0u);
            EXPECT_TRUE(pes[i].q.words.empty());
        }
    }
}

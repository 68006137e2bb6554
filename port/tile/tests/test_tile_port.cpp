// The TILE port's target-independent code, run on the host (no TILE chip or emulator exists here): the copy loop
// of put/get/memcpy (port/tile/copy.hpp) at both word sizes, and the UDN message encodings and the inbox that sorts
// early arrivals (port/tile/udn.hpp). Built twice, against port/tile/tilegx and port/tile/tilepro's shmem_chip.h
// (TILE_VARIANT names which).
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
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
    {
        // a second wake-up before the first was taken: at most one claim is ever outstanding
        udn::Inbox inbox;
        FakeQueue q;
        q.words = {udn::wake_word(2), udn::wake_word(5), udn::barrier_word(0, 0)};
        EXPECT_FALSE(inbox.take_round(0, 0, std::ref(q)));
        EXPECT_EQ(inbox.last, udn::wake_word(5));
        EXPECT_EQ(inbox.wakes, 1u);
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
                    const udn::word w = p.q.words.front();
                    p.q.words.pop_front();
                    ASSERT_TRUE(p.inbox.put(w, std::ref(p.q))) << "n " << n << ", PE " << i;
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

// ---- channel messages ------------------------------------------------------------------------------------------

// A channel message: its first word names the channel's offset (8-byte units under the tag), the value follows in
// one word (TILE-Gx) or two (TILEPro, low half first); the header's length counts them all.
TEST(TileUdn, ChannelWordsRoundTripAndAreDistinct)
{
    const bool gx = std::string(TILE_VARIANT) == "tilegx";
    EXPECT_EQ(udn::message_words, gx ? 2u : 3u);
    EXPECT_EQ((udn::header(2, 3) + (udn::message_words - 1)) & 0x7f, gx ? 2u : 4u);  // TILEPro: + the tag word
    for (uintptr_t off : {uintptr_t(0), uintptr_t(8), uintptr_t(0x1000), uintptr_t(0x7ffff8), uintptr_t(0x3fffff8)}) {
        ASSERT_TRUE(udn::channel_offset_fits(off)) << off;
        const udn::word w = udn::channel_word(off);
        EXPECT_TRUE(udn::is_channel_word(w));
        EXPECT_EQ(udn::channel_offset(w), off);
        EXPECT_FALSE(udn::is_wake_word(w));
        EXPECT_EQ(udn::barrier_bit(w), -1);
    }
    EXPECT_FALSE(udn::channel_offset_fits(4));  // not 8-byte aligned
    const uintptr_t too_far = uintptr_t(8) << udn::tag_shift;
    if (too_far != 0) {
        EXPECT_FALSE(udn::channel_offset_fits(too_far));
    }
    for (unsigned pe = 0; pe < 64; ++pe) EXPECT_FALSE(udn::is_channel_word(udn::wake_word(pe)));
    EXPECT_FALSE(udn::is_channel_word(udn::barrier_word(1, 5)));
}

namespace {
// What the core's handler saw (Inbox::deliver is a plain function pointer).
std::vector<std::pair<uintptr_t, uint64_t>> delivered;
bool record(uintptr_t offset, uint64_t value)
{
    delivered.emplace_back(offset, value);
    return offset != 0x88;  // the test's "channel nobody expects"
}

// The words of a channel message as the queue holds them (the header and TILEPro's tag are the network's).
void push_message(std::deque<udn::word> &q, uintptr_t offset, uint64_t value)
{
    q.push_back(udn::channel_word(offset));
    q.push_back(udn::word(value));
    if (udn::value_words == 2) q.push_back(udn::word(value >> 32));
}
}  // namespace

// Messages are delivered whole and in order from any receive, barrier rounds and wake-ups are kept as before, a
// wait's event is a wake-up or a message, and a message for no channel, or with no handler set, is stray.
TEST(TileUdn, InboxDeliversChannelMessages)
{
    delivered.clear();
    udn::Inbox inbox;
    inbox.deliver = record;
    FakeQueue q;
    push_message(q.words, 0x40, 0x1122334455667788ull);
    q.words.push_back(udn::barrier_word(0, 1));
    push_message(q.words, 0x40, 7);
    q.words.push_back(udn::wake_word(2));
    ASSERT_TRUE(inbox.take_round(0, 1, std::ref(q)));
    ASSERT_EQ(delivered.size(), 1u);
    EXPECT_EQ(delivered[0], std::make_pair(uintptr_t(0x40), uint64_t(0x1122334455667788ull)));
    EXPECT_EQ(inbox.take_event(std::ref(q)), udn::Event::message);
    EXPECT_EQ(delivered.size(), 2u);
    EXPECT_EQ(delivered[1].second, 7u);
    EXPECT_EQ(inbox.take_event(std::ref(q)), udn::Event::wake);
    EXPECT_TRUE(q.words.empty());
    EXPECT_EQ(inbox.wakes, 0u);

    push_message(q.words, 0x88, 1);  // the handler refuses it
    EXPECT_EQ(inbox.take_event(std::ref(q)), udn::Event::none);
    EXPECT_TRUE(udn::is_channel_word(inbox.last));
    udn::Inbox no_handler;
    push_message(q.words, 0x40, 1);
    EXPECT_FALSE(no_handler.take_wake(std::ref(q)));
}

// The whole protocol of one receiving PE, simulated under random interleavings: channel senders that send messages
// while they have credit, writers that store to memory and then claim the receiver's sleep (notify), and the
// receiver running udn::sleep_until (the port's wait) with conditions that poll the queue as the core's do. Every
// fence and every receive on an empty queue lets the others run. Checks: every value arrives, in order; the
// receiver never sleeps with nothing able to wake it (the simulation would find nobody to run); at most one
// wake-up is ever in the queue and the queue never holds more than the budget's words plus it; at the end nothing
// is left over. (Each of three mutations of sleep_until fails it: no claim after a message, no word taken for a
// claim at the end, `awake` cleared after the look.)
namespace {
struct ChannelSim {
    struct Chan {
        unsigned slots;
        uint64_t next_send = 0;   // sender: values sent
        uint64_t acked = 0;       // sender's copy: values taken (the receiver stores it)
        std::deque<uint64_t> slots_in_use;  // receiver's copy: arrived, not taken
        uint64_t next_recv = 0;
    };
    std::mt19937 rng;
    std::deque<udn::word> q;
    size_t max_q = 0, budget = 0;
    uint32_t awake = 1;           // the receiver's
    uint64_t flag = 0, target = 0;  // a memory word the receiver waits for, and the value it waits for
    bool writer_owes_notify = false;
    std::vector<Chan> chans;
    udn::Inbox inbox;
    bool stuck = false, bad = false;
    uint64_t per_channel;

    void push(udn::word w)
    {
        q.push_back(w);
        max_q = std::max(max_q, q.size());
        unsigned wakes = 0;
        for (udn::word x : q) wakes += udn::is_wake_word(x);
        if (wakes > 1) bad = true;
    }
    // One step of someone other than the receiver; false if nobody can move.
    bool step()
    {
        std::vector<int> can;
        for (size_t c = 0; c < chans.size(); ++c)
            if (chans[c].next_send < per_channel && chans[c].next_send - chans[c].acked < chans[c].slots)
                can.push_back(int(c));
        if (flag < target && !writer_owes_notify) can.push_back(-1);
        if (writer_owes_notify) can.push_back(-2);
        if (can.empty()) return false;
        const int who = can[rng() % can.size()];
        if (who >= 0) {
            Chan &c = chans[size_t(who)];
            const uint64_t v = (uint64_t(who) << 40) + c.next_send++ + 0x100000000ull;
            push(udn::channel_word(uintptr_t(who) * 128));
            push(udn::word(v));
            if (udn::value_words == 2) push(udn::word(v >> 32));
        } else if (who == -1) {
            ++flag;  // store, then mf, then the notify below as a separate step
            writer_owes_notify = true;
        } else {
            writer_owes_notify = false;
            if (awake == 0) {  // the look, then the claim
                const uint32_t old = awake;
                awake = 1;
                if (old == 0) push(udn::wake_word(5));
            }
        }
        return true;
    }
    void maybe_others()
    {
        for (unsigned k = rng() % 3; k > 0; --k) step();
    }
    // The Sleeper interface.
    void clear_awake() { awake = 0; }
    void fence() { maybe_others(); }
    uint32_t claim_awake()
    {
        const uint32_t old = awake;
        awake = 1;
        return old;
    }
    bool claimed() { return awake != 0; }
    udn::word receive()
    {
        while (q.empty())
            if (!step()) {
                stuck = true;  // asleep with nobody left to wake it
                return udn::wake_word(0);
            }
        const udn::word w = q.front();
        q.pop_front();
        return w;
    }
    void poll()
    {
        while (!q.empty()) {
            const udn::word w = receive();
            if (!inbox.put(w, [this] { return receive(); })) bad = true;
        }
    }
};
ChannelSim *sim;
bool sim_deliver(uintptr_t offset, uint64_t value)
{
    const size_t c = offset / 128;
    if (offset % 128 != 0 || c >= sim->chans.size()) return false;
    ChannelSim::Chan &ch = sim->chans[c];
    if (ch.slots_in_use.size() >= ch.slots) return false;  // more in flight than credits allow
    ch.slots_in_use.push_back(value);
    return true;
}

void run_channel_sim(unsigned seed, std::vector<unsigned> slots, uint64_t per_channel)
{
    ChannelSim s;
    sim = &s;
    s.rng.seed(seed);
    s.per_channel = per_channel;
    for (unsigned k : slots) {
        s.chans.emplace_back();
        s.chans.back().slots = k;
        s.budget += k * udn::message_words;
    }
    s.inbox.deliver = sim_deliver;
    uint64_t remaining = per_channel * slots.size();
    while (remaining > 0 && !s.stuck && !s.bad) {
        if (s.rng() % 4 == 0) {
            // wait for the memory word (a flag the writer stores, then notifies about)
            ++s.target;
            ASSERT_TRUE(udn::sleep_until(s, s.inbox, [&s] { return s.flag >= s.target; })) << "seed " << seed;
            continue;
        }
        // receive from a channel that still has values coming, as the core's recv: poll, then look
        size_t c = s.rng() % s.chans.size();
        while (s.chans[c].next_recv == per_channel) c = (c + 1) % s.chans.size();
        ChannelSim::Chan &ch = s.chans[c];
        ASSERT_TRUE(udn::sleep_until(s, s.inbox, [&] {
            s.poll();
            return !ch.slots_in_use.empty();
        })) << "seed " << seed << ", stray word " << std::hex << s.inbox.last;
        if (s.stuck) break;
        ASSERT_EQ(ch.slots_in_use.front(), (uint64_t(c) << 40) + ch.next_recv + 0x100000000ull) << "seed " << seed;
        ch.slots_in_use.pop_front();
        ++ch.next_recv;
        ch.acked = ch.next_recv;  // the receiver's store into the sender's copy
        --remaining;
        s.maybe_others();
    }
    ASSERT_FALSE(s.stuck) << "seed " << seed << ": the receiver slept with nobody able to wake it";
    ASSERT_FALSE(s.bad) << "seed " << seed << ": two wake-ups in the queue at once, or a stray word";
    s.target = s.flag;  // let the writer finish
    while (s.step()) {
    }
    s.poll();
    EXPECT_TRUE(s.q.empty()) << "seed " << seed;
    EXPECT_EQ(s.inbox.wakes, 0u) << "seed " << seed << ": a wake-up left over (a claim whose word nobody took)";
    EXPECT_LE(s.max_q, s.budget + 1) << "seed " << seed;
}
}  // namespace

TEST(TileUdn, SleepWithChannelMessagesLosesNothing)
{
    for (unsigned seed = 1; seed <= 300; ++seed) {
        const unsigned n = 1 + seed % 4;
        std::vector<unsigned> slots;
        for (unsigned i = 0; i < n; ++i) slots.push_back(1 + (seed * 7 + i * 3) % 8);
        run_channel_sim(seed, slots, 40);
        if (HasFatalFailure()) return;
    }
}

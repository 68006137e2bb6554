// Native unit tests of the symmetric heap's allocator logic (shmem/src/heap.hpp), which is pure: it runs on the
// host over an ordinary buffer exactly as it runs on a PE over its heap range.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "heap.hpp"

using shmem::detail::BrkHeap;

namespace {

struct Arena {
    alignas(4096) unsigned char bytes[1 << 16];
    BrkHeap heap;
    Arena() { heap.init(reinterpret_cast<uintptr_t>(bytes), reinterpret_cast<uintptr_t>(bytes) + sizeof bytes); }
    uintptr_t lo() const { return heap.lo(); }
};

TEST(BrkHeap, AllocatesAtTheBreakAligned)
{
    Arena a;
    void *p = a.heap.alloc(10);
    void *q = a.heap.alloc(100);
    ASSERT_NE(p, nullptr);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 16, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p), a.lo() + 16);          // first block right after its header
    EXPECT_EQ(reinterpret_cast<uintptr_t>(q), a.lo() + 16 + 16 + 16); // 10 rounds up to 16
    EXPECT_EQ(a.heap.brk(), reinterpret_cast<uintptr_t>(q) + 112);
}

TEST(BrkHeap, ZeroSizeAndExhaustionGiveNull)
{
    Arena a;
    EXPECT_EQ(a.heap.alloc(0), nullptr);
    EXPECT_EQ(a.heap.alloc(1 << 20), nullptr);
    EXPECT_EQ(a.heap.alloc(SIZE_MAX), nullptr);
    EXPECT_EQ(a.heap.brk(), a.lo());  // failed requests leave nothing behind
    void *all = a.heap.alloc(a.heap.hi() - a.lo() - 16);
    EXPECT_NE(all, nullptr);
    EXPECT_EQ(a.heap.alloc(1), nullptr);
}

TEST(BrkHeap, FreeingTheLastBlockMovesTheBreakBack)
{
    Arena a;
    void *p = a.heap.alloc(64);
    uintptr_t brk = a.heap.brk();
    void *q = a.heap.alloc(64);
    a.heap.free(q);
    EXPECT_EQ(a.heap.brk(), brk);
    EXPECT_EQ(a.heap.alloc(64), q);
    (void)p;
}

TEST(BrkHeap, FreeInTheMiddleIsReclaimedWhenTheBreakPassesIt)
{
    Arena a;
    void *p = a.heap.alloc(64), *q = a.heap.alloc(64), *r = a.heap.alloc(64);
    a.heap.free(q);                       // a hole: the break stays
    EXPECT_FALSE(a.heap.owns(q));
    EXPECT_TRUE(a.heap.owns(p));
    EXPECT_TRUE(a.heap.owns(r));
    uintptr_t brk = a.heap.brk();
    EXPECT_EQ(brk, reinterpret_cast<uintptr_t>(r) + 64);
    a.heap.free(r);                       // the last block: the break passes the hole too
    EXPECT_EQ(a.heap.brk(), reinterpret_cast<uintptr_t>(p) + 64);
    a.heap.free(p);
    EXPECT_EQ(a.heap.brk(), a.lo());
}

TEST(BrkHeap, HolesAreReusedFirstFitAndSplit)
{
    Arena a;
    void *p = a.heap.alloc(256), *guard = a.heap.alloc(16);
    a.heap.free(p);
    void *small = a.heap.alloc(64);
    EXPECT_EQ(small, p);                  // first fit
    void *rest = a.heap.alloc(64);        // the split remainder (256 - 64 - 16 = 176 bytes) takes it
    EXPECT_EQ(reinterpret_cast<uintptr_t>(rest), reinterpret_cast<uintptr_t>(p) + 64 + 16);
    EXPECT_LT(reinterpret_cast<uintptr_t>(rest), reinterpret_cast<uintptr_t>(guard));
    EXPECT_TRUE(a.heap.owns(guard));
}

TEST(BrkHeap, AdjacentFreeBlocksMerge)
{
    Arena a;
    void *p = a.heap.alloc(64), *q = a.heap.alloc(64), *r = a.heap.alloc(64), *s = a.heap.alloc(16);
    a.heap.free(p);
    a.heap.free(r);
    a.heap.free(q);                       // p, q, r become one 64*3 + 32 byte hole
    void *big = a.heap.alloc(64 * 3 + 32);
    EXPECT_EQ(big, p);
    EXPECT_TRUE(a.heap.owns(s));
}

TEST(BrkHeap, AlignmentPaddingIsAFreeBlockThatIsReclaimed)
{
    Arena a;
    void *p = a.heap.alloc(16);
    for (size_t align = 32; align <= 4096; align <<= 1) {
        void *q = a.heap.alloc(40, align);
        ASSERT_NE(q, nullptr) << align;
        EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % align, 0u) << align;
        a.heap.free(q);
        EXPECT_EQ(a.heap.brk(), reinterpret_cast<uintptr_t>(p) + 16) << "padding for " << align << " not reclaimed";
    }
}

TEST(BrkHeap, OwnsRejectsForeignPointers)
{
    Arena a;
    unsigned char *p = static_cast<unsigned char *>(a.heap.alloc(64));
    int on_stack = 0;
    EXPECT_TRUE(a.heap.owns(p));
    EXPECT_FALSE(a.heap.owns(p + 16));
    EXPECT_FALSE(a.heap.owns(p + 1));
    EXPECT_FALSE(a.heap.owns(&on_stack));
    EXPECT_FALSE(a.heap.owns(nullptr));
    a.heap.free(p);
    EXPECT_FALSE(a.heap.owns(p));         // double free is detectable
}

TEST(BrkHeap, ReallocShrinksGrowsAndMovesKeepingContents)
{
    Arena a;
    auto *p = static_cast<unsigned char *>(a.heap.alloc(64));
    for (int i = 0; i < 64; ++i) p[i] = static_cast<unsigned char>(i);
    // last block: grows in place
    auto *q = static_cast<unsigned char *>(a.heap.realloc(p, 1000));
    EXPECT_EQ(q, p);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(q[i], i);
    // shrink in place; the rest goes back
    q = static_cast<unsigned char *>(a.heap.realloc(q, 32));
    EXPECT_EQ(q, p);
    EXPECT_EQ(a.heap.brk(), reinterpret_cast<uintptr_t>(p) + 32);
    // blocked by a later block: moves, contents kept, old block freed
    void *blocker = a.heap.alloc(16);
    auto *m = static_cast<unsigned char *>(a.heap.realloc(q, 500));
    ASSERT_NE(m, nullptr);
    EXPECT_NE(m, q);
    for (int i = 0; i < 32; ++i) ASSERT_EQ(m[i], i);
    EXPECT_FALSE(a.heap.owns(q));
    EXPECT_TRUE(a.heap.owns(blocker));
    // too large: null, and the block is untouched
    EXPECT_EQ(a.heap.realloc(m, 1 << 20), nullptr);
    EXPECT_TRUE(a.heap.owns(m));
    for (int i = 0; i < 32; ++i) ASSERT_EQ(m[i], i);
}

TEST(BrkHeap, ReallocGrowsIntoAFreeNeighbour)
{
    Arena a;
    void *p = a.heap.alloc(64), *q = a.heap.alloc(256), *r = a.heap.alloc(16);
    a.heap.free(q);
    EXPECT_EQ(a.heap.realloc(p, 200), p);  // takes part of q's hole
    EXPECT_TRUE(a.heap.owns(r));
    void *fill = a.heap.alloc(64);         // the remainder of the hole is still usable
    EXPECT_GT(reinterpret_cast<uintptr_t>(fill), reinterpret_cast<uintptr_t>(p));
    EXPECT_LT(reinterpret_cast<uintptr_t>(fill), reinterpret_cast<uintptr_t>(r));
}

// Random collective sequences against a model: live blocks never overlap, contents survive, and freeing
// everything returns the heap to empty.
TEST(BrkHeap, RandomSequencesKeepTheInvariants)
{
    std::mt19937 rng(12345);
    for (int run = 0; run < 50; ++run) {
        Arena a;
        struct Live {
            unsigned char *p;
            size_t n;
            unsigned char tag;
        };
        std::vector<Live> live;
        for (int step = 0; step < 400; ++step) {
            int op = static_cast<int>(rng() % 3);
            if (op == 0 || live.empty()) {
                size_t n = 1 + rng() % 700, align = size_t(1) << (rng() % 9);
                auto *p = static_cast<unsigned char *>(a.heap.alloc(n, align));
                if (p == nullptr) continue;
                ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u);
                for (auto &l : live) ASSERT_TRUE(p + n <= l.p || l.p + l.n <= p) << "overlap";
                unsigned char tag = static_cast<unsigned char>(rng());
                std::memset(p, tag, n);
                live.push_back({p, n, tag});
            } else if (op == 1) {
                size_t k = rng() % live.size();
                ASSERT_TRUE(a.heap.owns(live[k].p));
                a.heap.free(live[k].p);
                live.erase(live.begin() + static_cast<long>(k));
            } else {
                size_t k = rng() % live.size(), n = 1 + rng() % 900;
                auto *p = static_cast<unsigned char *>(a.heap.realloc(live[k].p, n));
                if (p == nullptr) continue;
                for (size_t i = 0; i < std::min(n, live[k].n); ++i) ASSERT_EQ(p[i], live[k].tag);
                std::memset(p, live[k].tag, n);
                live[k].p = p;
                live[k].n = n;
            }
            for (auto &l : live)
                for (size_t i = 0; i < l.n; i += 7) ASSERT_EQ(l.p[i], l.tag) << "block damaged";
        }
        for (auto &l : live) a.heap.free(l.p);
        EXPECT_EQ(a.heap.brk(), a.lo()) << "run " << run;
    }
}

}  // namespace

// ---- guarded mode (the library's builds with checks) --------------------------------------------------------

namespace {

struct GuardedArena {
    alignas(4096) unsigned char bytes[1 << 16];
    BrkHeap heap;
    GuardedArena() { heap.init(reinterpret_cast<uintptr_t>(bytes), reinterpret_cast<uintptr_t>(bytes) + sizeof bytes, true); }
};

using Damage = BrkHeap::Damage;
using Fit = BrkHeap::Fit;

TEST(GuardedHeap, CleanHeapVerifies)
{
    GuardedArena a;
    void *p = a.heap.alloc(32), *q = a.heap.alloc(100), *r = a.heap.alloc(7);
    ASSERT_TRUE(p && q && r);
    std::memset(p, 1, 32);
    std::memset(q, 2, 100);
    std::memset(r, 3, 7);
    EXPECT_EQ(a.heap.verify().damage, Damage::none);
    EXPECT_EQ(a.heap.size_of(p), 32u);
    EXPECT_EQ(a.heap.size_of(q), 112u);  // rounded to 16: what the program may use
    a.heap.free(q);
    EXPECT_EQ(a.heap.verify().damage, Damage::none);
    void *s = a.heap.realloc(p, 20);
    EXPECT_EQ(s, p);
    EXPECT_EQ(a.heap.verify().damage, Damage::none);
}

// A hole whose payload is not aligned as asked still serves an aligned request that fits in it: its front stays a
// (smaller) hole, the aligned rest is the block, and the heap stays whole (linux: shmem_malloc aligns to 64).
TEST(GuardedHeap, AnUnalignedHoleServesAnAlignedRequest)
{
    for (bool guarded : {false, true}) {
        GuardedArena a;
        a.heap.init(reinterpret_cast<uintptr_t>(a.bytes), reinterpret_cast<uintptr_t>(a.bytes) + sizeof a.bytes, guarded);
        // a first block sized so that the second one's payload (the hole-to-be) is not 64-aligned
        void *p = nullptr, *q = nullptr;
        for (size_t first = 16; first <= 64; first += 16) {
            a.heap.init(reinterpret_cast<uintptr_t>(a.bytes), reinterpret_cast<uintptr_t>(a.bytes) + sizeof a.bytes, guarded);
            p = a.heap.alloc(first);
            q = a.heap.alloc(1000);
            if (reinterpret_cast<uintptr_t>(q) % 64 != 0) break;
        }
        void *r = a.heap.alloc(16);
        ASSERT_TRUE(p && q && r);
        ASSERT_NE(reinterpret_cast<uintptr_t>(q) % 64, 0u);
        a.heap.free(q);
        const uintptr_t hole = reinterpret_cast<uintptr_t>(q);
        void *s = a.heap.alloc(512, 64);
        ASSERT_NE(s, nullptr);
        const uintptr_t got = reinterpret_cast<uintptr_t>(s);
        EXPECT_EQ(got % 64, 0u);
        EXPECT_GE(got, hole + 16);      // after the front hole's header at least
        EXPECT_LE(got + 512, hole + 1008) << "inside the hole";
        std::memset(s, 5, 512);
        EXPECT_EQ(a.heap.verify().damage, Damage::none) << "guarded " << guarded;
        // a small request goes to the front part if it fits there, else after the aligned block: never into it
        void *t = a.heap.alloc(16);
        ASSERT_NE(t, nullptr);
        EXPECT_TRUE(reinterpret_cast<uintptr_t>(t) + 16 <= got || reinterpret_cast<uintptr_t>(t) >= got + 512);
        a.heap.free(s);
        a.heap.free(t);
        EXPECT_EQ(a.heap.verify().damage, Damage::none);
        void *u = a.heap.alloc(1000);  // everything merged back: the whole hole again
        EXPECT_EQ(u, q);
    }
}

TEST(GuardedHeap, OverrunIsFoundInTheBlockThatOverran)
{
    // 8 longs put into a block of 4: the red zone of that block, not the next one's header, is reported.
    GuardedArena a;
    auto *p = static_cast<unsigned char *>(a.heap.alloc(32));
    void *q = a.heap.alloc(32);
    ASSERT_TRUE(p && q);
    std::memset(p, 7, 64);
    const BrkHeap::Problem pr = a.heap.verify();
    EXPECT_EQ(pr.damage, Damage::overrun);
    EXPECT_EQ(pr.block, reinterpret_cast<uintptr_t>(p));
    EXPECT_EQ(pr.size, 32u);
    EXPECT_EQ(pr.offset, 32u);  // the first byte past the block
}

TEST(GuardedHeap, OverwrittenHeaderIsRecognised)
{
    GuardedArena a;
    void *p = a.heap.alloc(32);
    auto *q = static_cast<unsigned char *>(a.heap.alloc(32));
    ASSERT_TRUE(p && q);
    q[-8] ^= 1;  // one bit of q's header (a stray write, not an overrun)
    const BrkHeap::Problem pr = a.heap.verify();
    EXPECT_EQ(pr.damage, Damage::header);
    EXPECT_EQ(pr.block, reinterpret_cast<uintptr_t>(q));
    EXPECT_FALSE(a.heap.owns(q));
}

TEST(GuardedHeap, WriteAfterFreeIsFoundAndPutsIntoHolesAreRefused)
{
    GuardedArena a;
    auto *p = static_cast<unsigned char *>(a.heap.alloc(64));
    void *q = a.heap.alloc(64);
    ASSERT_TRUE(p && q);
    const auto at = [](const void *x, size_t off = 0) { return reinterpret_cast<uintptr_t>(x) + off; };
    EXPECT_EQ(a.heap.locate(at(p), 8).fit, Fit::inside);
    a.heap.free(p);
    const BrkHeap::Place hole = a.heap.locate(at(p, 8), 8);
    EXPECT_EQ(hole.fit, Fit::freed);
    EXPECT_EQ(hole.block, at(p));
    EXPECT_GE(hole.size, 64u);
    EXPECT_EQ(a.heap.locate(at(q), 8).fit, Fit::inside);
    p[10] = 42;  // a store into the freed block
    const BrkHeap::Problem pr = a.heap.verify();
    EXPECT_EQ(pr.damage, Damage::use_after_free);
    EXPECT_EQ(pr.block, at(p));
    EXPECT_EQ(pr.offset, 10u);
}

// A put's or get's range must lie inside one live block: locate() says where it lies, fits_fast() knows the block
// locate() last found and nothing else of the heap, and forgets it when the blocks change.
TEST(GuardedHeap, RangesAreInsideOneLiveBlock)
{
    GuardedArena a;
    const auto at = [](const void *x, size_t off = 0) { return reinterpret_cast<uintptr_t>(x) + off; };
    void *p = a.heap.alloc(32), *q = a.heap.alloc(32), *r = a.heap.alloc(40);
    ASSERT_TRUE(p && q && r);
    // below the heap and above the break: not the heap's business
    EXPECT_TRUE(a.heap.fits_fast(a.heap.lo() - 64, 64));
    EXPECT_TRUE(a.heap.fits_fast(a.heap.brk(), 8));
    EXPECT_EQ(a.heap.locate(a.heap.lo() - 64, 64).fit, Fit::inside);
    const BrkHeap::Place below = a.heap.locate(a.heap.lo() - 8, 16);
    EXPECT_EQ(below.fit, Fit::below);
    EXPECT_EQ(below.block, a.heap.lo());
    // inside: then the block is known, and only it
    EXPECT_FALSE(a.heap.fits_fast(at(q), 32));
    EXPECT_EQ(a.heap.locate(at(q), 32).fit, Fit::inside);
    EXPECT_TRUE(a.heap.fits_fast(at(q), 32));
    EXPECT_TRUE(a.heap.fits_fast(at(q, 24), 8));
    EXPECT_FALSE(a.heap.fits_fast(at(q), 33));
    EXPECT_FALSE(a.heap.in_seen(at(q), ~size_t(0) - 8));  // a count that wraps the sum
    EXPECT_FALSE(a.heap.in_seen(at(q, 32), 0));            // the block's end is not in it
    EXPECT_FALSE(a.heap.fits_fast(at(p), 8));
    // one byte past the end, a start in the red zone, a range over the next block, a start in a header
    BrkHeap::Place pl = a.heap.locate(at(q), 33);
    EXPECT_EQ(pl.fit, Fit::past_end);
    EXPECT_EQ(pl.block, at(q));
    EXPECT_EQ(pl.size, 32u);
    EXPECT_EQ(a.heap.locate(at(q, 32), 8).fit, Fit::past_end);
    EXPECT_EQ(a.heap.locate(at(p), 128).fit, Fit::past_end);
    pl = a.heap.locate(at(q) - 8, 8);
    EXPECT_EQ(pl.fit, Fit::header);
    EXPECT_EQ(pl.block, at(q));
    // a block of 40 bytes may use 48 (its size rounded up to 16)
    EXPECT_EQ(a.heap.locate(at(r), 48).fit, Fit::inside);
    EXPECT_EQ(a.heap.locate(at(r), 49).fit, Fit::past_end);
    // the known block is forgotten when the blocks change
    EXPECT_TRUE(a.heap.fits_fast(at(r), 48));
    a.heap.free(q);
    EXPECT_FALSE(a.heap.fits_fast(at(r), 48));
    EXPECT_EQ(a.heap.locate(at(q), 8).fit, Fit::freed);
    // a damaged header ends the walk
    reinterpret_cast<unsigned char *>(r)[-8] ^= 1;
    EXPECT_EQ(a.heap.locate(at(r), 8).fit, Fit::damaged);
}

TEST(GuardedHeap, RandomSequencesStayClean)
{
    GuardedArena a;
    std::mt19937 rng(7);
    std::vector<std::pair<unsigned char *, size_t>> live;
    for (int step = 0; step < 3000; ++step) {
        const unsigned op = rng() % 3;
        if (op == 0 || live.empty()) {
            const size_t size = 1 + rng() % 300;
            auto *p = static_cast<unsigned char *>(a.heap.alloc(size, size_t(16) << (rng() % 3)));
            if (p) {
                std::memset(p, int(step), size);
                live.push_back({p, size});
            }
        } else if (op == 1) {
            const size_t i = rng() % live.size();
            a.heap.free(live[i].first);
            live.erase(live.begin() + long(i));
        } else {
            const size_t i = rng() % live.size();
            const size_t size = 1 + rng() % 400;
            auto *p = static_cast<unsigned char *>(a.heap.realloc(live[i].first, size));
            if (p) {
                std::memset(p, int(step), size);
                live[i] = {p, size};
            }
        }
        ASSERT_EQ(a.heap.verify().damage, Damage::none) << "step " << step;
        for (auto &[p, size] : live) ASSERT_TRUE(a.heap.owns(p));
    }
}

}  // namespace

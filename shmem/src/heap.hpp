// The symmetric heap's allocator: brk-style, after ARL, with the holes handled.
//
// Pure logic over a byte range: no port, no barrier, no output, so the host's unit tests run it as it is.
// Every PE makes the same sequence of calls (the allocation routines are collective), so every PE's heap has
// the same layout and a block's offset is symmetric.
//
// Layout: [header|payload][header|payload]... from lo up to the break; free space from the break to hi.
// A header is 16 bytes: the payload size (a multiple of 16) with a "free" bit, and the size of the previous
// block (header included, 0 for the first) with a magic value in its top 16 bits, which is how shmem_free
// recognises a pointer it did not hand out. Invariants:
//   - blocks tile [lo, brk) exactly; payloads are at least 16-byte aligned;
//   - no two adjacent blocks are free (free() merges), and the last block is never free (the break moves back
//     over it), so freeing the last block reclaims every free block below it as well;
//   - a free block is reused (first fit, split when the rest can hold a block) before the break grows.
//
// Guarded mode (init(..., true): the library's builds with argument checks) adds what catches a program that
// writes where it should not:
//   - every live block has a red zone: its payload is its size rounded up to 16, plus 16 bytes or more of guard
//     (guard_byte), whose length in 16-byte units is in bits 1-2 of the size word;
//   - the magic of every header is a check value of the header's address, its size word and its predecessor
//     distance, so a header that something overwrote is recognised as such;
//   - free blocks are poisoned (free_byte), and the poison is checked when a hole is reused;
//   - the usable part of the block a range was last found in is kept (seen_lo, seen_hi), so that the check of a
//     put's or get's range (fits_fast, else locate) costs a few compares when it lies in that block again, or
//     outside the heap's blocks.
// verify() walks the heap and returns the first damage it finds; locate() says where a range lies.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace shmem::detail {

class BrkHeap {
public:
    static constexpr size_t header_size = 16;
    static constexpr size_t min_align = 16;
    static constexpr size_t guard_size = 16;
    static constexpr unsigned char guard_byte = 0xfd;  // a live block's red zone
    static constexpr unsigned char free_byte = 0xdd;   // a free block's poison
    static constexpr size_t poison_checked = 1024;     // verify() checks this much of each free block

    void init(uintptr_t lo, uintptr_t hi, bool guarded = false)
    {
        lo_ = align_up(lo, min_align);
        hi_ = hi & ~uintptr_t(min_align - 1);
        if (hi_ < lo_) hi_ = lo_;
        brk_ = lo_;
        last_ = 0;
        guarded_ = guarded;
        forget_seen();
    }

    // What verify() found: the block (its payload and payload size), the kind of damage and the offset in the
    // payload of the first damaged byte (for a header: the header's own address is payload - header_size).
    enum class Damage { none, header, overrun, use_after_free };
    struct Problem {
        Damage damage = Damage::none;
        uintptr_t block = 0;  // payload address
        size_t size = 0;      // payload bytes the program may use (rounded to 16), or the free block's size
        size_t offset = 0;    // first damaged byte, from block
    };

    // Guarded mode: the first damage in the heap, in address order (Damage::none if there is none). A header that
    // fails its check ends the walk: the sizes after it cannot be trusted.
    Problem verify() const
    {
        Problem p;
        if (!guarded_) return p;
        for (uintptr_t h = lo_; h < brk_; h = next(h)) {
            if (!sealed(h) || next(h) > brk_ || next(h) <= h) {
                p.damage = Damage::header, p.block = payload(h), p.size = 0, p.offset = 0;
                return p;
            }
            const unsigned char *b = reinterpret_cast<const unsigned char *>(payload(h));
            if (is_free(h)) {
                // the poison of the first poison_checked bytes of each free block: a walk at every allocation
                // call must not cost the size of a large hole
                const size_t checked = payload_size(h) < poison_checked ? payload_size(h) : poison_checked;
                for (size_t i = 0; i < checked; ++i)
                    if (b[i] != free_byte) {
                        p.damage = Damage::use_after_free, p.block = payload(h), p.size = payload_size(h);
                        p.offset = i;
                        return p;
                    }
            } else {
                const size_t usable = usable_size(h);
                for (size_t i = usable; i < payload_size(h); ++i)
                    if (b[i] != guard_byte) {
                        p.damage = Damage::overrun, p.block = payload(h), p.size = usable, p.offset = i;
                        return p;
                    }
            }
        }
        return p;
    }

    // Guarded mode, the fast test of a range the library is asked to put into or get from ([a, a + bytes), which
    // does not wrap): true if it needs no closer look, because it lies wholly outside the blocks [lo, brk), or
    // inside the usable part of the block locate() last found a range in. Else locate() says where it lies.
    bool fits_fast(uintptr_t a, size_t bytes) const { return in_seen(a, bytes) || outside_blocks(a, bytes); }
    // Its two halves: inside the usable part of the block locate() last found a range in (which is symmetric memory
    // too: a check that finds a range there needs no other), and wholly outside the blocks.
    // (Without the sum a + bytes: a count that wraps it must not pass.)
    bool in_seen(uintptr_t a, size_t bytes) const
    {
        return a - seen_lo_ < seen_hi_ - seen_lo_ && bytes <= seen_hi_ - a;
    }
    bool outside_blocks(uintptr_t a, size_t bytes) const { return a >= brk_ || a + bytes <= lo_; }
    // Where [a, a + bytes) lies in the heap (bytes > 0): inside a live block (Fit::inside, and that block becomes
    // the one fits_fast knows), or where it must not: past a live block's end (starting inside it or in its red
    // zone), in a header, in a free block, from below lo into the blocks, or in a damaged heap (a header that fails
    // its check: the sizes after it cannot be trusted). block/size: the block's payload and usable size (a free
    // block's payload size), or for Fit::below the heap's start.
    enum class Fit { inside, past_end, header, freed, below, damaged };
    struct Place {
        Fit fit = Fit::inside;
        uintptr_t block = 0;
        size_t size = 0;
    };
    Place locate(uintptr_t a, size_t bytes) const
    {
        Place p;
        if (a < lo_) {  // (no sum a + bytes anywhere here: a count may be near SIZE_MAX)
            p.fit = bytes > lo_ - a ? Fit::below : Fit::inside, p.block = lo_;
            return p;
        }
        for (uintptr_t h = lo_; h < brk_; h = next(h)) {
            if (guarded_ && (!sealed(h) || next(h) > brk_ || next(h) <= h)) {
                p.fit = Fit::damaged, p.block = payload(h);
                return p;
            }
            if (a >= next(h)) continue;
            p.block = payload(h);
            if (a < payload(h)) {
                p.fit = Fit::header, p.size = is_free(h) ? payload_size(h) : usable_size(h);
            } else if (is_free(h)) {
                p.fit = Fit::freed, p.size = payload_size(h);
            } else {
                p.size = usable_size(h);
                const size_t at = a - payload(h);
                if (at >= p.size || bytes > p.size - at) {
                    p.fit = Fit::past_end;
                } else {
                    seen_lo_ = payload(h), seen_hi_ = payload(h) + p.size;
                }
            }
            return p;
        }
        return p;  // at or above the break: not the heap's business (the caller's symmetry check)
    }
    bool guarded() const { return guarded_; }

    uintptr_t lo() const { return lo_; }
    uintptr_t hi() const { return hi_; }
    uintptr_t brk() const { return brk_; }
    size_t free_bytes_at_top() const { return hi_ - brk_; }

    // A block of at least `size` bytes whose payload is aligned to `align` (a power of two), or nullptr if
    // there is no room. size 0 yields nullptr.
    void *alloc(size_t size, size_t align = min_align)
    {
        forget_seen();
        if (size == 0 || size > hi_ - lo_ - guard()) return nullptr;
        if (align < min_align) align = min_align;
        const size_t need = align_up(size, min_align) + guard();
        // first fit among the holes; a hole whose payload is not aligned keeps its front part as a smaller hole
        // (its header at least) and gives the aligned rest
        for (uintptr_t h = lo_; h < brk_; h = next(h)) {
            if (!is_free(h) || payload_size(h) < need) continue;
            const uintptr_t p0 = payload(h), end = p0 + payload_size(h);
            const uintptr_t a = (p0 & (align - 1)) == 0 ? p0 : align_up(p0 + header_size, align);
            if (a > end || end - a < need) continue;
            if (a != p0) {
                const uintptr_t g = a - header_size;
                const bool was_last = next(h) == brk_;
                set_size(h, g - p0, true);
                set_size(g, end - a, true);
                set_prev(g, g - h);
                if (was_last)
                    last_ = g;
                else
                    set_prev(next(g), next(g) - g);
                h = g;
            }
            set_size(h, payload_size(h), false);
            split(h, need);
            arm(h, size);
            return reinterpret_cast<void *>(payload(h));
        }
        // at the break; alignment padding in front becomes a free block (at least a header: all multiples of 16)
        uintptr_t h = align_up(brk_ + header_size, align) - header_size;
        if (h > hi_ || hi_ - h < header_size || hi_ - h - header_size < need) return nullptr;
        if (h != brk_) {
            uintptr_t pad = brk_;
            append(pad, h - pad - header_size, true);
            poison(pad);
        }
        append(h, need, false);
        arm(h, size);
        return reinterpret_cast<void *>(payload(h));
    }

    // Is `p` the payload of a live block?
    bool owns(const void *p) const
    {
        uintptr_t a = reinterpret_cast<uintptr_t>(p);
        if (a < lo_ + header_size || a >= brk_ || (a & (min_align - 1)) != 0) return false;
        uintptr_t h = a - header_size;
        if (!sealed(h) || is_free(h)) return false;
        if (prev_total(h) > h - lo_) return false;
        if (next(h) > brk_) return false;
        return next(h) == brk_ || prev_total(next(h)) == next(h) - h;
    }

    // Size of a live block's payload that the program may use (what realloc may keep).
    size_t size_of(const void *p) const { return usable_size(reinterpret_cast<uintptr_t>(p) - header_size); }

    // Frees a live block (the caller checked owns()).
    void free(void *p)
    {
        uintptr_t h = reinterpret_cast<uintptr_t>(p) - header_size;
        forget_seen();
        set_size(h, payload_size(h), true);
        poison(h);
        h = merge_around(h);
        if (next(h) == brk_) drop_last(h);
    }

    // Resizes a live block in place when it can (shrink, grow into a free neighbour or at the break), else
    // moves it to a new block aligned to `align` and copies the old contents. nullptr (old block untouched) if
    // there is no room.
    void *realloc(void *p, size_t size, size_t align = min_align)
    {
        uintptr_t h = reinterpret_cast<uintptr_t>(p) - header_size;
        forget_seen();
        if (size > hi_ - lo_ - guard()) return nullptr;
        const size_t need = align_up(size, min_align) + guard();
        const size_t kept = usable_size(h) < size ? usable_size(h) : size;  // contents that survive
        if (need <= payload_size(h)) {
            set_size(h, payload_size(h), false);
            split(h, need);
            arm(h, size);
            return p;
        }
        if (next(h) == brk_) {  // last block: move the break
            if (hi_ - payload(h) < need) return nullptr;
            set_size(h, need, false);
            brk_ = next(h);
            arm(h, size);
            return p;
        }
        uintptr_t n = next(h);
        if (is_free(n) && payload_size(h) + header_size + payload_size(n) >= need) {
            absorb_next(h);
            set_size(h, payload_size(h), false);
            split(h, need);
            arm(h, size);
            return p;
        }
        void *q = alloc(size, align);
        if (q == nullptr) return nullptr;
        memcpy(q, p, kept);
        free(p);
        return q;
    }

private:
    static constexpr uint64_t magic_value = 0x5348;  // "SH"
    static constexpr uint64_t free_bit = 1;
    static constexpr uint64_t size_flags = 7;  // bit 0: free; bits 1-2: guard units (guarded live blocks)

    static uintptr_t align_up(uintptr_t v, size_t a) { return (v + a - 1) & ~uintptr_t(a - 1); }

    static uint64_t *hdr(uintptr_t h) { return reinterpret_cast<uint64_t *>(h); }
    static size_t payload_size(uintptr_t h) { return size_t(hdr(h)[0] & ~size_flags); }
    static size_t guard_units(uintptr_t h) { return size_t(hdr(h)[0] >> 1) & 3; }
    // What the program may use of a live block: the payload without its red zone.
    static size_t usable_size(uintptr_t h) { return payload_size(h) - guard_units(h) * guard_size; }
    static bool is_free(uintptr_t h) { return (hdr(h)[0] & free_bit) != 0; }
    static size_t prev_total(uintptr_t h) { return size_t(hdr(h)[1] & ((uint64_t(1) << 48) - 1)); }
    static uint64_t magic(uintptr_t h) { return hdr(h)[1] >> 48; }
    // The check value of header h: "SH" mixed with the header's address, size word and predecessor distance.
    static uint64_t check_value(uintptr_t h)
    {
        uint64_t x = uint64_t(h) ^ (hdr(h)[0] * 0x9e3779b97f4a7c15ull) ^ ((hdr(h)[1] & ((uint64_t(1) << 48) - 1)) << 7);
        x ^= x >> 29;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 32;
        return (magic_value ^ x) & 0xffff;
    }
    static bool sealed(uintptr_t h) { return magic(h) == check_value(h); }
    static void seal(uintptr_t h)
    {
        hdr(h)[1] = (hdr(h)[1] & ((uint64_t(1) << 48) - 1)) | (check_value(h) << 48);
    }
    size_t guard() const { return guarded_ ? guard_size : 0; }
    // Guarded mode: block h now holds a live payload of `size` bytes: the rest of its payload becomes red zone.
    void arm(uintptr_t h, size_t size)
    {
        if (!guarded_) return;
        const size_t usable = align_up(size, min_align);
        const size_t units = (payload_size(h) - usable) / guard_size;  // 1 or 2: split keeps less than 32 over
        hdr(h)[0] = (hdr(h)[0] & ~uint64_t(6)) | (uint64_t(units) << 1);
        seal(h);
        memset(reinterpret_cast<void *>(payload(h) + usable), guard_byte, payload_size(h) - usable);
    }
    // Guarded mode: a free block's payload is poison.
    void poison(uintptr_t h)
    {
        if (guarded_) memset(reinterpret_cast<void *>(payload(h)), free_byte, payload_size(h));
    }
    // Every change of the blocks forgets the block fits_fast knows (it may have moved, shrunk or gone).
    void forget_seen() const { seen_lo_ = seen_hi_ = 0; }
    static uintptr_t payload(uintptr_t h) { return h + header_size; }
    static uintptr_t next(uintptr_t h) { return h + header_size + payload_size(h); }
    static void set_size(uintptr_t h, size_t size, bool free)
    {
        hdr(h)[0] = uint64_t(size) | (free ? free_bit : 0);
        seal(h);
    }
    static void set_prev(uintptr_t h, size_t prev)
    {
        hdr(h)[1] = uint64_t(prev);
        seal(h);
    }

    // Writes a new block at the break (h >= brk_, which is where the last block ends).
    void append(uintptr_t h, size_t size, bool free)
    {
        set_size(h, size, free);
        set_prev(h, last_ == 0 ? 0 : h - last_);
        last_ = h;
        brk_ = next(h);
    }

    // Keeps `need` bytes of block h and turns the rest, if it can hold a block, into a free block.
    void split(uintptr_t h, size_t need)
    {
        size_t have = payload_size(h);
        if (have < need + header_size + min_align) return;
        bool was_free = is_free(h);
        set_size(h, need, was_free);
        uintptr_t rest = next(h);
        set_size(rest, have - need - header_size, true);
        set_prev(rest, rest - h);
        if (!was_free) poison(rest);  // a live block's tail (a hole's is poison already)
        if (rest + header_size + payload_size(rest) == brk_) {
            last_ = rest;
        } else {
            set_prev(next(rest), next(rest) - rest);
        }
        rest = merge_around(rest);
        if (next(rest) == brk_) drop_last(rest);
    }

    // Merges block h with a free next block (h keeps its free bit).
    void absorb_next(uintptr_t h)
    {
        uintptr_t n = next(h);
        bool n_last = next(n) == brk_;
        const bool h_free = is_free(h), n_free = is_free(n);
        set_size(h, payload_size(h) + header_size + payload_size(n), h_free);
        if (guarded_ && h_free && n_free) memset(reinterpret_cast<void *>(n), free_byte, header_size);
        if (n_last) {
            last_ = h;
        } else {
            set_prev(next(h), next(h) - h);
        }
    }

    // Merges free block h with free neighbours; returns the merged block.
    uintptr_t merge_around(uintptr_t h)
    {
        if (next(h) < brk_ && is_free(next(h))) absorb_next(h);
        if (h != lo_ && prev_total(h) != 0) {
            uintptr_t p = h - prev_total(h);
            if (is_free(p)) {
                absorb_next(p);
                h = p;
            }
        }
        return h;
    }

    // h is the last block and free: move the break back over it. Its predecessor is not free (merged).
    void drop_last(uintptr_t h)
    {
        brk_ = h;
        last_ = (h == lo_ || prev_total(h) == 0) ? 0 : h - prev_total(h);
    }

    uintptr_t lo_ = 0, hi_ = 0, brk_ = 0;
    uintptr_t last_ = 0;  // header of the last block, 0 if none
    bool guarded_ = false;
    // The usable part of the block locate() last found a range inside (empty: none): the locate() of a check is a
    // const question about the heap, and this is its memo.
    mutable uintptr_t seen_lo_ = 0, seen_hi_ = 0;
};

}  // namespace shmem::detail

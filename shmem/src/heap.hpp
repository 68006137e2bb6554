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
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace shmem::detail {

class BrkHeap {
public:
    static constexpr size_t header_size = 16;
    static constexpr size_t min_align = 16;

    void init(uintptr_t lo, uintptr_t hi)
    {
        lo_ = align_up(lo, min_align);
        hi_ = hi & ~uintptr_t(min_align - 1);
        if (hi_ < lo_) hi_ = lo_;
        brk_ = lo_;
        last_ = 0;
    }

    uintptr_t lo() const { return lo_; }
    uintptr_t hi() const { return hi_; }
    uintptr_t brk() const { return brk_; }
    size_t free_bytes_at_top() const { return hi_ - brk_; }

    // A block of at least `size` bytes whose payload is aligned to `align` (a power of two), or nullptr if
    // there is no room. size 0 yields nullptr.
    void *alloc(size_t size, size_t align = min_align)
    {
        if (size == 0 || size > hi_ - lo_) return nullptr;
        if (align < min_align) align = min_align;
        const size_t need = align_up(size, min_align);
        // first fit among the holes
        for (uintptr_t h = lo_; h < brk_; h = next(h)) {
            if (!is_free(h) || payload_size(h) < need || (payload(h) & (align - 1)) != 0) continue;
            set_size(h, payload_size(h), false);
            split(h, need);
            return reinterpret_cast<void *>(payload(h));
        }
        // at the break; alignment padding in front becomes a free block (at least a header: all multiples of 16)
        uintptr_t h = align_up(brk_ + header_size, align) - header_size;
        if (h > hi_ || hi_ - h < header_size || hi_ - h - header_size < need) return nullptr;
        if (h != brk_) {
            uintptr_t pad = brk_;
            append(pad, h - pad - header_size, true);
        }
        append(h, need, false);
        return reinterpret_cast<void *>(payload(h));
    }

    // Is `p` the payload of a live block?
    bool owns(const void *p) const
    {
        uintptr_t a = reinterpret_cast<uintptr_t>(p);
        if (a < lo_ + header_size || a >= brk_ || (a & (min_align - 1)) != 0) return false;
        uintptr_t h = a - header_size;
        if (magic(h) != magic_value || is_free(h)) return false;
        if (prev_total(h) > h - lo_) return false;
        if (next(h) > brk_) return false;
        return next(h) == brk_ || prev_total(next(h)) == next(h) - h;
    }

    // Size of a live block's payload (what realloc may keep).
    size_t size_of(const void *p) const { return payload_size(reinterpret_cast<uintptr_t>(p) - header_size); }

    // Frees a live block (the caller checked owns()).
    void free(void *p)
    {
        uintptr_t h = reinterpret_cast<uintptr_t>(p) - header_size;
        set_size(h, payload_size(h), true);
        h = merge_around(h);
        if (next(h) == brk_) drop_last(h);
    }

    // Resizes a live block in place when it can (shrink, grow into a free neighbour or at the break), else
    // moves it to a new block and copies the old contents. nullptr (old block untouched) if there is no room.
    void *realloc(void *p, size_t size)
    {
        uintptr_t h = reinterpret_cast<uintptr_t>(p) - header_size;
        const size_t need = align_up(size, min_align);
        if (size > hi_ - lo_) return nullptr;
        if (need <= payload_size(h)) {
            split(h, need);
            return p;
        }
        if (next(h) == brk_) {  // last block: move the break
            if (hi_ - payload(h) < need) return nullptr;
            set_size(h, need, false);
            brk_ = next(h);
            return p;
        }
        uintptr_t n = next(h);
        if (is_free(n) && payload_size(h) + header_size + payload_size(n) >= need) {
            absorb_next(h);
            split(h, need);
            return p;
        }
        void *q = alloc(size);
        if (q == nullptr) return nullptr;
        memcpy(q, p, payload_size(h));
        free(p);
        return q;
    }

private:
    static constexpr uint64_t magic_value = 0x5348;  // "SH"
    static constexpr uint64_t free_bit = 1;

    static uintptr_t align_up(uintptr_t v, size_t a) { return (v + a - 1) & ~uintptr_t(a - 1); }

    static uint64_t *hdr(uintptr_t h) { return reinterpret_cast<uint64_t *>(h); }
    static size_t payload_size(uintptr_t h) { return size_t(hdr(h)[0] & ~free_bit); }
    static bool is_free(uintptr_t h) { return (hdr(h)[0] & free_bit) != 0; }
    static size_t prev_total(uintptr_t h) { return size_t(hdr(h)[1] & ((uint64_t(1) << 48) - 1)); }
    static uint64_t magic(uintptr_t h) { return hdr(h)[1] >> 48; }
    static uintptr_t payload(uintptr_t h) { return h + header_size; }
    static uintptr_t next(uintptr_t h) { return h + header_size + payload_size(h); }
    static void set_size(uintptr_t h, size_t size, bool free) { hdr(h)[0] = uint64_t(size) | (free ? free_bit : 0); }
    static void set_prev(uintptr_t h, size_t prev) { hdr(h)[1] = (magic_value << 48) | uint64_t(prev); }

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
        set_size(h, payload_size(h) + header_size + payload_size(n), is_free(h));
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
};

}  // namespace shmem::detail

// The put/get copy of the TILE port, as a template over the machine word (TILE-Gx: 8-byte ld/st; TILEPro: 4-byte
// lw/sw), so that the host's unit tests run the very code the tiles do (port/tile/tests/test_tile_port.cpp).
//
// Remote memory is plain coherent memory: put (local loads, remote stores) and get (remote loads, local stores)
// are the same loop. When dst and src agree modulo the word size the body moves four words per iteration, loads
// first and stores after, which GCC packs into bundles (TILE-Gx issues a load and a store per cycle, two of the
// three pipes). Other alignments build each destination word from two aligned source words (little-endian), so
// no misaligned access is ever issued: TILE traps on one. The aligned loads may touch up to W-1 bytes outside
// [src, src + n), but never outside the words that hold its first and last byte, so never outside mapped memory.
// Source and destination of a put or get never overlap; the loops go strictly upwards (memmove relies on it).
//
// Compiled with -fno-builtin and -fno-tree-loop-distribute-patterns (shmem/CMakeLists.txt): otherwise GCC may turn
// the loops back into a call to memcpy, which is this.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace shmem::port::tile_copy {

template <class Word>
inline void copy(void *dst, const void *src, size_t n)
{
    constexpr size_t W = sizeof(Word);
    auto *d = static_cast<unsigned char *>(dst);
    const auto *s = static_cast<const unsigned char *>(src);
    if (n >= W) {
        // head: bytes until dst is word-aligned
        while ((reinterpret_cast<uintptr_t>(d) & (W - 1)) != 0) {
            *d++ = *s++;
            --n;
        }
        auto *dw = reinterpret_cast<Word *>(d);
        const size_t words = n / W;
        if ((reinterpret_cast<uintptr_t>(s) & (W - 1)) == 0) {
            const auto *sw = reinterpret_cast<const Word *>(s);
            size_t i = 0;
            for (; i + 4 <= words; i += 4) {
                const Word a = sw[i], b = sw[i + 1], c = sw[i + 2], e = sw[i + 3];
                dw[i] = a;
                dw[i + 1] = b;
                dw[i + 2] = c;
                dw[i + 3] = e;
            }
            for (; i < words; ++i) dw[i] = sw[i];
        } else {
            const unsigned shift = unsigned(reinterpret_cast<uintptr_t>(s) & (W - 1)) * 8;  // never 0 here
            const auto *sw = reinterpret_cast<const Word *>(reinterpret_cast<uintptr_t>(s) & ~uintptr_t(W - 1));
            Word lo = *sw++;
            for (size_t i = 0; i < words; ++i) {
                const Word hi = *sw++;
                dw[i] = Word(lo >> shift) | Word(hi << (8 * W - shift));
                lo = hi;
            }
        }
        d += words * W;
        s += words * W;
        n -= words * W;
    }
    while (n-- != 0) *d++ = *s++;
}

template <class Word>
inline void fill(void *dst, unsigned char b, size_t n)
{
    constexpr size_t W = sizeof(Word);
    auto *d = static_cast<unsigned char *>(dst);
    while (n != 0 && (reinterpret_cast<uintptr_t>(d) & (W - 1)) != 0) {
        *d++ = b;
        --n;
    }
    const Word w = Word(Word(~Word(0)) / 0xff) * b;  // b in every byte
    auto *dw = reinterpret_cast<Word *>(d);
    for (; n >= 4 * W; n -= 4 * W, dw += 4) {
        dw[0] = w;
        dw[1] = w;
        dw[2] = w;
        dw[3] = w;
    }
    for (; n >= W; n -= W) *dw++ = w;
    d = reinterpret_cast<unsigned char *>(dw);
    while (n-- != 0) *d++ = b;
}

}  // namespace shmem::port::tile_copy

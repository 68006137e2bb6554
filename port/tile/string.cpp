// The copy loop (copy.hpp) as shmem_port_copy, and memcpy, memmove and memset for programs on this port: newlib's
// portable versions, built for size, move one byte per iteration. libshmem.a is searched before libc, so a
// program's calls, and the compiler's own (structure copies, zeroing), end here.
//
// Built with -fno-builtin and -fno-tree-loop-distribute-patterns (see shmem/CMakeLists.txt): otherwise the
// compiler may turn the loops back into calls to these very functions.
#include <stddef.h>
#include <stdint.h>

#include "copy.hpp"
#include "port.hpp"

using shmem::port::word_t;

extern "C" {

void shmem_port_copy(void *dst, const void *src, size_t n) { shmem::port::tile_copy::copy<word_t>(dst, src, n); }

void *memcpy(void *dst, const void *src, size_t n)
{
    shmem::port::tile_copy::copy<word_t>(dst, src, n);
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    auto *d = static_cast<unsigned char *>(dst);
    const auto *s = static_cast<const unsigned char *>(src);
    if (d == s || n == 0) return dst;
    if (d < s || s + n <= d) {
        // Disjoint, or copying downwards: the copy goes strictly upwards and reads each source word before it
        // writes the destination word at or below it.
        if (s + n <= d || d + n <= s) {
            shmem::port::tile_copy::copy<word_t>(dst, src, n);
        } else {
            for (size_t i = 0; i < n; ++i) d[i] = s[i];
        }
        return dst;
    }
    for (size_t i = n; i-- > 0;) d[i] = s[i];  // overlapping, upwards: from the end
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    shmem::port::tile_copy::fill<word_t>(dst, static_cast<unsigned char>(c), n);
    return dst;
}

}  // extern "C"

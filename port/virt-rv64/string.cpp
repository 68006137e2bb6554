// memcpy, memmove and memset for programs on this port. picolibc's versions for this target move one byte per
// iteration (about 6 instructions a byte); these use the port's copy loop (0.26 instructions a byte when source
// and destination agree modulo 8) and double-word stores. libshmem.a is searched before libc, so a program's
// calls, and the compiler's own (structure copies, zeroing), end here.
//
// Built with -fno-builtin and -fno-tree-loop-distribute-patterns (see shmem/CMakeLists.txt): otherwise the
// compiler may turn the loops below back into calls to these very functions.
#include <stddef.h>
#include <stdint.h>

#include "port.hpp"

extern "C" {

void *memcpy(void *dst, const void *src, size_t n)
{
    shmem::port::shmem_port_copy(dst, src, n);
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    auto *d = static_cast<unsigned char *>(dst);
    const auto *s = static_cast<const unsigned char *>(src);
    if (d == s || n == 0) return dst;
    if (d + n <= s || s + n <= d || d < s) {
        // Disjoint, or copying downwards: the forward copy never overwrites a byte it has still to read when
        // it goes strictly in address order, which is what the port's copy does for d < s.
        if (d + n <= s || s + n <= d) {
            shmem::port::shmem_port_copy(dst, src, n);
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
    auto *d = static_cast<unsigned char *>(dst);
    const unsigned char b = static_cast<unsigned char>(c);
    while (n != 0 && (reinterpret_cast<uintptr_t>(d) & 7) != 0) {
        *d++ = b;
        --n;
    }
    const uint64_t w = uint64_t(b) * 0x0101010101010101ull;
    auto *dw = reinterpret_cast<uint64_t *>(d);
    for (; n >= 32; n -= 32, dw += 4) {
        dw[0] = w;
        dw[1] = w;
        dw[2] = w;
        dw[3] = w;
    }
    for (; n >= 8; n -= 8) *dw++ = w;
    d = reinterpret_cast<unsigned char *>(dw);
    while (n-- != 0) *d++ = b;
    return dst;
}

}  // extern "C"

// shmem_port_copy: put and get. The aligned bulk goes through the hardware-loop body in copy.S; this part
// handles what is around it. Epiphany has no misaligned accesses (they raise a software exception), so data
// whose addresses differ modulo 8 moves in the widest unit both addresses allow: words, halves or bytes.
#include <stddef.h>
#include <stdint.h>

extern "C" {
struct CopyEnd {
    unsigned char *dst;
    const unsigned char *src;
};
CopyEnd shmem_port_copy_blocks(void *dst, const void *src, size_t blocks);  // blocks * 32 bytes, 8-aligned
void shmem_port_copy(void *dst, const void *src, size_t n);
}

namespace {
template <class T>
inline void copy_units(unsigned char *&d, const unsigned char *&s, size_t &n)
{
    size_t k = n / sizeof(T);
    auto *dt = reinterpret_cast<T *>(d);
    auto *st = reinterpret_cast<const T *>(s);
    for (size_t i = 0; i < k; ++i) dt[i] = st[i];
    d += k * sizeof(T);
    s += k * sizeof(T);
    n -= k * sizeof(T);
}
}  // namespace

void shmem_port_copy(void *dst, const void *src, size_t n)
{
    auto *d = static_cast<unsigned char *>(dst);
    auto *s = static_cast<const unsigned char *>(src);
    const uintptr_t diff = reinterpret_cast<uintptr_t>(d) ^ reinterpret_cast<uintptr_t>(s);
    if ((diff & 7) == 0) {
        while (n != 0 && (reinterpret_cast<uintptr_t>(d) & 7) != 0) {
            *d++ = *s++;
            --n;
        }
        if (n >= 32) {
            const CopyEnd e = shmem_port_copy_blocks(d, s, n / 32);
            d = e.dst;
            s = e.src;
            n &= 31;
        }
        copy_units<uint64_t>(d, s, n);
    } else if ((diff & 3) == 0) {
        while (n != 0 && (reinterpret_cast<uintptr_t>(d) & 3) != 0) {
            *d++ = *s++;
            --n;
        }
        copy_units<uint32_t>(d, s, n);
    } else if ((diff & 1) == 0) {
        if (n != 0 && (reinterpret_cast<uintptr_t>(d) & 1) != 0) {
            *d++ = *s++;
            --n;
        }
        copy_units<uint16_t>(d, s, n);
    }
    while (n-- != 0) *d++ = *s++;
}

// Remote memory access: put, get, p, g, strided, sized and non-blocking forms, for every type of the table.
//
// One template body per operation; the C entry points are generated from the type tables in
// shmem_type_tables.h. On a port without DMA, the _nbi forms complete before they return, which the
// specification allows (completion is only promised by shmem_quiet, and it may come earlier).
#include "internal.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {
namespace {

inline void check_rma(const char *routine, const char *arg, const void *symmetric, size_t bytes, int pe)
{
    check_init(routine);
    check_pe(routine, pe);
    check_symmetric(routine, arg, symmetric, bytes);
}

inline void put(const char *routine, void *dest, const void *source, size_t bytes, int pe)
{
    check_rma(routine, "dest", dest, bytes, pe);
    if (bytes == 0) return;
    port::put_bytes(port::remote_ptr(dest, pe), source, bytes);
    if (pe != port::my_pe()) port::notify(pe);
}

inline void get(const char *routine, void *dest, const void *source, size_t bytes, int pe)
{
    check_rma(routine, "source", source, bytes, pe);
    if (bytes == 0) return;
    port::get_bytes(dest, port::remote_ptr(source, pe), bytes);
}

// Strided: element i goes from source[i * sst] to dest[i * dst]. Elements are copied as whole objects of
// their size (T), so an element is never torn into bytes.
template <class T>
inline void iput(const char *routine, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)
{
    check_init(routine);
    check_pe(routine, pe);
    check_stride(routine, "dst", dst);
    check_stride(routine, "sst", sst);
    if (n == 0) return;
    check_symmetric(routine, "dest", dest, ((n - 1) * size_t(dst) + 1) * sizeof(T));
    T *remote = port::remote_ptr(dest, pe);
    for (size_t i = 0; i < n; ++i) remote[i * dst] = source[i * sst];
    if (pe != port::my_pe()) port::notify(pe);
}

template <class T>
inline void iget(const char *routine, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)
{
    check_init(routine);
    check_pe(routine, pe);
    check_stride(routine, "dst", dst);
    check_stride(routine, "sst", sst);
    if (n == 0) return;
    check_symmetric(routine, "source", source, ((n - 1) * size_t(sst) + 1) * sizeof(T));
    const T *remote = port::remote_ptr(source, pe);
    for (size_t i = 0; i < n; ++i) dest[i * dst] = remote[i * sst];
}

template <class T>
inline void p(const char *routine, T *dest, T value, int pe)
{
    check_rma(routine, "dest", dest, sizeof(T), pe);
    *port::remote_ptr(dest, pe) = value;
    if (pe != port::my_pe()) port::notify(pe);
}

template <class T>
inline T g(const char *routine, const T *source, int pe)
{
    check_rma(routine, "source", source, sizeof(T), pe);
    return *port::remote_ptr(source, pe);
}

// An element of the sized routines: its bytes, copied as one object (128 bits: two double words).
template <int Bits>
struct Sized {
    unsigned char b[Bits / 8];
};
template <>
struct Sized<8> {
    uint8_t v;
};
template <>
struct Sized<16> {
    uint16_t v;
};
template <>
struct Sized<32> {
    uint32_t v;
};
template <>
struct Sized<64> {
    uint64_t v;
};
template <>
struct alignas(8) Sized<128> {
    uint64_t v[2];
};

}  // namespace
}  // namespace shmem::detail

extern "C" {

#define SHMEM_DEFINE_RMA_(T, N)                                                                                 \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe)                                       \
    {                                                                                                             \
        put("shmem_" #N "_put", dest, source, nelems * sizeof(T), pe);                                          \
    }                                                                                                             \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe)                                       \
    {                                                                                                             \
        get("shmem_" #N "_get", dest, source, nelems * sizeof(T), pe);                                          \
    }                                                                                                             \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe)                                   \
    {                                                                                                             \
        put("shmem_" #N "_put_nbi", dest, source, nelems * sizeof(T), pe);                                      \
    }                                                                                                             \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe)                                   \
    {                                                                                                             \
        get("shmem_" #N "_get_nbi", dest, source, nelems * sizeof(T), pe);                                      \
    }                                                                                                             \
    void shmem_##N##_p(T *dest, T value, int pe) { p("shmem_" #N "_p", dest, value, pe); }                       \
    T shmem_##N##_g(const T *source, int pe) { return g("shmem_" #N "_g", source, pe); }                        \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)       \
    {                                                                                                             \
        iput("shmem_" #N "_iput", dest, source, dst, sst, nelems, pe);                                          \
    }                                                                                                             \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)       \
    {                                                                                                             \
        iget("shmem_" #N "_iget", dest, source, dst, sst, nelems, pe);                                          \
    }
SHMEM_RMA_TYPES(SHMEM_DEFINE_RMA_)
#undef SHMEM_DEFINE_RMA_

#define SHMEM_DEFINE_RMA_SIZE_(BITS)                                                                             \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe)                                 \
    {                                                                                                             \
        put("shmem_put" #BITS, dest, source, nelems * (BITS / 8), pe);                                          \
    }                                                                                                             \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe)                                 \
    {                                                                                                             \
        get("shmem_get" #BITS, dest, source, nelems * (BITS / 8), pe);                                          \
    }                                                                                                             \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe)                           \
    {                                                                                                             \
        put("shmem_put" #BITS "_nbi", dest, source, nelems * (BITS / 8), pe);                                   \
    }                                                                                                             \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe)                           \
    {                                                                                                             \
        get("shmem_get" #BITS "_nbi", dest, source, nelems * (BITS / 8), pe);                                   \
    }                                                                                                             \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)  \
    {                                                                                                             \
        using E = Sized<BITS>;                                                                                    \
        iput("shmem_iput" #BITS, static_cast<E *>(dest), static_cast<const E *>(source), dst, sst, nelems, pe); \
    }                                                                                                             \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)  \
    {                                                                                                             \
        using E = Sized<BITS>;                                                                                    \
        iget("shmem_iget" #BITS, static_cast<E *>(dest), static_cast<const E *>(source), dst, sst, nelems, pe); \
    }
SHMEM_RMA_SIZES(SHMEM_DEFINE_RMA_SIZE_)
#undef SHMEM_DEFINE_RMA_SIZE_

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    put("shmem_putmem", dest, source, nelems, pe);
}
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe)
{
    get("shmem_getmem", dest, source, nelems, pe);
}
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    put("shmem_putmem_nbi", dest, source, nelems, pe);
}
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    get("shmem_getmem_nbi", dest, source, nelems, pe);
}

}  // extern "C"

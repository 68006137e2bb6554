// Remote memory access: put, get, p, g, strided, sized and non-blocking forms, for every type of the table.
//
// One template body per operation; the C entry points are generated from the type tables in
// shmem_type_tables.h. On a port without DMA, the _nbi forms complete before they return, which the
// specification allows (completion is only promised by shmem_quiet, and it may come earlier). On a port with
// DMA (Epiphany), an _nbi transfer of port::dma_min bytes or more goes to a DMA channel of its context and
// returns at once; shmem_quiet waits for both channels, shmem_ctx_quiet for its context's.
#include "team.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {
namespace {

// Checks a transfer and returns the world PE of the context's `pe`. These bodies are forced inline into every
// entry point: the plain routines pass the constant SHMEM_CTX_DEFAULT, and only inlined does the context part
// of the check fold away (an out-of-line copy shared by all entry points cost 20-30 instructions a call).
[[gnu::always_inline]] inline int check_rma(const char *routine, shmem_ctx_t ctx, const char *arg, const void *symmetric, size_t bytes,
                     int pe)
{
    check_init(routine);
    pe = ctx_pe(routine, ctx, pe);
    check_symmetric(routine, arg, symmetric, bytes);
    return pe;
}

// The copy of a put and its notify, out of line: the fast path below calls it last (a tail call), so the entry
// points need no stack frame when the port copies small transfers inline.
[[gnu::noinline, maybe_unused]] void put_copy(void *dest_remote, const void *source, size_t bytes, int pe)
{
    port::put_bytes(dest_remote, source, bytes);
    notify_user_write(pe);
}

[[gnu::always_inline]] inline void put(const char *routine, shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                       size_t size, int pe)
{
    const size_t bytes = bytes_of(routine, "nelems", nelems, size);
    pe = check_rma(routine, ctx, "dest", dest, bytes, pe);
    if (by_network(pe)) return network_put(pe, dest, source, bytes);
    void *remote = port::remote_ptr(dest, pe);
    if constexpr (port::has_copy_inline) {
        // copy_inline takes no 0-byte transfer, so the test of 0 is off its path.
        if (port::copy_inline(remote, source, bytes)) {
            notify_user_write(pe);
            return;
        }
        if (bytes != 0) put_copy(remote, source, bytes, pe);
    } else {
        // put_bytes takes 0 bytes (port.hpp); a 0-byte put only must not wake its target
        if constexpr (port::user_writes_notify) {
            if (bytes == 0) return;
        }
        port::put_bytes(remote, source, bytes);
        notify_user_write(pe);
    }
}

// InFlight (get_nbi): a get from a PE beyond reach stays in flight until quiet.
template <bool InFlight = false>
[[gnu::always_inline]] inline void get(const char *routine, shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                       size_t size, int pe)
{
    const size_t bytes = bytes_of(routine, "nelems", nelems, size);
    pe = check_rma(routine, ctx, "source", source, bytes, pe);
    if (by_network(pe)) return InFlight ? network_get_nbi(dest, pe, source, bytes) : network_get(dest, pe, source, bytes);
    const void *remote = port::remote_ptr(source, pe);
    if constexpr (port::has_copy_inline) {
        if (!port::copy_inline(dest, remote, bytes) && bytes != 0) port::get_bytes(dest, remote, bytes);
    } else {
        port::get_bytes(dest, remote, bytes);  // (it takes 0 bytes: port.hpp)
    }
}

// Non-blocking: the port's DMA where it has one (templates: without DMA the branch is discarded, and dma_copy,
// declared by port.hpp, is never defined). No wake-up for the target: the data lands later; whoever waits for it
// is told by a put after shmem_quiet (or wakes on the port's backstop).
template <bool Dma = port::has_dma>
[[gnu::always_inline]] inline void put_nbi(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                                           size_t nelems, size_t size, int pe)
{
    if constexpr (Dma) {
        const size_t bytes = bytes_of(routine, "nelems", nelems, size);
        if (bytes >= port::dma_min) {
            pe = check_rma(routine, ctx, "dest", dest, bytes, pe);
            port::dma_copy(ctx_channel(ctx), port::remote_ptr(dest, pe), source, bytes);
            return;
        }
    }
    put(routine, ctx, dest, source, nelems, size, pe);
}

template <bool Dma = port::has_dma>
[[gnu::always_inline]] inline void get_nbi(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                                           size_t nelems, size_t size, int pe)
{
    if constexpr (Dma) {
        const size_t bytes = bytes_of(routine, "nelems", nelems, size);
        if (bytes >= port::dma_min) {
            pe = check_rma(routine, ctx, "source", source, bytes, pe);
            port::dma_copy(ctx_channel(ctx), dest, port::remote_ptr(source, pe), bytes);
            return;
        }
    }
    get<true>(routine, ctx, dest, source, nelems, size, pe);
}

// Strided: element i goes from source[i * sst] to dest[i * dst]. Elements are copied as whole objects of
// their size (T), so an element is never torn into bytes.
template <class T>
inline void iput(const char *routine, shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,
                 size_t n, int pe)
{
    check_init(routine);
    pe = ctx_pe(routine, ctx, pe);
    check_stride(routine, "dst", dst);
    check_stride(routine, "sst", sst);
    if (n == 0) return;
    check_symmetric(routine, "dest", dest, strided_extent(routine, n, "dst", dst, sizeof(T)));
    if (by_network(pe)) {
        for (size_t i = 0; i < n; ++i) network_put(pe, dest + i * dst, source + i * sst, sizeof(T));
        return;
    }
    T *remote = port::remote_ptr(dest, pe);
    for (size_t i = 0; i < n; ++i) remote[i * dst] = source[i * sst];
    notify_user_write(pe);
}

template <class T>
inline void iget(const char *routine, shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,
                 size_t n, int pe)
{
    check_init(routine);
    pe = ctx_pe(routine, ctx, pe);
    check_stride(routine, "dst", dst);
    check_stride(routine, "sst", sst);
    if (n == 0) return;
    check_symmetric(routine, "source", source, strided_extent(routine, n, "sst", sst, sizeof(T)));
    if (by_network(pe)) {  // every element's get in flight at once
        for (size_t i = 0; i < n; ++i) network_get_nbi(dest + i * dst, pe, source + i * sst, sizeof(T));
        return network_get_wait();
    }
    const T *remote = port::remote_ptr(source, pe);
    for (size_t i = 0; i < n; ++i) dest[i * dst] = remote[i * sst];
}

// Interleaved blocks (1.6 ibput/ibget): block b is elements [b * sst, b * sst + bsize) of source and
// [b * dst, b * dst + bsize) of dest, elements of `elem` bytes. Untyped and out of line, one copy for every type:
// a block is a run of bytes for the port's copy loop, so the type only scales the strides.
[[noreturn]] void fail_block_stride(const char *routine, const char *arg, ptrdiff_t stride, size_t bsize)
{
    Usage u(routine);
    u.m().s(arg).s(" = ").i(stride).s("; expected a stride >= bsize (").u(bsize).s(")");
    u.fail();
}

inline void check_block_stride(const char *routine, const char *arg, ptrdiff_t stride, size_t bsize)
{
    if constexpr (checks)
        if (__builtin_expect(stride < 0 || size_t(stride) < bsize, 0)) fail_block_stride(routine, arg, stride, bsize);
}

// The bytes that nblocks (> 0) blocks span, ((nblocks - 1) * stride + bsize) * elem; a span that does not fit in a
// size_t is a bad argument (it would wrap the address arithmetic), reported as such.
size_t block_extent(const char *routine, const char *arg, ptrdiff_t stride, size_t bsize, size_t nblocks, size_t elem)
{
    size_t n;
    if (__builtin_mul_overflow(nblocks - 1, size_t(stride), &n) || __builtin_add_overflow(n, bsize, &n) ||
        __builtin_mul_overflow(n, elem, &n)) {
        Usage u(routine);
        u.m().s(arg).s(" = ").i(stride).s(", bsize = ").u(bsize).s(", nblocks = ").u(nblocks).s(" (elements of ")
            .u(elem).s(" bytes): the array they span does not fit in the address space");
        u.fail();
    }
    return n;
}

// Checks an interleaved transfer whose symmetric side is dest (a put) or source (a get); false if it moves
// nothing. A zero-length transfer is valid with any pointers, as every RMA routine's.
bool check_blocks(const char *routine, bool put, const void *symmetric, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                  size_t nblocks, size_t elem)
{
    check_block_stride(routine, "dst", dst, bsize);
    check_block_stride(routine, "sst", sst, bsize);
    if (bsize == 0 || nblocks == 0) return false;
    if constexpr (checks) {
        const size_t dest_bytes = block_extent(routine, "dst", dst, bsize, nblocks, elem);
        const size_t source_bytes = block_extent(routine, "sst", sst, bsize, nblocks, elem);
        check_symmetric(routine, put ? "dest" : "source", symmetric, put ? dest_bytes : source_bytes);
    }
    return true;
}

[[gnu::noinline]] void ibput(const char *routine, shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,
                             ptrdiff_t sst, size_t bsize, size_t nblocks, int pe, size_t elem)
{
    check_init(routine);
    pe = ctx_pe(routine, ctx, pe);
    if (!check_blocks(routine, true, dest, dst, sst, bsize, nblocks, elem)) return;
    const bool net = by_network(pe);
    auto *to = static_cast<unsigned char *>(net ? dest : port::remote_ptr(dest, pe));
    const auto *from = static_cast<const unsigned char *>(source);
    size_t block = bsize * elem;
    if (size_t(dst) == bsize && size_t(sst) == bsize) {  // contiguous on both sides: one copy
        block *= nblocks;
        nblocks = 1;
    }
    for (size_t b = 0; b < nblocks; ++b, to += size_t(dst) * elem, from += size_t(sst) * elem) {
        if (net)
            network_put(pe, to, from, block);
        else
            port::put_bytes(to, from, block);
    }
    if (!net) notify_user_write(pe);
}

[[gnu::noinline]] void ibget(const char *routine, shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,
                             ptrdiff_t sst, size_t bsize, size_t nblocks, int pe, size_t elem)
{
    check_init(routine);
    pe = ctx_pe(routine, ctx, pe);
    if (!check_blocks(routine, false, source, dst, sst, bsize, nblocks, elem)) return;
    auto *to = static_cast<unsigned char *>(dest);
    const bool net = by_network(pe);
    const auto *from = static_cast<const unsigned char *>(net ? source : port::remote_ptr(source, pe));
    size_t block = bsize * elem;
    if (size_t(dst) == bsize && size_t(sst) == bsize) {
        block *= nblocks;
        nblocks = 1;
    }
    for (size_t b = 0; b < nblocks; ++b, to += size_t(dst) * elem, from += size_t(sst) * elem) {
        if (net)
            network_get_nbi(to, pe, from, block);  // every block's get in flight at once
        else
            port::get_bytes(to, from, block);
    }
    if (net) network_get_wait();
}

template <class T>
[[gnu::always_inline]] inline void p(const char *routine, shmem_ctx_t ctx, T *dest, T value, int pe)
{
    pe = check_rma(routine, ctx, "dest", dest, sizeof(T), pe);
    if (by_network(pe)) return network_put(pe, dest, &value, sizeof(T));
    *port::remote_ptr(dest, pe) = value;
    notify_user_write(pe);
}

template <class T>
[[gnu::always_inline]] inline T g(const char *routine, shmem_ctx_t ctx, const T *source, int pe)
{
    pe = check_rma(routine, ctx, "source", source, sizeof(T), pe);
    if (by_network(pe)) {
        T v;
        network_get(&v, pe, source, sizeof(T));
        return v;
    }
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

#define D_ SHMEM_CTX_DEFAULT

extern "C" {

// Each routine is defined in its context form; the plain form is the context form on SHMEM_CTX_DEFAULT.
#define SHMEM_DEFINE_RMA_(T, N)                                                                                 \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                                             \
        put("shmem_ctx_" #N "_put", ctx, dest, source, nelems, sizeof(T), pe);                                 \
    }                                                                                                             \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe)                                       \
    {                                                                                                             \
        put("shmem_" #N "_put", D_, dest, source, nelems, sizeof(T), pe);                                      \
    }                                                                                                             \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                                             \
        get("shmem_ctx_" #N "_get", ctx, dest, source, nelems, sizeof(T), pe);                                 \
    }                                                                                                             \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe)                                       \
    {                                                                                                             \
        get("shmem_" #N "_get", D_, dest, source, nelems, sizeof(T), pe);                                      \
    }                                                                                                             \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)              \
    {                                                                                                             \
        put_nbi("shmem_ctx_" #N "_put_nbi", ctx, dest, source, nelems, sizeof(T), pe);                             \
    }                                                                                                             \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe)                                   \
    {                                                                                                             \
        put_nbi("shmem_" #N "_put_nbi", D_, dest, source, nelems, sizeof(T), pe);                                  \
    }                                                                                                             \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)              \
    {                                                                                                             \
        get_nbi("shmem_ctx_" #N "_get_nbi", ctx, dest, source, nelems, sizeof(T), pe);                             \
    }                                                                                                             \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe)                                   \
    {                                                                                                             \
        get_nbi("shmem_" #N "_get_nbi", D_, dest, source, nelems, sizeof(T), pe);                                  \
    }                                                                                                             \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe) { p("shmem_ctx_" #N "_p", ctx, dest, value, pe); } \
    void shmem_##N##_p(T *dest, T value, int pe) { p("shmem_" #N "_p", D_, dest, value, pe); }                    \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe) { return g("shmem_ctx_" #N "_g", ctx, source, pe); } \
    T shmem_##N##_g(const T *source, int pe) { return g("shmem_" #N "_g", D_, source, pe); }                     \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                              size_t nelems, int pe)                                                             \
    {                                                                                                             \
        iput("shmem_ctx_" #N "_iput", ctx, dest, source, dst, sst, nelems, pe);                                 \
    }                                                                                                             \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)       \
    {                                                                                                             \
        iput("shmem_" #N "_iput", D_, dest, source, dst, sst, nelems, pe);                                      \
    }                                                                                                             \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                              size_t nelems, int pe)                                                             \
    {                                                                                                             \
        iget("shmem_ctx_" #N "_iget", ctx, dest, source, dst, sst, nelems, pe);                                 \
    }                                                                                                             \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)       \
    {                                                                                                             \
        iget("shmem_" #N "_iget", D_, dest, source, dst, sst, nelems, pe);                                      \
    }
SHMEM_RMA_TYPES(SHMEM_DEFINE_RMA_)
#undef SHMEM_DEFINE_RMA_

#define SHMEM_DEFINE_RMA_SIZE_(BITS)                                                                             \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)            \
    {                                                                                                             \
        put("shmem_ctx_put" #BITS, ctx, dest, source, nelems, BITS / 8, pe);                                 \
    }                                                                                                             \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe)                                 \
    {                                                                                                             \
        put("shmem_put" #BITS, D_, dest, source, nelems, BITS / 8, pe);                                      \
    }                                                                                                             \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)            \
    {                                                                                                             \
        get("shmem_ctx_get" #BITS, ctx, dest, source, nelems, BITS / 8, pe);                                 \
    }                                                                                                             \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe)                                 \
    {                                                                                                             \
        get("shmem_get" #BITS, D_, dest, source, nelems, BITS / 8, pe);                                      \
    }                                                                                                             \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)      \
    {                                                                                                             \
        put_nbi("shmem_ctx_put" #BITS "_nbi", ctx, dest, source, nelems, BITS / 8, pe);                          \
    }                                                                                                             \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe)                           \
    {                                                                                                             \
        put_nbi("shmem_put" #BITS "_nbi", D_, dest, source, nelems, BITS / 8, pe);                               \
    }                                                                                                             \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)      \
    {                                                                                                             \
        get_nbi("shmem_ctx_get" #BITS "_nbi", ctx, dest, source, nelems, BITS / 8, pe);                          \
    }                                                                                                             \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe)                           \
    {                                                                                                             \
        get_nbi("shmem_get" #BITS "_nbi", D_, dest, source, nelems, BITS / 8, pe);                               \
    }                                                                                                             \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                              size_t nelems, int pe)                                                             \
    {                                                                                                             \
        using E = Sized<BITS>;                                                                                    \
        iput("shmem_ctx_iput" #BITS, ctx, static_cast<E *>(dest), static_cast<const E *>(source), dst, sst,      \
             nelems, pe);                                                                                         \
    }                                                                                                             \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)  \
    {                                                                                                             \
        using E = Sized<BITS>;                                                                                    \
        iput("shmem_iput" #BITS, D_, static_cast<E *>(dest), static_cast<const E *>(source), dst, sst, nelems,   \
             pe);                                                                                                 \
    }                                                                                                             \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                              size_t nelems, int pe)                                                             \
    {                                                                                                             \
        using E = Sized<BITS>;                                                                                    \
        iget("shmem_ctx_iget" #BITS, ctx, static_cast<E *>(dest), static_cast<const E *>(source), dst, sst,      \
             nelems, pe);                                                                                         \
    }                                                                                                             \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)  \
    {                                                                                                             \
        using E = Sized<BITS>;                                                                                    \
        iget("shmem_iget" #BITS, D_, static_cast<E *>(dest), static_cast<const E *>(source), dst, sst, nelems,   \
             pe);                                                                                                 \
    }
SHMEM_RMA_SIZES(SHMEM_DEFINE_RMA_SIZE_)
#undef SHMEM_DEFINE_RMA_SIZE_

// Interleaved blocks: each routine passes its element size to the one untyped body.
#define SHMEM_DEFINE_IB_(NAME, OP, T, ELEM)                                                                      \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                          size_t nblocks, int pe)                                                                \
    {                                                                                                             \
        OP("shmem_ctx_" #NAME, ctx, dest, source, dst, sst, bsize, nblocks, pe, ELEM);                          \
    }                                                                                                             \
    void shmem_##NAME(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,      \
                      int pe)                                                                                     \
    {                                                                                                             \
        OP("shmem_" #NAME, D_, dest, source, dst, sst, bsize, nblocks, pe, ELEM);                               \
    }
#define SHMEM_DEFINE_IB_TYPED_(T, N) \
    SHMEM_DEFINE_IB_(N##_ibput, ibput, T, sizeof(T)) SHMEM_DEFINE_IB_(N##_ibget, ibget, T, sizeof(T))
SHMEM_RMA_TYPES(SHMEM_DEFINE_IB_TYPED_)
#define SHMEM_DEFINE_IB_SIZED_(BITS) \
    SHMEM_DEFINE_IB_(ibput##BITS, ibput, void, BITS / 8) SHMEM_DEFINE_IB_(ibget##BITS, ibget, void, BITS / 8)
SHMEM_RMA_SIZES(SHMEM_DEFINE_IB_SIZED_)
#undef SHMEM_DEFINE_IB_SIZED_
#undef SHMEM_DEFINE_IB_TYPED_
#undef SHMEM_DEFINE_IB_

#define SHMEM_DEFINE_MEM_(NAME, OP)                                                                              \
    void shmem_ctx_##NAME(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)               \
    {                                                                                                             \
        OP("shmem_ctx_" #NAME, ctx, dest, source, nelems, 1, pe);                                               \
    }                                                                                                             \
    void shmem_##NAME(void *dest, const void *source, size_t nelems, int pe)                                    \
    {                                                                                                             \
        OP("shmem_" #NAME, D_, dest, source, nelems, 1, pe);                                                    \
    }
SHMEM_DEFINE_MEM_(putmem, put)
SHMEM_DEFINE_MEM_(getmem, get)
SHMEM_DEFINE_MEM_(putmem_nbi, put_nbi)
SHMEM_DEFINE_MEM_(getmem_nbi, get_nbi)
#undef SHMEM_DEFINE_MEM_

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_RMA)

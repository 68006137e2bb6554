// Put-with-signal (every RMA type, sized and mem forms, _nbi, context forms), the 1.6 signal updates without data
// (shmem_[ctx_]signal_add/set), shmem_signal_fetch and shmem_signal_wait_until.
//
// The signal is updated with the AMO routines (amo.cpp), so it is atomic with respect to every 64-bit AMO of
// the build, whichever mechanism the build uses. Reads of the local signal are plain 64-bit loads: both
// mechanisms write the word with one store of the whole word, so a load never sees half of an update.
#include "compare.hpp"
#include "team.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {


namespace {

inline void check_signal(const char *routine, const uint64_t *sig_addr)
{
    check_init(routine);
    check_symmetric(routine, "sig_addr", sig_addr, sizeof *sig_addr);
    check_aligned(routine, "sig_addr", sig_addr, 8);
}

inline void put_signal(const char *routine, shmem_ctx_t ctx, void *dest, const void *source, size_t bytes,
                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    check_signal(routine, sig_addr);
    pe = ctx_pe(routine, ctx, pe);
    check_symmetric(routine, "dest", dest, bytes);
    // Checked in every build: an unknown operator has no meaning to fall back on.
    if (__builtin_expect(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD, 0)) {
        Usage u(routine);
        u.m().s("sig_op = ").i(sig_op).s(" is not a signal operator; expected SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD");
        u.fail();
    }
    // The data before the signal: a PE that sees the signal finds the data in place. (The AMO notifies pe.)
    if (by_network(pe)) {
        network_put(pe, dest, source, bytes);
        network_fence();
    } else {
        if (bytes != 0) port::put_bytes(port::remote_ptr(dest, pe), source, bytes);
        port::fence();
    }
    if (sig_op == SHMEM_SIGNAL_SET) {
        pshmem_uint64_atomic_set(sig_addr, signal, pe);
    } else {
        pshmem_uint64_atomic_add(sig_addr, signal, pe);
    }
}

// The typed forms, by name (NAME -> do_NAME) as in the operation lists of shmem_amo.h.
template <class T>
void do_put_signal(const char *r, shmem_ctx_t c, T *dest, const T *source, size_t nelems, uint64_t *sig_addr,
                   uint64_t signal, int sig_op, int pe)
{
    put_signal(r, c, dest, source, bytes_of(r, "nelems", nelems, sizeof(T)), sig_addr, signal, sig_op, pe);
}
template <class T>
void do_put_signal_nbi(const char *r, shmem_ctx_t c, T *dest, const T *source, size_t nelems, uint64_t *sig_addr,
                       uint64_t signal, int sig_op, int pe)
{
    put_signal(r, c, dest, source, bytes_of(r, "nelems", nelems, sizeof(T)), sig_addr, signal, sig_op, pe);
}

// 1.6: the signal update of a put-with-signal without the data, by the same AMOs (so atomic with respect to every
// other update of the signal, and to the 64-bit AMOs of the build). Add: SHMEM_SIGNAL_ADD, else SET.
template <bool Add>
[[gnu::always_inline]] inline void signal_update(const char *routine, shmem_ctx_t ctx, uint64_t *sig_addr,
                                                 uint64_t signal, int pe)
{
    check_signal(routine, sig_addr);
    pe = ctx_pe(routine, ctx, pe);
    if constexpr (Add)
        pshmem_uint64_atomic_add(sig_addr, signal, pe);
    else
        pshmem_uint64_atomic_set(sig_addr, signal, pe);
}

}  // namespace
}  // namespace shmem::detail

extern "C" {

// Each routine is defined in its context form; the plain form is the context form on SHMEM_CTX_DEFAULT.
#define SHMEM_DEFINE_(RET, N, NAME, PARAMS, ARGS)                                             \
    RET shmem_ctx_##N##_##NAME(shmem_ctx_t ctx, SHMEMI_AMO_UNPAREN_ PARAMS)                   \
    {                                                                                         \
        return do_##NAME("shmem_ctx_" #N "_" #NAME, ctx, SHMEMI_AMO_UNPAREN_ ARGS);           \
    }                                                                                         \
    RET shmem_##N##_##NAME(SHMEMI_AMO_UNPAREN_ PARAMS)                                        \
    {                                                                                         \
        return do_##NAME("shmem_" #N "_" #NAME, SHMEM_CTX_DEFAULT, SHMEMI_AMO_UNPAREN_ ARGS); \
    }
#define SHMEM_DEFINE_SIGNAL_(T, N) SHMEMI_SIGNAL_OPS_(SHMEM_DEFINE_, T, N)
SHMEM_RMA_TYPES(SHMEM_DEFINE_SIGNAL_)
#undef SHMEM_DEFINE_SIGNAL_
#undef SHMEM_DEFINE_

// shmem_putBITS_signal[_nbi] and shmem_putmem_signal[_nbi]: element size BITS / 8 (mem: bytes).
#define SHMEM_DEFINE_SIZED_(BITS, SIZE)                                                                           \
    void shmem_ctx_put##BITS##_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,             \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)                    \
    {                                                                                                             \
        put_signal("shmem_ctx_put" #BITS "_signal", ctx, dest, source, nelems * SIZE, sig_addr, signal, sig_op,   \
                   pe);                                                                                           \
    }                                                                                                             \
    void shmem_put##BITS##_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,              \
                                  uint64_t signal, int sig_op, int pe)                                            \
    {                                                                                                             \
        put_signal("shmem_put" #BITS "_signal", SHMEM_CTX_DEFAULT, dest, source, nelems * SIZE, sig_addr, signal, \
                   sig_op, pe);                                                                                   \
    }                                                                                                             \
    void shmem_ctx_put##BITS##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,         \
                                          uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)                \
    {                                                                                                             \
        put_signal("shmem_ctx_put" #BITS "_signal_nbi", ctx, dest, source, nelems * SIZE, sig_addr, signal,       \
                   sig_op, pe);                                                                                   \
    }                                                                                                             \
    void shmem_put##BITS##_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,          \
                                      uint64_t signal, int sig_op, int pe)                                        \
    {                                                                                                             \
        put_signal("shmem_put" #BITS "_signal_nbi", SHMEM_CTX_DEFAULT, dest, source, nelems * SIZE, sig_addr,     \
                   signal, sig_op, pe);                                                                           \
    }
#define SHMEM_DEFINE_SIZE_(BITS) SHMEM_DEFINE_SIZED_(BITS, (BITS / 8))
SHMEM_RMA_SIZES(SHMEM_DEFINE_SIZE_)
SHMEM_DEFINE_SIZED_(mem, 1)
#undef SHMEM_DEFINE_SIZE_
#undef SHMEM_DEFINE_SIZED_

void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update<true>("shmem_ctx_signal_add", ctx, sig_addr, signal, pe);
}
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update<true>("shmem_signal_add", SHMEM_CTX_DEFAULT, sig_addr, signal, pe);
}
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update<false>("shmem_ctx_signal_set", ctx, sig_addr, signal, pe);
}
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_update<false>("shmem_signal_set", SHMEM_CTX_DEFAULT, sig_addr, signal, pe);
}

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    check_signal("shmem_signal_fetch", sig_addr);
    network_progress();
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

// Waits (wait_user_write: sleeps, or polls on Epiphany) until the local signal satisfies the comparison; returns the value that did.
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    const char *routine = "shmem_signal_wait_until";
    check_signal(routine, sig_addr);
    check_cmp(routine, cmp);
    uint64_t value = 0;
    wait_user_write([&] {
        value = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
        return satisfies(value, cmp, cmp_value);
    });
    return value;
}

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_SIGNAL)
// ... and the plain shmem_signal_add and shmem_signal_set, by their C names (in C++ each is an overload set with
// the context forms of shmem_amo.h: no single type to take)
extern "C" {
using shmemi_signal_fn = void(uint64_t *, uint64_t, int);
shmemi_signal_fn shmem_signal_add __attribute__((weak));
shmemi_signal_fn shmem_signal_set __attribute__((weak));
shmemi_signal_fn pshmem_signal_add __attribute__((alias("shmem_signal_add"), nothrow));
shmemi_signal_fn pshmem_signal_set __attribute__((alias("shmem_signal_set"), nothrow));
}

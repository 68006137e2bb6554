// Atomic memory operations: fetch, set, swap, compare_swap, fetch_inc/inc, fetch_add/add, fetch_and/and,
// fetch_or/or, fetch_xor/xor and the _nbi fetching forms, for every type of the AMO tables, plain and context form.
//
// One template body (amo) does every operation on the target's word; the C entry points are generated from the
// operation lists in shmem_amo.h and the type tables. Every AMO type is 4 or 8 bytes and is operated on as the
// unsigned integer of its size (float and double as bit copies; signed arithmetic wraps the same way).
//
// Two mechanisms, chosen at build time; a build uses ONE of them for every AMO (and for the signals and locks,
// which are made of these routines), so AMOs are atomic with respect to each other within a build. They are not
// atomic with respect to each other across builds, which never meet: every PE runs the same image.
//  - native (port::has_native_atomics, the default): one atomic on the word in the target's memory (the port's
//    atomic_rmw: an __atomic builtin, or on virt-rv64 one AMO instruction with the aq and rl bits, lr/sc for
//    compare-and-swap).
//  - TESTSET (-DSHMEM_ATOMICS=testset, or a port without AMOs): a lock word on the TARGET PE, taken with
//    port::test_and_set, around plain loads and stores. The lock is picked by the word's address (its 8-byte
//    granule), so 4- and 8-byte AMOs that overlap take the same lock, and AMOs on unrelated words rarely meet.
// Either way the AMOs are sequentially consistent (__ATOMIC_SEQ_CST; fences around the TESTSET section), and an
// AMO is ordered after the calling PE's earlier accesses: stronger than the specification asks, which needs a
// shmem_fence between a put and an AMO that signals it.
#include <string.h>

#include "team.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

// Also used by signal.cpp and lock.cpp (declared there).

namespace {

inline constexpr bool native = port::has_native_atomics && !SHMEM_ATOMICS_TESTSET;

using Op = port::AmoOp;

template <size_t Size>
struct BitsOf;
template <>
struct BitsOf<4> {
    using type = uint32_t;
};
template <>
struct BitsOf<8> {
    using type = uint64_t;
};

template <class T>
struct Id {  // keeps an argument out of template argument deduction
    using type = T;
};
template <class T>
using Arg = typename Id<T>::type;

template <class To, class From>
inline To bit_copy(From v)
{
    static_assert(sizeof(To) == sizeof(From));
    To t;
    memcpy(&t, &v, sizeof t);
    return t;
}

// ---- native: one atomic on the target's word ----------------------------------------------------------------

// fetch and set are an atomic load and store; the read-modify-writes are the port's atomic_rmw (port.hpp: the
// __atomic builtins unless the port has a better sequence).
template <Op op, class B>
inline B native_rmw(B *w, B v, B cond)
{
    constexpr int mo = __ATOMIC_SEQ_CST;
    if constexpr (op == Op::fetch) {
        return __atomic_load_n(w, mo);
    } else if constexpr (op == Op::set) {
        __atomic_store_n(w, v, mo);
        return 0;
    } else {
        return port::atomic_rmw<op>(w, v, cond);
    }
}

// ---- TESTSET: lock stripes on the target PE -----------------------------------------------------------------
//
// A stripe is held for one load and one store. A PE that finds it held must not spin (DESIGN §4): it sleeps in
// port::wait_until and retries the test-and-set on every wake. The holder does not know who sleeps, so each
// sleeper leaves its PE number in the stripe's `waiter` hint before every retry, and the releaser wakes the
// PE it finds there. Why that wake-up cannot be lost, for the PE whose hint the releaser reads:
//   sleeper:  sleeping = 1; clear wake-up; fence; waiter = me; fence; test_and_set(held) -> finds it set; wfi
//   releaser: clear(held); fence; read waiter; notify(it) = fence; if (sleeping) raise wake-up
// The sleeper's test-and-set read `held` before the releaser's clear, and both sides fence between their store
// and their load, so the releaser reads the sleeper's hint (or a later one), and then its `sleeping` flag, set
// before the hint; the wake-up it raises comes after the sleeper cleared its own, so wfi falls through. With several
// sleepers a hint may be overwritten: the releaser wakes the latest, and a sleeper whose hint was lost is woken
// by the port's backstop timer (1 ms) and posts its hint again, so it is delayed, never stranded.
struct Stripe {
    uint32_t held;    // port::test_and_set word
    uint32_t waiter;  // PE + 1 of the latest sleeper, 0 = none
};
constexpr unsigned n_stripes = 8;
Stripe stripes[n_stripes];  // symmetric; the target PE's copy guards the target's words

inline void stripe_lock(Stripe *s)
{
    if (!port::test_and_set(&s->held)) return;
    const uint32_t me = uint32_t(port::my_pe()) + 1;
    port::wait_until([s, me] {
        __atomic_store_n(&s->waiter, me, __ATOMIC_RELAXED);
        port::fence();
        return !port::test_and_set(&s->held);
    });
    // Withdraw the hint if it is still ours (if another sleeper overwrites it in between, that one is late by at
    // most the backstop), so that releasers do not keep waking a PE that no longer waits here.
    if (__atomic_load_n(&s->waiter, __ATOMIC_RELAXED) == me) __atomic_store_n(&s->waiter, 0u, __ATOMIC_RELAXED);
}

inline void stripe_unlock(Stripe *s)
{
    port::clear(&s->held);
    port::fence();
    const uint32_t w = __atomic_load_n(&s->waiter, __ATOMIC_RELAXED);
    if (w != 0) port::notify(int(w) - 1);
}

template <Op op, class B>
inline B testset_rmw(B *w, B v, B cond, int pe)
{
    Stripe *s = port::remote_ptr(&stripes[(reinterpret_cast<uintptr_t>(w) >> 3) % n_stripes], pe);
    volatile B *vw = w;  // one load and one store of the whole word (readers outside the lock see no tearing)
    stripe_lock(s);
    port::fence();  // the earlier accesses before the AMO, as the native AMOs order them
    const B old = *vw;
    if constexpr (op == Op::set || op == Op::swap) {
        *vw = v;
    } else if constexpr (op == Op::cswap) {
        if (old == cond) *vw = v;
    } else if constexpr (op == Op::add) {
        *vw = B(old + v);
    } else if constexpr (op == Op::and_) {
        *vw = old & v;
    } else if constexpr (op == Op::or_) {
        *vw = old | v;
    } else if constexpr (op == Op::xor_) {
        *vw = old ^ v;
    }
    stripe_unlock(s);
    return old;
}

}  // namespace

#if __SIZEOF_LONG__ == 4
// lock.cpp's 16-bit queue tail (a 4-byte long's lock encoding): native 16-bit atomics where the AMOs are native,
// else TESTSET read-modify-writes at 16 bits.
inline constexpr bool native_tail = port::has_native_atomics && !SHMEM_ATOMICS_TESTSET;
uint16_t lock_tail_swap(uint16_t *tail, uint16_t value, int pe)
{
    if constexpr (native_tail) return __atomic_exchange_n(port::remote_ptr(tail, pe), value, __ATOMIC_SEQ_CST);
    return testset_rmw<Op::swap>(port::remote_ptr(tail, pe), value, uint16_t(0), pe);
}
uint16_t lock_tail_compare_swap(uint16_t *tail, uint16_t cond, uint16_t value, int pe)
{
    if constexpr (native_tail) {
        __atomic_compare_exchange_n(port::remote_ptr(tail, pe), &cond, value, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        return cond;
    }
    return testset_rmw<Op::cswap>(port::remote_ptr(tail, pe), value, cond, pe);
}
#endif

namespace {

// ---- the one body -------------------------------------------------------------------------------------------

// Does `op` on `dest` of the context's PE `pe` and returns the old value.
template <Op op, class T>
inline T amo(const char *routine, shmem_ctx_t ctx, T *dest, Arg<T> value, Arg<T> cond, int pe)
{
    const char *arg = op == Op::fetch ? "source" : "dest";
    check_init(routine);
    pe = ctx_pe(routine, ctx, pe);
    check_symmetric(routine, arg, dest, sizeof(T));
    check_aligned(routine, arg, dest, sizeof(T));
    using B = typename BitsOf<sizeof(T)>::type;
    // The target may sleep in wait_until on this word. Only where the user's writes notify
    // (shmem::detail::notify_user_write), and not for a fetch, which writes nothing, nor for a compare_swap that
    // wrote nothing. The wake-up is worked out before the atomic (user_wake). (Not const: GCC 12 kept a const one
    // in memory across the RISC-V AMO's asm, four stores and loads on every AMO.)
    // Through the network: no wake-up (a waiter progresses the network in its waits, and looks at its memory).
    if (amo_by_network(pe))
        return bit_copy<T>(B(network_amo(op, pe, dest, sizeof(B), uint64_t(bit_copy<B>(value)), uint64_t(bit_copy<B>(cond)))));
    UserWake wake = user_wake(pe);
    B *w = reinterpret_cast<B *>(port::remote_ptr(dest, pe));
    B old;
    if constexpr (native) {
        old = native_rmw<op>(w, bit_copy<B>(value), bit_copy<B>(cond));
    } else {
        old = testset_rmw<op>(w, bit_copy<B>(value), bit_copy<B>(cond), pe);
    }
    // A compare_swap that found another value wrote nothing, so no wait can have ended: no wake-up.
    if constexpr (op == Op::cswap) {
        if (old != bit_copy<B>(cond)) return bit_copy<T>(old);
    }
    // notify_after_rmw: notify, less the fence where the native atomic just done orders the read of the target's
    // state after its write (virt's .aq AMOs, linux on x86-64); the TESTSET path ends with the lock's release, a
    // plain store, so it needs notify's own fence.
    if constexpr (op != Op::fetch) notify_user_write<native>(wake);
    return bit_copy<T>(old);
}

// The routines of the operation lists, by name (NAME -> do_NAME), in terms of the one body.
template <class T>
T do_atomic_fetch(const char *r, shmem_ctx_t c, const T *source, int pe)
{
    return amo<Op::fetch, T>(r, c, const_cast<T *>(source), 0, 0, pe);
}
template <class T>
void do_atomic_set(const char *r, shmem_ctx_t c, T *dest, Arg<T> value, int pe)
{
    amo<Op::set, T>(r, c, dest, value, 0, pe);
}
template <class T>
T do_atomic_swap(const char *r, shmem_ctx_t c, T *dest, Arg<T> value, int pe)
{
    return amo<Op::swap, T>(r, c, dest, value, 0, pe);
}
template <class T>
T do_atomic_compare_swap(const char *r, shmem_ctx_t c, T *dest, Arg<T> cond, Arg<T> value, int pe)
{
    return amo<Op::cswap, T>(r, c, dest, value, cond, pe);
}
template <class T>
T do_atomic_fetch_inc(const char *r, shmem_ctx_t c, T *dest, int pe)
{
    return amo<Op::add, T>(r, c, dest, 1, 0, pe);
}
template <class T>
void do_atomic_inc(const char *r, shmem_ctx_t c, T *dest, int pe)
{
    amo<Op::add, T>(r, c, dest, 1, 0, pe);
}
template <class T>
T do_atomic_fetch_add(const char *r, shmem_ctx_t c, T *dest, Arg<T> value, int pe)
{
    return amo<Op::add, T>(r, c, dest, value, 0, pe);
}
template <class T>
void do_atomic_add(const char *r, shmem_ctx_t c, T *dest, Arg<T> value, int pe)
{
    amo<Op::add, T>(r, c, dest, value, 0, pe);
}

// and, or, xor: fetching and not
#define SHMEM_BITWISE_(NAME, OP)                                                          \
    template <class T>                                                                    \
    T do_atomic_fetch_##NAME(const char *r, shmem_ctx_t c, T *dest, Arg<T> value, int pe) \
    {                                                                                     \
        return amo<OP, T>(r, c, dest, value, 0, pe);                                      \
    }                                                                                     \
    template <class T>                                                                    \
    void do_atomic_##NAME(const char *r, shmem_ctx_t c, T *dest, Arg<T> value, int pe)    \
    {                                                                                     \
        amo<OP, T>(r, c, dest, value, 0, pe);                                             \
    }
SHMEM_BITWISE_(and, Op::and_)
SHMEM_BITWISE_(or, Op::or_)
SHMEM_BITWISE_(xor, Op::xor_)
#undef SHMEM_BITWISE_

// The _nbi fetching forms: the value goes to *fetch. On a port without DMA they complete before they return,
// which the specification allows (completion is only promised by shmem_quiet).
template <class T>
void do_atomic_fetch_nbi(const char *r, shmem_ctx_t c, T *fetch, const T *source, int pe)
{
    *fetch = do_atomic_fetch(r, c, source, pe);
}
template <class T>
void do_atomic_swap_nbi(const char *r, shmem_ctx_t c, T *fetch, T *dest, Arg<T> value, int pe)
{
    *fetch = do_atomic_swap(r, c, dest, value, pe);
}
template <class T>
void do_atomic_compare_swap_nbi(const char *r, shmem_ctx_t c, T *fetch, T *dest, Arg<T> cond, Arg<T> value, int pe)
{
    *fetch = do_atomic_compare_swap(r, c, dest, cond, value, pe);
}
template <class T>
void do_atomic_fetch_inc_nbi(const char *r, shmem_ctx_t c, T *fetch, T *dest, int pe)
{
    *fetch = do_atomic_fetch_inc(r, c, dest, pe);
}
#define SHMEM_FETCH_NBI_(NAME)                                                                               \
    template <class T>                                                                                       \
    void do_atomic_fetch_##NAME##_nbi(const char *r, shmem_ctx_t c, T *fetch, T *dest, Arg<T> value, int pe) \
    {                                                                                                        \
        *fetch = do_atomic_fetch_##NAME(r, c, dest, value, pe);                                              \
    }
SHMEM_FETCH_NBI_(add)
SHMEM_FETCH_NBI_(and)
SHMEM_FETCH_NBI_(or)
SHMEM_FETCH_NBI_(xor)
#undef SHMEM_FETCH_NBI_

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
#define SHMEM_DEFINE_EXTENDED_(T, N) SHMEMI_AMO_EXTENDED_OPS_(SHMEM_DEFINE_, T, N)
#define SHMEM_DEFINE_STANDARD_(T, N) SHMEMI_AMO_STANDARD_OPS_(SHMEM_DEFINE_, T, N)
#define SHMEM_DEFINE_BITWISE_(T, N) SHMEMI_AMO_BITWISE_OPS_(SHMEM_DEFINE_, T, N)
SHMEM_AMO_EXTENDED_TYPES(SHMEM_DEFINE_EXTENDED_)
SHMEM_AMO_STANDARD_TYPES(SHMEM_DEFINE_STANDARD_)
SHMEM_AMO_BITWISE_TYPES(SHMEM_DEFINE_BITWISE_)
#undef SHMEM_DEFINE_EXTENDED_
#undef SHMEM_DEFINE_STANDARD_
#undef SHMEM_DEFINE_BITWISE_
#undef SHMEM_DEFINE_

// Declared (for C11) by shmem_amo.h only to keep the inner generic selections well-formed; a call that selects
// it does not compile, as it takes no arguments. Defined so that every name the header declares links.
void shmemi_generic_no_match(void) {}

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_AMO)

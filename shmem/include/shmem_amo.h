/* Atomic memory operations, signals and distributed locks (OpenSHMEM 1.6 §9.7, §9.8, §9.10). Included by
 * shmem.h.
 *
 * Each family is one "operation list" per type: SHMEMI_*_OPS_(M, T, N) calls M(RET, N, NAME, (PARAMS), (ARGS))
 * once per routine shmem_N_NAME. The declarations below, the C++ overloads at the end of this file and the
 * definitions in src/amo.cpp and src/signal.cpp are all made from these lists and the type tables, so a routine
 * cannot be declared with one signature and defined with another. */
#ifndef SHMEM_AMO_H
#define SHMEM_AMO_H

#include "shmem.h" /* for a program that includes this header alone: the types and the type tables */

#define SHMEMI_AMO_UNPAREN_(...) __VA_ARGS__

/* fetch, set, swap: the extended AMO types (standard + float, double) */
#define SHMEMI_AMO_EXTENDED_OPS_(M, T, N)                                                  \
    M(T, N, atomic_fetch, (const T *source, int pe), (source, pe))                         \
    M(void, N, atomic_set, (T *dest, T value, int pe), (dest, value, pe))                  \
    M(T, N, atomic_swap, (T *dest, T value, int pe), (dest, value, pe))                    \
    M(void, N, atomic_fetch_nbi, (T *fetch, const T *source, int pe), (fetch, source, pe)) \
    M(void, N, atomic_swap_nbi, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))

/* compare_swap, fetch_inc, inc, fetch_add, add: the standard AMO types */
#define SHMEMI_AMO_STANDARD_OPS_(M, T, N)                                                     \
    M(T, N, atomic_compare_swap, (T *dest, T cond, T value, int pe), (dest, cond, value, pe)) \
    M(T, N, atomic_fetch_inc, (T *dest, int pe), (dest, pe))                                  \
    M(void, N, atomic_inc, (T *dest, int pe), (dest, pe))                                     \
    M(T, N, atomic_fetch_add, (T *dest, T value, int pe), (dest, value, pe))                  \
    M(void, N, atomic_add, (T *dest, T value, int pe), (dest, value, pe))                     \
    M(void, N, atomic_compare_swap_nbi, (T *fetch, T *dest, T cond, T value, int pe),         \
      (fetch, dest, cond, value, pe))                                                         \
    M(void, N, atomic_fetch_inc_nbi, (T *fetch, T *dest, int pe), (fetch, dest, pe))          \
    M(void, N, atomic_fetch_add_nbi, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))

/* and, or, xor: the bitwise AMO types */
#define SHMEMI_AMO_BITWISE_OPS_(M, T, N)                                                             \
    M(T, N, atomic_fetch_and, (T *dest, T value, int pe), (dest, value, pe))                         \
    M(void, N, atomic_and, (T *dest, T value, int pe), (dest, value, pe))                            \
    M(T, N, atomic_fetch_or, (T *dest, T value, int pe), (dest, value, pe))                          \
    M(void, N, atomic_or, (T *dest, T value, int pe), (dest, value, pe))                             \
    M(T, N, atomic_fetch_xor, (T *dest, T value, int pe), (dest, value, pe))                         \
    M(void, N, atomic_xor, (T *dest, T value, int pe), (dest, value, pe))                            \
    M(void, N, atomic_fetch_and_nbi, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe)) \
    M(void, N, atomic_fetch_or_nbi, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))  \
    M(void, N, atomic_fetch_xor_nbi, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))

/* put-with-signal: the RMA types. The sized and mem forms are the same list with N = put8..put128 or putmem,
 * NAME = signal / signal_nbi and T = void, which spells shmem_put8_signal, shmem_ctx_putmem_signal_nbi, ... */
#define SHMEMI_SIGNAL_PARAMS_(T) \
    (T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
#define SHMEMI_SIGNAL_ARGS_ (dest, source, nelems, sig_addr, signal, sig_op, pe)
#define SHMEMI_SIGNAL_OPS_(M, T, N)                                       \
    M(void, N, put_signal, SHMEMI_SIGNAL_PARAMS_(T), SHMEMI_SIGNAL_ARGS_) \
    M(void, N, put_signal_nbi, SHMEMI_SIGNAL_PARAMS_(T), SHMEMI_SIGNAL_ARGS_)
#define SHMEMI_SIGNAL_SIZED_OPS_(M, BITS)                                        \
    M(void, put##BITS, signal, SHMEMI_SIGNAL_PARAMS_(void), SHMEMI_SIGNAL_ARGS_) \
    M(void, put##BITS, signal_nbi, SHMEMI_SIGNAL_PARAMS_(void), SHMEMI_SIGNAL_ARGS_)

#ifdef __cplusplus
extern "C" {
#endif

/* The plain routine and its context form: shmem_N_NAME(PARAMS), shmem_ctx_N_NAME(ctx, PARAMS). */
#define SHMEMI_AMO_DECLARE_(RET, N, NAME, PARAMS, ARGS) \
    RET shmem_##N##_##NAME(SHMEMI_AMO_UNPAREN_ PARAMS); \
    RET shmem_ctx_##N##_##NAME(shmem_ctx_t ctx, SHMEMI_AMO_UNPAREN_ PARAMS);
#define SHMEMI_AMO_DECLARE_EXTENDED_(T, N) SHMEMI_AMO_EXTENDED_OPS_(SHMEMI_AMO_DECLARE_, T, N)
#define SHMEMI_AMO_DECLARE_STANDARD_(T, N) SHMEMI_AMO_STANDARD_OPS_(SHMEMI_AMO_DECLARE_, T, N)
#define SHMEMI_AMO_DECLARE_BITWISE_(T, N) SHMEMI_AMO_BITWISE_OPS_(SHMEMI_AMO_DECLARE_, T, N)
#define SHMEMI_AMO_DECLARE_SIGNAL_(T, N) SHMEMI_SIGNAL_OPS_(SHMEMI_AMO_DECLARE_, T, N)
#define SHMEMI_AMO_DECLARE_SIGNAL_SIZED_(BITS) SHMEMI_SIGNAL_SIZED_OPS_(SHMEMI_AMO_DECLARE_, BITS)

/* ---- atomic memory operations ------------------------------------------------------------------------------ */
SHMEM_AMO_EXTENDED_TYPES(SHMEMI_AMO_DECLARE_EXTENDED_)
SHMEM_AMO_STANDARD_TYPES(SHMEMI_AMO_DECLARE_STANDARD_)
SHMEM_AMO_BITWISE_TYPES(SHMEMI_AMO_DECLARE_BITWISE_)

/* ---- signals ----------------------------------------------------------------------------------------------- */
/* sig_op: SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD. The data is delivered before the signal is updated. */
SHMEM_RMA_TYPES(SHMEMI_AMO_DECLARE_SIGNAL_)
SHMEM_RMA_SIZES(SHMEMI_AMO_DECLARE_SIGNAL_SIZED_)
SHMEMI_SIGNAL_SIZED_OPS_(SHMEMI_AMO_DECLARE_, mem)
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);
/* 1.6: the signal update alone, without data: sets *sig_addr on pe to signal, or adds signal to it. (The generic
 * names below also take a leading shmem_ctx_t.) */
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

/* ---- distributed locks ------------------------------------------------------------------------------------- */
/* lock: a symmetric long set to 0 on every PE before first use. shmem_test_lock returns 0 if it took the lock,
 * 1 if the lock is held (and never waits). */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

#undef SHMEMI_AMO_DECLARE_EXTENDED_
#undef SHMEMI_AMO_DECLARE_STANDARD_
#undef SHMEMI_AMO_DECLARE_BITWISE_
#undef SHMEMI_AMO_DECLARE_SIGNAL_
#undef SHMEMI_AMO_DECLARE_SIGNAL_SIZED_
#undef SHMEMI_AMO_DECLARE_

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- generic names ------------------------------------------------------------------------------------------
 * The standard (distinct, non-typedef) types get generic cases: a selection or an overload set must not name one
 * type twice (int64_t is long on LP64). The bitwise names also take int32_t and int64_t, which are no standard
 * type of their table (SHMEM_AMO_BITWISE_GENERIC_TYPES). Every generic name takes an optional leading shmem_ctx_t. */
#if defined(__cplusplus)

extern "C++" {
#define SHMEMI_AMO_CXX_(RET, N, NAME, PARAMS, ARGS)                                                              \
    inline RET shmem_##NAME(SHMEMI_AMO_UNPAREN_ PARAMS) { return shmem_##N##_##NAME(SHMEMI_AMO_UNPAREN_ ARGS); } \
    inline RET shmem_##NAME(shmem_ctx_t ctx, SHMEMI_AMO_UNPAREN_ PARAMS)                                         \
    {                                                                                                            \
        return shmem_ctx_##N##_##NAME(ctx, SHMEMI_AMO_UNPAREN_ ARGS);                                            \
    }
#define SHMEMI_AMO_CXX_EXTENDED_(T, N) SHMEMI_AMO_EXTENDED_OPS_(SHMEMI_AMO_CXX_, T, N)
#define SHMEMI_AMO_CXX_STANDARD_(T, N) SHMEMI_AMO_STANDARD_OPS_(SHMEMI_AMO_CXX_, T, N)
#define SHMEMI_AMO_CXX_BITWISE_(T, N) SHMEMI_AMO_BITWISE_OPS_(SHMEMI_AMO_CXX_, T, N)
#define SHMEMI_AMO_CXX_SIGNAL_(T, N) SHMEMI_SIGNAL_OPS_(SHMEMI_AMO_CXX_, T, N)
SHMEM_AMO_EXTENDED_STANDARD_TYPES(SHMEMI_AMO_CXX_EXTENDED_)
SHMEM_AMO_STANDARD_STANDARD_TYPES(SHMEMI_AMO_CXX_STANDARD_)
SHMEM_AMO_BITWISE_GENERIC_TYPES(SHMEMI_AMO_CXX_BITWISE_)
SHMEM_RMA_STANDARD_TYPES(SHMEMI_AMO_CXX_SIGNAL_)
#undef SHMEMI_AMO_CXX_EXTENDED_
#undef SHMEMI_AMO_CXX_STANDARD_
#undef SHMEMI_AMO_CXX_BITWISE_
#undef SHMEMI_AMO_CXX_SIGNAL_
#undef SHMEMI_AMO_CXX_
/* shmem_signal_add and shmem_signal_set with a context: the plain forms are the C functions themselves. */
inline void shmem_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmem_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmem_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    shmem_ctx_signal_set(ctx, sig_addr, signal, pe);
}
}

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

/* shmem_atomic_add(dest, value, pe) or shmem_atomic_add(ctx, dest, value, pe): the selection is on the first
 * argument, which is either the context or the typed pointer. For a context, an inner selection on the second
 * argument picks the context routine; its `default:` only keeps the inner selection well-formed when the first
 * argument is not a context (it is never chosen then), and a call that does choose it (a context followed by an
 * unsupported pointer) does not compile: shmemi_generic_no_match takes no arguments.
 * As with every generic name made from the tables: a call cannot sit inside an expansion of the table macro it
 * selects over (e.g. in the X of SHMEM_AMO_STANDARD_TYPES(X)), as the preprocessor does not expand a macro within
 * itself. */
void shmemi_generic_no_match(void);
#define SHMEMI_AMO_ARG1_(a, ...) a
#define SHMEMI_AMO_GENERIC_(TABLE, CASE, first, ...)                                         \
    _Generic((first),                                                                        \
        shmem_ctx_t: _Generic((SHMEMI_AMO_ARG1_(__VA_ARGS__, ~)) TABLE(SHMEMI_GC_##CASE##_), \
                              default: shmemi_generic_no_match) TABLE(SHMEMI_G_##CASE##_))(first, __VA_ARGS__)

/* The cases, ", T *: shmem_N_NAME" (plain, G) and ", T *: shmem_ctx_N_NAME" (context, GC); fetch's source is a
 * const T *, so it also has a const case. */
#define SHMEMI_AMO_G_(T, N, NAME) , T * : shmem_##N##_##NAME
#define SHMEMI_AMO_GC_(T, N, NAME) , T * : shmem_ctx_##N##_##NAME
#define SHMEMI_G_atomic_fetch_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch), const T * : shmem_##N##_atomic_fetch
#define SHMEMI_GC_atomic_fetch_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch), const T * : shmem_ctx_##N##_atomic_fetch
#define SHMEMI_G_atomic_set_(T, N) SHMEMI_AMO_G_(T, N, atomic_set)
#define SHMEMI_GC_atomic_set_(T, N) SHMEMI_AMO_GC_(T, N, atomic_set)
#define SHMEMI_G_atomic_swap_(T, N) SHMEMI_AMO_G_(T, N, atomic_swap)
#define SHMEMI_GC_atomic_swap_(T, N) SHMEMI_AMO_GC_(T, N, atomic_swap)
#define SHMEMI_G_atomic_fetch_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_nbi)
#define SHMEMI_GC_atomic_fetch_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_nbi)
#define SHMEMI_G_atomic_swap_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_swap_nbi)
#define SHMEMI_GC_atomic_swap_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_swap_nbi)
#define SHMEMI_G_atomic_compare_swap_(T, N) SHMEMI_AMO_G_(T, N, atomic_compare_swap)
#define SHMEMI_GC_atomic_compare_swap_(T, N) SHMEMI_AMO_GC_(T, N, atomic_compare_swap)
#define SHMEMI_G_atomic_fetch_inc_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_inc)
#define SHMEMI_GC_atomic_fetch_inc_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_inc)
#define SHMEMI_G_atomic_inc_(T, N) SHMEMI_AMO_G_(T, N, atomic_inc)
#define SHMEMI_GC_atomic_inc_(T, N) SHMEMI_AMO_GC_(T, N, atomic_inc)
#define SHMEMI_G_atomic_fetch_add_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_add)
#define SHMEMI_GC_atomic_fetch_add_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_add)
#define SHMEMI_G_atomic_add_(T, N) SHMEMI_AMO_G_(T, N, atomic_add)
#define SHMEMI_GC_atomic_add_(T, N) SHMEMI_AMO_GC_(T, N, atomic_add)
#define SHMEMI_G_atomic_compare_swap_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_compare_swap_nbi)
#define SHMEMI_GC_atomic_compare_swap_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_compare_swap_nbi)
#define SHMEMI_G_atomic_fetch_inc_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_inc_nbi)
#define SHMEMI_GC_atomic_fetch_inc_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_inc_nbi)
#define SHMEMI_G_atomic_fetch_add_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_add_nbi)
#define SHMEMI_GC_atomic_fetch_add_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_add_nbi)
#define SHMEMI_G_atomic_fetch_and_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_and)
#define SHMEMI_GC_atomic_fetch_and_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_and)
#define SHMEMI_G_atomic_and_(T, N) SHMEMI_AMO_G_(T, N, atomic_and)
#define SHMEMI_GC_atomic_and_(T, N) SHMEMI_AMO_GC_(T, N, atomic_and)
#define SHMEMI_G_atomic_fetch_or_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_or)
#define SHMEMI_GC_atomic_fetch_or_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_or)
#define SHMEMI_G_atomic_or_(T, N) SHMEMI_AMO_G_(T, N, atomic_or)
#define SHMEMI_GC_atomic_or_(T, N) SHMEMI_AMO_GC_(T, N, atomic_or)
#define SHMEMI_G_atomic_fetch_xor_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_xor)
#define SHMEMI_GC_atomic_fetch_xor_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_xor)
#define SHMEMI_G_atomic_xor_(T, N) SHMEMI_AMO_G_(T, N, atomic_xor)
#define SHMEMI_GC_atomic_xor_(T, N) SHMEMI_AMO_GC_(T, N, atomic_xor)
#define SHMEMI_G_atomic_fetch_and_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_and_nbi)
#define SHMEMI_GC_atomic_fetch_and_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_and_nbi)
#define SHMEMI_G_atomic_fetch_or_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_or_nbi)
#define SHMEMI_GC_atomic_fetch_or_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_or_nbi)
#define SHMEMI_G_atomic_fetch_xor_nbi_(T, N) SHMEMI_AMO_G_(T, N, atomic_fetch_xor_nbi)
#define SHMEMI_GC_atomic_fetch_xor_nbi_(T, N) SHMEMI_AMO_GC_(T, N, atomic_fetch_xor_nbi)
#define SHMEMI_G_put_signal_(T, N) SHMEMI_AMO_G_(T, N, put_signal)
#define SHMEMI_GC_put_signal_(T, N) SHMEMI_AMO_GC_(T, N, put_signal)
#define SHMEMI_G_put_signal_nbi_(T, N) SHMEMI_AMO_G_(T, N, put_signal_nbi)
#define SHMEMI_GC_put_signal_nbi_(T, N) SHMEMI_AMO_GC_(T, N, put_signal_nbi)

#define SHMEMI_AMO_EXT_ SHMEM_AMO_EXTENDED_STANDARD_TYPES
#define SHMEMI_AMO_STD_ SHMEM_AMO_STANDARD_STANDARD_TYPES
#define SHMEMI_AMO_BIT_ SHMEM_AMO_BITWISE_GENERIC_TYPES
#define shmem_atomic_fetch(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_EXT_, atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_EXT_, atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_EXT_, atomic_swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_EXT_, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_EXT_, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_STD_, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_and(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_or(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SHMEMI_AMO_GENERIC_(SHMEMI_AMO_BIT_, atomic_fetch_xor_nbi, __VA_ARGS__)
#define shmem_put_signal(...) SHMEMI_AMO_GENERIC_(SHMEM_RMA_STANDARD_TYPES, put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SHMEMI_AMO_GENERIC_(SHMEM_RMA_STANDARD_TYPES, put_signal_nbi, __VA_ARGS__)
/* shmem_signal_add(ctx, sig_addr, signal, pe) selects the context routine; shmem_signal_add(sig_addr, signal, pe)
 * is the C function of that name (the macro does not expand within itself), whose prototype checks the rest. */
#define SHMEMI_SIGNAL_UPDATE_(NAME, first, ...) \
    _Generic((first), shmem_ctx_t: shmem_ctx_##NAME, default: shmem_##NAME)(first, __VA_ARGS__)
#define shmem_signal_add(...) SHMEMI_SIGNAL_UPDATE_(signal_add, __VA_ARGS__)
#define shmem_signal_set(...) SHMEMI_SIGNAL_UPDATE_(signal_set, __VA_ARGS__)

#endif /* generic names */

#endif /* SHMEM_AMO_H */

/* Names of OpenSHMEM 1.2-1.4 that older programs still use, each mapped onto its 1.5 routine (OpenSHMEM 1.5
 * Annex "Deprecated API"). Included by shmem.h.
 *
 * The cache routines were removed in 1.5; they stay here as no-ops, which is exactly what they are on these
 * cores: remote stores go straight to the owner's memory, and there is no cache for a PE to invalidate or flush
 * that could hold a stale copy of symmetric data. */
#ifndef SHMEM_LEGACY_H
#define SHMEM_LEGACY_H

#include "shmem.h"

/* ---- constants: the _SHMEM_ spellings of OpenSHMEM 1.2 ------------------------------------------------------ */
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* ---- the types the deprecated names were defined for (OpenSHMEM 1.5 Annex, 1.4 §9.8) ------------------------ */
#define SHMEMI_LEGACY_AMO_TYPES(X) \
    X(int, int)                    \
    X(long, long)                  \
    X(long long, longlong)
/* fetch, set and swap also had float and double */
#define SHMEMI_LEGACY_AMO_EXT_TYPES(X) \
    X(float, float)                    \
    X(double, double)                  \
    SHMEMI_LEGACY_AMO_TYPES(X)
#define SHMEMI_LEGACY_WAIT_TYPES(X) \
    X(short, short)                 \
    SHMEMI_LEGACY_AMO_TYPES(X)

#ifdef __cplusplus
extern "C" {
#endif

/* ---- setup and memory (deprecated in 1.2) -------------------------------------------------------------------- */
void start_pes(int npes); /* shmem_init; npes is ignored, as the specification says */
int _my_pe(void);
int _num_pes(void);
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);

/* ---- atomics (deprecated in 1.4): shmem_TYPENAME_{fetch,set,swap,cswap,fadd,finc,add,inc} -------------------- */
#define SHMEMI_LEGACY_DECLARE_EXT_(T, N)                 \
    T shmem_##N##_fetch(const T *source, int pe);        \
    void shmem_##N##_set(T *dest, T value, int pe);      \
    T shmem_##N##_swap(T *dest, T value, int pe);
#define SHMEMI_LEGACY_DECLARE_AMO_(T, N)                  \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe); \
    T shmem_##N##_fadd(T *dest, T value, int pe);          \
    T shmem_##N##_finc(T *dest, int pe);                   \
    void shmem_##N##_add(T *dest, T value, int pe);        \
    void shmem_##N##_inc(T *dest, int pe);
SHMEMI_LEGACY_AMO_EXT_TYPES(SHMEMI_LEGACY_DECLARE_EXT_)
SHMEMI_LEGACY_AMO_TYPES(SHMEMI_LEGACY_DECLARE_AMO_)
#undef SHMEMI_LEGACY_DECLARE_EXT_
#undef SHMEMI_LEGACY_DECLARE_AMO_

/* ---- waiting (deprecated in 1.4): wait while *ivar == cmp_value ---------------------------------------------- */
#define SHMEMI_LEGACY_DECLARE_WAIT_(T, N) void shmem_##N##_wait(T *ivar, T cmp_value);
SHMEMI_LEGACY_WAIT_TYPES(SHMEMI_LEGACY_DECLARE_WAIT_)
#undef SHMEMI_LEGACY_DECLARE_WAIT_
void shmem_wait(long *ivar, long cmp_value);
#ifndef __cplusplus
/* The C function of 1.2 (long only). C calls of shmem_wait_until(...) reach the generic selection of
 * shmem_generic.h, which picks shmem_long_wait_until for a long; the parentheses keep that macro out of this
 * declaration. In C++ the long overload of the generic name is this routine. */
void (shmem_wait_until)(long *ivar, int cmp, long cmp_value);
#endif

/* ---- cache management (deprecated in 1.3, removed in 1.5): no-ops, see above --------------------------------- */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- generic names of 1.3 (deprecated in 1.4) ---------------------------------------------------------------- */
#if defined(__cplusplus)

extern "C++" {
#define SHMEMI_LEGACY_CXX_EXT_(T, N)                                                                  \
    inline T shmem_fetch(const T *source, int pe) { return shmem_##N##_fetch(source, pe); }          \
    inline void shmem_set(T *dest, T value, int pe) { shmem_##N##_set(dest, value, pe); }            \
    inline T shmem_swap(T *dest, T value, int pe) { return shmem_##N##_swap(dest, value, pe); }
#define SHMEMI_LEGACY_CXX_AMO_(T, N)                                                                  \
    inline T shmem_cswap(T *dest, T cond, T value, int pe) { return shmem_##N##_cswap(dest, cond, value, pe); } \
    inline T shmem_fadd(T *dest, T value, int pe) { return shmem_##N##_fadd(dest, value, pe); }      \
    inline T shmem_finc(T *dest, int pe) { return shmem_##N##_finc(dest, pe); }                      \
    inline void shmem_add(T *dest, T value, int pe) { shmem_##N##_add(dest, value, pe); }            \
    inline void shmem_inc(T *dest, int pe) { shmem_##N##_inc(dest, pe); }
SHMEMI_LEGACY_AMO_EXT_TYPES(SHMEMI_LEGACY_CXX_EXT_)
SHMEMI_LEGACY_AMO_TYPES(SHMEMI_LEGACY_CXX_AMO_)
#undef SHMEMI_LEGACY_CXX_EXT_
#undef SHMEMI_LEGACY_CXX_AMO_
}

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

/* Selection on *(dest): lvalue conversion drops qualifiers, so fetch's const source selects like a plain one. */
#define SHMEMI_LEGACY_G_FETCH_(T, N) , T : shmem_##N##_fetch
#define SHMEMI_LEGACY_G_SET_(T, N) , T : shmem_##N##_set
#define SHMEMI_LEGACY_G_SWAP_(T, N) , T : shmem_##N##_swap
#define SHMEMI_LEGACY_G_CSWAP_(T, N) , T : shmem_##N##_cswap
#define SHMEMI_LEGACY_G_FADD_(T, N) , T : shmem_##N##_fadd
#define SHMEMI_LEGACY_G_FINC_(T, N) , T : shmem_##N##_finc
#define SHMEMI_LEGACY_G_ADD_(T, N) , T : shmem_##N##_add
#define SHMEMI_LEGACY_G_INC_(T, N) , T : shmem_##N##_inc
#define SHMEMI_LEGACY_GEN_(TYPES, OP, dest, ...) _Generic(*(dest) TYPES(SHMEMI_LEGACY_G_##OP##_))(dest, __VA_ARGS__)

#define shmem_fetch(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_EXT_TYPES, FETCH, __VA_ARGS__)
#define shmem_set(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_EXT_TYPES, SET, __VA_ARGS__)
#define shmem_swap(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_EXT_TYPES, SWAP, __VA_ARGS__)
#define shmem_cswap(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_TYPES, CSWAP, __VA_ARGS__)
#define shmem_fadd(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_TYPES, FADD, __VA_ARGS__)
#define shmem_finc(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_TYPES, FINC, __VA_ARGS__)
#define shmem_add(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_TYPES, ADD, __VA_ARGS__)
#define shmem_inc(...) SHMEMI_LEGACY_GEN_(SHMEMI_LEGACY_AMO_TYPES, INC, __VA_ARGS__)

#endif /* generic names */

#endif /* SHMEM_LEGACY_H */

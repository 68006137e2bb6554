/* libshmem: OpenSHMEM 1.5 for bare-metal coprocessor cores. The C API (with C11 generic selection and C++
 * overloads of the generic names). See docs and README.md for what each target provides. */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>

#include "shmem_type_tables.h"

/* ---- library constants ------------------------------------------------------------------------------------ */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define SHMEM_MAX_NAME_LEN 64
#define SHMEM_VENDOR_STRING "libshmem 0.1 (bare-metal OpenSHMEM)"

/* Comparison operators of the point-to-point synchronization routines. Zero is deliberately not one of them,
 * so that an uninitialised operand is reported instead of silently meaning "equal". */
#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_GE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_LE 6

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__cplusplus)
#define SHMEM_NORETURN [[noreturn]]
#else
#define SHMEM_NORETURN _Noreturn
#endif

/* ---- library setup, exit and query ------------------------------------------------------------------------ */
void shmem_init(void);
void shmem_finalize(void);
int shmem_my_pe(void);
int shmem_n_pes(void);
SHMEM_NORETURN void shmem_global_exit(int status);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* ---- symmetric heap --------------------------------------------------------------------------------------- */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void shmem_free(void *ptr);
void *shmem_realloc(void *ptr, size_t size);
void *shmem_align(size_t alignment, size_t size);

/* ---- remote memory access --------------------------------------------------------------------------------- */
#define SHMEM_DECLARE_RMA_(T, N)                                                                                  \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                                      \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                                      \
    void shmem_##N##_p(T *dest, T value, int pe);                                                                \
    T shmem_##N##_g(const T *source, int pe);                                                                    \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);       \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);       \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);                                  \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);
SHMEM_RMA_TYPES(SHMEM_DECLARE_RMA_)
#undef SHMEM_DECLARE_RMA_

#define SHMEM_DECLARE_RMA_SIZE_(BITS)                                                                             \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe);                                \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe);                                \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);                          \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);
SHMEM_RMA_SIZES(SHMEM_DECLARE_RMA_SIZE_)
#undef SHMEM_DECLARE_RMA_SIZE_

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);

/* ---- memory ordering -------------------------------------------------------------------------------------- */
void shmem_fence(void);
void shmem_quiet(void);

/* ---- collectives ------------------------------------------------------------------------------------------ */
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* ---- point-to-point synchronization ----------------------------------------------------------------------- */
#define SHMEM_DECLARE_SYNC_(T, N)                                     \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);      \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);
SHMEM_SYNC_TYPES(SHMEM_DECLARE_SYNC_)
#undef SHMEM_DECLARE_SYNC_

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- generic names ---------------------------------------------------------------------------------------- */
#if defined(__cplusplus)

#define SHMEM_CXX_RMA_(T, N)                                                                                       \
    inline void shmem_put(T *dest, const T *source, size_t nelems, int pe) { shmem_##N##_put(dest, source, nelems, pe); } \
    inline void shmem_get(T *dest, const T *source, size_t nelems, int pe) { shmem_##N##_get(dest, source, nelems, pe); } \
    inline void shmem_p(T *dest, T value, int pe) { shmem_##N##_p(dest, value, pe); }                                \
    inline T shmem_g(const T *source, int pe) { return shmem_##N##_g(source, pe); }                                 \
    inline void shmem_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)           \
    {                                                                                                                 \
        shmem_##N##_iput(dest, source, dst, sst, nelems, pe);                                                        \
    }                                                                                                                 \
    inline void shmem_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)           \
    {                                                                                                                 \
        shmem_##N##_iget(dest, source, dst, sst, nelems, pe);                                                        \
    }                                                                                                                 \
    inline void shmem_put_nbi(T *dest, const T *source, size_t nelems, int pe)                                      \
    {                                                                                                                 \
        shmem_##N##_put_nbi(dest, source, nelems, pe);                                                               \
    }                                                                                                                 \
    inline void shmem_get_nbi(T *dest, const T *source, size_t nelems, int pe)                                      \
    {                                                                                                                 \
        shmem_##N##_get_nbi(dest, source, nelems, pe);                                                               \
    }
SHMEM_RMA_STANDARD_TYPES(SHMEM_CXX_RMA_)
#undef SHMEM_CXX_RMA_

#define SHMEM_CXX_SYNC_(T, N)                                                                                     \
    inline void shmem_wait_until(T *ivar, int cmp, T cmp_value) { shmem_##N##_wait_until(ivar, cmp, cmp_value); } \
    inline int shmem_test(T *ivar, int cmp, T cmp_value) { return shmem_##N##_test(ivar, cmp, cmp_value); }
SHMEM_SYNC_STANDARD_TYPES(SHMEM_CXX_SYNC_)
#undef SHMEM_CXX_SYNC_

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

/* Selection is on the pointed-to type (*(dest)): lvalue conversion drops qualifiers, so a `const T *` source and
 * a `T *` select the same routine. Each case macro starts with its comma, so no list ends in a stray one. */
#define SHMEM_GEN_PUT_(T, N) , T : shmem_##N##_put
#define SHMEM_GEN_GET_(T, N) , T : shmem_##N##_get
#define SHMEM_GEN_P_(T, N) , T : shmem_##N##_p
#define SHMEM_GEN_G_(T, N) , T : shmem_##N##_g
#define SHMEM_GEN_IPUT_(T, N) , T : shmem_##N##_iput
#define SHMEM_GEN_IGET_(T, N) , T : shmem_##N##_iget
#define SHMEM_GEN_PUT_NBI_(T, N) , T : shmem_##N##_put_nbi
#define SHMEM_GEN_GET_NBI_(T, N) , T : shmem_##N##_get_nbi
#define SHMEM_GEN_WAIT_UNTIL_(T, N) , T : shmem_##N##_wait_until
#define SHMEM_GEN_TEST_(T, N) , T : shmem_##N##_test

#define shmem_put(dest, ...) _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_PUT_))(dest, __VA_ARGS__)
#define shmem_get(dest, ...) _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_GET_))(dest, __VA_ARGS__)
#define shmem_p(dest, ...) _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_P_))(dest, __VA_ARGS__)
#define shmem_g(source, ...) _Generic(*(source) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_G_))(source, __VA_ARGS__)
#define shmem_iput(dest, ...) _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_IPUT_))(dest, __VA_ARGS__)
#define shmem_iget(dest, ...) _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_IGET_))(dest, __VA_ARGS__)
#define shmem_put_nbi(dest, ...) _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_PUT_NBI_))(dest, __VA_ARGS__)
#define shmem_get_nbi(dest, ...) _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEM_GEN_GET_NBI_))(dest, __VA_ARGS__)
#define shmem_wait_until(ivar, ...) \
    _Generic(*(ivar) SHMEM_SYNC_STANDARD_TYPES(SHMEM_GEN_WAIT_UNTIL_))(ivar, __VA_ARGS__)
#define shmem_test(ivar, ...) _Generic(*(ivar) SHMEM_SYNC_STANDARD_TYPES(SHMEM_GEN_TEST_))(ivar, __VA_ARGS__)

#endif /* generic names */

#endif /* SHMEM_H */

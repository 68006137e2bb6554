/* Generic names of OpenSHMEM 1.6 for RMA and point-to-point synchronization: C11 _Generic selection and C++
 * overloads, generated from the type tables. Included at the end of shmem.h; the other families' generic names
 * are in their own headers.
 *
 * Only the standard (distinct) C types get cases: the typedef'd types are one of them on every ABI, and a
 * _Generic list must not name one type twice (size_t is unsigned int and int32_t is long on 32-bit ARM). */
#ifndef SHMEM_GENERIC_H
#define SHMEM_GENERIC_H

#include "shmem.h"

#if defined(__cplusplus)

extern "C++" { /* overloads, also when shmem.h is included inside an extern "C" block */

#define SHMEM_CXX_RMA_(T, N)                                                                                      \
    inline void shmem_put(T *dest, const T *source, size_t nelems, int pe)                                       \
    {                                                                                                             \
        shmem_##N##_put(dest, source, nelems, pe);                                                               \
    }                                                                                                             \
    inline void shmem_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)                      \
    {                                                                                                             \
        shmem_ctx_##N##_put(ctx, dest, source, nelems, pe);                                                      \
    }                                                                                                             \
    inline void shmem_get(T *dest, const T *source, size_t nelems, int pe)                                       \
    {                                                                                                             \
        shmem_##N##_get(dest, source, nelems, pe);                                                               \
    }                                                                                                             \
    inline void shmem_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)                      \
    {                                                                                                             \
        shmem_ctx_##N##_get(ctx, dest, source, nelems, pe);                                                      \
    }                                                                                                             \
    inline void shmem_p(T *dest, T value, int pe) { shmem_##N##_p(dest, value, pe); }                            \
    inline void shmem_p(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_ctx_##N##_p(ctx, dest, value, pe); }  \
    inline T shmem_g(const T *source, int pe) { return shmem_##N##_g(source, pe); }                               \
    inline T shmem_g(shmem_ctx_t ctx, const T *source, int pe) { return shmem_ctx_##N##_g(ctx, source, pe); }    \
    inline void shmem_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)        \
    {                                                                                                             \
        shmem_##N##_iput(dest, source, dst, sst, nelems, pe);                                                    \
    }                                                                                                             \
    inline void shmem_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,              \
                           size_t nelems, int pe)                                                                 \
    {                                                                                                             \
        shmem_ctx_##N##_iput(ctx, dest, source, dst, sst, nelems, pe);                                           \
    }                                                                                                             \
    inline void shmem_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)        \
    {                                                                                                             \
        shmem_##N##_iget(dest, source, dst, sst, nelems, pe);                                                    \
    }                                                                                                             \
    inline void shmem_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,              \
                           size_t nelems, int pe)                                                                 \
    {                                                                                                             \
        shmem_ctx_##N##_iget(ctx, dest, source, dst, sst, nelems, pe);                                           \
    }                                                                                                             \
    inline void shmem_put_nbi(T *dest, const T *source, size_t nelems, int pe)                                   \
    {                                                                                                             \
        shmem_##N##_put_nbi(dest, source, nelems, pe);                                                           \
    }                                                                                                             \
    inline void shmem_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                                             \
        shmem_ctx_##N##_put_nbi(ctx, dest, source, nelems, pe);                                                  \
    }                                                                                                             \
    inline void shmem_get_nbi(T *dest, const T *source, size_t nelems, int pe)                                   \
    {                                                                                                             \
        shmem_##N##_get_nbi(dest, source, nelems, pe);                                                           \
    }                                                                                                             \
    inline void shmem_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                                             \
        shmem_ctx_##N##_get_nbi(ctx, dest, source, nelems, pe);                                                  \
    }                                                                                                             \
    inline void shmem_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                            int pe)                                                                               \
    {                                                                                                             \
        shmem_##N##_ibput(dest, source, dst, sst, bsize, nblocks, pe);                                           \
    }                                                                                                             \
    inline void shmem_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                            size_t bsize, size_t nblocks, int pe)                                                 \
    {                                                                                                             \
        shmem_ctx_##N##_ibput(ctx, dest, source, dst, sst, bsize, nblocks, pe);                                  \
    }                                                                                                             \
    inline void shmem_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                            int pe)                                                                               \
    {                                                                                                             \
        shmem_##N##_ibget(dest, source, dst, sst, bsize, nblocks, pe);                                           \
    }                                                                                                             \
    inline void shmem_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,             \
                            size_t bsize, size_t nblocks, int pe)                                                 \
    {                                                                                                             \
        shmem_ctx_##N##_ibget(ctx, dest, source, dst, sst, bsize, nblocks, pe);                                  \
    }
SHMEM_RMA_STANDARD_TYPES(SHMEM_CXX_RMA_)
#undef SHMEM_CXX_RMA_

#define SHMEM_CXX_SYNC_(T, N)                                                                                     \
    inline void shmem_wait_until(T *ivar, int cmp, T cmp_value) { shmem_##N##_wait_until(ivar, cmp, cmp_value); } \
    inline int shmem_test(T *ivar, int cmp, T cmp_value) { return shmem_##N##_test(ivar, cmp, cmp_value); }     \
    inline void shmem_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)           \
    {                                                                                                             \
        shmem_##N##_wait_until_all(ivars, nelems, status, cmp, cmp_value);                                       \
    }                                                                                                             \
    inline size_t shmem_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)         \
    {                                                                                                             \
        return shmem_##N##_wait_until_any(ivars, nelems, status, cmp, cmp_value);                                \
    }                                                                                                             \
    inline size_t shmem_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,    \
                                        T cmp_value)                                                              \
    {                                                                                                             \
        return shmem_##N##_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value);                      \
    }                                                                                                             \
    inline void shmem_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,                 \
                                            const T *cmp_values)                                                  \
    {                                                                                                             \
        shmem_##N##_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values);                               \
    }                                                                                                             \
    inline size_t shmem_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,               \
                                              const T *cmp_values)                                                \
    {                                                                                                             \
        return shmem_##N##_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values);                        \
    }                                                                                                             \
    inline size_t shmem_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status,      \
                                               int cmp, const T *cmp_values)                                      \
    {                                                                                                             \
        return shmem_##N##_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values);              \
    }                                                                                                             \
    inline int shmem_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)                  \
    {                                                                                                             \
        return shmem_##N##_test_all(ivars, nelems, status, cmp, cmp_value);                                      \
    }                                                                                                             \
    inline size_t shmem_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)               \
    {                                                                                                             \
        return shmem_##N##_test_any(ivars, nelems, status, cmp, cmp_value);                                      \
    }                                                                                                             \
    inline size_t shmem_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,          \
                                  T cmp_value)                                                                    \
    {                                                                                                             \
        return shmem_##N##_test_some(ivars, nelems, indices, status, cmp, cmp_value);                            \
    }                                                                                                             \
    inline int shmem_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)   \
    {                                                                                                             \
        return shmem_##N##_test_all_vector(ivars, nelems, status, cmp, cmp_values);                              \
    }                                                                                                             \
    inline size_t shmem_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values) \
    {                                                                                                             \
        return shmem_##N##_test_any_vector(ivars, nelems, status, cmp, cmp_values);                              \
    }                                                                                                             \
    inline size_t shmem_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,   \
                                         const T *cmp_values)                                                     \
    {                                                                                                             \
        return shmem_##N##_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values);                    \
    }
SHMEM_SYNC_STANDARD_TYPES(SHMEM_CXX_SYNC_)
#undef SHMEM_CXX_SYNC_

} /* extern "C++" */

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

/* RMA: the context is an optional first argument. The outer selection is on the first argument's type: a
 * shmem_ctx_t selects the inner selection on the second argument (the dest or source); a T * selects the plain
 * routine. The inner selection is compiled whatever the outer one picks, so it has a default; if it is ever
 * taken (a context and a pointer of no RMA type), the call of a function of no parameters fails to compile.
 * Sources are const: shmem_g's first argument may be T * or const T *. Each case starts with its comma. */
#define SHMEMI_RMA_ARG1_(a, ...) a
#define SHMEMI_RMA_NO_MATCH_ default : (void (*)(void))0

#define SHMEMI_RMA_G_PUT_(T, N) , T * : shmem_##N##_put
#define SHMEMI_RMA_GC_PUT_(T, N) , T * : shmem_ctx_##N##_put
#define SHMEMI_RMA_G_GET_(T, N) , T * : shmem_##N##_get
#define SHMEMI_RMA_GC_GET_(T, N) , T * : shmem_ctx_##N##_get
#define SHMEMI_RMA_G_P_(T, N) , T * : shmem_##N##_p
#define SHMEMI_RMA_GC_P_(T, N) , T * : shmem_ctx_##N##_p
#define SHMEMI_RMA_G_G_(T, N) , T * : shmem_##N##_g, const T * : shmem_##N##_g
#define SHMEMI_RMA_GC_G_(T, N) , T * : shmem_ctx_##N##_g, const T * : shmem_ctx_##N##_g
#define SHMEMI_RMA_G_IPUT_(T, N) , T * : shmem_##N##_iput
#define SHMEMI_RMA_GC_IPUT_(T, N) , T * : shmem_ctx_##N##_iput
#define SHMEMI_RMA_G_IGET_(T, N) , T * : shmem_##N##_iget
#define SHMEMI_RMA_GC_IGET_(T, N) , T * : shmem_ctx_##N##_iget
#define SHMEMI_RMA_G_PUT_NBI_(T, N) , T * : shmem_##N##_put_nbi
#define SHMEMI_RMA_GC_PUT_NBI_(T, N) , T * : shmem_ctx_##N##_put_nbi
#define SHMEMI_RMA_G_GET_NBI_(T, N) , T * : shmem_##N##_get_nbi
#define SHMEMI_RMA_GC_GET_NBI_(T, N) , T * : shmem_ctx_##N##_get_nbi
#define SHMEMI_RMA_G_IBPUT_(T, N) , T * : shmem_##N##_ibput
#define SHMEMI_RMA_GC_IBPUT_(T, N) , T * : shmem_ctx_##N##_ibput
#define SHMEMI_RMA_G_IBGET_(T, N) , T * : shmem_##N##_ibget
#define SHMEMI_RMA_GC_IBGET_(T, N) , T * : shmem_ctx_##N##_ibget

#define SHMEMI_RMA_GEN_(OP, first, ...)                                                                          \
    _Generic((first),                                                                                             \
        shmem_ctx_t : _Generic((SHMEMI_RMA_ARG1_(__VA_ARGS__, 0))                                                 \
                                   SHMEM_RMA_STANDARD_TYPES(SHMEMI_RMA_GC_##OP##_), SHMEMI_RMA_NO_MATCH_)          \
        SHMEM_RMA_STANDARD_TYPES(SHMEMI_RMA_G_##OP##_))(first, __VA_ARGS__)

#define shmem_put(...) SHMEMI_RMA_GEN_(PUT, __VA_ARGS__)
#define shmem_get(...) SHMEMI_RMA_GEN_(GET, __VA_ARGS__)
#define shmem_p(...) SHMEMI_RMA_GEN_(P, __VA_ARGS__)
#define shmem_g(...) SHMEMI_RMA_GEN_(G, __VA_ARGS__)
#define shmem_iput(...) SHMEMI_RMA_GEN_(IPUT, __VA_ARGS__)
#define shmem_iget(...) SHMEMI_RMA_GEN_(IGET, __VA_ARGS__)
#define shmem_put_nbi(...) SHMEMI_RMA_GEN_(PUT_NBI, __VA_ARGS__)
#define shmem_get_nbi(...) SHMEMI_RMA_GEN_(GET_NBI, __VA_ARGS__)
#define shmem_ibput(...) SHMEMI_RMA_GEN_(IBPUT, __VA_ARGS__)
#define shmem_ibget(...) SHMEMI_RMA_GEN_(IBGET, __VA_ARGS__)

/* Point-to-point: no context form. Selection is on *(ivars): lvalue conversion drops qualifiers, so a
 * volatile flag selects its type's routine too. */
#define SHMEMI_P2P_G_WAIT_UNTIL_(T, N) , T : shmem_##N##_wait_until
#define SHMEMI_P2P_G_TEST_(T, N) , T : shmem_##N##_test
#define SHMEMI_P2P_G_WAIT_UNTIL_ALL_(T, N) , T : shmem_##N##_wait_until_all
#define SHMEMI_P2P_G_WAIT_UNTIL_ANY_(T, N) , T : shmem_##N##_wait_until_any
#define SHMEMI_P2P_G_WAIT_UNTIL_SOME_(T, N) , T : shmem_##N##_wait_until_some
#define SHMEMI_P2P_G_WAIT_UNTIL_ALL_VECTOR_(T, N) , T : shmem_##N##_wait_until_all_vector
#define SHMEMI_P2P_G_WAIT_UNTIL_ANY_VECTOR_(T, N) , T : shmem_##N##_wait_until_any_vector
#define SHMEMI_P2P_G_WAIT_UNTIL_SOME_VECTOR_(T, N) , T : shmem_##N##_wait_until_some_vector
#define SHMEMI_P2P_G_TEST_ALL_(T, N) , T : shmem_##N##_test_all
#define SHMEMI_P2P_G_TEST_ANY_(T, N) , T : shmem_##N##_test_any
#define SHMEMI_P2P_G_TEST_SOME_(T, N) , T : shmem_##N##_test_some
#define SHMEMI_P2P_G_TEST_ALL_VECTOR_(T, N) , T : shmem_##N##_test_all_vector
#define SHMEMI_P2P_G_TEST_ANY_VECTOR_(T, N) , T : shmem_##N##_test_any_vector
#define SHMEMI_P2P_G_TEST_SOME_VECTOR_(T, N) , T : shmem_##N##_test_some_vector

#define SHMEMI_P2P_GEN_(OP, ivars, ...) \
    _Generic(*(ivars) SHMEM_SYNC_STANDARD_TYPES(SHMEMI_P2P_G_##OP##_))(ivars, __VA_ARGS__)

#define shmem_wait_until(...) SHMEMI_P2P_GEN_(WAIT_UNTIL, __VA_ARGS__)
#define shmem_test(...) SHMEMI_P2P_GEN_(TEST, __VA_ARGS__)
#define shmem_wait_until_all(...) SHMEMI_P2P_GEN_(WAIT_UNTIL_ALL, __VA_ARGS__)
#define shmem_wait_until_any(...) SHMEMI_P2P_GEN_(WAIT_UNTIL_ANY, __VA_ARGS__)
#define shmem_wait_until_some(...) SHMEMI_P2P_GEN_(WAIT_UNTIL_SOME, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) SHMEMI_P2P_GEN_(WAIT_UNTIL_ALL_VECTOR, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) SHMEMI_P2P_GEN_(WAIT_UNTIL_ANY_VECTOR, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) SHMEMI_P2P_GEN_(WAIT_UNTIL_SOME_VECTOR, __VA_ARGS__)
#define shmem_test_all(...) SHMEMI_P2P_GEN_(TEST_ALL, __VA_ARGS__)
#define shmem_test_any(...) SHMEMI_P2P_GEN_(TEST_ANY, __VA_ARGS__)
#define shmem_test_some(...) SHMEMI_P2P_GEN_(TEST_SOME, __VA_ARGS__)
#define shmem_test_all_vector(...) SHMEMI_P2P_GEN_(TEST_ALL_VECTOR, __VA_ARGS__)
#define shmem_test_any_vector(...) SHMEMI_P2P_GEN_(TEST_ANY_VECTOR, __VA_ARGS__)
#define shmem_test_some_vector(...) SHMEMI_P2P_GEN_(TEST_SOME_VECTOR, __VA_ARGS__)

#endif /* generic names */

#endif /* SHMEM_GENERIC_H */

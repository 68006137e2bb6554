/* Generic names of OpenSHMEM 1.5: C11 _Generic selection and C++ overloads, generated from the type tables.
 * Included at the end of shmem.h. */
#ifndef SHMEM_GENERIC_H
#define SHMEM_GENERIC_H

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


#endif /* SHMEM_GENERIC_H */

/* Point-to-point synchronization on arrays (OpenSHMEM 1.5 §9.10): wait_until_{all,any,some}, test_{all,any,some}
 * and their _vector forms, for every point-to-point synchronization type. (shmem_TYPENAME_wait_until and _test
 * are declared in shmem.h.) Included by shmem.h; the generic names are in shmem_generic.h.
 *
 * status may be NULL; status[i] != 0 takes ivars[i] out of the wait set. _any returns an index of a satisfying
 * element, SIZE_MAX when there is none (or the wait set is empty); _some stores the indices of all satisfying
 * elements in indices and returns their number; _all of an empty set returns (test_all: 1, as 1.6 clarifies).
 * cmp_values is const TYPE *, as 1.6 declares it (1.5 wrote TYPE *; every call that compiles against 1.5 compiles
 * against this). */
#ifndef SHMEM_P2P_H
#define SHMEM_P2P_H

/* Only the type tables here: shmem.h (included at the end, for a program that includes this header alone) must
 * see these declarations before its C++ generic overloads call them. */
#include "shmem_type_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEM_DECLARE_P2P_(T, N)                                                                                   \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);           \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);         \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,     \
                                       T cmp_value);                                                              \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,                  \
                                           const T *cmp_values);                                                  \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,                \
                                             const T *cmp_values);                                                \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status,       \
                                              int cmp, const T *cmp_values);                                      \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);                  \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);               \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
                                 T cmp_value);                                                                    \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values);   \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,                      \
                                       const T *cmp_values);                                                      \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,    \
                                        const T *cmp_values);
SHMEM_SYNC_TYPES(SHMEM_DECLARE_P2P_)
#undef SHMEM_DECLARE_P2P_

#ifdef __cplusplus
}
#endif

#include "shmem.h"

#endif /* SHMEM_P2P_H */

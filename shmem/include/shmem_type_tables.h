/* The type tables of the OpenSHMEM 1.5 API: every TYPE x operation routine, its declaration, its definition,
 * its C11 generic selection and its C++ overload are generated from these lists and nothing else.
 *
 * Each entry is X(TYPE, TYPENAME). "Standard" types are the distinct C types a generic selection may name;
 * the fixed-width and size types are typedefs of them (int64_t is long on LP64, long long or int elsewhere), so
 * they get named routines and, where a table's standard types already cover them on every ABI, no generic case of
 * their own: a _Generic list must not name one type twice. The bitwise tables are the exception (their standard
 * types are all unsigned, but they list signed fixed-width types too): their *_GENERIC_TYPES lists add those.
 */
#ifndef SHMEM_TYPE_TABLES_H
#define SHMEM_TYPE_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* Table 5 of OpenSHMEM 1.5, standard RMA types: the distinct C types */
#define SHMEM_RMA_STANDARD_TYPES(X) \
    X(float, float)                 \
    X(double, double)               \
    X(long double, longdouble)      \
    X(char, char)                   \
    X(signed char, schar)           \
    X(short, short)                 \
    X(int, int)                     \
    X(long, long)                   \
    X(long long, longlong)          \
    X(unsigned char, uchar)         \
    X(unsigned short, ushort)       \
    X(unsigned int, uint)           \
    X(unsigned long, ulong)         \
    X(unsigned long long, ulonglong)

/* ... and the typedef'd ones */
#define SHMEM_RMA_TYPEDEF_TYPES(X) \
    X(int8_t, int8)                \
    X(int16_t, int16)              \
    X(int32_t, int32)              \
    X(int64_t, int64)              \
    X(uint8_t, uint8)              \
    X(uint16_t, uint16)            \
    X(uint32_t, uint32)            \
    X(uint64_t, uint64)            \
    X(size_t, size)                \
    X(ptrdiff_t, ptrdiff)

#define SHMEM_RMA_TYPES(X)       \
    SHMEM_RMA_STANDARD_TYPES(X) \
    SHMEM_RMA_TYPEDEF_TYPES(X)

/* Point-to-point synchronization types (wait_until, test) */
#define SHMEM_SYNC_STANDARD_TYPES(X)     \
    X(short, short)                      \
    X(int, int)                          \
    X(long, long)                        \
    X(long long, longlong)               \
    X(unsigned short, ushort)            \
    X(unsigned int, uint)                \
    X(unsigned long, ulong)              \
    X(unsigned long long, ulonglong)

#define SHMEM_SYNC_TYPEDEF_TYPES(X) \
    X(int32_t, int32)               \
    X(int64_t, int64)               \
    X(uint32_t, uint32)             \
    X(uint64_t, uint64)             \
    X(size_t, size)                 \
    X(ptrdiff_t, ptrdiff)

#define SHMEM_SYNC_TYPES(X)       \
    SHMEM_SYNC_STANDARD_TYPES(X) \
    SHMEM_SYNC_TYPEDEF_TYPES(X)

/* Atomic memory operations (OpenSHMEM 1.5 Tables 6-8). Standard AMO types: fetch_inc, inc, fetch_add, add,
 * compare_swap; extended AMO types (standard + float, double): fetch, set, swap; bitwise AMO types: and, or, xor. */
#define SHMEM_AMO_STANDARD_STANDARD_TYPES(X) \
    X(int, int)                               \
    X(long, long)                             \
    X(long long, longlong)                    \
    X(unsigned int, uint)                     \
    X(unsigned long, ulong)                   \
    X(unsigned long long, ulonglong)
#define SHMEM_AMO_STANDARD_TYPEDEF_TYPES(X) \
    X(int32_t, int32)                        \
    X(int64_t, int64)                        \
    X(uint32_t, uint32)                      \
    X(uint64_t, uint64)                      \
    X(size_t, size)                          \
    X(ptrdiff_t, ptrdiff)
#define SHMEM_AMO_STANDARD_TYPES(X)       \
    SHMEM_AMO_STANDARD_STANDARD_TYPES(X) \
    SHMEM_AMO_STANDARD_TYPEDEF_TYPES(X)

#define SHMEM_AMO_EXTENDED_STANDARD_TYPES(X) \
    X(float, float)                           \
    X(double, double)                         \
    SHMEM_AMO_STANDARD_STANDARD_TYPES(X)
#define SHMEM_AMO_EXTENDED_TYPES(X)       \
    X(float, float)                       \
    X(double, double)                     \
    SHMEM_AMO_STANDARD_TYPES(X)

#define SHMEM_AMO_BITWISE_STANDARD_TYPES(X) \
    X(unsigned int, uint)                    \
    X(unsigned long, ulong)                  \
    X(unsigned long long, ulonglong)
#define SHMEM_AMO_BITWISE_TYPEDEF_TYPES(X) \
    X(int32_t, int32)                       \
    X(int64_t, int64)                       \
    X(uint32_t, uint32)                     \
    X(uint64_t, uint64)
#define SHMEM_AMO_BITWISE_TYPES(X)       \
    SHMEM_AMO_BITWISE_STANDARD_TYPES(X) \
    SHMEM_AMO_BITWISE_TYPEDEF_TYPES(X)
/* What the generic bitwise names select on: the standard types, which are all unsigned, and the two signed types
 * of the table. int32_t and int64_t are int and long on LP64, long and long long on ILP32: never one of the
 * standard list nor each other, so they get cases of their own (uint32_t and uint64_t are one of the standard
 * ones on every ABI). */
#define SHMEM_AMO_BITWISE_GENERIC_TYPES(X) \
    SHMEM_AMO_BITWISE_STANDARD_TYPES(X)    \
    X(int32_t, int32)                      \
    X(int64_t, int64)

/* Reductions (OpenSHMEM 1.5 Table 10). Bitwise: and, or, xor; min/max: compare; arithmetic: sum, prod. Each
 * list is its standard (non-typedef) types, which the generic names select on, and the typedef'd ones. */
#define SHMEM_REDUCE_BITWISE_STANDARD_TYPES(X) \
    X(unsigned char, uchar)                    \
    X(unsigned short, ushort)                  \
    X(unsigned int, uint)                      \
    X(unsigned long, ulong)                    \
    X(unsigned long long, ulonglong)
#define SHMEM_REDUCE_BITWISE_TYPEDEF_TYPES(X) \
    X(int8_t, int8)                           \
    X(int16_t, int16)                         \
    X(int32_t, int32)                         \
    X(int64_t, int64)                         \
    X(uint8_t, uint8)                         \
    X(uint16_t, uint16)                       \
    X(uint32_t, uint32)                       \
    X(uint64_t, uint64)                       \
    X(size_t, size)
#define SHMEM_REDUCE_BITWISE_TYPES(X)       \
    SHMEM_REDUCE_BITWISE_STANDARD_TYPES(X) \
    SHMEM_REDUCE_BITWISE_TYPEDEF_TYPES(X)
/* What the generic and, or and xor reductions select on: the standard types (all unsigned) and the table's signed
 * fixed-width types, which are none of them and distinct from each other on every ABI (int8_t is signed char,
 * never char). */
#define SHMEM_REDUCE_BITWISE_GENERIC_TYPES(X) \
    SHMEM_REDUCE_BITWISE_STANDARD_TYPES(X)    \
    X(int8_t, int8)                           \
    X(int16_t, int16)                         \
    X(int32_t, int32)                         \
    X(int64_t, int64)

#define SHMEM_REDUCE_MINMAX_STANDARD_TYPES(X) \
    X(char, char)                             \
    X(signed char, schar)                     \
    X(short, short)                           \
    X(int, int)                               \
    X(long, long)                             \
    X(long long, longlong)                    \
    X(unsigned char, uchar)                   \
    X(unsigned short, ushort)                 \
    X(unsigned int, uint)                     \
    X(unsigned long, ulong)                   \
    X(unsigned long long, ulonglong)          \
    X(float, float)                           \
    X(double, double)                         \
    X(long double, longdouble)
#define SHMEM_REDUCE_MINMAX_TYPES(X)          \
    SHMEM_REDUCE_MINMAX_STANDARD_TYPES(X)     \
    X(ptrdiff_t, ptrdiff)                     \
    SHMEM_REDUCE_BITWISE_TYPEDEF_TYPES(X)

#define SHMEM_REDUCE_ARITH_STANDARD_TYPES(X) \
    SHMEM_REDUCE_MINMAX_STANDARD_TYPES(X)    \
    X(double _Complex, complexd)             \
    X(float _Complex, complexf)
#define SHMEM_REDUCE_ARITH_TYPES(X)       \
    SHMEM_REDUCE_ARITH_STANDARD_TYPES(X) \
    X(ptrdiff_t, ptrdiff)                 \
    SHMEM_REDUCE_BITWISE_TYPEDEF_TYPES(X)

/* Deprecated active-set reductions, shmem_TYPE_OP_to_all (OpenSHMEM 1.4 names) */
#define SHMEM_TO_ALL_BITWISE_TYPES(X) \
    X(short, short)                   \
    X(int, int)                       \
    X(long, long)                     \
    X(long long, longlong)
#define SHMEM_TO_ALL_MINMAX_TYPES(X) \
    SHMEM_TO_ALL_BITWISE_TYPES(X)    \
    X(float, float)                  \
    X(double, double)                \
    X(long double, longdouble)
#define SHMEM_TO_ALL_ARITH_TYPES(X) \
    SHMEM_TO_ALL_MINMAX_TYPES(X)    \
    X(double _Complex, complexd)    \
    X(float _Complex, complexf)

/* Sized RMA routines: X(BITS) for shmem_putBITS, shmem_getBITS, shmem_iputBITS, ... */
#define SHMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

#endif

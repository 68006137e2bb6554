/* Every generic name of OpenSHMEM 1.6 (and the deprecated ones libshmem keeps), called once with every type of
 * its table, the standard C types and the typedef'd ones (int32_t, size_t, ...), with and without a context where
 * the name takes one. Compiled (never run) as C11 and as
 * C++17 for 32-bit ARM and for the target, with -Werror: a selection that names one type twice (size_t is
 * unsigned int and int32_t is long on ARM, int64_t is long on LP64), misses a type, or picks a routine of the
 * wrong type does not compile. One family per FAMILY_* macro, so that each is its own test.
 *
 * The type lists are written out here, from the specification's tables, rather than taken from the library's. */
#include <shmem.h>

#ifdef __cplusplus
template <class A, class B>
struct gc_same {
    static const bool value = false;
};
template <class A>
struct gc_same<A, A> {
    static const bool value = true;
};
#define RETURNS(expr, T) static_assert(gc_same<decltype(expr), T>::value, #expr " returns " #T)
#else
#define RETURNS(expr, T) _Static_assert(_Generic((expr), T : 1, default : 0), #expr " returns " #T)
#endif

/* the standard RMA types (Table 5 without its typedefs) */
#define RMA_STD(X)                 \
    X(float, float)                \
    X(double, double)              \
    X(long double, longdouble)     \
    X(char, char)                  \
    X(signed char, schar)          \
    X(short, short)                \
    X(int, int)                    \
    X(long, long)                  \
    X(long long, longlong)         \
    X(unsigned char, uchar)        \
    X(unsigned short, ushort)      \
    X(unsigned int, uint)          \
    X(unsigned long, ulong)        \
    X(unsigned long long, ulonglong)
/* Table 10's typedef'd types of the bitwise reductions (and, or, xor: the signed fixed-width types too) ... */
#define RED_BIT_TD(X)   \
    X(int8_t, int8)     \
    X(int16_t, int16)   \
    X(int32_t, int32)   \
    X(int64_t, int64)   \
    X(uint8_t, uint8)   \
    X(uint16_t, uint16) \
    X(uint32_t, uint32) \
    X(uint64_t, uint64) \
    X(size_t, size)
/* ... which with ptrdiff_t are Table 5's typedef'd RMA types, and Table 10's of max, min, sum and prod */
#define RMA_TD(X)   \
    RED_BIT_TD(X)   \
    X(ptrdiff_t, ptrdiff)
/* the typedef'd types of the standard AMO types (Table 6), of the extended ones (Table 7) and of the
 * point-to-point synchronization types */
#define AMO_STD_TD(X)   \
    X(int32_t, int32)   \
    X(int64_t, int64)   \
    X(uint32_t, uint32) \
    X(uint64_t, uint64) \
    X(size_t, size)     \
    X(ptrdiff_t, ptrdiff)

#ifdef FAMILY_RMA
#define CALLS(T, N)                                                                                               \
    void rma_##N(shmem_ctx_t ctx, T *d, const T *s, T v, int pe)                                                  \
    {                                                                                                             \
        shmem_put(d, s, 1, pe);                                                                                   \
        shmem_put(ctx, d, s, 1, pe);                                                                              \
        shmem_get(d, s, 1, pe);                                                                                   \
        shmem_get(ctx, d, s, 1, pe);                                                                              \
        shmem_p(d, v, pe);                                                                                        \
        shmem_p(ctx, d, v, pe);                                                                                   \
        RETURNS(shmem_g(s, pe), T);                                                                               \
        RETURNS(shmem_g(d, pe), T);                                                                               \
        RETURNS(shmem_g(ctx, s, pe), T);                                                                          \
        RETURNS(shmem_g(ctx, d, pe), T);                                                                          \
        v = shmem_g(s, pe) + shmem_g(ctx, s, pe);                                                                 \
        shmem_iput(d, s, 1, 1, 1, pe);                                                                            \
        shmem_iput(ctx, d, s, 1, 1, 1, pe);                                                                       \
        shmem_iget(d, s, 1, 1, 1, pe);                                                                            \
        shmem_iget(ctx, d, s, 1, 1, 1, pe);                                                                       \
        shmem_put_nbi(d, s, 1, pe);                                                                               \
        shmem_put_nbi(ctx, d, s, 1, pe);                                                                          \
        shmem_get_nbi(d, s, 1, pe);                                                                               \
        shmem_get_nbi(ctx, d, s, 1, pe);                                                                          \
        shmem_ibput(d, s, 2, 2, 1, 1, pe);                                                                        \
        shmem_ibput(ctx, d, s, 2, 2, 1, 1, pe);                                                                   \
        shmem_ibget(d, s, 2, 2, 1, 1, pe);                                                                        \
        shmem_ibget(ctx, d, s, 2, 2, 1, 1, pe);                                                                   \
        *d = v;                                                                                                   \
    }
RMA_STD(CALLS)
RMA_TD(CALLS)
#undef CALLS
#endif

#ifdef FAMILY_SIGNAL
#define CALLS(T, N)                                                                                               \
    void signal_##N(shmem_ctx_t ctx, T *d, const T *s, uint64_t *sig, int pe)                                     \
    {                                                                                                             \
        shmem_put_signal(d, s, 1, sig, 1, SHMEM_SIGNAL_SET, pe);                                                  \
        shmem_put_signal(ctx, d, s, 1, sig, 1, SHMEM_SIGNAL_ADD, pe);                                             \
        shmem_put_signal_nbi(d, s, 1, sig, 1, SHMEM_SIGNAL_SET, pe);                                              \
        shmem_put_signal_nbi(ctx, d, s, 1, sig, 1, SHMEM_SIGNAL_ADD, pe);                                         \
    }
RMA_STD(CALLS)
RMA_TD(CALLS)
#undef CALLS
/* 1.6: the signal updates without data, on uint64_t only: the context is what the generic name selects on */
void signal_update(shmem_ctx_t ctx, uint64_t *sig, int pe)
{
    shmem_signal_add(sig, 1, pe);
    shmem_signal_add(ctx, sig, 1, pe);
    shmem_signal_set(sig, 1, pe);
    shmem_signal_set(ctx, sig, 1, pe);
}
#endif

/* point-to-point: the standard AMO types and the deprecated short, unsigned short */
#ifdef FAMILY_P2P
#define P2P_STD(X)             \
    X(short, short)            \
    X(int, int)                \
    X(long, long)              \
    X(long long, longlong)     \
    X(unsigned short, ushort)  \
    X(unsigned int, uint)      \
    X(unsigned long, ulong)    \
    X(unsigned long long, ulonglong)
#define CALLS(T, N)                                                                                               \
    size_t p2p_##N(T *ivars, const T *cmp_values, T v, size_t *idx, const int *status)                           \
    {                                                                                                             \
        shmem_wait_until(ivars, SHMEM_CMP_EQ, v);                                                                 \
        RETURNS(shmem_test(ivars, SHMEM_CMP_EQ, v), int);                                                         \
        shmem_wait_until_all(ivars, 2, status, SHMEM_CMP_NE, v);                                                  \
        RETURNS(shmem_wait_until_any(ivars, 2, status, SHMEM_CMP_GT, v), size_t);                                 \
        RETURNS(shmem_wait_until_some(ivars, 2, idx, status, SHMEM_CMP_GE, v), size_t);                           \
        shmem_wait_until_all_vector(ivars, 2, status, SHMEM_CMP_LT, cmp_values);                                  \
        RETURNS(shmem_wait_until_any_vector(ivars, 2, status, SHMEM_CMP_LE, cmp_values), size_t);                 \
        RETURNS(shmem_wait_until_some_vector(ivars, 2, idx, status, SHMEM_CMP_EQ, cmp_values), size_t);           \
        RETURNS(shmem_test_all(ivars, 2, status, SHMEM_CMP_NE, v), int);                                          \
        RETURNS(shmem_test_any(ivars, 2, status, SHMEM_CMP_GT, v), size_t);                                       \
        RETURNS(shmem_test_some(ivars, 2, idx, status, SHMEM_CMP_GE, v), size_t);                                 \
        RETURNS(shmem_test_all_vector(ivars, 2, status, SHMEM_CMP_LT, cmp_values), int);                          \
        RETURNS(shmem_test_any_vector(ivars, 2, status, SHMEM_CMP_LE, cmp_values), size_t);                       \
        RETURNS(shmem_test_some_vector(ivars, 2, idx, status, SHMEM_CMP_EQ, cmp_values), size_t);                 \
        return shmem_test_any(ivars, 2, status, SHMEM_CMP_GT, v) + shmem_test_some(ivars, 2, idx, NULL, 1, v) +   \
               (size_t)shmem_test(ivars, SHMEM_CMP_EQ, v);                                                        \
    }
P2P_STD(CALLS)
AMO_STD_TD(CALLS)
#undef CALLS
#endif

#ifdef FAMILY_AMO
#define AMO_EXT_STD(X)              \
    X(float, float)                 \
    X(double, double)               \
    AMO_STD_STD(X)
#define AMO_STD_STD(X)              \
    X(int, int)                     \
    X(long, long)                   \
    X(long long, longlong)          \
    AMO_BIT_STD(X)
#define AMO_BIT_STD(X)              \
    X(unsigned int, uint)           \
    X(unsigned long, ulong)         \
    X(unsigned long long, ulonglong)
#define EXT(T, N)                                                                                                 \
    T amo_ext_##N(shmem_ctx_t ctx, T *d, const T *s, T *f, T v, int pe)                                           \
    {                                                                                                             \
        RETURNS(shmem_atomic_fetch(s, pe), T);                                                                    \
        RETURNS(shmem_atomic_fetch(d, pe), T);                                                                    \
        RETURNS(shmem_atomic_fetch(ctx, s, pe), T);                                                               \
        RETURNS(shmem_atomic_fetch(ctx, d, pe), T);                                                               \
        shmem_atomic_set(d, v, pe);                                                                               \
        shmem_atomic_set(ctx, d, v, pe);                                                                          \
        RETURNS(shmem_atomic_swap(d, v, pe), T);                                                                  \
        RETURNS(shmem_atomic_swap(ctx, d, v, pe), T);                                                             \
        shmem_atomic_fetch_nbi(f, s, pe);                                                                         \
        shmem_atomic_fetch_nbi(ctx, f, s, pe);                                                                    \
        shmem_atomic_swap_nbi(f, d, v, pe);                                                                       \
        shmem_atomic_swap_nbi(ctx, f, d, v, pe);                                                                  \
        return shmem_atomic_fetch(s, pe) + shmem_atomic_swap(ctx, d, v, pe);                                      \
    }
#define STD(T, N)                                                                                                 \
    T amo_std_##N(shmem_ctx_t ctx, T *d, T *f, T v, int pe)                                                       \
    {                                                                                                             \
        RETURNS(shmem_atomic_compare_swap(d, v, v, pe), T);                                                       \
        RETURNS(shmem_atomic_compare_swap(ctx, d, v, v, pe), T);                                                  \
        RETURNS(shmem_atomic_fetch_inc(d, pe), T);                                                                \
        RETURNS(shmem_atomic_fetch_inc(ctx, d, pe), T);                                                           \
        shmem_atomic_inc(d, pe);                                                                                  \
        shmem_atomic_inc(ctx, d, pe);                                                                             \
        RETURNS(shmem_atomic_fetch_add(d, v, pe), T);                                                             \
        RETURNS(shmem_atomic_fetch_add(ctx, d, v, pe), T);                                                        \
        shmem_atomic_add(d, v, pe);                                                                               \
        shmem_atomic_add(ctx, d, v, pe);                                                                          \
        shmem_atomic_compare_swap_nbi(f, d, v, v, pe);                                                            \
        shmem_atomic_compare_swap_nbi(ctx, f, d, v, v, pe);                                                       \
        shmem_atomic_fetch_inc_nbi(f, d, pe);                                                                     \
        shmem_atomic_fetch_inc_nbi(ctx, f, d, pe);                                                                \
        shmem_atomic_fetch_add_nbi(f, d, v, pe);                                                                  \
        shmem_atomic_fetch_add_nbi(ctx, f, d, v, pe);                                                             \
        return shmem_atomic_compare_swap(d, v, v, pe) + shmem_atomic_fetch_add(ctx, d, v, pe);                    \
    }
#define BIT_OP(OP)                                                                                                \
    RETURNS(shmem_atomic_fetch_##OP(d, v, pe), T);                                                                \
    RETURNS(shmem_atomic_fetch_##OP(ctx, d, v, pe), T);                                                           \
    shmem_atomic_##OP(d, v, pe);                                                                                  \
    shmem_atomic_##OP(ctx, d, v, pe);                                                                             \
    shmem_atomic_fetch_##OP##_nbi(f, d, v, pe);                                                                   \
    shmem_atomic_fetch_##OP##_nbi(ctx, f, d, v, pe);
#define BIT(T_, N)                                                                                                \
    T_ amo_bit_##N(shmem_ctx_t ctx, T_ *d, T_ *f, T_ v, int pe)                                                   \
    {                                                                                                             \
        typedef T_ T;                                                                                             \
        BIT_OP(and) BIT_OP(or) BIT_OP(xor)                                                                        \
        return shmem_atomic_fetch_and(d, v, pe) | shmem_atomic_fetch_xor(ctx, d, v, pe);                          \
    }
/* Table 8, bitwise AMO types: int32_t and int64_t are signed, unlike its standard types */
#define AMO_BIT_TD(X)   \
    X(int32_t, int32)   \
    X(int64_t, int64)   \
    X(uint32_t, uint32) \
    X(uint64_t, uint64)
AMO_EXT_STD(EXT)
AMO_STD_TD(EXT)
AMO_STD_STD(STD)
AMO_STD_TD(STD)
AMO_BIT_STD(BIT)
AMO_BIT_TD(BIT)
#endif

/* team-based collectives: the standard RMA types; reductions: Table 10's standard types per operation */
#ifdef FAMILY_COLL
#define COLL(T, N)                                                                                                \
    int coll_##N(shmem_team_t team, T *d, const T *s)                                                             \
    {                                                                                                             \
        RETURNS(shmem_broadcast(team, d, s, 1, 0), int);                                                          \
        RETURNS(shmem_collect(team, d, s, 1), int);                                                               \
        RETURNS(shmem_fcollect(team, d, s, 1), int);                                                              \
        RETURNS(shmem_alltoall(team, d, s, 1), int);                                                              \
        RETURNS(shmem_alltoalls(team, d, s, 1, 1, 1), int);                                                       \
        return shmem_broadcast(team, d, s, 1, 0) + shmem_collect(team, d, s, 1) + shmem_fcollect(team, d, s, 1) + \
               shmem_alltoall(team, d, s, 1) + shmem_alltoalls(team, d, s, 1, 1, 1);                              \
    }
RMA_STD(COLL)
RMA_TD(COLL)
#define RED_BIT_STD(X)              \
    X(unsigned char, uchar)         \
    X(unsigned short, ushort)       \
    X(unsigned int, uint)           \
    X(unsigned long, ulong)         \
    X(unsigned long long, ulonglong)
#define RED_MINMAX_STD(X)           \
    X(char, char)                   \
    X(signed char, schar)           \
    X(short, short)                 \
    X(int, int)                     \
    X(long, long)                   \
    X(long long, longlong)          \
    X(float, float)                 \
    X(double, double)               \
    X(long double, longdouble)      \
    RED_BIT_STD(X)
#define RED_ARITH_STD(X)            \
    X(double _Complex, complexd)    \
    X(float _Complex, complexf)     \
    RED_MINMAX_STD(X)
#define RED(T, N, OP)                                                                                             \
    int red_##OP##_##N(shmem_team_t team, T *d, const T *s)                                                       \
    {                                                                                                             \
        RETURNS(shmem_##OP##_reduce(team, d, s, 1), int);                                                         \
        return shmem_##OP##_reduce(team, d, s, 1);                                                                \
    }
#define RED_BIT(T, N) RED(T, N, and) RED(T, N, or) RED(T, N, xor)
#define RED_MINMAX(T, N) RED(T, N, max) RED(T, N, min)
/* 1.6: the scans take the types of the sum reduction */
#define SCAN(T, N)                                                                                                \
    int scan_##N(shmem_team_t team, T *d, const T *s)                                                             \
    {                                                                                                             \
        RETURNS(shmem_sum_inscan(team, d, s, 1), int);                                                            \
        RETURNS(shmem_sum_exscan(team, d, s, 1), int);                                                            \
        return shmem_sum_inscan(team, d, s, 1) + shmem_sum_exscan(team, d, s, 1);                                \
    }
#define RED_ARITH(T, N) RED(T, N, sum) RED(T, N, prod) SCAN(T, N)
RED_BIT_STD(RED_BIT)
RED_BIT_TD(RED_BIT)
RED_MINMAX_STD(RED_MINMAX)
RMA_TD(RED_MINMAX)
RED_ARITH_STD(RED_ARITH)
RMA_TD(RED_ARITH)
int sync_team(shmem_team_t team)
{
    RETURNS(shmem_sync(team), int);
    return shmem_sync(team);
}
#endif

/* the deprecated generic names of 1.3 */
#ifdef FAMILY_LEGACY
#define OLD_EXT(T, N)                                                                                             \
    T old_ext_##N(T *d, const T *s, T v, int pe)                                                                  \
    {                                                                                                             \
        RETURNS(shmem_fetch(s, pe), T);                                                                           \
        RETURNS(shmem_fetch(d, pe), T);                                                                           \
        shmem_set(d, v, pe);                                                                                      \
        RETURNS(shmem_swap(d, v, pe), T);                                                                         \
        return shmem_fetch(s, pe) + shmem_swap(d, v, pe);                                                         \
    }
#define OLD(T, N)                                                                                                 \
    T old_##N(T *d, T v, int pe)                                                                                  \
    {                                                                                                             \
        RETURNS(shmem_cswap(d, v, v, pe), T);                                                                     \
        RETURNS(shmem_fadd(d, v, pe), T);                                                                         \
        RETURNS(shmem_finc(d, pe), T);                                                                            \
        shmem_add(d, v, pe);                                                                                      \
        shmem_inc(d, pe);                                                                                         \
        return shmem_cswap(d, v, v, pe) + shmem_fadd(d, v, pe) + shmem_finc(d, pe);                              \
    }
OLD_EXT(float, float)
OLD_EXT(double, double)
OLD_EXT(int, int)
OLD_EXT(long, long)
OLD_EXT(long long, longlong)
OLD(int, int)
OLD(long, long)
OLD(long long, longlong)
#endif

/* Point-to-point synchronization on arrays: shmem_TYPENAME_{wait_until,test}_{all,any,some}[_vector] for every
 * point-to-point type, and the generic names for every standard type. Exact results on values already in place
 * (with and without status masks, empty sets, nelems 0), then waits on elements that the other PEs put at
 * different times, in the usual loops (wait for any/some, exclude what came, wait again). */
#include <stdarg.h>

#include "check.h"

/* Are idx[0..k) the k indices given (in any order, each once)? */
static int same_set(const size_t *idx, int k, ...)
{
    int want[8], used[8] = {0};
    va_list ap;
    va_start(ap, k);
    for (int j = 0; j < k; ++j) want[j] = va_arg(ap, int);
    va_end(ap);
    for (int j = 0; j < k; ++j) {
        int found = 0;
        for (int w = 0; w < k && !found; ++w)
            if (!used[w] && (size_t)want[w] == idx[j]) used[w] = found = 1;
        if (!found) return 0;
    }
    return 1;
}

/* The point-to-point types of OpenSHMEM 1.5 (Tables 6 and 11), listed here rather than taken from the library's
 * table so that a type missing there fails to compile here. */
#define TYPE short
#define NAME short
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE int
#define NAME int
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE long
#define NAME long
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE long long
#define NAME longlong
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE unsigned short
#define NAME ushort
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE unsigned int
#define NAME uint
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE unsigned long
#define NAME ulong
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE unsigned long long
#define NAME ulonglong
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE int32_t
#define NAME int32
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE int64_t
#define NAME int64
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE uint32_t
#define NAME uint32
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE uint64_t
#define NAME uint64
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE size_t
#define NAME size
#include "p2p_body.h"
#undef TYPE
#undef NAME
#define TYPE ptrdiff_t
#define NAME ptrdiff
#include "p2p_body.h"
#undef TYPE
#undef NAME

/* The generic names, once per standard type: each must select its type's routine (a wrong selection reads the
 * array with the wrong element size and gets the answers wrong). */
#define GENERIC(T, N)                                                                                         \
    static T gen_##N[6];                                                                                      \
    static void generic_##N(void)                                                                             \
    {                                                                                                         \
        const int me = shmem_my_pe(), n = shmem_n_pes();                                                     \
        const T cv[6] = {1, 2, 3, 4, 5, 7};                                                                   \
        const int st[6] = {0, 0, 0, 0, 0, 1};                                                                 \
        size_t idx[6];                                                                                        \
        for (int i = 0; i < 6; ++i) gen_##N[i] = 0;                                                           \
        shmem_barrier_all();                                                                                  \
        /* the left neighbour fills my array: 1 2 3 4 5 6 */                                                  \
        for (int i = 0; i < 6; ++i) shmem_##N##_p(&gen_##N[i], (T)(i + 1), (me + 1) % n);                    \
        shmem_wait_until_all(gen_##N, 6, NULL, SHMEM_CMP_NE, (T)0);                                           \
        shmem_wait_until_all_vector(gen_##N, 6, st, SHMEM_CMP_EQ, cv);                                        \
        CHECK(shmem_wait_until_any(gen_##N, 6, NULL, SHMEM_CMP_EQ, (T)4) == 3, #N " generic wait_until_any"); \
        CHECK(shmem_wait_until_any_vector(gen_##N, 6, NULL, SHMEM_CMP_LT, cv) == 5,                           \
              #N " generic wait_until_any_vector");                                                          \
        CHECK(shmem_wait_until_some(gen_##N, 6, idx, NULL, SHMEM_CMP_GE, (T)5) == 2 && same_set(idx, 2, 4, 5), \
              #N " generic wait_until_some");                                                                 \
        CHECK(shmem_wait_until_some_vector(gen_##N, 6, idx, NULL, SHMEM_CMP_NE, cv) == 1 && idx[0] == 5,      \
              #N " generic wait_until_some_vector");                                                         \
        CHECK(shmem_test_all(gen_##N, 6, NULL, SHMEM_CMP_LE, (T)6) == 1, #N " generic test_all");            \
        CHECK(shmem_test_all_vector(gen_##N, 6, NULL, SHMEM_CMP_EQ, cv) == 0, #N " generic test_all_vector"); \
        CHECK(shmem_test_any(gen_##N, 6, st, SHMEM_CMP_EQ, (T)6) == SIZE_MAX, #N " generic test_any");        \
        CHECK(shmem_test_any_vector(gen_##N, 6, NULL, SHMEM_CMP_LT, cv) == 5, #N " generic test_any_vector"); \
        CHECK(shmem_test_some(gen_##N, 6, idx, st, SHMEM_CMP_GT, (T)2) == 3 && same_set(idx, 3, 2, 3, 4),   \
              #N " generic test_some");                                                                       \
        CHECK(shmem_test_some_vector(gen_##N, 6, idx, st, SHMEM_CMP_EQ, cv) == 5, #N " generic test_some_v"); \
        CHECK(shmem_test(&gen_##N[2], SHMEM_CMP_EQ, (T)3) == 1, #N " generic test");                         \
        shmem_wait_until(&gen_##N[2], SHMEM_CMP_EQ, (T)3);                                                    \
        shmem_barrier_all();                                                                                  \
    }
GENERIC(short, short)
GENERIC(int, int)
GENERIC(long, long)
GENERIC(long long, longlong)
GENERIC(unsigned short, ushort)
GENERIC(unsigned int, uint)
GENERIC(unsigned long, ulong)
GENERIC(unsigned long long, ulonglong)

int main(void)
{
    shmem_init();
    p2p_short();
    p2p_int();
    p2p_long();
    p2p_longlong();
    p2p_ushort();
    p2p_uint();
    p2p_ulong();
    p2p_ulonglong();
    p2p_int32();
    p2p_int64();
    p2p_uint32();
    p2p_uint64();
    p2p_size();
    p2p_ptrdiff();
    generic_short();
    generic_int();
    generic_long();
    generic_longlong();
    generic_ushort();
    generic_uint();
    generic_ulong();
    generic_ulonglong();
    if (shmem_my_pe() == 0) printf("p2p: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}

/* shmem_putmem/getmem over every alignment pair and many lengths (the copy loop's head, body and tail paths),
 * large transfers, and the sized routines put/get/iput/igetSIZE for SIZE 8..128. */
#include <stdint.h>
#include <string.h>

#include "check.h"

/* The large transfers: 64 KiB, or 4 KiB on a PE of 32 KB (Epiphany), still many times the copy loop's block and
 * more than the longest of the alignment tests. */
#define BIG TARGET_SIZE(64 * 1024, 4 * 1024)

static unsigned char byte_of(int pe, size_t i, int salt) { return (unsigned char)(test_pattern(pe, i, salt) >> 3); }

static unsigned char *src, *dst;
/* the private target of the gets (static rather than on the stack: an Epiphany core's stack is 1.5 KB) */
static unsigned char local[1100];

static void test_mem_alignments(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    static const size_t lengths[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 63, 64, 65, 127, 128, 129, 200, 511, 1000};
    int salt = 0;
    for (size_t so = 0; so < 8; ++so)
        for (size_t dof = 0; dof < 8; ++dof)
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li, ++salt) {
                const size_t len = lengths[li], span = dof + len + 16; /* the target and what follows it */
                for (size_t i = 0; i < so + len; ++i) src[i] = byte_of(me, i, salt);
                memset(dst, 0xee, span);
                shmem_barrier_all();
                shmem_putmem(dst + dof, src + so, len, right);
                shmem_barrier_all();
                for (size_t i = 0; i < span; ++i) {
                    unsigned char want = (i >= dof && i < dof + len) ? byte_of(left, i - dof + so, salt) : 0xee;
                    CHECK(dst[i] == want, "putmem src+%zu -> dst+%zu len %zu: byte %zu is %#x, want %#x", so, dof,
                          len, i, dst[i], want);
                }
                /* get: from the left neighbour's src into a local buffer */
                memset(local, 0xdd, span);
                shmem_getmem(local + dof, src + so, len, left);
                for (size_t i = 0; i < span; ++i) {
                    unsigned char want = (i >= dof && i < dof + len) ? byte_of(left, i - dof + so, salt) : 0xdd;
                    CHECK(local[i] == want, "getmem src+%zu -> local+%zu len %zu: byte %zu", so, dof, len, i);
                }
                shmem_barrier_all();
            }
}

static void test_big(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    for (size_t i = 0; i < BIG; ++i) src[i] = byte_of(me, i, 777);
    shmem_barrier_all();
    shmem_putmem(dst, src, BIG, right);
    shmem_barrier_all();
    for (size_t i = 0; i < BIG; ++i) CHECK(dst[i] == byte_of(left, i, 777), "%d-byte putmem byte %zu", BIG, i);
    shmem_barrier_all();
    memset(dst, 0, BIG);
    shmem_getmem_nbi(dst, src, BIG, left);
    shmem_quiet();
    for (size_t i = 0; i < BIG; ++i) CHECK(dst[i] == byte_of(left, i, 777), "%d-byte getmem_nbi byte %zu", BIG, i);
    shmem_barrier_all();
}

/* putSIZE/getSIZE move nelems elements of SIZE bits; iputSIZE/igetSIZE stride in elements of that size */
#define TEST_SIZE(BITS)                                                                                            \
    static void test_size_##BITS(void)                                                                             \
    {                                                                                                              \
        const int me = shmem_my_pe(), n = shmem_n_pes();                                                           \
        const int right = (me + 1) % n, left = (me + n - 1) % n;                                                   \
        const size_t esize = BITS / 8, nel = 21, stride = 3;                                                       \
        for (size_t i = 0; i < nel * stride * esize; ++i) src[i] = byte_of(me, i, BITS);                           \
        memset(dst, 0xee, nel * stride * esize + esize);                                                           \
        shmem_barrier_all();                                                                                       \
        shmem_put##BITS(dst, src, nel, right);                                                                     \
        shmem_barrier_all();                                                                                       \
        for (size_t i = 0; i < nel * esize + esize; ++i)                                                           \
            CHECK(dst[i] == (i < nel * esize ? byte_of(left, i, BITS) : 0xee), "put" #BITS " byte %zu", i);       \
        memset(local, 0xdd, sizeof local);                                                                         \
        shmem_get##BITS(local, src, nel, left);                                                                    \
        for (size_t i = 0; i < nel * esize + esize; ++i)                                                           \
            CHECK(local[i] == (i < nel * esize ? byte_of(left, i, BITS) : 0xdd), "get" #BITS " byte %zu", i);     \
        shmem_barrier_all();                                                                                       \
        memset(dst, 0xee, nel * stride * esize + esize);                                                           \
        shmem_barrier_all();                                                                                       \
        /* element k of src goes to element k*stride of dst */                                                     \
        shmem_iput##BITS(dst, src, (ptrdiff_t)stride, 1, nel, right);                                              \
        shmem_barrier_all();                                                                                       \
        for (size_t i = 0; i < nel * stride * esize; ++i) {                                                        \
            size_t el = i / esize, b = i % esize;                                                                  \
            unsigned char want = el % stride == 0 ? byte_of(left, (el / stride) * esize + b, BITS) : 0xee;         \
            CHECK(dst[i] == want, "iput" #BITS " byte %zu", i);                                                    \
        }                                                                                                          \
        /* element k*stride of the left neighbour's src goes to local element k */                                 \
        memset(local, 0xdd, sizeof local);                                                                         \
        shmem_iget##BITS(local, src, 1, (ptrdiff_t)stride, nel, left);                                             \
        for (size_t i = 0; i < nel * esize; ++i) {                                                                 \
            size_t el = i / esize, b = i % esize;                                                                  \
            CHECK(local[i] == byte_of(left, el * stride * esize + b, BITS), "iget" #BITS " byte %zu", i);          \
        }                                                                                                          \
        CHECK(local[nel * esize] == 0xdd, "iget" #BITS " wrote past its end");                                     \
        shmem_barrier_all();                                                                                       \
    }
SHMEM_RMA_SIZES(TEST_SIZE)

int main(void)
{
    shmem_init();
    src = shmem_malloc(BIG);
    dst = shmem_malloc(BIG);
    CHECK(src != NULL && dst != NULL, "malloc");
    test_mem_alignments();
    test_big();
#define RUN(BITS) test_size_##BITS();
    SHMEM_RMA_SIZES(RUN)
    shmem_free(dst);
    shmem_free(src);
    if (shmem_my_pe() == 0) printf("sized and mem: %d PEs ok\n", shmem_n_pes());
    shmem_finalize();
    return 0;
}

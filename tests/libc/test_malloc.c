/* malloc, calloc, realloc, free: the private heap of each PE (crt/virt-rv64/libc.cpp, linker/virt-rv64/shmem.ld).
 * argv[1], if given, is the private heap's size the program was linked with (-Wl,--defsym=__private_heap_size=). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAX_BLOCKS 4096

static void *blocks[MAX_BLOCKS];
static long symmetric_word;

static unsigned char byte_of(int pe, size_t i, int round) { return (unsigned char)test_pattern(pe, i, round); }

static void fill(unsigned char *p, size_t n, int pe, int round)
{
    for (size_t i = 0; i < n; ++i) p[i] = byte_of(pe, i, round);
}

static int holds(const unsigned char *p, size_t n, int pe, int round)
{
    for (size_t i = 0; i < n; ++i)
        if (p[i] != byte_of(pe, i, round)) return 0;
    return 1;
}

/* Allocates blocks of `size` until malloc says no; returns how many it got. */
static int fill_heap(size_t size)
{
    int k = 0;
    while (k < MAX_BLOCKS) {
        errno = 0;
        void *p = malloc(size);
        if (p == NULL) {
            CHECK(errno == ENOMEM, "malloc(%zu) gave NULL with errno %d", size, errno);
            break;
        }
        memset(p, 0x5a, size);  /* the whole block is usable */
        blocks[k++] = p;
    }
    CHECK(k < MAX_BLOCKS, "malloc(%zu) never ran out after %d blocks", size, k);
    return k;
}

static void free_all(int k)
{
    for (int i = 0; i < k; ++i) free(blocks[i]);
}

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const size_t heap_size = argc > 1 ? (size_t)strtoul(argv[1], NULL, 0) : 256 * 1024;

    /* many sizes, each block holding its own pattern, all checked after all were allocated */
    static const size_t sizes[] = {1, 2, 3, 7, 8, 15, 16, 17, 31, 64, 100, 255, 256, 1000, 4096, 5000, 12345};
    enum { N_SIZES = sizeof sizes / sizeof sizes[0] };
    unsigned char *p[N_SIZES];
    for (int i = 0; i < N_SIZES; ++i) {
        p[i] = malloc(sizes[i]);
        CHECK(p[i] != NULL, "malloc(%zu)", sizes[i]);
        CHECK(((uintptr_t)p[i] & 7) == 0, "malloc(%zu) = %p is not 8-byte aligned", sizes[i], (void *)p[i]);
        fill(p[i], sizes[i], me, i);
    }
    for (int i = 0; i < N_SIZES; ++i) CHECK(holds(p[i], sizes[i], me, i), "block %d (%zu bytes) changed", i, sizes[i]);

    /* the private heap is not symmetric: another PE cannot reach it, and it is not in the symmetric heap */
    for (int pe = 0; pe < n; ++pe) {
        CHECK(shmem_addr_accessible(p[0], pe) == 0, "malloc'd %p accessible on PE %d", (void *)p[0], pe);
        CHECK(shmem_ptr(p[0], pe) == NULL, "shmem_ptr of malloc'd memory for PE %d", pe);
        CHECK(shmem_addr_accessible(&symmetric_word, pe) == 1, "static data on PE %d", pe);
    }

    /* realloc keeps the contents, growing and shrinking */
    for (int i = 0; i < N_SIZES; ++i) {
        const size_t bigger = sizes[i] * 3 + 10;
        unsigned char *q = realloc(p[i], bigger);
        CHECK(q != NULL, "realloc(%zu -> %zu)", sizes[i], bigger);
        CHECK(holds(q, sizes[i], me, i), "realloc(%zu -> %zu) lost the contents", sizes[i], bigger);
        const size_t smaller = (sizes[i] + 1) / 2;
        p[i] = realloc(q, smaller);
        CHECK(p[i] != NULL, "realloc(%zu -> %zu)", bigger, smaller);
        CHECK(holds(p[i], smaller, me, i), "realloc(-> %zu) lost the contents", smaller);
    }
    for (int i = 0; i < N_SIZES; ++i) free(p[i]);
    unsigned char *r = realloc(NULL, 40);  /* realloc(NULL) is malloc */
    CHECK(r != NULL, "realloc(NULL, 40)");
    free(r);
    free(NULL);

    /* calloc gives zeros, even where a freed block had a pattern */
    for (int round = 0; round < 3; ++round) {
        unsigned char *d = malloc(3000);
        CHECK(d != NULL, "malloc(3000)");
        memset(d, 0xff, 3000);
        free(d);
        unsigned char *z = calloc(300, 10);
        CHECK(z != NULL, "calloc(300, 10)");
        for (size_t i = 0; i < 3000; ++i) CHECK(z[i] == 0, "calloc byte %zu = %d", i, z[i]);
        free(z);
    }
    volatile size_t half = SIZE_MAX / 2;  /* volatile: the compiler would warn about a constant too large */
    CHECK(calloc(half, 4) == NULL, "calloc overflow");

    /* exhaustion: NULL with ENOMEM; everything freed is there again */
    errno = 0;
    CHECK(malloc(heap_size + 1) == NULL && errno == ENOMEM, "malloc(heap + 1) errno %d", errno);
    const int k1 = fill_heap(4000);
    CHECK((size_t)k1 * 4000 >= heap_size / 2, "only %d blocks of 4000 bytes from a heap of %zu", k1, heap_size);
    CHECK((size_t)k1 * 4000 <= heap_size, "%d blocks of 4000 bytes from a heap of %zu", k1, heap_size);
    free_all(k1);
    const int k2 = fill_heap(4000);
    CHECK(k2 == k1, "after freeing everything: %d blocks, the first time %d", k2, k1);
    free_all(k2);
    void *big = malloc(heap_size / 2);  /* the freed blocks merge again */
    CHECK(big != NULL, "malloc(%zu) after freeing everything", heap_size / 2);
    free(big);
    const size_t small = heap_size / 2600;  /* about 100 bytes, up to 2600 blocks */
    const int k3 = fill_heap(small);
    CHECK((size_t)k3 * small >= heap_size / 2, "only %d blocks of %zu bytes", k3, small);
    free_all(k3);

    /* private: every PE's block holds that PE's data, at whatever address */
    unsigned char *mine = malloc(512);
    CHECK(mine != NULL, "malloc(512)");
    fill(mine, 512, me, 99);
    shmem_barrier_all();
    CHECK(holds(mine, 512, me, 99), "PE %d's private block changed", me);
    free(mine);

    shmem_barrier_all();
    if (me == 0) printf("malloc: %d PEs ok (heap %zu bytes, %d blocks of 4000)\n", n, heap_size, k1);
    shmem_finalize();
    return 0;
}

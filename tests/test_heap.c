/* The symmetric heap: malloc, calloc, align, realloc, free. Blocks are symmetric (same address on every PE,
 * checked through puts), aligned, keep their contents across realloc, and freed space comes back. */
#include <stdint.h>
#include <string.h>

#include "check.h"

/* Block sizes: on a PE of 32 KB (Epiphany; the program's code runs from external DRAM there) the symmetric heap
 * is about 20 KB, and this program needs 7 KB of it at most with the small sizes (the big ones: 55 KB); the
 * alignments stop at 4 KiB there. The paths are the same: a 4 KiB alignment still pads the break, the realloc
 * still grows in place and then moves. */
#define MAX_ALIGN TARGET_SIZE(65536, 4096)
#define GROW_INTS TARGET_SIZE(4096, 256)    /* realloc grows a 16-int block to this, in place at the break */
#define BLOCKER_BYTES TARGET_SIZE(4096, 512) /* larger than any hole */
#define MOVE_INTS TARGET_SIZE(8192, 512)    /* then grows it to this, by moving */

static uintptr_t offset_on_pe0;
static int anchor; /* a static symmetric object: blocks are compared by their offset from it */

/* the same block on every PE: the block's offset from `anchor` in PE 0's memory, as this PE sees PE 0 through
 * shmem_ptr, is the offset PE 0 sees for its own block (addresses themselves differ: virt-rv64 puts each PE in
 * its own partition, and Epiphany's shmem_ptr gives another core's memory as a global address) */
static void check_symmetric_addr(void *p, const char *what)
{
    if (shmem_my_pe() == 0) offset_on_pe0 = (uintptr_t)p - (uintptr_t)&anchor;
    shmem_barrier_all();
    uintptr_t pe0 = shmem_g((unsigned long *)&offset_on_pe0, 0);
    uintptr_t mine_on_pe0 = (uintptr_t)shmem_ptr(p, 0) - (uintptr_t)shmem_ptr(&anchor, 0);
    CHECK(pe0 == mine_on_pe0, "%s: block %p is at offset %#lx from a static object on PE 0, where PE 0 got %#lx",
          what, p, (unsigned long)mine_on_pe0, (unsigned long)pe0);
    shmem_barrier_all();
}

static void ring_put_check(int *buf, size_t count, int salt)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    static int local[256]; /* private (static: a 1 KB array would fill an Epiphany core's stack) */
    for (size_t i = 0; i < count; ++i) local[i] = (int)test_pattern(me, i, salt);
    shmem_int_put(buf, local, count, (me + 1) % n);
    shmem_barrier_all();
    const int left = (me + n - 1) % n;
    for (size_t i = 0; i < count; ++i) CHECK(buf[i] == (int)test_pattern(left, i, salt), "heap put element %zu", i);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();

    /* malloc: aligned, symmetric, usable for RMA */
    int *a = shmem_malloc(100 * sizeof(int));
    CHECK(a != NULL, "malloc 400");
    CHECK(((uintptr_t)a & 15) == 0, "malloc alignment %p", (void *)a);
    check_symmetric_addr(a, "malloc");
    ring_put_check(a, 100, 1);

    /* calloc: zeroed on every PE */
    long *z = shmem_calloc(300, sizeof(long));
    CHECK(z != NULL, "calloc");
    for (int i = 0; i < 300; ++i) CHECK(z[i] == 0, "calloc element %d = %ld", i, z[i]);
    check_symmetric_addr(z, "calloc");

    /* align: every power of two up to 64 KiB (4 KiB) */
    for (size_t al = 1; al <= MAX_ALIGN; al <<= 1) {
        void *p = shmem_align(al, 24);
        CHECK(p != NULL, "align %zu", al);
        CHECK(((uintptr_t)p & (al - 1)) == 0, "align %zu gave %p", al, p);
        check_symmetric_addr(p, "align");
        shmem_free(p);
    }

    /* free the last block: the next allocation of the same size gets the same address (the break moved back) */
    void *last = shmem_malloc(1000);
    shmem_free(last);
    void *again = shmem_malloc(1000);
    CHECK(again == last, "break not reclaimed: %p then %p", last, again);

    /* free a block in the middle: nothing else is disturbed, and a fitting allocation reuses the hole */
    int *mid = shmem_malloc(64 * sizeof(int));
    int *after = shmem_malloc(64 * sizeof(int));
    ring_put_check(after, 64, 2);
    shmem_free(mid);
    int *reuse = shmem_malloc(32 * sizeof(int));
    CHECK(reuse == mid, "hole not reused: %p, hole at %p", (void *)reuse, (void *)mid);
    ring_put_check(reuse, 32, 3);
    const int me = shmem_my_pe(), n = shmem_n_pes(), left = (me + n - 1) % n;
    for (int i = 0; i < 64; ++i) CHECK(after[i] == (int)test_pattern(left, (size_t)i, 2), "neighbour block damaged at %d", i);

    /* realloc keeps the contents: grow in place at the break, and grow by moving */
    int *r = shmem_malloc(16 * sizeof(int));
    for (int i = 0; i < 16; ++i) r[i] = me * 100 + i;
    int *r2 = shmem_realloc(r, GROW_INTS * sizeof(int));
    CHECK(r2 != NULL, "realloc grow");
    for (int i = 0; i < 16; ++i) CHECK(r2[i] == me * 100 + i, "realloc lost element %d", i);
    check_symmetric_addr(r2, "realloc");
    int *blocker = shmem_malloc(BLOCKER_BYTES); /* larger than any hole: it lands behind r2 */
    int *r3 = shmem_realloc(r2, MOVE_INTS * sizeof(int)); /* not last any more: must move */
    CHECK(r3 != NULL && r3 != r2, "realloc move %p -> %p", (void *)r2, (void *)r3);
    for (int i = 0; i < 16; ++i) CHECK(r3[i] == me * 100 + i, "realloc move lost element %d", i);
    check_symmetric_addr(r3, "realloc move");
    ring_put_check(r3, 256, 4);
    CHECK(shmem_realloc(r3, 0) == NULL, "realloc to 0 frees");
    void *fresh = shmem_realloc(NULL, 48);
    CHECK(fresh != NULL, "realloc(NULL) allocates");

    /* exhaustion: NULL, not a crash, and the heap still works afterwards */
    const size_t huge_size = (size_t)1 << (sizeof(size_t) > 4 ? 40 : 30); /* 1 TiB; 1 GiB with 32-bit size_t */
    void *huge = shmem_malloc(huge_size);
    CHECK(huge == NULL, "an allocation of %zu bytes succeeded?", huge_size);
    CHECK(shmem_malloc(0) == NULL, "malloc(0) is NULL");
    void *small = shmem_malloc(8);
    CHECK(small != NULL, "heap unusable after a failed allocation");

    shmem_free(small);
    shmem_free(fresh);
    shmem_free(blocker);
    shmem_free(reuse);
    shmem_free(after);
    shmem_free(again);
    shmem_free(z);
    shmem_free(a);
    /* everything freed: the whole heap is one free range again, so a large block fits at the first address */
    void *all = shmem_malloc(100);
    CHECK(all == (void *)a, "heap not empty after freeing everything: %p vs first %p", all, (void *)a);
    shmem_free(all);

    if (me == 0) printf("heap: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

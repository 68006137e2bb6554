/* The default symmetric heap (no SHMEM_SYMMETRIC_SIZE): big enough for ordinary programs. Each PE allocates a few
 * MB, aligns a block to 2 MiB, grows the last block in place with shmem_realloc, and moves data through all of
 * them to its neighbour. With the old default (a 1 MiB request, about 1.9 MiB of heap) the first allocation
 * returned NULL. Run with "exhaust": asks for more than any heap has and checks for NULL; the message names
 * SHMEM_SYMMETRIC_SIZE and its value (the test's EXPECT_OUTPUT). */
#include <stdint.h>
#include <string.h>

#include "check.h"

#define MiB ((size_t)1 << 20)

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;

    if (argc > 1 && strcmp(argv[1], "exhaust") == 0) {
        CHECK(shmem_malloc(MiB << 12) == NULL, "4 GiB allocated?");
        CHECK(shmem_malloc(MiB) != NULL, "the heap is unusable after a failed allocation");
        shmem_finalize();
        return 0;
    }

    /* 6 MiB, a block at the break grown to 8 MiB in place, then 4 MiB aligned to 2 MiB */
    long *big = shmem_malloc(6 * MiB);
    CHECK(big != NULL, "shmem_malloc(6 MiB) returned NULL with the default heap");
    const size_t nlong = 6 * MiB / sizeof(long);
    for (size_t i = 0; i < nlong; i += 4096) big[i] = (long)test_pattern(me, i, 1);

    /* the last block grows in place, keeping its contents */
    char *last = shmem_malloc(64);
    for (int i = 0; i < 64; ++i) last[i] = (char)(me + i);
    char *grown = shmem_realloc(last, 8 * MiB);
    CHECK(grown == last, "realloc of the last block moved it: %p -> %p", (void *)last, (void *)grown);
    for (int i = 0; i < 64; ++i) CHECK(grown[i] == (char)(me + i), "realloc lost byte %d", i);
    grown[8 * MiB - 1] = (char)(me + 2);

    char *aligned = shmem_align(2 * MiB, 4 * MiB);
    CHECK(aligned != NULL, "shmem_align(2 MiB, 4 MiB) returned NULL with the default heap");
    CHECK(((uintptr_t)aligned & (2 * MiB - 1)) == 0, "shmem_align(2 MiB): %p", (void *)aligned);

    aligned[4 * MiB - 1] = (char)(me + 1);

    /* all of it is symmetric: put to the right, check what the left put here */
    shmem_barrier_all();
    long *remote = shmem_malloc(6 * MiB);
    CHECK(remote != NULL, "a second 6 MiB block");
    shmem_long_put(remote, big, nlong, right);
    shmem_char_p(&aligned[4 * MiB - 2], aligned[4 * MiB - 1], right);
    shmem_char_p(&grown[8 * MiB - 2], grown[8 * MiB - 1], right);
    shmem_barrier_all();
    for (size_t i = 0; i < nlong; i += 4096)
        CHECK(remote[i] == (long)test_pattern(left, i, 1), "remote[%zu] = %ld", i, remote[i]);
    CHECK(aligned[4 * MiB - 2] == (char)(left + 1), "aligned block's last byte from PE %d", left);
    CHECK(grown[8 * MiB - 2] == (char)(left + 2), "grown block's last byte from PE %d", left);

    shmem_free(remote);
    shmem_free(grown);
    shmem_free(aligned);
    shmem_free(big);
    if (me == 0) printf("heap_default: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

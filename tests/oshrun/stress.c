/* Stress at many PEs (run at 64): atomics, locks and a flood of long output lines at once, with exact totals.
 *   - every PE adds 1 to the counter of PE (me + r) mod n for r < ROUNDS (fetch_add and add in turn): each
 *     counter gets ROUNDS additions in all;
 *   - every PE takes a global lock ROUNDS / 10 times and increments a plain (non-atomic) word on PE 0 under it;
 *   - every PE prints LINES lines of 1,000 bytes, each made of its PE number and line number, which oshrun must
 *     relay whole and unmixed: tests/oshrun/check.cmake ("stress") finds each of them intact, once.
 * Checked values: each counter ends at ROUNDS, the locked word at n * ROUNDS / 10. */
#include <string.h>

#include "../check.h"

#define ROUNDS 2000
#define LINES 8
#define LINE_BYTES 1000

static long counter;
static long locked_word;
static long lock;

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_barrier_all();

    for (int r = 0; r < ROUNDS; ++r) {
        const int pe = (me + r) % n;
        if (r & 1)
            shmem_long_atomic_add(&counter, 1, pe);
        else
            (void)shmem_long_atomic_fetch_add(&counter, 1, pe);
        if (r % 10 == 0) {
            shmem_set_lock(&lock);
            const long v = shmem_long_g(&locked_word, 0);
            shmem_long_p(&locked_word, v + 1, 0);
            shmem_quiet();
            shmem_clear_lock(&lock);
        }
    }

    static char line[LINE_BYTES + 1];
    for (int l = 0; l < LINES; ++l) {
        memset(line, 'a' + (me + l) % 26, LINE_BYTES);
        const int head = snprintf(line, 32, "<%d:%d>", me, l);
        line[head] = ' ';
        line[LINE_BYTES] = '\0';
        printf("%s\n", line);
    }

    shmem_barrier_all();
    CHECK(counter == ROUNDS, "counter = %ld, expected %d", counter, ROUNDS);
    if (me == 0)
        CHECK(locked_word == (long)n * (ROUNDS / 10), "locked word = %ld, expected %ld", locked_word,
              (long)n * (ROUNDS / 10));
    shmem_barrier_all();
    if (me == 0) printf("stress: %d PEs, %d atomics and %d locked updates each: exact\n", n, ROUNDS, ROUNDS / 10);
    shmem_finalize();
    return 0;
}

/* A message goes around the ring of PEs: each PE waits for the message from its left neighbour, adds its
 * number to it, and puts it to its right neighbour. PE 0 starts and finally checks that the message came back
 * carrying the sum of all PE numbers, for several laps. Every PE checks what it received. */
#include <shmem.h>
#include <stdio.h>

#define LAPS 3
#define WORDS 16

static long message[WORDS];
static int arrived; /* lap number of the last message received */

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    long sum_before_me = (long)me * (me - 1) / 2; /* 0 + 1 + ... + (me - 1) */
    long total = (long)n * (n - 1) / 2;
    int errors = 0;

    for (int lap = 1; lap <= LAPS; ++lap) {
        long out[WORDS];
        if (me == 0) {
            for (int i = 0; i < WORDS; ++i) out[i] = (long)lap * 1000 + i;
        } else {
            shmem_int_wait_until(&arrived, SHMEM_CMP_GE, lap);
            for (int i = 0; i < WORDS; ++i) {
                long want = (long)lap * 1000 + i + sum_before_me;
                if (message[i] != want) {
                    printf("PE %d lap %d: word %d is %ld, expected %ld\n", me, lap, i, message[i], want);
                    ++errors;
                }
                out[i] = message[i] + me;
            }
        }
        if (n > 1) {
            shmem_long_put(message, out, WORDS, right);
            shmem_fence(); /* the message lands before the flag that announces it */
            shmem_int_p(&arrived, lap, right);
        }
        if (me == 0 && n > 1) {
            shmem_int_wait_until(&arrived, SHMEM_CMP_GE, lap);
            for (int i = 0; i < WORDS; ++i)
                if (message[i] != (long)lap * 1000 + i + total) {
                    printf("PE 0 lap %d: word %d came back as %ld, expected %ld\n", lap, i, message[i],
                           (long)lap * 1000 + i + total);
                    ++errors;
                }
        }
    }
    shmem_barrier_all();
    if (me == 0 && errors == 0) printf("ring: %d laps around %d PEs, sum %ld: ok\n", LAPS, n, total);
    shmem_finalize();
    return errors == 0 ? 0 : 1;
}

/* A user's program, built from outside the source tree against an installed libshmem (scripts/test-install.sh):
 * with oshcc, with CMake's find_package(libshmem), and with add_subdirectory. It uses what ordinary C programs use
 * -- assert, malloc, clock_gettime, fflush(NULL), getenv, libm (but on Epiphany, whose 32 KB have no room for its
 * double sin) -- and checks the values OpenSHMEM gives it.
 * Run it with `oshrun -x LIBSHMEM_APP_GREETING=hello -np N app.elf`. */
#include <assert.h>
#include <math.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long total;  /* symmetric: static data */

int main(void)
{
    struct timespec t0, t1;
    assert(clock_gettime(CLOCK_MONOTONIC, &t0) == 0);

    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();

    /* The environment oshrun passes with -x. */
    const char *greeting = getenv("LIBSHMEM_APP_GREETING");
    assert(greeting != NULL && strcmp(greeting, "hello") == 0);
    assert(getenv("LIBSHMEM_APP_UNSET") == NULL);

    /* Private memory: malloc'd, filled, summed. */
    const int n = 1000 + me;
    long *mine = malloc(n * sizeof *mine);
    assert(mine != NULL);
    long sum = 0;
    for (int i = 0; i < n; ++i) sum += mine[i] = i + 1;
    assert(sum == (long)n * (n + 1) / 2);
    free(mine);

#ifndef __epiphany__
    /* libm, linked after the program by every recipe (a -lm before the objects would leave sin undefined). */
    volatile double x = 0.5 * me;
    assert(fabs(sin(x) - (x - x * x * x / 6 + x * x * x * x * x / 120)) < 1e-3 * (1 + x * x * x * x * x * x * x));
#endif

    /* Symmetric memory: every PE adds its sum into PE 0's total; then everybody reads it. */
    long *each = shmem_malloc(sizeof *each);
    assert(each != NULL);
    *each = sum;
    shmem_barrier_all();
    shmem_long_atomic_add(&total, sum, 0);
    shmem_barrier_all();
    const long got = shmem_long_g(&total, 0);
    long want = 0;
    for (int pe = 0; pe < npes; ++pe) want += (long)(1000 + pe) * (1001 + pe) / 2;
    if (got != want) {
        fprintf(stderr, "PE %d: total %ld, expected %ld\n", me, got, want);
        return 1;
    }
    shmem_free(each);

    assert(clock_gettime(CLOCK_MONOTONIC, &t1) == 0);
    assert(t1.tv_sec > t0.tv_sec || (t1.tv_sec == t0.tv_sec && t1.tv_nsec >= t0.tv_nsec));
    printf("app: PE %d of %d: total %ld, ok\n", me, npes, got);
    assert(fflush(NULL) == 0);
    shmem_finalize();
    return 0;
}

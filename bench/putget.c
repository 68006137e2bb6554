/* Cycles of shmem_putmem and shmem_getmem to a neighbour, 8 B to 64 KiB (4 KiB on Epiphany), and the alpha-beta fit
 * T(L) = alpha + beta * L (least squares over the sizes). PE 0 measures against PE 1 while every other PE sleeps
 * in a barrier. Run it with `oshrun --icount`: under `-icount shift=0,sleep=off` a cycle is one retired
 * instruction of the whole machine, so with the others asleep it counts PE 0's instructions, repeatably. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>

#include "cycles.h"

/* Where a PE has 32 KB (SHMEM_SMALL_SIZES, set by cmake/shmem.cmake for Epiphany) the sizes stop at 4 KiB:
 * the two symmetric buffers and the local one take 12 KB there. */
#if SHMEM_SMALL_SIZES
#define MAX (4 * 1024)
#else
#define MAX (64 * 1024)
#endif
#define REPS 5

typedef void (*xfer_fn)(void *, const void *, size_t, int);

static uint64_t measure(xfer_fn f, void *dst, const void *src, size_t len, int pe)
{
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < REPS; ++r) {
        uint64_t t0 = shmemx_cycles();
        f(dst, src, len, pe);
        uint64_t t = shmemx_cycles() - t0;
        if (t < best) best = t;
    }
    return best;
}

static void fit(const char *name, const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; ++i) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double beta = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    double alpha = (sy - beta * sx) / n;
    /* integers only: no floating-point printf needed */
    printf("%s fit: alpha = %ld cycles, beta = %ld.%03ld cycles/byte\n", name, (long)(alpha + 0.5),
           (long)beta, (long)((beta - (long)beta) * 1000 + 0.5));
    printf("csv:putget_fit:%s,%ld,%ld.%04ld\n", name, (long)(alpha + 0.5), (long)beta,
           (long)((beta - (long)beta) * 10000 + 0.5));
}

int main(void)
{
    shmem_init();
    char *a = shmem_malloc(MAX), *b = shmem_malloc(MAX);
    static char local[MAX];
    for (int i = 0; i < MAX; ++i) local[i] = (char)i;
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (a == NULL || b == NULL) {
        if (me == 0) printf("putget: no room for two %d-byte buffers in the symmetric heap\n", MAX);
        shmem_global_exit(2);
    }
    if (n < 2) {
        if (me == 0) printf("putget: needs at least 2 PEs\n");
        shmem_finalize();
        return 0;
    }
    shmem_barrier_all();
    if (me == 0) {
        double x[16], yp[16], yg[16];
        int k = 0;
        uint64_t empty = UINT64_MAX;
        for (int r = 0; r < REPS; ++r) {
            uint64_t t0 = shmemx_cycles(), t = shmemx_cycles() - t0;
            if (t < empty) empty = t;
        }
        printf("putget: PE 0 -> PE 1, %d PEs, a cycle = " BENCH_CYCLE_IS ", timer overhead %lu subtracted\n", n,
               (unsigned long)empty);
        printf("%8s %12s %12s %10s %10s\n", "bytes", "put cycles", "get cycles", "put c/B", "get c/B");
        printf("csv:putget:bytes,put_cycles,get_cycles\ncsv:putget_fit:operation,alpha_cycles,beta_cycles_per_byte\n");
        for (size_t len = 8; len <= MAX; len *= 2, ++k) {
            uint64_t tp = measure(shmem_putmem, a, local, len, 1) - empty;
            uint64_t tg = measure(shmem_getmem, local, b, len, 1) - empty;
            printf("csv:putget:%lu,%lu,%lu\n", (unsigned long)len, (unsigned long)tp, (unsigned long)tg);
            printf("%8lu %12lu %12lu %6lu.%03lu %6lu.%03lu\n", (unsigned long)len, (unsigned long)tp,
                   (unsigned long)tg, (unsigned long)(tp / len), (unsigned long)(tp * 1000 / len % 1000),
                   (unsigned long)(tg / len), (unsigned long)(tg * 1000 / len % 1000));
            x[k] = (double)len;
            yp[k] = (double)tp;
            yg[k] = (double)tg;
        }
        fit("shmem_putmem", x, yp, k);
        fit("shmem_getmem", x, yg, k);
    }
    shmem_barrier_all();
    shmem_free(b);
    shmem_free(a);
    shmem_finalize();
    return 0;
}

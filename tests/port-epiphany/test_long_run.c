/* Epiphany: the cycle counter over more than 2^32 cycles (7 s at 600 MHz). CTIMER0 counts down and stops at 0
 * (the E16 has no wrap mode); the library's TIMER0 interrupt starts it again and counts the wraps, so
 * shmemx_cycles() and clock_gettime keep counting. Each PE sleeps past 2^32 cycles in IDLE, a slice at a time on
 * CTIMER1 (the library's sleep backstop, whose interrupt ends IDLE), and checks that the counter never stands
 * still or goes back, that it passed 2^32, and that the run's waits still work afterwards. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <time.h>

#include "check.h"

/* newlib's printf here has no %llu: a 64-bit count as its two halves */
#define HI(x) (unsigned long)((x) >> 32)
#define LO(x) (unsigned long)(x)

/* IDLE ends at once while any interrupt is latched, masked or not: the sleep clears the latches of the interrupts
 * a PE never takes (SYNC, the DMA channels and the library's wake-up, which another PE's barrier may have left
 * latched) first, as the library's own sleeps do (docs/epiphany.md). */
static void sleep_cycles(uint32_t n)
{
    const uint32_t never_taken = (1u << 0) | (1u << 6) | (1u << 7) | (1u << 9);
    *(volatile uint32_t *)0xf043c = n; /* CTIMER1 */
    __asm__ volatile("movts ilatcl, %0\n\tidle" ::"r"(never_taken) : "memory");
}

int main(void)
{
    shmem_init();
    const uint64_t start = shmemx_cycles();
    const uint64_t target = (1ull << 32) + (1ull << 30) + 12345 * (uint64_t)shmem_my_pe();
    uint64_t prev = start;
    while (prev < target) {
        const uint64_t left = target - prev;
        sleep_cycles(left > (1u << 30) ? (1u << 30) : (uint32_t)left);
        const uint64_t now = shmemx_cycles();
        CHECK(now > prev, "the cycle counter stood still or went back: %lu*2^32+%lu after %lu*2^32+%lu", HI(now),
              LO(now), HI(prev), LO(prev));
        prev = now;
    }
    CHECK(prev >= (1ull << 32), "%lu*2^32+%lu cycles", HI(prev), LO(prev));
    /* Consecutive reads a few instructions apart: the counter runs at the clock again, not stopped at 0. */
    const uint64_t a = shmemx_cycles(), b = shmemx_cycles();
    CHECK(b > a && b - a < 1000, "consecutive reads %lu*2^32+%lu, %lu*2^32+%lu", HI(a), LO(a), HI(b), LO(b));
    struct timespec ts;
    CHECK(clock_gettime(CLOCK_MONOTONIC, &ts) == 0, "clock_gettime failed");
    /* 2^32 + 2^30 cycles at 600 MHz: 8.9 s */
    CHECK(ts.tv_sec >= 8, "clock_gettime says %ld s after %lu*2^32+%lu cycles", (long)ts.tv_sec, HI(prev), LO(prev));
    /* The waits of the library still sleep and wake: barriers, a reduction. */
    static long v, sum;
    v = shmem_my_pe() + 1;
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &v, 1);
    const int n = shmem_n_pes();
    CHECK(sum == (long)n * (n + 1) / 2, "sum %ld", sum);
    shmem_barrier_all();
    if (shmem_my_pe() == 0) printf("long_run: %d PEs, %lu*2^32+%lu cycles\n", n, HI(prev), LO(prev));
    shmem_finalize();
    return 0;
}

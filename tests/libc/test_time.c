/* Time: clock_gettime (MONOTONIC from the CLINT's mtime, REALTIME from the RTC), gettimeofday, time, clock,
 * clock_getres, nanosleep/usleep/sleep. */
#define _GNU_SOURCE 1 /* POSIX's clock_gettime, nanosleep, usleep, and the Linux clock names, in strict C11 */
#include <errno.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static long long ns_of(const struct timespec *t) { return (long long)t->tv_sec * 1000000000ll + t->tv_nsec; }

static long long now_ns(clockid_t id)
{
    struct timespec t;
    CHECK(clock_gettime(id, &t) == 0, "clock_gettime(%d)", (int)id);
    CHECK(t.tv_nsec >= 0 && t.tv_nsec < 1000000000, "clock %d: tv_nsec %ld", (int)id, t.tv_nsec);
    return ns_of(&t);
}

static volatile unsigned long sink;

static void busy(unsigned long iterations)
{
    for (unsigned long i = 0; i < iterations; ++i) sink += i;
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();

    /* MONOTONIC never goes backwards, and moves over a busy loop */
    long long prev = now_ns(CLOCK_MONOTONIC);
    const long long start = prev;
    for (int i = 0; i < 2000; ++i) {
        const long long t = now_ns(CLOCK_MONOTONIC);
        CHECK(t >= prev, "CLOCK_MONOTONIC went back: %lld after %lld", t, prev);
        prev = t;
    }
    busy(200000);
    const long long after = now_ns(CLOCK_MONOTONIC);
    CHECK(after > start, "CLOCK_MONOTONIC did not move over a busy loop: %lld .. %lld", start, after);

    /* the other clocks this runtime has */
    const clockid_t others[] = {CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME};
    for (unsigned i = 0; i < sizeof others / sizeof others[0]; ++i) CHECK(now_ns(others[i]) > 0, "clock %d", (int)others[i]);
    struct timespec res;
    CHECK(clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 1000,
          "clock_getres(MONOTONIC) = %lld ns", ns_of(&res));
    struct timespec dummy;
    errno = 0;
    CHECK(clock_gettime((clockid_t)1234, &dummy) == -1 && errno == EINVAL, "unknown clock: errno %d", errno);

    /* REALTIME, gettimeofday, time: the host's wall clock (after 2020, before 2200), and they agree */
    const long long real = now_ns(CLOCK_REALTIME);
    CHECK(real / 1000000000ll > 1577836800ll && real / 1000000000ll < 7258118400ll, "CLOCK_REALTIME %lld s", real / 1000000000ll);
    struct timeval tv;
    CHECK(gettimeofday(&tv, NULL) == 0, "gettimeofday");
    CHECK(tv.tv_usec >= 0 && tv.tv_usec < 1000000, "tv_usec %ld", (long)tv.tv_usec);
    CHECK(tv.tv_sec >= real / 1000000000ll && tv.tv_sec <= real / 1000000000ll + 60, "gettimeofday %lld vs REALTIME %lld",
          (long long)tv.tv_sec, real / 1000000000ll);
    const time_t t1 = time(NULL);
    time_t t2 = 0;
    CHECK(time(&t2) == t2 && t1 != (time_t)-1, "time");
    /* time() may read a coarse clock (glibc on aarch64: CLOCK_REALTIME_COARSE, a tick behind), so it may still show the
     * second before gettimeofday's */
    CHECK(t1 >= tv.tv_sec - 1 && t1 <= tv.tv_sec + 60, "time() %lld vs gettimeofday %lld", (long long)t1, (long long)tv.tv_sec);

    /* clock: CPU time in CLOCKS_PER_SEC, moving forward */
    const clock_t c1 = clock();
    CHECK(c1 != (clock_t)-1, "clock() failed");
    busy(200000);
    const clock_t c2 = clock();
    CHECK(c2 > c1, "clock() did not move over a busy loop: %lu .. %lu", (unsigned long)c1, (unsigned long)c2);

    /* sleeping: at least as long as asked */
    long long t0 = now_ns(CLOCK_MONOTONIC);
    CHECK(usleep(3000) == 0, "usleep");
    CHECK(now_ns(CLOCK_MONOTONIC) - t0 >= 3000000, "usleep(3000) slept %lld ns", now_ns(CLOCK_MONOTONIC) - t0);
    const struct timespec req = {0, 2500000};
    t0 = now_ns(CLOCK_MONOTONIC);
    CHECK(nanosleep(&req, NULL) == 0, "nanosleep");
    CHECK(now_ns(CLOCK_MONOTONIC) - t0 >= 2500000, "nanosleep(2.5 ms) slept %lld ns", now_ns(CLOCK_MONOTONIC) - t0);

    /* a barrier still works after sleeping (the timer and the software interrupt are the library's again) */
    shmem_barrier_all();
    shmem_barrier_all();
    if (me == 0) printf("time: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

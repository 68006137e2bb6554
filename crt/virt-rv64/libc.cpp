// The C library's hooks on QEMU virt, for picolibc: the private heap behind malloc (sbrk), the environment
// (environ, for getenv), time (clock_gettime, gettimeofday, times; time() and clock() are picolibc's on top of
// them) and sleeping. (abort and assert: crt/common/exit.cpp.)
//
// Every program links this object: the startup code sets `environ`, defined here. So these definitions come
// before picolibc's, which the linker searches after libshmem.a: picolibc's sbrk wants __heap_start/__heap_end.
// Unused functions go with --gc-sections.
#define _GNU_SOURCE 1  // every CLOCK_* name, struct timezone: strict C++17 hides them
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "port.hpp"

namespace port = shmem::port;

extern "C" {
// The private heap: [__shmem_private_heap_start, __shmem_private_heap_end), __private_heap_size bytes after .bss
// (linker/virt-rv64/shmem.ld). Not symmetric: the library's checks leave it out.
extern char __shmem_private_heap_start[], __shmem_private_heap_end[];

char **environ;  // set by the startup code (crt.cpp), before any constructor runs

void *sbrk(ptrdiff_t incr);
int gettimeofday(struct timeval *__restrict tv, void *__restrict tz);
clock_t times(struct tms *buf);
}

namespace {

char *private_brk;  // the break of the private heap; nullptr: at its start

constexpr uint64_t tps = port::clint::ticks_per_second;
constexpr uint64_t ns_per_tick = 1000000000 / tps;  // 100 at 10 MHz

uint64_t ticks() { return *port::clint::mtime(); }

// Sleeps (wfi) until mtime reaches `deadline`, with this PE's timer set to it. A software interrupt left raised
// by an earlier wake-up is cleared first, or wfi would not wait; the library's waits clear it anyway before they
// look at their condition, so no wake-up is lost by that.
void sleep_until(uint64_t deadline)
{
    const int me = port::my_pe();
    while (ticks() < deadline) {
        port::clear_wake();
        *port::clint::mtimecmp(me) = deadline;
        __asm__ volatile("wfi" ::: "memory");
    }
    port::disarm_timer();
}

}  // namespace

extern "C" {

// picolibc's malloc (nano-malloc) grows its arena here. Exhausted: -1 and ENOMEM, and malloc returns NULL.
void *sbrk(ptrdiff_t incr)
{
    char *brk = private_brk != nullptr ? private_brk : __shmem_private_heap_start;
    if (incr > __shmem_private_heap_end - brk || incr < __shmem_private_heap_start - brk) {
        errno = ENOMEM;
        return reinterpret_cast<void *>(-1);
    }
    private_brk = brk + incr;
    return brk;
}

// CLOCK_REALTIME: the host's wall clock (QEMU's Goldfish RTC). CLOCK_MONOTONIC, and the CPU-time clocks: the
// CLINT's mtime, 10 MHz from the machine's start (a PE is one hart that runs from then to the end of the run, so
// its CPU time is that time, sleeping included).
int clock_gettime(clockid_t id, struct timespec *tp)
{
    uint64_t ns;
    switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
        ns = port::rtc_ns();
        break;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID: {
        const uint64_t t = ticks();
        tp->tv_sec = time_t(t / tps);
        tp->tv_nsec = long((t % tps) * ns_per_tick);
        return 0;
    }
    default:
        errno = EINVAL;
        return -1;
    }
    tp->tv_sec = time_t(ns / 1000000000);
    tp->tv_nsec = long(ns % 1000000000);
    return 0;
}

int clock_getres(clockid_t id, struct timespec *res)
{
    struct timespec now;
    if (clock_gettime(id, &now) != 0) return -1;
    if (res != nullptr) {
        res->tv_sec = 0;
        res->tv_nsec = (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) ? 1 : long(ns_per_tick);
    }
    return 0;
}

// Wall-clock time (time() is picolibc's, on this). No time zone: UTC.
int gettimeofday(struct timeval *__restrict tv, void *__restrict tz)
{
    const uint64_t ns = port::rtc_ns();
    if (tv != nullptr) {
        tv->tv_sec = time_t(ns / 1000000000);
        tv->tv_usec = suseconds_t(ns % 1000000000 / 1000);
    }
    if (tz != nullptr) {
        static_cast<struct timezone *>(tz)->tz_minuteswest = 0;
        static_cast<struct timezone *>(tz)->tz_dsttime = 0;
    }
    return 0;
}

// picolibc's clock() adds up the four fields and compares with CLOCKS_PER_SEC (10^6): microseconds of mtime.
clock_t times(struct tms *buf)
{
    const clock_t us = clock_t(ticks() / (tps / CLOCKS_PER_SEC));
    if (buf != nullptr) {
        buf->tms_utime = us;
        buf->tms_stime = buf->tms_cutime = buf->tms_cstime = 0;
    }
    return us;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec >= 1000000000) {
        errno = EINVAL;
        return -1;
    }
    sleep_until(ticks() + uint64_t(req->tv_sec) * tps + (uint64_t(req->tv_nsec) + ns_per_tick - 1) / ns_per_tick);
    if (rem != nullptr) rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}

int usleep(useconds_t usec)
{
    sleep_until(ticks() + uint64_t(usec) * (tps / 1000000));
    return 0;
}

unsigned sleep(unsigned seconds)
{
    sleep_until(ticks() + uint64_t(seconds) * tps);
    return 0;
}

}  // extern "C"

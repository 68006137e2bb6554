// The C library's clocks for a PE whose only clock is the port's cycle counter (port::cycles() at port::clock_hz
// cycles a second, a uint32_t): time counts from the core's start, for CLOCK_REALTIME and gettimeofday too (no
// real-time clock). The startup code's system calls (named as its C library calls them: newlib's _gettimeofday on
// Epiphany, gettimeofday on TILE) are one line each over these. The divisions are 64-bit: a program links them
// only if it asks for the time.
#pragma once

#include <errno.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

#include "port.hpp"

namespace shmem::crt {

// clock_gettime: CLOCK_MONOTONIC and CLOCK_REALTIME.
inline int cycle_clock_gettime(clockid_t clock, struct timespec *ts)
{
    if (clock != CLOCK_MONOTONIC && clock != CLOCK_REALTIME) {
        errno = EINVAL;
        return -1;
    }
    const uint64_t c = port::cycles();
    ts->tv_sec = time_t(c / port::clock_hz);
    ts->tv_nsec = long(uint32_t(c % port::clock_hz) * uint64_t(1000000000u) / port::clock_hz);
    return 0;
}

// gettimeofday: no time zone.
inline int cycle_gettimeofday(struct timeval *tv)
{
    if (tv != nullptr) {
        const uint64_t c = port::cycles();
        tv->tv_sec = time_t(c / port::clock_hz);
        tv->tv_usec = suseconds_t(uint32_t(c % port::clock_hz) / (port::clock_hz / 1000000u));
    }
    return 0;
}

// times: the C library's clock() adds up these fields, in CLOCKS_PER_SEC units (a 32-bit clock_t wraps, as it may).
inline clock_t cycle_times(struct tms *buf)
{
    const clock_t t = clock_t(port::cycles() / (port::clock_hz / CLOCKS_PER_SEC));
    buf->tms_utime = t;
    buf->tms_stime = buf->tms_cutime = buf->tms_cstime = 0;
    return t;
}

}  // namespace shmem::crt

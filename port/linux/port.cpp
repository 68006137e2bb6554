// The out-of-line part of the linux port: the barrier, the console, ending a run.
#include <stdio.h>

#include "shmem_port.hpp"

namespace shmem::port {

Geometry geometry;
uint32_t sleeping;
uint32_t wake_seq;

namespace {

// The WAND-style barrier's words, used in PE 0's memory only. The arrivals and the generation the waiters poll
// are on separate cache lines, so that arriving PEs do not take the line away from the pollers.
struct alignas(64) Wand {
    uint32_t arrived;
    uint32_t sleepers;  // PEs in (or about to be in) futex_wait on generation
    alignas(64) uint32_t generation;
} wand;

void write_all(int fd, const char *buf, size_t n)
{
    while (n != 0) {
        const ssize_t w = write(fd, buf, n);
        if (w <= 0) return;  // oshrun is gone: nobody to tell
        buf += w;
        n -= size_t(w);
    }
}

}  // namespace

// Each PE arrives on a counter in PE 0's memory; the last one resets it and advances the generation. A waiter polls
// the generation for a while where it has a CPU of its own, then sleeps on it in the kernel; the last arriver
// wakes all of them with one futex_wake, and only when one sleeps (the counter, not a flag: a PE already in the
// next barrier may be counted too, which costs a spurious wake-up at most, never a lost one).
void hw_barrier()
{
    const int n = geometry.npes;
    Wand *w = remote_ptr(&wand, 0);
    const uint32_t gen = __atomic_load_n(&w->generation, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&w->arrived, 1u, __ATOMIC_ACQ_REL) == uint32_t(n)) {
        __atomic_store_n(&w->arrived, 0u, __ATOMIC_RELAXED);
        __atomic_store_n(&w->generation, gen + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&w->sleepers, __ATOMIC_SEQ_CST) != 0) futex(&w->generation, FUTEX_WAKE, INT_MAX, nullptr);
        return;
    }
    for (int i = geometry.spin; i > 0; --i) {
        if (__atomic_load_n(&w->generation, __ATOMIC_ACQUIRE) != gen) return;
        cpu_relax();
    }
    __atomic_add_fetch(&w->sleepers, 1u, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&w->generation, __ATOMIC_SEQ_CST) == gen) futex(&w->generation, FUTEX_WAIT, gen, nullptr);
    __atomic_sub_fetch(&w->sleepers, 1u, __ATOMIC_RELAXED);
}

void console_write(char kind, const char *buf, size_t n)
{
    write_all(kind == SHMEM_CONSOLE_STDERR ? 2 : 1, buf, n);
}

void flush_console()
{
    fflush(stdout);
    fflush(stderr);
}

void console_write_early(const char *buf, size_t n) { write_all(2, buf, n); }

// The exit word: (PE + 1) << 8 | status, set by the first PE that ends the run; oshrun reads it when that PE's
// process has ended, stops the others and ends with the status.
void end_run(int status)
{
    const uint32_t code = (status > 0 && status < 256) ? uint32_t(status) : (status == 0 ? 0u : 255u);
    flush_console();
    if (geometry.exit_word != nullptr) {
        uint32_t expected = 0;
        __atomic_compare_exchange_n(geometry.exit_word, &expected, (uint32_t(geometry.pe) + 1) << 8 | code, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
    }
    _exit(int(code));
}

void end_run_early(int status) { _exit(status > 0 && status < 256 ? status : 255); }

void finish(int status)
{
    if (status != 0) end_run(status);
    flush_console();
    _exit(0);
}

}  // namespace shmem::port

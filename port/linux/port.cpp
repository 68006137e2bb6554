// The out-of-line part of the linux port: the barrier, the console, ending a run.
#include <stdio.h>

#include "shmem_port.hpp"

namespace shmem::port {

Geometry geometry;
uint32_t sleeping;
uint32_t wake_seq;

namespace {

// The WAND-style barrier's words, used in PE 0's memory only: one 64-bit word, the generation in its high half and
// the arrivals of the current one in its low half, so that an arrival learns both with its one atomic add, and the
// last one resets the count and advances the generation with one store. The sleepers' count is on a line of its own
// (only a PE about to sleep touches it).
struct alignas(64) Wand {
    uint64_t word;
    alignas(64) uint32_t sleepers;  // PEs in (or about to be in) futex_wait on the generation
} wand;
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the generation is the high half of the word, at +4");

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

// Each PE arrives on the word in PE 0's memory; the last one resets the count and advances the generation. A waiter
// polls the generation for a while where it has a CPU of its own, then sleeps on it in the kernel (a futex on the
// word's high half); the last arriver wakes all of them with one futex_wake, and only when one sleeps (a count, not
// a flag: a PE already in the next barrier may be counted too, which costs a spurious wake-up at most, never a lost
// one). Two PEs: three cache-line transfers (two arrivals, the waiter's reread), no separate read of the generation.
void hw_barrier()
{
    const uint32_t n = uint32_t(geometry.npes);
    Wand *w = remote_ptr(&wand, 0);
    const uint64_t before = __atomic_fetch_add(&w->word, 1u, __ATOMIC_ACQ_REL);
    const uint32_t gen = uint32_t(before >> 32);
    uint32_t *generation = reinterpret_cast<uint32_t *>(&w->word) + 1;
    if (uint32_t(before) == n - 1) {
        __atomic_store_n(&w->word, uint64_t(gen + 1) << 32, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&w->sleepers, __ATOMIC_SEQ_CST) != 0) futex(generation, FUTEX_WAKE, INT_MAX, nullptr);
        return;
    }
    if (poll([generation, gen] { return __atomic_load_n(generation, __ATOMIC_ACQUIRE) != gen; })) return;
    __atomic_add_fetch(&w->sleepers, 1u, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(generation, __ATOMIC_SEQ_CST) == gen) futex(generation, FUTEX_WAIT, gen, nullptr);
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

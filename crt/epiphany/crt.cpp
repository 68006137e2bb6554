// C runtime of a PE on Epiphany: from the boot block to main(), the fault report, and newlib's system calls.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

#include "boot_args.hpp"
#include "boot_block.h"
#include "cycle_clock.hpp"
#include "message.hpp"
#include "port.hpp"

namespace port = shmem::port;
using shmem::detail::Message;

extern "C" {
int main(int argc, char **argv);
extern char __heap_start[], __heap_end[];  // from the linker script: the symmetric heap's bounds
typedef void (*init_fn)();
extern init_fn __preinit_array_start[], __preinit_array_end[], __init_array_start[], __init_array_end[];

[[noreturn]] void shmem_crt_start(struct shmem_ep_boot_block *boot);
[[noreturn]] void shmem_crt_trap(uint32_t kind, uint32_t pc, uint32_t status, uint32_t sp);

// newlib's system calls (libgloss's would trap to a debugger that is not there).
int _write(int fd, const void *buf, size_t n);
int _read(int fd, void *buf, size_t n);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
off_t _lseek(int fd, off_t off, int whence);
void *_sbrk(ptrdiff_t incr);
int _kill(int pid, int sig);
int _getpid(void);
int _gettimeofday(struct timeval *tv, void *tz);
clock_t _times(struct tms *buf);
int clock_gettime(clockid_t clock, struct timespec *ts);
[[noreturn]] void _exit(int status);
}

namespace {
constexpr int max_args = 16;

// The boot block could not be used: nothing is known, not even a mailbox. Stop here; the host sees this core
// never report (and its boot block tells it why when it reads it).
[[noreturn]] void stop() {
    for (;;) __asm__ volatile("idle");
}
}  // namespace

extern "C" {

void shmem_crt_start(struct shmem_ep_boot_block *boot)
{
    if (boot->magic != SHMEM_EP_BOOT_MAGIC || boot->version != SHMEM_EP_BOOT_VERSION || boot->npes == 0 ||
        boot->npes > uint32_t(port::max_pes))
        stop();
    port::Geometry &g = port::geometry;
    uint32_t coreid;
    __asm__ volatile("movfs %0, coreid" : "=r"(coreid));
    // Every PE's global base, row-major over the workgroup; this core's PE number from where it is.
    int me = -1;
    uint32_t row = boot->first_row, col = boot->first_col;
    for (uint32_t pe = 0; pe < boot->npes; ++pe) {
        const uint32_t id = row << 6 | col;
        g.global[pe] = id << 20;
        if (id == coreid) me = int(pe);
        if (++col == boot->first_col + boot->cols) {
            col = boot->first_col;
            ++row;
        }
    }
    if (me < 0 || uint32_t(me) != boot->pe) stop();
    g.pe = me;
    g.npes = int(boot->npes);
    g.base = 0;
    g.heap_lo = reinterpret_cast<uintptr_t>(__heap_start);
    g.heap_hi = reinterpret_cast<uintptr_t>(__heap_end);
    // The stack guard (boot_block.h): no memory protection here, so a word at the bottom of the stack, which
    // port::check_stack looks at in every wait and at the end.
    *reinterpret_cast<volatile uint32_t *>(__heap_end) = SHMEM_EP_STACK_GUARD;
    g.mailbox = boot->mailbox + uint32_t(me) * SHMEM_EP_MAILBOX_STRIDE;

    // CTIMER0: the cycle counter (its interrupt starts it again: port::cycles); CTIMER1: the sleep backstop. Both
    // count clock cycles down.
    port::reg::at(port::reg::ctimer0) = ~0u;
    port::reg::at(port::reg::ctimer1) = ~0u;  // not 0: a timer at 0 interrupts again and again
    port::reg::at(port::reg::config) = (port::reg::at(port::reg::config) & ~0xff0u) | 0x110u;
    // Interrupts this PE takes: port::irq::taken.
    port::reg::at(port::reg::imask) = port::irq::masked;
    __asm__ volatile("gie" ::: "memory");

    char *argv[max_args + 1];
    const int argc = shmem::crt::split_strings(boot->args, boot->argc, boot->args_len, argv, max_args);

    for (init_fn *f = __preinit_array_start; f < __preinit_array_end; ++f) (*f)();
    for (init_fn *f = __init_array_start; f < __init_array_end; ++f) (*f)();

    exit(main(argc, argv));
}

void shmem_crt_trap(uint32_t kind, uint32_t pc, uint32_t status, uint32_t sp)
{
    // STATUS[18:16] (EXCAUSE) says which software exception it was: the Epiphany-III's codes (Adapteva's
    // e-server lists them; the Epiphany-IV's differ and use bit 19 too).
    static const char *const causes[8] = {"no cause",        "software interrupt (swi)", "unaligned access",
                                          "floating-point exception", "unimplemented instruction",
                                          "illegal access",  "unknown", "unknown"};
    Message m;
    m.s("libshmem: PE ").u(uint64_t(port::geometry.pe)).s(": trap: ");
    if (kind == 2)
        m.s("memory fault");
    else
        m.s("software exception, ").s(causes[(status >> 16) & 7]);
    m.s(" at pc ").x(pc).s(" (status ").x(status).s(", sp ").x(sp).s(")").write();
    port::end_run(139);
}

int _write(int fd, const void *buf, size_t n)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    port::console_write(fd == 1 ? SHMEM_CONSOLE_STDOUT : SHMEM_CONSOLE_STDERR, static_cast<const char *>(buf), n);
    return int(n);
}

int _read(int, void *, size_t) { return 0; }  // no input: end of file
int _close(int) { return 0; }
int _fstat(int, struct stat *st)
{
    st->st_mode = S_IFCHR;  // a terminal: newlib buffers stdout by line
    return 0;
}
int _isatty(int fd) { return fd <= 2; }
off_t _lseek(int, off_t, int)
{
    errno = ESPIPE;
    return -1;
}
// malloc's memory would not be symmetric, and every byte of the bank is already spoken for: no malloc. (So
// newlib leaves stdout unbuffered: every write reaches the mailbox at once, and exit has nothing to flush.)
void *_sbrk(ptrdiff_t)
{
    errno = ENOMEM;
    return reinterpret_cast<void *>(-1);
}
int _kill(int, int)
{
    errno = EINVAL;
    return -1;
}
int _getpid(void) { return 1; }

// Time from the core's cycle counter (port::cycles(): 64 bits, CTIMER0 and the count of its wraps;
// crt/common/cycle_clock.hpp). The divisions are libgcc calls on a core without a divider.
int clock_gettime(clockid_t clock, struct timespec *ts) { return shmem::crt::cycle_clock_gettime(clock, ts); }
int _gettimeofday(struct timeval *tv, void *) { return shmem::crt::cycle_gettimeofday(tv); }
clock_t _times(struct tms *buf) { return shmem::crt::cycle_times(buf); }

void _exit(int status)
{
    port::finish(status);
}

// exit(), atexit(), abort(), assert: crt/common/exit.cpp.

}  // extern "C"

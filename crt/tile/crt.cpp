// C runtime of a PE on TILE-Gx / TILEPro: from the boot block to main(), and newlib's system calls. Built, never
// run (docs/tile.md).
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "boot_args.hpp"
#include "boot_block.h"
#include "cycle_clock.hpp"
#include "message.hpp"
#include "port.hpp"

namespace port = shmem::port;
using shmem::crt::split_strings;
using shmem::detail::Message;

extern "C" {
int main(int argc, char **argv);
extern char __end[];           // end of the image (.bss, private heap), 64 KiB aligned: the symmetric heap starts here
extern char __shmem_private_heap_start[], __shmem_private_heap_end[];  // malloc's (linker/tile/shmem.ld)
typedef void (*init_fn)();
extern init_fn __preinit_array_start[], __preinit_array_end[], __init_array_start[], __init_array_end[];
extern char **environ;  // newlib's; getenv reads it

[[noreturn]] void shmem_crt_start(struct shmem_tile_boot_block *boot);

// newlib's system calls: for a CPU its configure does not know (TILE), newlib calls them by their POSIX names
// (write, sbrk, ...: MISSING_SYSCALL_NAMES), declared by its headers.
int clock_gettime(clockid_t clock, struct timespec *ts);
[[noreturn]] void _exit(int status);
}

namespace {

// The most argv and environment strings a PE sees (oshrun refuses more).
constexpr int max_args = SHMEM_TILE_MAX_ARGS;
constexpr int max_env = SHMEM_TILE_MAX_ENV;

// No usable boot block: nothing is known, not even a mailbox. Stop here; the host sees this tile never report.
[[noreturn]] void stop()
{
    for (;;) __asm__ volatile("nap" ::: "memory");
}

#ifdef SHMEM_CHIP_SPR_TILE_COORD
// This tile's mesh coordinates, from SPR_TILE_COORD (TILE-Gx: world-readable).
void tile_coords(uint32_t &x, uint32_t &y)
{
    const uint64_t c = uint64_t(__insn_mfspr(SHMEM_CHIP_SPR_TILE_COORD));
    x = uint32_t(c >> SHMEM_CHIP_TILE_COORD_X_SHIFT) & SHMEM_CHIP_TILE_COORD_MASK;
    y = uint32_t(c >> SHMEM_CHIP_TILE_COORD_Y_SHIFT) & SHMEM_CHIP_TILE_COORD_MASK;
}
#endif

char *heap_top;  // malloc's break (_sbrk)

}  // namespace

extern "C" {

void shmem_crt_start(struct shmem_tile_boot_block *boot)
{
    if (boot->magic != SHMEM_TILE_BOOT_MAGIC || boot->npes == 0 || boot->npes > uint32_t(port::max_pes) ||
        boot->pe >= boot->npes || boot->cols == 0)
        stop();
    port::Geometry &g = port::geometry;
    // The mailbox first: from here on, what goes wrong is reported.
    g.mailbox = uintptr_t(boot->mailbox + uint64_t(boot->pe) * SHMEM_TILE_MAILBOX_STRIDE);
    g.pe = int(boot->pe);
    g.npes = int(boot->npes);
    if (boot->version != SHMEM_TILE_BOOT_VERSION) {
        Message().s("libshmem: PE ").u(boot->pe).s(": boot block version ").u(boot->version)
            .s(", this image reads version ").u(SHMEM_TILE_BOOT_VERSION)
            .s(": oshrun and the image are of different libshmem builds").write();
        port::end_run(127);
    }
    // Every PE's tile, row-major over the rectangle; this tile must be the one the boot block says (TILE-Gx reads
    // where it is; TILEPro tells its UDN, which may not be read: shmem_chip.h).
    const uint32_t want_x = boot->first_x + boot->pe % boot->cols, want_y = boot->first_y + boot->pe / boot->cols;
#ifdef SHMEM_CHIP_SPR_TILE_COORD
    uint32_t x, y;
    tile_coords(x, y);
    if (x != want_x || y != want_y) {
        Message().s("libshmem: PE ").u(boot->pe).s(": started on tile (").u(x).s(", ").u(y)
            .s("), but its boot block is for tile (").u(want_x).s(", ").u(want_y)
            .s("): the boot firmware started the tiles at the wrong images").write();
        port::end_run(127);
    }
#else
    __insn_mtspr(SHMEM_CHIP_SPR_UDN_TILE_COORD,
                 want_x << SHMEM_CHIP_TILE_COORD_X_SHIFT | want_y << SHMEM_CHIP_TILE_COORD_Y_SHIFT);
#endif
    for (uint32_t pe = 0; pe < boot->npes; ++pe)
        g.udn_header[pe] = port::udn::header(boot->first_x + pe % boot->cols, boot->first_y + pe / boot->cols);
    // TILEPro demultiplexes on a tag word: the port's tag goes to queue 0 (udn.hpp).
#if SHMEM_CHIP_UDN_TAG_WORD != 0
    __insn_mtspr(SHMEM_CHIP_SPR_UDN_TAG_0, SHMEM_CHIP_UDN_TAG_WORD);
    __insn_mtspr(SHMEM_CHIP_SPR_UDN_TAG_VALID, 1);
#endif
    g.ram_base = uintptr_t(boot->ram_base);
    g.log2 = boot->log2_partition;
    g.mask = (uintptr_t(1) << g.log2) - 1;
    g.base = reinterpret_cast<uintptr_t>(boot);
    g.heap_lo = reinterpret_cast<uintptr_t>(__end);
    g.awake_base = (reinterpret_cast<uintptr_t>(&port::awake) & g.mask) + g.ram_base;
    g.stack_lo = g.base + g.mask + 1 - uintptr_t(boot->stack_size);
    g.heap_hi = g.stack_lo;
    // The stack guard (port::check_stack): the stack's lowest word.
    *reinterpret_cast<volatile uint64_t *>(g.stack_lo) = SHMEM_TILE_STACK_GUARD;
    heap_top = __shmem_private_heap_start;

    // argv, then the environment (NAME=VALUE), from the boot block's strings; both arrays live on this PE's stack
    // for the whole run.
    char *argv[max_args + 1];
    char *envp[max_env + 1];
    const uint32_t strings = sizeof boot->args;
    const int argc = split_strings(boot->args, boot->argc, boot->args_len < strings ? boot->args_len : strings,
                                   argv, max_args);
    envp[0] = nullptr;
    if (boot->args_len <= strings && boot->env_len <= strings - boot->args_len)
        split_strings(boot->args + boot->args_len, boot->envc, boot->env_len, envp, max_env);
    environ = envp;

    for (init_fn *f = __preinit_array_start; f < __preinit_array_end; ++f) (*f)();
    for (init_fn *f = __init_array_start; f < __init_array_end; ++f) (*f)();

    exit(main(argc, argv));
}

_READ_WRITE_RETURN_TYPE write(int fd, const void *buf, size_t n)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    port::console_write(fd == 1 ? SHMEM_CONSOLE_STDOUT : SHMEM_CONSOLE_STDERR, static_cast<const char *>(buf), n);
    return _READ_WRITE_RETURN_TYPE(n);
}

_READ_WRITE_RETURN_TYPE read(int, void *, size_t) { return 0; }  // no input: end of file
int close(int) { return 0; }
int fstat(int, struct stat *st)
{
    st->st_mode = S_IFCHR;  // a terminal: newlib buffers stdout by line
    return 0;
}
int isatty(int fd) { return fd <= 2; }
off_t lseek(int, off_t, int)
{
    errno = ESPIPE;
    return -1;
}

// malloc's heap: [__shmem_private_heap_start, __shmem_private_heap_end), private to the PE (not symmetric).
void *sbrk(ptrdiff_t incr)
{
    char *old = heap_top;
    if (incr < 0 ? old + incr < __shmem_private_heap_start : __shmem_private_heap_end - old < incr) {
        errno = ENOMEM;
        return reinterpret_cast<void *>(-1);
    }
    heap_top = old + incr;
    return old;
}
int kill(pid_t, int)
{
    errno = EINVAL;
    return -1;
}
pid_t getpid(void) { return 1; }

// Time from the tile's cycle counter at SHMEM_CHIP_HZ (crt/common/cycle_clock.hpp).
int clock_gettime(clockid_t clock, struct timespec *ts) { return shmem::crt::cycle_clock_gettime(clock, ts); }
int gettimeofday(struct timeval *tv, void *) { return shmem::crt::cycle_gettimeofday(tv); }
clock_t times(struct tms *buf) { return shmem::crt::cycle_times(buf); }

void _exit(int status) { port::finish(status); }

// exit(), atexit(), abort(), assert: crt/common/exit.cpp.

}  // extern "C"

// Before a report that ends the run: newlib's partly written lines go out (the host ends them).
void shmem::port::flush_console()
{
    fflush(stdout);
    fflush(stderr);
}

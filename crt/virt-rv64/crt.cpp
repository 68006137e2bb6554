// C runtime of a PE on QEMU virt: from the boot block to main(), the trap report, and picolibc's hooks.
#include <stdint.h>
#include <stdlib.h>

#include "boot_args.hpp"
#include "boot_block.h"
#include "message.hpp"
#include "port.hpp"

namespace port = shmem::port;
using shmem::crt::split_strings;
using shmem::detail::Message;

extern "C" {
int main(int argc, char **argv);
extern char __end[];           // end of the image (.bss, private heap), page aligned: the symmetric heap starts here
extern char __image_start[];   // the image's first byte (link address 0)
extern char __stack_size[];    // absolute symbol whose value is the stack size (see below)
typedef void (*init_fn)();
extern init_fn __preinit_array_start[], __preinit_array_end[], __init_array_start[], __init_array_end[];

[[noreturn]] void shmem_crt_start(struct shmem_boot_block *boot);
[[noreturn]] void shmem_crt_bad_boot_block(uint64_t hart, uintptr_t where);
[[noreturn]] void shmem_crt_bad_relocation(uint64_t type);
[[noreturn]] void shmem_crt_trap(uint64_t cause, uint64_t pc, uint64_t tval, uint64_t sp, uint64_t ra);
[[noreturn]] void _exit(int status);
int shmem_crt_putc(char c, char stream);
void shmem_crt_flush(char stream);
extern char **environ;  // getenv's (picolibc): set here, defined in libc.cpp (which this reference links in)
int getentropy(void *buf, size_t n);
}

namespace {

// Console output from picolibc's stdio goes through a line buffer per stream and PE (stdout, stderr): a whole line
// is one console write, one record (port::console_write), and a line longer than a buffer is several records,
// which oshrun joins again.
struct Line {
    uint8_t len;
    char buf[SHMEM_CONSOLE_MAX_PAYLOAD];
};
Line out_line, err_line;

void flush_line(Line &l, char stream)
{
    if (l.len != 0) port::console_write(stream, l.buf, l.len);
    l.len = 0;
}

void flush_lines()
{
    flush_line(out_line, SHMEM_CONSOLE_STDOUT);
    flush_line(err_line, SHMEM_CONSOLE_STDERR);
}

// The most environment strings a PE sees (getenv); those after them in the boot block are left out.
constexpr int max_env = 64;

const char *trap_name(uint64_t cause)
{
    switch (cause) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store/AMO address misaligned";
    case 7: return "store/AMO access fault";
    case 11: return "environment call";
    case 12: return "instruction page fault";
    case 13: return "load page fault";
    case 15: return "store/AMO page fault";
    default: return "unexpected trap";
    }
}

}  // namespace

extern "C" {

// picolibc's stdout and stderr (stdio.c) end here; stream is SHMEM_CONSOLE_STDOUT or SHMEM_CONSOLE_STDERR.
int shmem_crt_putc(char c, char stream)
{
    Line &l = stream == SHMEM_CONSOLE_STDERR ? err_line : out_line;
    l.buf[l.len++] = c;
    if (c == '\n' || l.len == sizeof l.buf) flush_line(l, stream);
    return static_cast<unsigned char>(c);
}

void shmem_crt_flush(char stream) { flush_line(stream == SHMEM_CONSOLE_STDERR ? err_line : out_line, stream); }

void shmem_crt_start(struct shmem_boot_block *boot)
{
    // Version 1 is version 2 without the environment (its envc and env_len were reserved, 0); version 2 is 3
    // without phys_base (reserved, 0: the partition is where it looks).
    if (boot->version < 1 || boot->version > SHMEM_BOOT_VERSION) {
        uint64_t hart;
        __asm__ volatile("csrr %0, mhartid" : "=r"(hart));
        Message().s("libshmem: hart ").u(hart).s(": boot block version ").u(boot->version)
            .s(", this image reads version ").u(SHMEM_BOOT_VERSION).s(": oshrun and the image are of different ")
            .s("libshmem builds").write_early();
        port::end_run_early(127);
    }
    // The port reads the geometry through tp (port::geo()); that needs the linker script that puts it first in .tdata.
    if (&port::geometry != &port::geo()) {
        Message().s("libshmem: the port's geometry is not where tp points: link with libshmem's linker script ")
            .s("(add_shmem_executable or oshcc)").write_early();
        port::end_run_early(127);
    }
    port::Geometry &g = port::geometry;
    g.ram_base = boot->ram_base;
    g.log2 = boot->log2_partition;
    g.mask = (uintptr_t(1) << g.log2) - 1;
    g.pe = int(boot->pe);
    g.npes = int(boot->npes);
    g.base = reinterpret_cast<uintptr_t>(boot);
    g.heap_lo = reinterpret_cast<uintptr_t>(__end);
    g.barrier_word = reinterpret_cast<uint64_t *>((reinterpret_cast<uintptr_t>(&port::barrier_word) & g.mask) + g.ram_base);
    // Symbols are reached pc-relatively, so every symbol's runtime address carries the image's displacement,
    // the absolute __stack_size too: the difference of two symbols is the link-time value.
    const uintptr_t stack_size = reinterpret_cast<uintptr_t>(__stack_size) - reinterpret_cast<uintptr_t>(__image_start);
    g.stack_lo = g.base + g.mask + 1 - stack_size;
    // The stack guard: SHMEM_STACK_GUARD bytes below the stack that PMP entry 0 denies every access to, locked so
    // that it binds machine mode too. The heap ends below it. (oshrun places the image so that it fits.)
    g.guard_hi = g.stack_lo & ~uintptr_t(SHMEM_STACK_GUARD - 1);
    g.guard_lo = g.guard_hi - SHMEM_STACK_GUARD;
    g.heap_hi = g.guard_lo;
    // PMP compares physical addresses: under the shared code (boot_block.h) the partition is elsewhere than it
    // looks, by a multiple of 2 MiB.
    const uintptr_t phys_guard_lo = boot->phys_base != 0 ? g.guard_lo - g.base + boot->phys_base : g.guard_lo;
    const uintptr_t napot = (phys_guard_lo >> 2) | (SHMEM_STACK_GUARD / 8 - 1);
    __asm__ volatile("csrw pmpaddr0, %0" ::"r"(napot));
    __asm__ volatile("csrw pmpcfg0, %0" ::"r"(uintptr_t(0x98)));  // L | A=NAPOT, no R/W/X

    // Sleep/wake sources: the supervisor software interrupt (SSIP, raised through the ACLINT's SSWI) and the
    // machine timer. Only mie, never mstatus.MIE (see the port).
    *port::clint::mtimecmp(g.pe) = ~uint64_t(0);
    __asm__ volatile("csrs mie, %0" ::"r"((1u << 1) | (1u << 7)));

    // Startup rendezvous. Until every PE has cleared its own .bss, no PE may touch another's memory: PE 0's
    // barrier counter or console lock could be zeroed under a PE that already used them. The one word known
    // before anybody runs is in the loader-written boot block, so the PEs count themselves in on PE 0's and
    // the last one in wakes the others (the WAND-style barrier, on a word nobody clears).
    auto *started = port::remote_ptr(&boot->started, 0);
    if (__atomic_add_fetch(started, 1u, __ATOMIC_ACQ_REL) == boot->npes) {
        for (int pe = 0; pe < g.npes; ++pe)
            if (pe != g.pe) port::wake(pe);
    } else {
        port::wait_until([started, n = boot->npes] { return __atomic_load_n(started, __ATOMIC_ACQUIRE) == n; });
    }

    // argv, then the environment (NAME=VALUE), from the boot block's strings; both arrays live on this PE's stack
    // for the whole run.
    char *argv[SHMEM_MAX_ARGS + 1];
    char *envp[max_env + 1];
    const int argc = split_strings(boot->args, boot->argc, boot->args_len, argv, SHMEM_MAX_ARGS);
    envp[0] = nullptr;
    if (boot->version >= 2 && boot->args_len <= sizeof boot->args && boot->env_len <= sizeof boot->args - boot->args_len)
        split_strings(boot->args + boot->args_len, boot->envc, boot->env_len, envp, max_env);
    environ = envp;

    for (init_fn *f = __preinit_array_start; f < __preinit_array_end; ++f) (*f)();
    for (init_fn *f = __init_array_start; f < __init_array_end; ++f) (*f)();

    exit(main(argc, argv));
}

// exit(), atexit(): crt/common/exit.cpp. getentropy is ours for the reason given there (picolibc's tests an
// undefined weak symbol, whose address is the image base in an image running away from its link address).
int getentropy(void *, size_t)
{
    return -1;  // no entropy source on this machine
}

void _exit(int status)
{
    flush_lines();
    port::finish(status);
}

// The loader did not start this hart (or wrote no boot block): there is no PE number, no geometry, nothing to
// run. Say so and end the run; hart 0 of a run that `oshrun` did not start lands here too.
void shmem_crt_bad_boot_block(uint64_t hart, uintptr_t where)
{
    Message()
        .s("libshmem: hart ").u(hart).s(": no boot block at ").x(where)
        .s("; start the image with oshrun (host_loader), which writes one per PE")
        .write_early();
    port::end_run_early(127);
}

void shmem_crt_bad_relocation(uint64_t type)
{
    Message().s("libshmem: image has relocation type ").u(type)
        .s("; only R_RISCV_RELATIVE (3) can be applied at startup: link with add_shmem_executable").write_early();
    port::end_run_early(127);
}

void shmem_crt_trap(uint64_t cause, uint64_t pc, uint64_t tval, uint64_t sp, uint64_t ra)
{
    const port::Geometry &g = port::geometry;
    port::console_release_if_mine();
    out_line.len = err_line.len = 0;  // a half-written line may be what trapped; the report matters more
    // A load or store access fault in the guard below the stack (mcause 5, 7): the stack overflowed.
    if ((cause == 5 || cause == 7) && tval >= g.guard_lo && tval < g.guard_hi) {
        const uintptr_t size = g.base + g.mask + 1 - g.stack_lo;
        Message()
            .s("libshmem: PE ").u(uint64_t(g.pe)).s(": stack overflow: the stack of ").u(size)
            .s(" bytes ran into its guard (access at ").x(tval).s(", pc ").x(pc).s(", sp ").x(sp)
            .s("); link with a larger stack, e.g. -Wl,--defsym=__stack_size=").u(size * 4)
            .write();
        port::end_run(139);
    }
    Message()
        .s("libshmem: PE ").u(uint64_t(g.pe)).s(": trap: ").s(trap_name(cause)).s(" (mcause ").u(cause)
        .s(") at pc ").x(pc).s(" (image address ").x((pc & g.mask) - SHMEM_IMAGE_OFFSET).s("), mtval ").x(tval)
        .s(", sp ").x(sp).s(", ra ").x(ra).s("")
        .write();
    port::end_run(139);
}

}  // extern "C"

// Before a report that ends the run: a partial line is ended, so that the report starts a line of its own.
void shmem::port::flush_console()
{
    if (out_line.len != 0) shmem_crt_putc('\n', SHMEM_CONSOLE_STDOUT);
    if (err_line.len != 0) shmem_crt_putc('\n', SHMEM_CONSOLE_STDERR);
}

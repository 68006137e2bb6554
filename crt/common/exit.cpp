// exit(), atexit() and __cxa_atexit() for every port's startup code, instead of the C library's:
//  - picolibc's exit() (virt-rv64) tests weak symbols (__call_exitprocs, _fini) with pc-relative addressing, and
//    in an image linked at 0 but running elsewhere an undefined weak symbol's address is the image base, not 0;
//  - newlib's exit() (Epiphany) reaches its reentrancy structure (_impure_data, 1 KB of .data) even in a program
//    that never uses stdio, and every byte of a 32 KB bank counts.
// Handlers run in reverse order of registration, then the destructors (.fini_array), then the port's _exit().
// SHMEM_CRT_MAX_ATEXIT handlers fit (a port setting: 32 by default, 8 on Epiphany); one more is refused (-1).
//
// abort() and assert's __assert_func are here too, in the object every program links (the startup code calls
// exit), so that they come before the C library's, which the linker searches after libshmem.a: picolibc's abort
// would raise a signal through raise/getpid/kill and its __assert_func fprintf, newlib's end with 1 and say nothing.
// Unused, they go with --gc-sections.
#include <stdlib.h>

#include "message.hpp"
#include "port.hpp"

#ifndef SHMEM_CRT_MAX_ATEXIT
#define SHMEM_CRT_MAX_ATEXIT 32
#endif

extern "C" {
typedef void (*init_fn)();
extern init_fn __fini_array_start[], __fini_array_end[];
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
// What C++ passes __cxa_atexit as "this module" (crtbegin.o's, which -nostartfiles leaves out); one module here.
extern void *__dso_handle;
[[noreturn]] void _exit(int status);
[[noreturn]] void abort(void);
[[noreturn]] void __assert_func(const char *file, int line, const char *func, const char *expr);
}

namespace {
constexpr int max_atexit = SHMEM_CRT_MAX_ATEXIT;
void (*atexit_fns[max_atexit])(void *);
void *atexit_args[max_atexit];
int atexit_count;

void call_plain(void *fn) { reinterpret_cast<void (*)()>(fn)(); }

// A fault of the program's ends the run as a misuse the library reports does (134), saying where; what the program
// printed so far comes out first.
[[noreturn]] void fail(shmem::detail::Message &m)
{
    shmem::port::flush_console();
    m.write();
    shmem::port::end_run(134);
}
}  // namespace

extern "C" {

__attribute__((visibility("hidden"))) void *__dso_handle = nullptr;

int __cxa_atexit(void (*fn)(void *), void *arg, void *)
{
    if (atexit_count == max_atexit) return -1;
    atexit_fns[atexit_count] = fn;
    atexit_args[atexit_count++] = arg;
    return 0;
}

int atexit(void (*fn)(void)) { return __cxa_atexit(call_plain, reinterpret_cast<void *>(fn), nullptr); }

void exit(int status)
{
    while (atexit_count > 0) {
        --atexit_count;
        atexit_fns[atexit_count](atexit_args[atexit_count]);
    }
    for (init_fn *f = __fini_array_end; f > __fini_array_start;) (*--f)();
    _exit(status);
}

void abort(void)
{
    shmem::detail::Message m;
    m.s("libshmem: PE ").i(shmem::port::my_pe()).s(": abort() called");
    fail(m);
}

// assert() calls this; func is NULL where the compiler has no function name.
void __assert_func(const char *file, int line, const char *func, const char *expr)
{
    shmem::detail::Message m;
    m.s("libshmem: PE ").i(shmem::port::my_pe()).s(": assertion failed: ").s(file).s(":").i(line).s(": ");
    if (func != nullptr) m.s(func).s(": ");
    m.s(expr);
    fail(m);
}

}  // extern "C"

// The C++ runtime a program without libstdc++ needs (SHMEM_CRT_CXX_RUNTIME: virt-rv64, where Debian has no C++
// library for riscv64-unknown-elf at all): operator new and delete in every form on malloc, the guards of
// function-local statics, and the handlers a vtable may name. C++ there is without exceptions and RTTI, so a new
// that cannot allocate reports and ends the run (134) instead of throwing; the nothrow forms return nullptr.
// A port whose toolchain has libstdc++ (Epiphany) compiles none of this: libstdc++'s own would clash.
#include "config.hpp"

#if SHMEM_CRT_CXX_RUNTIME

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "message.hpp"
#include "port.hpp"

// <new> does not exist here; these are the declarations it would make (the mangled names are all that matter).
namespace std {
struct nothrow_t {
    explicit nothrow_t() = default;
};
extern const nothrow_t nothrow;
enum class align_val_t : size_t {};
}  // namespace std

const std::nothrow_t std::nothrow{};

extern "C" int posix_memalign(void **p, size_t align, size_t n);  // POSIX: hidden by <stdlib.h> in strict C++17

namespace port = shmem::port;
using shmem::detail::Message;

namespace {

[[noreturn]] void fail(const char *what, size_t bytes, bool with_bytes)
{
    port::flush_console();
    Message m;
    m.s("libshmem: PE ").i(port::my_pe()).s(": ").s(what);
    if (with_bytes) m.s(" (").u(bytes).s(" bytes)");
    m.write();
    port::end_run(134);
}

// malloc(0) may give NULL; new must give a distinct pointer.
void *allocate(size_t n) { return malloc(n != 0 ? n : 1); }

void *allocate_aligned(size_t n, std::align_val_t al)
{
    void *p = nullptr;
    size_t a = size_t(al);
    if (a < sizeof(void *)) a = sizeof(void *);
    return posix_memalign(&p, a, n != 0 ? n : 1) == 0 ? p : nullptr;
}

void *must(void *p, size_t n)
{
    if (__builtin_expect(p == nullptr, 0)) fail("operator new: out of memory", n, true);
    return p;
}

}  // namespace

void *operator new(size_t n) { return must(allocate(n), n); }
void *operator new[](size_t n) { return must(allocate(n), n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept { return allocate(n); }
void *operator new[](size_t n, const std::nothrow_t &) noexcept { return allocate(n); }
void *operator new(size_t n, std::align_val_t al) { return must(allocate_aligned(n, al), n); }
void *operator new[](size_t n, std::align_val_t al) { return must(allocate_aligned(n, al), n); }
void *operator new(size_t n, std::align_val_t al, const std::nothrow_t &) noexcept { return allocate_aligned(n, al); }
void *operator new[](size_t n, std::align_val_t al, const std::nothrow_t &) noexcept { return allocate_aligned(n, al); }

void operator delete(void *p) noexcept { free(p); }
void operator delete[](void *p) noexcept { free(p); }
void operator delete(void *p, size_t) noexcept { free(p); }
void operator delete[](void *p, size_t) noexcept { free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { free(p); }
void operator delete(void *p, std::align_val_t) noexcept { free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { free(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept { free(p); }
void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept { free(p); }

extern "C" {

// Function-local statics (the Itanium C++ ABI's guards, which g++ calls unless -fno-threadsafe-statics). A PE is
// one thread, so there is no one to wait for: byte 0 of the guard says "initialised", byte 1 "being
// initialised", which only a recursive initialisation (the static's initialiser reaching itself) can see.
int __cxa_guard_acquire(uint64_t *guard)
{
    auto *g = reinterpret_cast<uint8_t *>(guard);
    if (g[0] != 0) return 0;
    if (g[1] != 0) fail("recursive initialisation of a function-local static", 0, false);
    g[1] = 1;
    return 1;
}

void __cxa_guard_release(uint64_t *guard)
{
    auto *g = reinterpret_cast<uint8_t *>(guard);
    g[1] = 0;
    g[0] = 1;
}

void __cxa_guard_abort(uint64_t *guard) { reinterpret_cast<uint8_t *>(guard)[1] = 0; }

// In the vtables of abstract classes and of deleted virtual functions.
[[noreturn]] void __cxa_pure_virtual() { fail("pure virtual function called", 0, false); }
[[noreturn]] void __cxa_deleted_virtual() { fail("deleted virtual function called", 0, false); }

}  // extern "C"

#endif  // SHMEM_CRT_CXX_RUNTIME

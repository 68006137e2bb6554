// The environment variables of OpenSHMEM 1.5 (§"Environment Variables") that the library reads on the PE, at
// shmem_init, on a port with an environment (port::has_environment; oshrun passes SHMEM_* and -x variables):
//   SHMEM_VERSION  PE 0 prints the library's version
//   SHMEM_INFO     PE 0 prints the version, then every variable below with what it does and its value, and the
//                  configuration the library was built with
//   SHMEM_DEBUG    extra diagnostics (to stdout, each line "libshmem: PE n: debug: ..."): every PE prints its
//                  memory map at shmem_init; a symmetric allocation that returns NULL says why on every PE;
//                  shmem_free(NULL) is noted; and shmem_free/shmem_realloc check that the pointer is a live block
//                  of the symmetric heap even in a build without argument checks (SHMEM_CHECKS=OFF)
// SHMEM_SYMMETRIC_SIZE is oshrun's (it sizes the partitions); SHMEM_INFO shows it with the heap it gave.
// Everything here goes to stdout: it is what the user asked to see, not an error.
#include <stdlib.h>

#include "team.hpp"

#ifndef SHMEM_LIBRARY_VERSION
#define SHMEM_LIBRARY_VERSION "?"
#endif
#ifndef SHMEM_TARGET_NAME
#define SHMEM_TARGET_NAME "?"
#endif

extern "C" char __shmem_private_heap_start[], __shmem_private_heap_end[];  // where a port has a private heap

namespace shmem::detail {

namespace {

constexpr char out = SHMEM_CONSOLE_STDOUT;

const char *value_or_unset(const char *v) { return v != nullptr ? v : "(not set)"; }

// The partition a PE has, on ports whose geometry says (virt-rv64: a power-of-two slice of RAM).
template <class G>
auto partition_bytes(const G &g, int) -> decltype(g.mask + 1)
{
    return g.mask + 1;
}
template <class G>
uintptr_t partition_bytes(const G &, long)
{
    return 0;
}

void print_version()
{
    Message()
        .s("libshmem ").s(SHMEM_LIBRARY_VERSION).s(" (OpenSHMEM ").u(SHMEM_MAJOR_VERSION).s(".")
        .u(SHMEM_MINOR_VERSION).s(", ").s(SHMEM_TARGET_NAME).s(")")
        .write(out);
}

void print_variable(const char *name, const char *what)
{
    Message().s("libshmem: ").s(name).s(" = ").s(value_or_unset(getenv(name))).s(": ").s(what).write(out);
}

void print_info()
{
    print_variable("SHMEM_VERSION", "print the library version at shmem_init (PE 0)");
    print_variable("SHMEM_INFO", "print the version and these settings at shmem_init (PE 0)");
    print_variable("SHMEM_DEBUG", "extra diagnostics: every PE's memory map at shmem_init, a line for each "
                                  "symmetric allocation that returns NULL and each shmem_free(NULL), heap checks "
                                  "of shmem_free/shmem_realloc even without SHMEM_CHECKS");
    const auto &g = port::geometry;
    Message()
        .s("libshmem: SHMEM_SYMMETRIC_SIZE = ").s(value_or_unset(getenv("SHMEM_SYMMETRIC_SIZE")))
        .s(": the symmetric heap a PE needs at least, read by oshrun (unset: 64 MiB partitions up to 16 PEs, less ")
        .s("beyond, within 1 GiB of RAM); PE 0 has ")
        .u(g.heap_hi - g.heap_lo).s(" bytes")
        .write(out);
    Message()
        .s("libshmem: built with checks ").s(checks ? "on" : "off")
        .s(", barrier ").s(!port::has_hw_barrier ? "dissemination" : SHMEM_BARRIER_WAND ? "wand" : SHMEM_BARRIER_AUTO ? "auto" : "dissemination")
        .s(", atomics ").s(SHMEM_ATOMICS_TESTSET ? "testset" : "native")
        .s(", max teams ").u(max_teams).s(", max contexts ").u(max_contexts)
        .s(", max PEs ").u(port::max_pes)
        .write(out);
}

void print_map()
{
    const auto &g = port::geometry;
    Message m;
    m.s("libshmem: PE ").i(port::my_pe()).s(": debug: ");
    if (const uintptr_t size = partition_bytes(g, 0); size != 0)
        m.s("partition ").x(g.base).s(" (").u(size).s(" bytes), ");
    m.s("static data [").p(__shmem_symmetric_start).s(", ");
    if constexpr (port::has_private_heap) {
        m.p(__shmem_static_end).s("), ");
        // (linux: malloc's heap is the C library's, elsewhere; the linker script gives an empty one here)
        if (static_cast<const char *>(__shmem_private_heap_start) != static_cast<const char *>(__shmem_private_heap_end))
            m.s("private heap [").p(__shmem_private_heap_start).s(", ").p(__shmem_private_heap_end).s("), ");
        m.s("symmetric heap [");
    } else
        m.s("symmetric heap [");
    m.x(g.heap_lo).s(", ").x(g.heap_hi).s(") (").u(g.heap_hi - g.heap_lo).s(" bytes)");
    m.write(out);
}

bool done;  // shmem_init may be called more than once: say it once

}  // namespace

void read_environment()
{
    if (done) return;
    done = true;
    state.debug = getenv("SHMEM_DEBUG") != nullptr;
    const bool info = getenv("SHMEM_INFO") != nullptr;
    if (port::my_pe() == 0 && (info || getenv("SHMEM_VERSION") != nullptr)) print_version();
    if (port::my_pe() == 0 && info) print_info();
    if (state.debug) print_map();
}

}  // namespace shmem::detail

// What the library's translation units share: the port, the library state, and the one family of checks.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "heap.hpp"
#include "message.hpp"
#include "shmem.h"
#include "shmem_port.hpp"

// SHMEM_CHECKS (0/1): argument checks with a clear message; on unless the build says otherwise (release).
#ifndef SHMEM_CHECKS
#define SHMEM_CHECKS 1
#endif

// SHMEM_BARRIER_WAND (0/1): shmem_barrier_all uses the port's WAND-style barrier (if it has one) instead of
// the dissemination barrier.
#ifndef SHMEM_BARRIER_WAND
#define SHMEM_BARRIER_WAND 1
#endif

namespace shmem::detail {

inline constexpr bool checks = SHMEM_CHECKS != 0;

// Exit statuses of a run that the library ends (documented in README.md).
inline constexpr int exit_usage_error = 134;

struct State {
    int initialized;  // number of shmem_init calls not yet matched by shmem_finalize
    BrkHeap heap;
};
extern State state;

// Start of the symmetric static data (.rodata onwards; see the linker script).
extern "C" char __shmem_symmetric_start[];

// Reports a wrong call: "libshmem: PE <pe>: <routine>: <what>", then ends the whole run with
// exit_usage_error. The caller fills in <what> through the returned Message.
class Usage {
public:
    explicit Usage(const char *routine);
    Message &m() { return msg_; }
    [[noreturn]] void fail();

private:
    Message msg_;
};

// The check family. Each is a no-op in builds without SHMEM_CHECKS.
void check_init_(const char *routine);
void check_pe_(const char *routine, int pe);
void check_symmetric_(const char *routine, const char *arg, const void *addr, size_t bytes);
void check_stride_(const char *routine, const char *arg, ptrdiff_t stride);

inline void check_init(const char *routine)
{
    if constexpr (checks) check_init_(routine);
}
inline void check_pe(const char *routine, int pe)
{
    if constexpr (checks) check_pe_(routine, pe);
}
inline void check_symmetric(const char *routine, const char *arg, const void *addr, size_t bytes)
{
    if constexpr (checks) check_symmetric_(routine, arg, addr, bytes);
}
inline void check_stride(const char *routine, const char *arg, ptrdiff_t stride)
{
    if constexpr (checks) check_stride_(routine, arg, stride);
}

// Is [addr, addr + bytes) symmetric: inside static data or the heap's live part on this PE?
bool is_symmetric(const void *addr, size_t bytes);

// Barriers (sync.cpp). sync_all is the barrier without the quiet.
void sync_all();
void barrier_wand();
void barrier_dissemination();

}  // namespace shmem::detail

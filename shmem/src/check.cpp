// The one family of argument checks (DESIGN §6): say which routine, which PE, which argument and what was
// expected, then end the whole run with a non-zero status instead of corrupting memory or hanging.
#include "internal.hpp"

namespace shmem::detail {

Usage::Usage(const char *routine)
{
    msg_.s("libshmem: PE ").i(port::my_pe()).s(": ").s(routine).s(": ");
}

void Usage::fail()
{
    msg_.write();
    port::end_run(exit_usage_error);
}

void fail_not_initialized(const char *routine)
{
    Usage u(routine);
    u.m().s("called before shmem_init (or after shmem_finalize)");
    u.fail();
}

void fail_bad_pe(const char *routine, int pe)
{
    Usage u(routine);
    u.m().s("pe = ").i(pe).s(" is not a PE of this run; expected 0 <= pe < ").i(port::n_pes());
    u.fail();
}

namespace {

static_assert(BrkHeap::header_size == 16, "the report below says so");

// The report of a range in the heap that leaves the live block it starts in, or does not start in one: one sentence
// with the block at its end, so that every kind shares its words (they are code and read-only data on a 32 KB core).
[[noreturn]] void fail_heap_range(const char *routine, const char *arg, uintptr_t a, size_t bytes,
                                  const BrkHeap::Place &p)
{
    Usage u(routine);
    u.m().s(arg).s(" = ").x(a).s(" (").u(bytes).s(" bytes) ");
    const uintptr_t end = p.block + p.size;
    switch (p.fit) {
    case BrkHeap::Fit::past_end: {
        const size_t over = a >= end ? a - end : bytes - (end - a);
        u.m().s(a >= end ? "starts " : "ends ").u(over).s(over == 1 ? " byte" : " bytes").s(" past the end of the");
        break;
    }
    case BrkHeap::Fit::header: u.m().s("starts in the header (16 bytes below) of the"); break;  // (header_size)
    case BrkHeap::Fit::freed: u.m().s("lies in the freed"); break;
    case BrkHeap::Fit::below: u.m().s("runs from static data into the"); break;
    default: u.m().s("lies past the overwritten header of the"); break;  // Fit::damaged
    }
    u.m().s(" block of the symmetric heap at ").x(p.block).s(" (").u(p.size)
        .s(" bytes); expected a range inside one live block");
    u.fail();
}

}  // namespace

void check_heap_range(const char *routine, const char *arg, const void *addr, size_t bytes)
{
    if (bytes == 0) return;
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    const BrkHeap::Place p = state.heap.locate(a, bytes);
    if (p.fit != BrkHeap::Fit::inside) fail_heap_range(routine, arg, a, bytes, p);
}

// A range whose start is symmetric and whose end is not is reported as what it is: a range that runs past the end
// of the heap block it starts in (check_heap_range), or past the end of symmetric memory.
void fail_not_symmetric(const char *routine, const char *arg, const void *addr, size_t bytes)
{
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    const bool starts_symmetric = is_symmetric(addr, 1);
    if (starts_symmetric && a >= state.heap.lo() && a < state.heap.brk()) check_heap_range(routine, arg, addr, bytes);
    Usage u(routine);
    u.m().s(arg).s(" = ").p(addr).s(" (").u(bytes).s(" bytes) ");
    if (starts_symmetric) {
        uintptr_t end = symmetric_end();
        if constexpr (port::has_private_heap)
            if (a < reinterpret_cast<uintptr_t>(__shmem_static_end)) end = reinterpret_cast<uintptr_t>(__shmem_static_end);
        u.m().s("starts in symmetric memory but ends ").u(bytes - (end - a)).s(" bytes past its end, ").x(end);
    } else {
        u.m().s("is not symmetric");
    }
    u.m().s("; expected an address inside static data or the symmetric heap, [").p(__shmem_symmetric_start).s(", ");
    if constexpr (port::has_private_heap)  // malloc's heap lies between them
        u.m().p(__shmem_static_end).s(") or [").x(port::geometry.heap_lo).s(", ");
    u.m().x(symmetric_end()).s(")");
    u.fail();
}

void fail_misaligned(const char *routine, const char *arg, const void *addr, size_t align)
{
    Usage u(routine);
    u.m().s(arg).s(" = ").p(addr).s(" is not aligned; expected a multiple of ").u(align).s(" bytes");
    u.fail();
}

void fail_size_overflow(const char *routine, const char *arg, size_t n, size_t size)
{
    Usage u(routine);
    u.m().s(arg).s(" = ").u(n).s(": ").u(n).s(" x ").u(size).s(" does not fit in the address space; expected ")
        .s(arg).s(" <= ").u(SIZE_MAX / size);
    u.fail();
}

void fail_extent_overflow(const char *routine, size_t n, const char *stride_arg, ptrdiff_t stride, size_t size)
{
    Usage u(routine);
    u.m().s("nelems = ").u(n).s(" elements of ").u(size).s(" bytes ").s(stride_arg).s(" = ").i(stride)
        .s(" apart do not fit in the address space");
    u.fail();
}

void fail_bad_stride(const char *routine, const char *arg, ptrdiff_t stride)
{
    Usage u(routine);
    u.m().s(arg).s(" = ").i(stride).s("; expected a stride >= 1");
    u.fail();
}

}  // namespace shmem::detail

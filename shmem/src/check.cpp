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

// The report of a range in the heap that leaves the live block it starts in, or does not start in one.
[[noreturn]] void fail_heap_range(const char *routine, const char *arg, uintptr_t a, size_t bytes,
                                  const BrkHeap::Place &p)
{
    Usage u(routine);
    u.m().s(arg).s(" = ").x(a).s(" (").u(bytes).s(" bytes) ");
    const uintptr_t end = p.block + p.size;
    switch (p.fit) {
    case BrkHeap::Fit::past_end:
    {
        const size_t over = a >= end ? a - end : a + bytes - end;
        u.m().s(a >= end ? "starts " : "ends ").u(over).s(over == 1 ? " byte" : " bytes")
            .s(" past the end of the block of the symmetric heap at ");
    }
        u.m().x(p.block).s(" (").u(p.size).s(" bytes); expected a range inside one live block");
        break;
    case BrkHeap::Fit::header:
        u.m().s("starts in the header of the block of the symmetric heap at ").x(p.block)
            .s(" (the library's ").u(BrkHeap::header_size).s(" bytes below each block); expected a range inside one live block");
        break;
    case BrkHeap::Fit::freed:
        u.m().s("lies in a block of the symmetric heap that was freed, [").x(p.block).s(", ").x(end)
            .s("); expected memory of a live block");
        break;
    case BrkHeap::Fit::below:
        u.m().s("runs from static data into the symmetric heap, which starts at ").x(p.block)
            .s("; expected a range inside one object");
        break;
    default:
        u.m().s("lies in a damaged symmetric heap: the header of the block at ").x(p.block)
            .s(" was overwritten (a store just below the block)");
        break;
    }
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
// of the heap block it starts in, or of static data, or of the heap's allocated part.
void fail_not_symmetric(const char *routine, const char *arg, const void *addr, size_t bytes)
{
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    if (is_symmetric(addr, 1)) {
        if (a >= state.heap.lo() && a < state.heap.brk()) check_heap_range(routine, arg, addr, bytes);
        uintptr_t end = symmetric_end();
        const char *what = "the symmetric heap's allocated part (its break)";
        if constexpr (port::has_private_heap)
            if (a < reinterpret_cast<uintptr_t>(__shmem_static_end))
                end = reinterpret_cast<uintptr_t>(__shmem_static_end), what = "static symmetric data";
        Usage u(routine);
        u.m().s(arg).s(" = ").p(addr).s(" (").u(bytes).s(" bytes) starts in symmetric memory but ends ")
            .u(a + bytes - end).s(" bytes past the end of ").s(what).s(", ").x(end)
            .s("; expected the whole range inside symmetric memory");
        u.fail();
    }
    Usage u(routine);
    u.m().s(arg).s(" = ").p(addr).s(" (").u(bytes).s(" bytes) is not symmetric; expected an address inside ")
        .s("static data or the symmetric heap, [").p(__shmem_symmetric_start).s(", ");
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

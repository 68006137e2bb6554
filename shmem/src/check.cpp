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

void fail_not_symmetric(const char *routine, const char *arg, const void *addr, size_t bytes)
{
    Usage u(routine);
    u.m().s(arg).s(" = ").p(addr).s(" (").u(bytes).s(" bytes) is not symmetric; expected an address inside ")
        .s("static data or the symmetric heap, [").p(__shmem_symmetric_start).s(", ");
    if constexpr (port::has_private_heap)  // malloc's heap lies between them
        u.m().p(__shmem_static_end).s(") or [").x(port::geometry.heap_lo).s(", ");
    u.m().x(symmetric_end()).s(")");
    u.fail();
}

void check_not_freed(const char *routine, const char *arg, const void *addr, size_t bytes)
{
    uintptr_t hole = 0;
    size_t hole_size = 0;
    if (bytes == 0 || !state.heap.in_hole(reinterpret_cast<uintptr_t>(addr), bytes, &hole, &hole_size)) return;
    Usage u(routine);
    u.m().s(arg).s(" = ").p(addr).s(" (").u(bytes).s(" bytes) lies in a block of the symmetric heap that was freed, [")
        .x(hole).s(", ").x(hole + hole_size).s("); expected memory of a live block");
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

// Symmetric heap routines. All are collective: every PE calls them with the same arguments, in the same
// order, and each ends in a barrier (OpenSHMEM 1.5 §9.3), so that no PE uses a block before all have it.
#include <stdlib.h>
#include <string.h>

#include "internal.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace {

// The heap is set up before main, in the programs that allocate (the startup code has filled in the port's
// geometry before any constructor runs), rather than by shmem_init in every program; and set up afresh by the
// last shmem_finalize (1.6: it releases the heap, and a later shmem_init may follow), through the release chain
// (internal.hpp, Init) that the constructor joins.
void (*release_next)();
void check_heap(const char *routine);

void reset_heap()
{
    const auto &g = port::geometry;
    state.heap.init(g.heap_lo, g.heap_hi, checks);  // guarded where checks are on (heap.hpp)
}

// With checks the last shmem_finalize verifies the heap as the allocation routines do: it comes after the
// finalize's barrier (setup.cpp), when every PE's puts into this PE's heap have landed, so damage done in the
// program's last phase is reported too.
void release_heap()
{
    check_heap("shmem_finalize");
    reset_heap();
    if (release_next != nullptr) release_next();
}

[[gnu::constructor(101)]] void init_heap()
{
    reset_heap();
    release_next = init_state.release;
    init_state.release = &release_heap;
}

// With checks on, every PE publishes its arguments and compares them with PE 0's: a collective called with
// different sizes would give the PEs different heap layouts, and every later put would land in the wrong place.
uint64_t published_args[2];

void check_collective(const char *routine, uint64_t a, uint64_t b)
{
    if constexpr (!checks) return;
    published_args[0] = a;
    published_args[1] = b;
    sync_all();
    uint64_t a0, b0;
    if (by_network(0)) {
        a0 = peer_load<__ATOMIC_RELAXED>(&published_args[0], 0);
        b0 = peer_load<__ATOMIC_RELAXED>(&published_args[1], 0);
    } else {
        const uint64_t *pe0 = port::remote_ptr(published_args, 0);
        a0 = __atomic_load_n(&pe0[0], __ATOMIC_RELAXED);
        b0 = __atomic_load_n(&pe0[1], __ATOMIC_RELAXED);
    }
    if (a0 != a || b0 != b) {
        Usage u(routine);
        u.m().s("arguments (").x(a).s(", ").x(b).s(") differ from PE 0's (").x(a0).s(", ").x(b0)
            .s("); a symmetric allocation must be called with the same arguments on every PE")
            .s(" (pointers are compared as offsets in the PE's partition)");
        u.fail();
    }
    // The barrier at the end of the routine keeps PE 0 from overwriting its arguments before all have read.
}

// A block's identity across PEs: its offset in the PE's partition (the local addresses differ by design).
uint64_t offset_of(const void *p)
{
    return p == nullptr ? ~uint64_t(0) : reinterpret_cast<uintptr_t>(p) - port::geometry.base;
}

// What sets the heap's size, for the messages: SHMEM_SYMMETRIC_SIZE and its value where the port has an
// environment (oshrun sizes the partitions by it), else the room the program leaves in a PE's memory.
void say_heap_size(Message &m)
{
    if constexpr (port::has_environment) {
        const char *v = getenv("SHMEM_SYMMETRIC_SIZE");
        m.s(" (SHMEM_SYMMETRIC_SIZE=").s(v != nullptr ? v : "unset")
            .s("; set it larger for a larger heap, e.g. -x SHMEM_SYMMETRIC_SIZE=256M)");
    } else {
        m.s(" (the room the program and its stack leave in a PE's memory; no SHMEM_SYMMETRIC_SIZE here)");
    }
}

// SHMEM_DEBUG: every PE says what it returns NULL for, on stdout.
void debug_null(const char *routine, size_t size, const char *why, bool exhausted = false)
{
    if (!debug()) return;
    Message m;
    m.s("libshmem: PE ").i(port::my_pe()).s(": debug: ").s(routine).s(": ").u(size).s(" bytes: NULL: ").s(why)
        .s("; symmetric heap [").x(state.heap.lo()).s(", ").x(state.heap.hi()).s("), break ").x(state.heap.brk());
    if (exhausted) say_heap_size(m);
    m.write(SHMEM_CONSOLE_STDOUT);
}

void report_exhausted(const char *routine, size_t size)
{
    debug_null(routine, size, "no room", true);
    if constexpr (!cheap_checks) return;  // (Release says it too: a NULL with no word was a puzzle)
    if (port::my_pe() != 0) return;  // identical on every PE: say it once
    Message m;
    m.s("libshmem: PE 0: ").s(routine).s(": symmetric heap exhausted: ").u(size).s(" bytes requested, ")
        .u(state.heap.free_bytes_at_top()).s(" free at the top of ").u(state.heap.hi() - state.heap.lo())
        .s("; returning NULL");
    say_heap_size(m);
    m.write();
}

// With checks: the heap's red zones, headers and freed blocks are intact (heap.hpp, guarded mode), verified at every
// allocation routine; the first damage ends the run with the block, its size and the first damaged byte.
void check_heap(const char *routine)
{
    if constexpr (!checks) return;
    const BrkHeap::Problem p = state.heap.verify();
    if (p.damage == BrkHeap::Damage::none) return;
    Usage u(routine);
    u.m().s("the symmetric heap is damaged: ");
    if (p.damage == BrkHeap::Damage::overrun)
        u.m().s("the block at ").x(p.block).s(" (").u(p.size).s(" bytes) was written past its end, from byte +")
            .u(p.offset).s(" (a put or a store beyond the block)");
    else if (p.damage == BrkHeap::Damage::use_after_free)
        u.m().s("the block at ").x(p.block).s(" (").u(p.size).s(" bytes) was written after shmem_free, at byte +")
            .u(p.offset);
    else
        u.m().s("the header of the block at ").x(p.block).s(" was overwritten (a store just below the block)");
    u.fail();
}

// The alignment of shmem_malloc's, shmem_calloc's and shmem_realloc's blocks: the port's (linux: a cache line, so
// that the host's copy loops store whole lines; measured 99 -> 125 GB/s for a 64 KiB put), at least the heap's 16.
constexpr size_t malloc_align = port::heap_alignment > BrkHeap::min_align ? port::heap_alignment : BrkHeap::min_align;

void *allocate(const char *routine, size_t size, size_t align)
{
    check_init(routine);
    check_heap(routine);
    check_collective(routine, size, align);
    void *p = state.heap.alloc(size, align);
    if (p == nullptr) {
        if (size != 0)
            report_exhausted(routine, size);
        else
            debug_null(routine, size, "a request for 0 bytes");
    }
    sync_all();
    return p;
}

void check_block(const char *routine, void *ptr)
{
    // In every build that keeps the cheap checks (a few compares in a routine that ends in a barrier): freeing a
    // static object or a pointer into a block corrupted the heap's and the library's state, and faulted later in the
    // library's own code. SHMEM_DEBUG checks in the builds without any checks too.
    if (!cheap_checks && !debug()) return;
    if (state.heap.owns(ptr)) return;
    Usage u(routine);
    u.m().s("ptr = ").p(ptr).s(" is not a live block of the symmetric heap; expected NULL or a pointer ")
        .s("returned by shmem_malloc/calloc/realloc/align and not yet freed");
    u.fail();
}

}  // namespace

extern "C" {

void *shmem_malloc(size_t size) { return allocate("shmem_malloc", size, malloc_align); }

// Hints (SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE, or any other) change nothing here: every word
// of the heap is equally reachable by atomics. Unknown hints are not an error (OpenSHMEM 1.5 §9.3.2).
void *shmem_malloc_with_hints(size_t size, long hints)
{
    (void)hints;
    return allocate("shmem_malloc_with_hints", size, malloc_align);
}

void *shmem_align(size_t alignment, size_t size)
{
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
        Usage u("shmem_align");
        u.m().s("alignment = ").u(alignment).s("; expected a power of two");
        u.fail();
    }
    return allocate("shmem_align", size, alignment);
}

void *shmem_calloc(size_t count, size_t size)
{
    size_t bytes = 0;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        Usage u("shmem_calloc");
        u.m().s("count = ").u(count).s(" times size = ").u(size).s(" overflows size_t");
        u.fail();
    }
    void *p = allocate("shmem_calloc", bytes, malloc_align);
    // Each PE clears its own copy; the barrier in allocate() came first, so clear, then barrier again: no PE
    // may put into the block before its owner cleared it.
    if (p != nullptr) {
        memset(p, 0, bytes);
        sync_all();
    }
    return p;
}

void shmem_free(void *ptr)
{
    check_init("shmem_free");
    check_heap("shmem_free");
    check_collective("shmem_free", offset_of(ptr), 0);
    port::quiet();
    sync_all();  // nobody still uses the block on any PE
    if (ptr == nullptr) {
        if (debug())
            Message().s("libshmem: PE ").i(port::my_pe()).s(": debug: shmem_free(NULL): nothing to free")
                .write(SHMEM_CONSOLE_STDOUT);
        return;
    }
    check_block("shmem_free", ptr);
    state.heap.free(ptr);
}

void *shmem_realloc(void *ptr, size_t size)
{
    if (ptr == nullptr) return allocate("shmem_realloc", size, malloc_align);
    check_init("shmem_realloc");
    check_heap("shmem_realloc");
    check_collective("shmem_realloc", offset_of(ptr), size);
    check_block("shmem_realloc", ptr);
    port::quiet();
    sync_all();  // no PE still writes into the old block
    if (size == 0) {
        state.heap.free(ptr);
        return nullptr;
    }
    void *p = state.heap.realloc(ptr, size, malloc_align);
    if (p == nullptr) report_exhausted("shmem_realloc", size);
    sync_all();
    return p;
}

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_HEAP)

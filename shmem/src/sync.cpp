// Ordering, barriers and point-to-point synchronization.
#include "compare.hpp"
#include "team.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

namespace {

// Dissemination barrier: in round k, PE i writes its barrier epoch into flag[k] of PE (i + 2^k) mod n and waits
// for its own flag[k] to reach the epoch. ceil(log2 n) rounds for any n, powers of two or not. A PE can be at
// most one barrier ahead of a partner that still waits on it, so a flag is the waiter's epoch, one less (not
// written yet) or one more (the partner is already in the next barrier): ">= epoch" is exact, and as a signed
// difference it stays exact when the epoch wraps. 16-bit words: a load or a store of one is a single instruction
// on every target (a 64-bit atomic is a library call on a 32-bit core), the difference is never more than one
// either way, and every byte of a core's 32 KB counts (10 bytes here instead of 20 on Epiphany).
uint16_t dissemination_flag[max_rounds];
uint16_t dissemination_epoch;

// Each round's partner, worked out once per run (the PE count never changes): the address of its flag for this
// round and its wake-up. The barrier's rounds then load two or three words where they computed (me + d) mod n,
// the remote address and the wake-up from the geometry, which every round's fences made the compiler load again.
struct Round {
    uint16_t *theirs;
    port::Waker waker;
};
Round rounds[max_rounds];
int n_rounds = -1;  // -1: not worked out yet

// Works out the rounds, then does the barrier it was called for.
[[gnu::noinline, gnu::cold]] void make_rounds(int kind)
{
    const int n = port::n_pes(), me = port::my_pe();
    int k = 0;
    for (int d = 1; d < n; d <<= 1, ++k) {
        const int to = me + d < n ? me + d : me + d - n;  // (me + d) mod n without a divide (d < n)
        rounds[k].theirs = port::remote_ptr(&dissemination_flag[k], to);
        rounds[k].waker = port::waker(to);
    }
    n_rounds = k;
    barrier_world_generic(kind);
}

}  // namespace

void barrier_wand()
{
    if constexpr (port::has_hw_barrier) {
        // Epiphany's WAND is wired across the whole chip: with fewer PEs than cores it would never complete.
        if (__builtin_expect(!port::hw_barrier_usable(), 0)) {
            Usage u("shmem_barrier_all (WAND)");
            u.m().s("the WAND barrier needs ").s(port::hw_barrier_needs).s(", but this run has ").i(port::n_pes())
                .s(" PEs; build with SHMEM_BARRIER=dissemination or run on every core");
            u.fail();
        }
        barrier_world(barrier_hardware);
    } else {
        barrier_world(barrier_dissemination);
    }
}

// The whole run's barrier where the port has none of its own (own_barrier_world): its hardware barrier or
// dissemination, after the port's stack check.
void barrier_world_generic(int kind)
{
    port::check_stack();  // the stack guard of a port without memory protection; a no-op elsewhere
    if constexpr (port::has_hw_barrier) {
        if (kind == barrier_hardware || (kind == barrier_build && hw_barrier_serves_run())) {
            port::hw_barrier();
            return;
        }
    }
    if (__builtin_expect(n_rounds < 0, 0)) return make_rounds(kind);  // a tail call: no stack frame here
    const uint16_t epoch = ++dissemination_epoch;
    uint16_t *flag = dissemination_flag;
    for (const Round *r = rounds, *const end = rounds + n_rounds; r != end; ++r, ++flag) {
        __atomic_store_n(r->theirs, epoch, __ATOMIC_RELEASE);
        port::notify(r->waker);
        // Every writer of the flag notifies after its store: the port may sleep without a backstop.
        port::wait_notified(
            [flag, epoch] { return int16_t(uint16_t(__atomic_load_n(flag, __ATOMIC_ACQUIRE) - epoch)) >= 0; });
    }
}

namespace {

template <class T>
inline T load(const T *ivar)
{
    return __atomic_load_n(ivar, __ATOMIC_ACQUIRE);
}

template <class T>
inline void wait_until(const char *routine, T *ivar, int cmp, T cmp_value)
{
    check_init(routine);
    check_symmetric(routine, "ivar", ivar, sizeof(T));
    check_cmp(routine, cmp);
    wait_user_write([=] { return satisfies(load(ivar), cmp, cmp_value); });
}

template <class T>
inline int test(const char *routine, T *ivar, int cmp, T cmp_value)
{
    check_init(routine);
    check_symmetric(routine, "ivar", ivar, sizeof(T));
    check_cmp(routine, cmp);
    return satisfies(load(ivar), cmp, cmp_value) ? 1 : 0;
}

}  // namespace
}  // namespace shmem::detail

extern "C" {

// A put is complete when its stores retire, except the _nbi transfers a port with DMA has in flight (rma.cpp):
// quiet waits for them, a context's quiet for its own channel only. Fence waits too: a later store of the core
// could overtake a DMA's writes to the same PE. Without DMA, quiet and fence are the same fence.
void shmem_fence(void) { port::quiet(); }
void shmem_quiet(void) { port::quiet(); }
}  // extern "C"

namespace {
template <bool Dma = port::has_dma>
void quiet_ctx(shmem_ctx_t ctx)
{
    if constexpr (Dma)
        port::quiet_channel(ctx_channel(ctx));
    else
        port::quiet();
}
}  // namespace

extern "C" {
void shmem_ctx_fence(shmem_ctx_t ctx)
{
    check_ctx("shmem_ctx_fence", ctx);
    quiet_ctx(ctx);
}
void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    check_ctx("shmem_ctx_quiet", ctx);
    quiet_ctx(ctx);
}

// 1.6: completes the operations to the listed PEs only. They complete together here (a fence, or this context's
// DMA channel), so the routine is the context's quiet after checking the list; npes == 0 ignores target_pes and
// returns at once, as the specification says. PE numbers are of the context's team.
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    const char *routine = "shmem_ctx_pe_quiet";
    check_init(routine);
    check_ctx(routine, ctx);
    if (npes == 0) return;
    if constexpr (checks)
        for (size_t i = 0; i < npes; ++i) ctx_pe(routine, ctx, target_pes[i]);
    quiet_ctx(ctx);
}

void shmem_pe_quiet(const int *target_pes, size_t npes)
{
    const char *routine = "shmem_pe_quiet";
    check_init(routine);
    if (npes == 0) return;
    if constexpr (checks)
        for (size_t i = 0; i < npes; ++i) check_pe(routine, target_pes[i]);
    port::quiet();
}

void shmem_barrier_all(void)
{
    check_init("shmem_barrier_all");
    // The hardware barrier of a port whose barrier begins with a full fence (linux on x86-64: a locked add) completes
    // this PE's puts itself; elsewhere quiet does.
    if constexpr (!(port::has_hw_barrier && SHMEM_BARRIER_WAND && port::hw_barrier_fences)) port::quiet();
    sync_all();
}

void shmem_sync_all(void)
{
    check_init("shmem_sync_all");
    sync_all();
}

#define SHMEM_DEFINE_SYNC_(T, N)                                                                              \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                                               \
    {                                                                                                          \
        wait_until("shmem_" #N "_wait_until", ivar, cmp, cmp_value);                                         \
    }                                                                                                          \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value) { return test("shmem_" #N "_test", ivar, cmp, cmp_value); }
SHMEM_SYNC_TYPES(SHMEM_DEFINE_SYNC_)
#undef SHMEM_DEFINE_SYNC_

// Extensions (shmemx.h): both barrier algorithms, whatever shmem_barrier_all was built to use.
void shmemx_barrier_all_wand(void)
{
    check_init("shmemx_barrier_all_wand");
    port::quiet();
    barrier_wand();
}

void shmemx_barrier_all_dissemination(void)
{
    check_init("shmemx_barrier_all_dissemination");
    port::quiet();
    barrier_world(barrier_dissemination);
}

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_SYNC SHMEMI_NAMES_X_SYNC)

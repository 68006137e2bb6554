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
// difference it stays exact when the epoch wraps. 32-bit words: a load or a store of one is a single instruction on
// every target that uses this barrier (Epiphany has its own, in assembly; a 64-bit atomic is a library call on a
// 32-bit core), and the signed difference is one instruction where a 16-bit one took a shift more.
//
// Each round's partner is worked out once per run (the PE count never changes): the address of its flag for this
// round and its wake-up. The rounds then load two words where they computed (me + d) mod n, the remote address
// and the wake-up from the geometry, which every round's fences made the compiler load again. Everything the
// barrier touches of its own is in one object: one address for all of it.
struct Round {
    uint32_t flag;      // this PE's flag of this round, which its partner writes (the table is symmetric); first,
                        // so that its address is the round's (no addition in the loop)
    uint32_t *theirs;   // the partner's `flag` of this round (null: the partner is reached through the network)
    port::Waker waker;  // the partner's wake-up
};
struct Dissemination {
    Round *end;  // rounds + their count; null until the first barrier has worked them out
    uint32_t epoch;
    Round rounds[max_rounds];
};
Dissemination dissemination;

// Round r's store where the port reaches the partner only through its network (theirs is null for it: make_rounds):
// the epoch goes there by the network's signal (net_put_signal), and its waits progress the network. A constant false without a network.
[[gnu::always_inline]] inline bool network_round(const Dissemination &b, const Round *r, uint32_t epoch)
{
    if constexpr (port::has_network) {
        if (__builtin_expect(r->theirs == nullptr, 0)) {
            const int d = 1 << (r - b.rounds), n = port::n_pes(), me = port::my_pe();
            network_put_signal(me + d < n ? me + d : me + d - n, nullptr, nullptr, 0, const_cast<uint32_t *>(&r->flag),
                               sizeof epoch, false, epoch);
            return true;
        }
    }
    (void)b, (void)r, (void)epoch;
    return false;
}

// The rounds of one barrier.
[[gnu::always_inline]] inline void disseminate(Dissemination &b)
{
    const uint32_t epoch = ++b.epoch;
    Round *const end = b.end;  // read before the fence, after which the compiler would read it again
    // The first round's store is a release: what this PE did before the barrier is seen by those that pass it.
    // The later rounds' stores come after the previous round's acquire fence (and on virt notify_waiter's fence).
    __atomic_thread_fence(__ATOMIC_RELEASE);
    for (Round *r = b.rounds; r != end; ++r) {
        if (!network_round(b, r, epoch)) {
            __atomic_store_n(r->theirs, epoch, fenced_store);
            port::notify_waiter(r->waker);
        }
        // Every writer of the flag wakes it after its store (notify_waiter): the port may sleep without a backstop
        // (and on virt without a `sleeping` word). The looks while it sleeps are plain loads, and one acquire fence
        // comes after the last.
        library_wait_notified(world_pes, [r, epoch] { return int32_t(__atomic_load_n(&r->flag, fenced_load) - epoch) >= 0; });
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    }
}

// The first dissemination barrier of a run: works out the rounds, then does the barrier.
[[gnu::noinline, gnu::cold]] void make_rounds()
{
    Dissemination &b = dissemination;
    const int n = port::n_pes(), me = port::my_pe();
    int k = 0;
    for (int d = 1; d < n; d <<= 1, ++k) {
        const int to = me + d < n ? me + d : me + d - n;  // (me + d) mod n without a divide (d < n)
        b.rounds[k].theirs = by_network(to) ? nullptr : port::remote_ptr(&b.rounds[k].flag, to);
        b.rounds[k].waker = port::waker(to);
    }
    b.end = b.rounds + k;
    disseminate(b);
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
    if (__builtin_expect(dissemination.end == nullptr, 0)) return make_rounds();  // a tail call: no stack frame
    disseminate(dissemination);
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
    network_progress();
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
    if constexpr (port::own_barrier_world && !(port::has_hw_barrier && SHMEM_BARRIER_WAND))
        return port::barrier_all();
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

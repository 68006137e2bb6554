// The GCC atomic built-ins Epiphany lacks (libatomic's entry points), for the library's own counters and
// 64-bit flags: GCC inlines 32-bit loads and stores, and calls these for everything else.
//
// 64-bit loads and stores are one LDRD/STRD, a single 8-byte mesh transaction: atomic as they are.
// Read-modify-writes take a TESTSET lock word on the core that owns the address (its own copy of `locks`),
// so a core updating its own counter and a remote core updating the same counter exclude each other. A lock is
// held for one load and one store; waiting for it spins on TESTSET, which is a round trip to the owner.
#include <stdint.h>

#include "port.hpp"

namespace {

uint32_t locks[4];  // symmetric: each core's copy guards the words in that core's memory

inline bool in_dram(uintptr_t a) { return a >= 0x8e000000 && a < 0x90000000; }

uint32_t *lock_for(volatile void *p)
{
    using shmem::port::geometry;
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    uintptr_t owner = shmem::port::global_address(a) & ~uintptr_t(0xfffff);
    // External DRAM has no TESTSET owner core (TESTSET works on a core's SRAM): its words are guarded by PE 0's
    // locks, and rmw() below makes the data land before the lock is released.
    if (in_dram(owner)) owner = near(geometry).global[0];
    return reinterpret_cast<uint32_t *>(owner | reinterpret_cast<uintptr_t>(&locks[(a >> 3) & 3]));
}

struct Held {
    uint32_t *w;
    explicit Held(volatile void *p) : w(lock_for(p))
    {
        while (shmem::port::test_and_set(w)) {
        }
    }
    ~Held() { shmem::port::clear(w); }
};

// The new value goes to the word, the lock's release to the lock's core: two destinations, and the mesh keeps
// one core's writes in order only per destination. For a word in a core's SRAM the lock is on the same core: the
// data lands before the release, so before the next holder's TESTSET succeeds. For a word in DRAM it is not: the
// release reaches PE 0's core in a few cycles, the data reaches DRAM tens of cycles later, and the next holder
// would read the old value. So the holder reads the word back until it holds the new value (a read does not
// wait for the earlier write either: reads and writes travel on different networks) and only then releases.
template <class T, class F>
T rmw(volatile void *p, F f)
{
    Held h(p);
    auto *v = static_cast<volatile T *>(p);
    const T old = *v;
    const T now = f(old);
    *v = now;
    if (in_dram(reinterpret_cast<uintptr_t>(p)))
        while (*v != now) {
        }
    return old;
}

}  // namespace

extern "C" {

unsigned long long __atomic_load_8(const volatile void *p, int)
{
    unsigned long long v;
    __asm__ volatile("ldrd %0, [%1]" : "=r"(v) : "r"(p) : "memory");
    return v;
}

void __atomic_store_8(volatile void *p, unsigned long long v, int)
{
    __asm__ volatile("strd %0, [%1]" ::"r"(v), "r"(p) : "memory");
}

#define SHMEM_EP_RMW(N, T)                                                                                    \
    T __atomic_fetch_add_##N(volatile void *p, T v, int) { return rmw<T>(p, [v](T o) { return T(o + v); }); } \
    T __atomic_fetch_sub_##N(volatile void *p, T v, int) { return rmw<T>(p, [v](T o) { return T(o - v); }); } \
    T __atomic_fetch_and_##N(volatile void *p, T v, int) { return rmw<T>(p, [v](T o) { return T(o & v); }); } \
    T __atomic_fetch_or_##N(volatile void *p, T v, int) { return rmw<T>(p, [v](T o) { return T(o | v); }); }  \
    T __atomic_fetch_xor_##N(volatile void *p, T v, int) { return rmw<T>(p, [v](T o) { return T(o ^ v); }); } \
    T __atomic_add_fetch_##N(volatile void *p, T v, int) { return T(__atomic_fetch_add_##N(p, v, 0) + v); }    \
    T __atomic_sub_fetch_##N(volatile void *p, T v, int) { return T(__atomic_fetch_sub_##N(p, v, 0) - v); }    \
    T __atomic_exchange_##N(volatile void *p, T v, int) { return rmw<T>(p, [v](T) { return v; }); }           \
    bool __atomic_compare_exchange_##N(volatile void *p, void *expected, T desired, bool, int, int)            \
    {                                                                                                         \
        T *e = static_cast<T *>(expected);                                                                    \
        const T want = *e;                                                                                    \
        const T old = rmw<T>(p, [want, desired](T o) { return o == want ? desired : o; });                    \
        *e = old;                                                                                             \
        return old == want;                                                                                   \
    }

// The built-ins' own types (uint32_t is unsigned long here, which GCC would call a conflicting declaration).
using u32 = unsigned int;
using u64 = unsigned long long;
SHMEM_EP_RMW(4, u32)
SHMEM_EP_RMW(8, u64)
#undef SHMEM_EP_RMW

}  // extern "C"

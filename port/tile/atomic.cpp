// TILEPro: the C and C++ atomics runtime (the functions GCC calls for every __atomic_* / <stdatomic.h> operation it
// cannot inline on this chip, which has only `tns`). libgcc's versions for tilepro-linux-gnu ask the Linux kernel
// (a system call): on bare metal they would trap. These take one of 64 `tns` locks, chosen by the object's address
// and kept in PE 0's partition, so that an operation is atomic against the same operation of every other PE on the
// same object, wherever it lives. libshmem.a is searched before libgcc, so every program links these.
// (The library's own AMOs do not come here: the core's TESTSET path does them, as on Epiphany. Its 64-bit flag
// loads and stores do.) TILE-Gx inlines every atomic: nothing here is compiled for it.
#include <stddef.h>
#include <stdint.h>

#include "port.hpp"

#if !SHMEM_CHIP_NATIVE_ATOMICS

namespace shmem::port {
namespace {

constexpr unsigned n_locks = 64;
uint32_t atomic_locks[n_locks];  // used in PE 0's partition (and in this PE's own before startup knew PE 0's)

uint32_t *lock_for(const volatile void *p)
{
    const unsigned h = unsigned(reinterpret_cast<uintptr_t>(p) >> 3) % n_locks;  // one lock per 8-byte word
    return geometry.npes == 0 ? &atomic_locks[h] : remote_ptr(&atomic_locks[h], 0);
}

struct Guard {
    uint32_t *lock;
    explicit Guard(const volatile void *p) : lock(lock_for(p))
    {
        while (__insn_tns(lock) != 0) {
        }
        fence();  // nothing of the operation before the lock is ours
    }
    ~Guard() { clear(lock); }  // mf, then the store that frees it
};

template <class T>
T load(const volatile void *p)
{
    Guard g(p);
    return *static_cast<const volatile T *>(p);
}
template <class T>
void store(volatile void *p, T v)
{
    Guard g(p);
    *static_cast<volatile T *>(p) = v;
}
template <class T>
T exchange(volatile void *p, T v)
{
    Guard g(p);
    const T old = *static_cast<volatile T *>(p);
    *static_cast<volatile T *>(p) = v;
    return old;
}
template <class T>
bool compare_exchange(volatile void *p, void *expected, T desired)
{
    Guard g(p);
    const T old = *static_cast<volatile T *>(p);
    if (old == *static_cast<T *>(expected)) {
        *static_cast<volatile T *>(p) = desired;
        return true;
    }
    *static_cast<T *>(expected) = old;
    return false;
}
// fetch_OP returns the old value, OP_fetch the new one.
template <class T, class Op>
T fetch_op(volatile void *p, T v, Op op, bool return_new)
{
    Guard g(p);
    const T old = *static_cast<volatile T *>(p);
    const T now = op(old, v);
    *static_cast<volatile T *>(p) = now;
    return return_new ? now : old;
}

}  // namespace
}  // namespace shmem::port

namespace pa = shmem::port;

// The functions by their libatomic names (asm labels: declared under their own names, GCC would take them for its
// builtins). memorder arguments are ignored: every operation is sequentially consistent.
#define SHMEM_TILE_ATOMIC_OP(N, T, name, expr)                                                                    \
    extern "C" T shmem_tile_atomic_fetch_##name##_##N(volatile void *p, T v, int) __asm__("__atomic_fetch_" #name "_" #N); \
    extern "C" T shmem_tile_atomic_fetch_##name##_##N(volatile void *p, T v, int)                                  \
    {                                                                                                          \
        return pa::fetch_op<T>(p, v, [](T a, T b) { return T(expr); }, false);                                  \
    }                                                                                                          \
    extern "C" T shmem_tile_atomic_##name##_fetch_##N(volatile void *p, T v, int) __asm__("__atomic_" #name "_fetch_" #N); \
    extern "C" T shmem_tile_atomic_##name##_fetch_##N(volatile void *p, T v, int)                                  \
    {                                                                                                          \
        return pa::fetch_op<T>(p, v, [](T a, T b) { return T(expr); }, true);                                   \
    }

#define SHMEM_TILE_ATOMIC_SIZE(N, T)                                                                              \
    extern "C" T shmem_tile_atomic_load_##N(const volatile void *p, int) __asm__("__atomic_load_" #N);           \
    extern "C" T shmem_tile_atomic_load_##N(const volatile void *p, int) { return pa::load<T>(p); }             \
    extern "C" void shmem_tile_atomic_store_##N(volatile void *p, T v, int) __asm__("__atomic_store_" #N);       \
    extern "C" void shmem_tile_atomic_store_##N(volatile void *p, T v, int) { pa::store<T>(p, v); }             \
    extern "C" T shmem_tile_atomic_exchange_##N(volatile void *p, T v, int) __asm__("__atomic_exchange_" #N);    \
    extern "C" T shmem_tile_atomic_exchange_##N(volatile void *p, T v, int) { return pa::exchange<T>(p, v); }   \
    extern "C" bool shmem_tile_atomic_compare_exchange_##N(volatile void *p, void *e, T d, bool, int, int)        \
        __asm__("__atomic_compare_exchange_" #N);                                                             \
    extern "C" bool shmem_tile_atomic_compare_exchange_##N(volatile void *p, void *e, T d, bool, int, int)        \
    {                                                                                                          \
        return pa::compare_exchange<T>(p, e, d);                                                               \
    }                                                                                                          \
    SHMEM_TILE_ATOMIC_OP(N, T, add, a + b)                                                                     \
    SHMEM_TILE_ATOMIC_OP(N, T, sub, a - b)                                                                     \
    SHMEM_TILE_ATOMIC_OP(N, T, and, a & b)                                                                     \
    SHMEM_TILE_ATOMIC_OP(N, T, or, a | b)                                                                      \
    SHMEM_TILE_ATOMIC_OP(N, T, xor, a ^ b)                                                                     \
    SHMEM_TILE_ATOMIC_OP(N, T, nand, ~(a & b))

SHMEM_TILE_ATOMIC_SIZE(1, uint8_t)
SHMEM_TILE_ATOMIC_SIZE(2, uint16_t)
SHMEM_TILE_ATOMIC_SIZE(4, uint32_t)
SHMEM_TILE_ATOMIC_SIZE(8, uint64_t)

#endif  // !SHMEM_CHIP_NATIVE_ATOMICS

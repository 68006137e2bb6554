// Point-to-point synchronization on arrays: wait_until_{all,any,some}, test_{all,any,some} and the _vector forms.
//
// One body per operation over a "wait set" (the ivars that status does not exclude, each with its comparison
// value); the C entry points are generated from SHMEM_SYNC_TYPES. Waiting is wait_user_write (internal.hpp): it sleeps
// in port::wait_until, woken by the writer's notify (or the port's backstop for plain stores), where the user's
// writes notify, and polls this PE's own memory where they do not (Epiphany).
#include "compare.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {
namespace {

// A copy of sync.cpp's comparison (file-local there), split in two: the operator is checked once on entry, so
// an invalid cmp is reported even when the wait set is empty and never in the middle of a wait.
template <class T>
struct WaitSet {
    T *ivars;
    size_t n;
    const int *status;
    int cmp;
    const T *values;  // the _vector forms' cmp_values, or nullptr: every element compares with `value`
    T value;

    WaitSet(const char *routine, T *ivars_, size_t n_, const int *status_, int cmp_, const T *values_, T value_ = T())
        : ivars(ivars_), n(n_), status(status_), cmp(cmp_), values(values_), value(value_)
    {
        check_init(routine);
        check_cmp(routine, cmp);
        if (n != 0) check_symmetric(routine, "ivars", ivars, bytes_of(routine, "nelems", n, sizeof(T)));
    }

    bool member(size_t i) const { return status == nullptr || status[i] == 0; }
    // Acquire: whatever the writer stored before the value is visible once the value is seen.
    bool ok(size_t i) const
    {
        return satisfies(__atomic_load_n(&ivars[i], __ATOMIC_ACQUIRE), cmp, values ? values[i] : value);
    }
    bool empty() const
    {
        for (size_t i = 0; i < n; ++i)
            if (member(i)) return false;
        return true;
    }
};

template <class T>
int test_all(const WaitSet<T> &s)
{
    network_progress();
    for (size_t i = 0; i < s.n; ++i)
        if (s.member(i) && !s.ok(i)) return 0;
    return 1;
}

// _any starts where its last call on the same array stopped, so that an element that keeps satisfying the
// condition is returned by some call of a series (1.5 §9.10: "a series of calls ... must eventually return i"),
// also while a program alternates between arrays. Direct-mapped by address: a collision only resets a start.
struct Rotor {
    const void *ivars;
    size_t next;
};
Rotor rotors[8];

template <class T>
size_t test_any(const WaitSet<T> &s)
{
    const uintptr_t a = reinterpret_cast<uintptr_t>(s.ivars);
    Rotor &r = rotors[(a >> 3 ^ a >> 7) & 7];
    const size_t start = r.ivars == s.ivars && r.next < s.n ? r.next : 0;
    network_progress();
    for (size_t k = 0, i = start; k < s.n; ++k, i = i + 1 == s.n ? 0 : i + 1) {
        if (s.member(i) && s.ok(i)) {
            r = {s.ivars, i + 1};
            return i;
        }
    }
    return SIZE_MAX;
}

template <class T>
size_t test_some(const WaitSet<T> &s, size_t *indices)
{
    size_t k = 0;
    network_progress();
    for (size_t i = 0; i < s.n; ++i)
        if (s.member(i) && s.ok(i)) indices[k++] = i;
    return k;
}

// Each member in turn: when it returns, every member has satisfied the condition at some point since the call
// (the specification's "have satisfied"), which is all a waiter can observe of values others keep changing.
template <class T>
void wait_all(const WaitSet<T> &s)
{
    for (size_t i = 0; i < s.n; ++i)
        if (s.member(i)) wait_user_write([&s, i] { return s.ok(i); });
}

template <class T>
size_t wait_any(const WaitSet<T> &s)
{
    if (s.empty()) return SIZE_MAX;
    size_t found = SIZE_MAX;
    wait_user_write([&] { return (found = test_any(s)) != SIZE_MAX; });
    return found;
}

template <class T>
size_t wait_some(const WaitSet<T> &s, size_t *indices)
{
    if (s.empty()) return 0;
    size_t k = 0;
    wait_user_write([&] { return (k = test_some(s, indices)) != 0; });
    return k;
}

}  // namespace
}  // namespace shmem::detail

extern "C" {

// Each routine passes its own name for the checks' messages; the scalar forms have no cmp_values (nullptr).
#define SHMEM_DEFINE_P2P_(T, N)                                                                                       \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)                 \
    {                                                                                                                 \
        wait_all(WaitSet<T>("shmem_" #N "_wait_until_all", ivars, nelems, status, cmp, nullptr, cmp_value));          \
    }                                                                                                                 \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)  \
    {                                                                                                                 \
        wait_all(WaitSet<T>("shmem_" #N "_wait_until_all_vector", ivars, nelems, status, cmp, cmp_values));           \
    }                                                                                                                 \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)               \
    {                                                                                                                 \
        return wait_any(WaitSet<T>("shmem_" #N "_wait_until_any", ivars, nelems, status, cmp, nullptr, cmp_value));   \
    }                                                                                                                 \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,                     \
                                             const T *cmp_values)                                                     \
    {                                                                                                                 \
        return wait_any(WaitSet<T>("shmem_" #N "_wait_until_any_vector", ivars, nelems, status, cmp, cmp_values));    \
    }                                                                                                                 \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,          \
                                       T cmp_value)                                                                   \
    {                                                                                                                 \
        const WaitSet<T> s("shmem_" #N "_wait_until_some", ivars, nelems, status, cmp, nullptr, cmp_value);           \
        return wait_some(s, indices);                                                                                 \
    }                                                                                                                 \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,   \
                                              const T *cmp_values)                                                    \
    {                                                                                                                 \
        const WaitSet<T> s("shmem_" #N "_wait_until_some_vector", ivars, nelems, status, cmp, cmp_values);            \
        return wait_some(s, indices);                                                                                 \
    }                                                                                                                 \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)                        \
    {                                                                                                                 \
        return test_all(WaitSet<T>("shmem_" #N "_test_all", ivars, nelems, status, cmp, nullptr, cmp_value));         \
    }                                                                                                                 \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)         \
    {                                                                                                                 \
        return test_all(WaitSet<T>("shmem_" #N "_test_all_vector", ivars, nelems, status, cmp, cmp_values));          \
    }                                                                                                                 \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value)                     \
    {                                                                                                                 \
        return test_any(WaitSet<T>("shmem_" #N "_test_any", ivars, nelems, status, cmp, nullptr, cmp_value));         \
    }                                                                                                                 \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values)      \
    {                                                                                                                 \
        return test_any(WaitSet<T>("shmem_" #N "_test_any_vector", ivars, nelems, status, cmp, cmp_values));          \
    }                                                                                                                 \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value)   \
    {                                                                                                                 \
        const WaitSet<T> s("shmem_" #N "_test_some", ivars, nelems, status, cmp, nullptr, cmp_value);                 \
        return test_some(s, indices);                                                                                 \
    }                                                                                                                 \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,         \
                                        const T *cmp_values)                                                          \
    {                                                                                                                 \
        const WaitSet<T> s("shmem_" #N "_test_some_vector", ivars, nelems, status, cmp, cmp_values);                  \
        return test_some(s, indices);                                                                                 \
    }
SHMEM_SYNC_TYPES(SHMEM_DEFINE_P2P_)
#undef SHMEM_DEFINE_P2P_

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_P2P)

// The comparison of the point-to-point and signal waits: checked once on entry (an unknown operator is a usage
// error, reported even when nothing would be compared), then evaluated cheaply in the wait loop.
#pragma once

#include "internal.hpp"

namespace shmem::detail {

inline void check_cmp(const char *routine, int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: case SHMEM_CMP_NE: case SHMEM_CMP_GT: case SHMEM_CMP_GE: case SHMEM_CMP_LT: case SHMEM_CMP_LE:
        return;
    default: {
        Usage u(routine);
        u.m().s("cmp = ").i(cmp).s(" is not a comparison; expected one of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE");
        u.fail();
    }
    }
}

template <class T>
inline bool satisfies(T value, int cmp, T ref)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return value == ref;
    case SHMEM_CMP_NE: return value != ref;
    case SHMEM_CMP_GT: return value > ref;
    case SHMEM_CMP_GE: return value >= ref;
    case SHMEM_CMP_LT: return value < ref;
    default: return value <= ref;  // SHMEM_CMP_LE: check_cmp let nothing else through
    }
}

}  // namespace shmem::detail

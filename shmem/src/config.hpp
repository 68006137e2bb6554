// The library's 0/1 build options, each defaulted here and nowhere else. The build (shmem/CMakeLists.txt) defines
// every one of them from its CMake option; these defaults are what a build without it gets (port/template's), and
// the one list of what there is. Test them with `#if SHMEM_X` or `SHMEM_X != 0`, never with `#ifdef`.
// Plain preprocessor: C, C++ and assembly may include it. Sizes (SHMEM_MAX_TEAMS, SHMEM_MAX_CONTEXTS,
// SHMEM_TEAM_WORK_UNIT, SHMEM_TEAM_WORK_BYTES, SHMEM_CRT_MAX_ATEXIT) are defaulted where they size something.
#ifndef SHMEM_CONFIG_HPP
#define SHMEM_CONFIG_HPP

// Argument checks with a clear message (internal.hpp, the check family).
#ifndef SHMEM_CHECKS
#define SHMEM_CHECKS 1
#endif

// Without SHMEM_CHECKS, still the checks of a compare and a branch each: a PE out of range, a size that overflows,
// a stride < 1, a root out of range, an invalid team. They report as with checks (the same messages).
#ifndef SHMEM_CHEAP_CHECKS
#define SHMEM_CHEAP_CHECKS 1
#endif

// SHMEM_BARRIER (CMake: wand, auto or dissemination). WAND: shmem_barrier_all uses the port's hardware barrier
// (port::has_hw_barrier) instead of the dissemination barrier. AUTO: it uses the hardware barrier where the run
// allows it (port::hw_barrier_usable(): on Epiphany, a run on every core of the chip), dissemination elsewhere.
// Neither: dissemination.
#ifndef SHMEM_BARRIER_WAND
#define SHMEM_BARRIER_WAND 1
#endif
#ifndef SHMEM_BARRIER_AUTO
#define SHMEM_BARRIER_AUTO 0
#endif

// SHMEM_ATOMICS=testset: every AMO takes a TESTSET lock on the target PE, as on a port without native atomics
// (shmem/src/amo.cpp), and the collectives take no flat sweeps (coll.hpp).
#ifndef SHMEM_ATOMICS_TESTSET
#define SHMEM_ATOMICS_TESTSET 0
#endif

// Epiphany: a get of at least SHMEM_IPI_GET_MIN bytes asks the owner core to put the data (port/epiphany).
#ifndef SHMEM_USE_IPI_GET
#define SHMEM_USE_IPI_GET 0
#endif

// linux: the shmemx channels send their values as messages through a queue per PE, as over TILE's UDN, so that the
// core's message path runs on the host (port/linux).
#ifndef SHMEM_LINUX_MSG_CHANNEL
#define SHMEM_LINUX_MSG_CHANNEL 0
#endif

// The target has no C++ runtime library: crt/common/cxx.cpp gives new/delete, the static-init guards and
// __cxa_pure_virtual.
#ifndef SHMEM_CRT_CXX_RUNTIME
#define SHMEM_CRT_CXX_RUNTIME 0
#endif

#endif

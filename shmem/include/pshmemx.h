/* The profiling names of libshmem's extensions (shmemx.h): every shmemx_NAME also as pshmemx_NAME, on the same
 * terms as pshmem.h gives them for shmem.h (which this header includes too). Not required by OpenSHMEM, which
 * only names its own routines; given because it costs nothing and a tool that studies a streaming program wants
 * to see its channel operations. */
#ifndef PSHMEMX_H
#define PSHMEMX_H

#include "pshmem.h"
#include "shmemx.h"

/* The name lists, one per source file of the library, as in pshmem.h: a new shmemx_ routine is added to the
 * list of the file that defines it (the ctest conformance_profiling names a forgotten one). */

/* shmem/src/setup.cpp */
#define SHMEMI_NAMES_X_SETUP SHMEMI_NAME(shmemx_cycles)

/* shmem/src/sync.cpp */
#define SHMEMI_NAMES_X_SYNC                   \
    SHMEMI_NAME(shmemx_barrier_all_wand)      \
    SHMEMI_NAME(shmemx_barrier_all_dissemination)

/* shmem/src/channel.cpp */
#define SHMEMI_NAMES_X_CHANNEL                \
    SHMEMI_NAME(shmemx_channel_init)          \
    SHMEMI_NAME(shmemx_channel_send)          \
    SHMEMI_NAME(shmemx_channel_recv)          \
    SHMEMI_NAME(shmemx_channel_try_send)      \
    SHMEMI_NAME(shmemx_channel_try_recv)      \
    SHMEMI_NAME(shmemx_channel_set_init)      \
    SHMEMI_NAME(shmemx_channel_recv_any)      \
    SHMEMI_NAME(shmemx_channel_try_recv_any)

#define SHMEMI_NAMES_X_ALL SHMEMI_NAMES_X_SETUP SHMEMI_NAMES_X_SYNC SHMEMI_NAMES_X_CHANNEL

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEMI_NAME(name) extern __typeof__(name) p##name SHMEMI_PCOPY_(name);
SHMEMI_NAMES_X_ALL
#undef SHMEMI_NAME

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PSHMEMX_H */

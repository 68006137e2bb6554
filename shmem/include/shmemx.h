/* libshmem extensions to OpenSHMEM 1.5 (not portable to other implementations). */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* shmem_barrier_all with a chosen algorithm (shmem_barrier_all itself uses the one the build selected with
 * SHMEM_BARRIER): the port's WAND-style hardware barrier, or the software dissemination barrier. */
void shmemx_barrier_all_wand(void);
void shmemx_barrier_all_dissemination(void);

#ifdef __cplusplus
}
#endif

#endif

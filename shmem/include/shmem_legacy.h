/* Names of OpenSHMEM 1.2-1.4 that older programs still use, mapped onto the 1.5 routines. Included by shmem.h. */
#ifndef SHMEM_LEGACY_H
#define SHMEM_LEGACY_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* SHMEM_LEGACY_H */

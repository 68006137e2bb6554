/* Atomic memory operations, signals and distributed locks. Included by shmem.h. */
#ifndef SHMEM_AMO_H
#define SHMEM_AMO_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* SHMEM_AMO_H */

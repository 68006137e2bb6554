/* Point-to-point synchronization beyond wait_until/test: _all, _any, _some and _vector forms. Included by shmem.h. */
#ifndef SHMEM_P2P_H
#define SHMEM_P2P_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* SHMEM_P2P_H */

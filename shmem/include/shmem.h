/* libshmem: OpenSHMEM 1.6 for bare-metal coprocessor cores. The C API (with C11 generic selection and C++
 * overloads of the generic names). See docs and README.md for what each target provides. */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>

#include "shmem_type_tables.h"

/* ---- library constants ------------------------------------------------------------------------------------ */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN 64
#define SHMEM_VENDOR_STRING "libshmem 0.1 (bare-metal OpenSHMEM)"

/* Comparison operators of the point-to-point synchronization routines. Zero is deliberately not one of them,
 * so that an uninitialised operand is reported instead of silently meaning "equal". */
#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_GE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_LE 6

/* Thread levels (a PE is one single-threaded core: see shmem_init_thread) */
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* Context options */
#define SHMEM_CTX_PRIVATE (1L << 0)
#define SHMEM_CTX_SERIALIZED (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* Signal operators */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* Memory hints */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* Team configuration */
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)
typedef struct {
    int num_contexts;
} shmem_team_config_t;

/* Sessions (1.6): an option of shmem_ctx_session_start, and the configuration with its mask bit. Hints only. */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;

/* Handles: a team or a context is a pointer to the library's object; the predefined ones are library objects. */
typedef struct shmem_team_s *shmem_team_t;
typedef struct shmem_ctx_s *shmem_ctx_t;

/* pSync/pWrk of the deprecated active-set collectives: every pSync is SHMEM_<ROUTINE>_SYNC_SIZE longs set to
 * SHMEM_SYNC_VALUE; reductions need pWrk of max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements.
 * The sizes follow the number of rounds of the largest machine of the target, R = ceil(log2(max PEs)): a barrier,
 * broadcast, reduction or alltoall uses R + 1 flags, a collect 2 R + 2 (shmem/src/coll.hpp). Epiphany (R = 6 for
 * the 64-core chip) keeps them to what its 32 KB cores can spare, and a reduction's pWrk to what its rounds need
 * (one element per round); elsewhere they have room for R = 9 (512 PEs) and more. */
#define SHMEM_SYNC_VALUE 0L
#if defined(__epiphany__)
#define SHMEM_SYNC_SIZE 14
#define SHMEM_BARRIER_SYNC_SIZE 7
#define SHMEM_BCAST_SYNC_SIZE 7
#define SHMEM_COLLECT_SYNC_SIZE 14
#define SHMEM_REDUCE_SYNC_SIZE 7
#define SHMEM_ALLTOALL_SYNC_SIZE 7
#define SHMEM_ALLTOALLS_SYNC_SIZE 7
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 8
#else
#define SHMEM_SYNC_SIZE 32
#define SHMEM_BARRIER_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_BCAST_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_COLLECT_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 64
#endif

#ifdef __cplusplus
extern "C" {
#endif

extern struct shmem_team_s shmemi_team_world, shmemi_team_shared;
extern struct shmem_ctx_s shmemi_ctx_default;
#define SHMEM_TEAM_WORLD (&shmemi_team_world)
#define SHMEM_TEAM_SHARED (&shmemi_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_CTX_DEFAULT (&shmemi_ctx_default)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

#if defined(__cplusplus)
#define SHMEM_NORETURN [[noreturn]]
#else
#define SHMEM_NORETURN _Noreturn
#endif

/* ---- library setup, exit and query ------------------------------------------------------------------------ */
void shmem_init(void);
void shmem_finalize(void);
void shmem_query_initialized(int *initialized);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_pcontrol(const int level, ...);
SHMEM_NORETURN void shmem_global_exit(int status);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* ---- symmetric heap --------------------------------------------------------------------------------------- */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void shmem_free(void *ptr);
void *shmem_realloc(void *ptr, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);

/* ---- remote memory access --------------------------------------------------------------------------------- */
#define SHMEM_DECLARE_CTX_RMA_(T, N)                                                                              \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);                 \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);                 \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                                         \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                                              \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,         \
                              size_t nelems, int pe);                                                           \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,         \
                              size_t nelems, int pe);                                                           \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_ctx_##N##_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,        \
                               size_t bsize, size_t nblocks, int pe);                                           \
    void shmem_ctx_##N##_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,        \
                               size_t bsize, size_t nblocks, int pe);
SHMEM_RMA_TYPES(SHMEM_DECLARE_CTX_RMA_)
#undef SHMEM_DECLARE_CTX_RMA_

#define SHMEM_DECLARE_CTX_RMA_SIZE_(BITS)                                                                         \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);           \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);           \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                              size_t nelems, int pe);                                                           \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                              size_t nelems, int pe);                                                           \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);     \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);     \
    void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,   \
                               size_t bsize, size_t nblocks, int pe);                                           \
    void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,   \
                               size_t bsize, size_t nblocks, int pe);
SHMEM_RMA_SIZES(SHMEM_DECLARE_CTX_RMA_SIZE_)
#undef SHMEM_DECLARE_CTX_RMA_SIZE_

void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);

#define SHMEM_DECLARE_RMA_(T, N)                                                                                  \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                                      \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                                      \
    void shmem_##N##_p(T *dest, T value, int pe);                                                                \
    T shmem_##N##_g(const T *source, int pe);                                                                    \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);       \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);       \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);                                  \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);                                  \
    void shmem_##N##_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                           int pe);                                                                              \
    void shmem_##N##_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                           int pe);
SHMEM_RMA_TYPES(SHMEM_DECLARE_RMA_)
#undef SHMEM_DECLARE_RMA_

#define SHMEM_DECLARE_RMA_SIZE_(BITS)                                                                             \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe);                                \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe);                                \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);                          \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);                          \
    void shmem_ibput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,          \
                           size_t nblocks, int pe);                                                              \
    void shmem_ibget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,          \
                           size_t nblocks, int pe);
SHMEM_RMA_SIZES(SHMEM_DECLARE_RMA_SIZE_)
#undef SHMEM_DECLARE_RMA_SIZE_

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);

/* ---- memory ordering -------------------------------------------------------------------------------------- */
void shmem_fence(void);
void shmem_quiet(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_ctx_quiet(shmem_ctx_t ctx);
/* 1.6: completes this PE's operations to the listed PEs (numbers of the context's team); npes 0: nothing */
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* ---- collectives ------------------------------------------------------------------------------------------ */
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* ---- point-to-point synchronization ----------------------------------------------------------------------- */
#define SHMEM_DECLARE_SYNC_(T, N)                                     \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);      \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);
SHMEM_SYNC_TYPES(SHMEM_DECLARE_SYNC_)
#undef SHMEM_DECLARE_SYNC_

#ifdef __cplusplus
} /* extern "C" */
#endif

#include "shmem_teams.h"
#include "shmem_amo.h"
#include "shmem_p2p.h"
#include "shmem_legacy.h"
#include "shmem_generic.h"

#endif /* SHMEM_H */

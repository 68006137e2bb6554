/* Teams, contexts and collectives (team-based, and the deprecated active-set forms). Included by shmem.h. */
#ifndef SHMEM_TEAMS_H
#define SHMEM_TEAMS_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- teams -------------------------------------------------------------------------------------------------- */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
/* 1.6: shmem_ptr for PE number pe of the team; NULL for SHMEM_TEAM_INVALID or an address that is not symmetric */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);

/* ---- contexts ----------------------------------------------------------------------------------------------- */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void shmem_ctx_destroy(shmem_ctx_t ctx);
/* 1.6 sessions: hints (options SHMEM_CTX_SESSION_*, config with mask SHMEM_CTX_SESSION_TOTAL_OPS); the library
 * checks them and applies none, which the specification allows. */
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
                             long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

/* ---- synchronization ---------------------------------------------------------------------------------------- */
int shmem_team_sync(shmem_team_t team);
/* shmem_sync: the 1.5 team form; shmem_sync(PE_start, logPE_stride, PE_size, pSync), the deprecated active-set
 * form, is selected by its number of arguments (see the macro below). */
int shmem_sync(shmem_team_t team);
void shmemi_sync_active_set(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* ---- team-based collectives (return 0 on success) ----------------------------------------------------------- */
#define SHMEM_DECLARE_COLL_(T, N)                                                                                  \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root);          \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);                         \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);                        \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);                        \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,        \
                              size_t nelems);
SHMEM_RMA_TYPES(SHMEM_DECLARE_COLL_)
#undef SHMEM_DECLARE_COLL_
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems);

#define SHMEM_DECLARE_REDUCE_(T, N, OP) \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define SHMEM_DECLARE_REDUCE_BITWISE_(T, N) \
    SHMEM_DECLARE_REDUCE_(T, N, and) SHMEM_DECLARE_REDUCE_(T, N, or) SHMEM_DECLARE_REDUCE_(T, N, xor)
#define SHMEM_DECLARE_REDUCE_MINMAX_(T, N) SHMEM_DECLARE_REDUCE_(T, N, max) SHMEM_DECLARE_REDUCE_(T, N, min)
#define SHMEM_DECLARE_REDUCE_ARITH_(T, N) SHMEM_DECLARE_REDUCE_(T, N, sum) SHMEM_DECLARE_REDUCE_(T, N, prod)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DECLARE_REDUCE_BITWISE_)
SHMEM_REDUCE_MINMAX_TYPES(SHMEM_DECLARE_REDUCE_MINMAX_)
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DECLARE_REDUCE_ARITH_)
/* 1.6 scans (prefix sums over the team's PEs in team order): inscan includes the calling PE's source, exscan
 * does not (PE 0 of the team gets 0). The types of the sum reduction. */
#define SHMEM_DECLARE_SCAN_(T, N)                                                                                \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems);                    \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DECLARE_SCAN_)
#undef SHMEM_DECLARE_SCAN_
#undef SHMEM_DECLARE_REDUCE_BITWISE_
#undef SHMEM_DECLARE_REDUCE_MINMAX_
#undef SHMEM_DECLARE_REDUCE_ARITH_
#undef SHMEM_DECLARE_REDUCE_

/* ---- deprecated active-set collectives (OpenSHMEM 1.4), with their pSync/pWrk rules ------------------------ */
#define SHMEM_DECLARE_AS_SIZED_(BITS)                                                                             \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,        \
                               int logPE_stride, int PE_size, long *pSync);                                      \
    void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,     \
                             int PE_size, long *pSync);                                                          \
    void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,    \
                              int PE_size, long *pSync);                                                         \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,    \
                              int PE_size, long *pSync);                                                         \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
                               int PE_start, int logPE_stride, int PE_size, long *pSync);
SHMEM_DECLARE_AS_SIZED_(32)
SHMEM_DECLARE_AS_SIZED_(64)
#undef SHMEM_DECLARE_AS_SIZED_

#define SHMEM_DECLARE_TO_ALL_(T, N, OP)                                                                          \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride,       \
                                   int PE_size, T *pWrk, long *pSync);
#define SHMEM_DECLARE_TO_ALL_BITWISE_(T, N) \
    SHMEM_DECLARE_TO_ALL_(T, N, and) SHMEM_DECLARE_TO_ALL_(T, N, or) SHMEM_DECLARE_TO_ALL_(T, N, xor)
#define SHMEM_DECLARE_TO_ALL_MINMAX_(T, N) SHMEM_DECLARE_TO_ALL_(T, N, max) SHMEM_DECLARE_TO_ALL_(T, N, min)
#define SHMEM_DECLARE_TO_ALL_ARITH_(T, N) SHMEM_DECLARE_TO_ALL_(T, N, sum) SHMEM_DECLARE_TO_ALL_(T, N, prod)
SHMEM_TO_ALL_BITWISE_TYPES(SHMEM_DECLARE_TO_ALL_BITWISE_)
SHMEM_TO_ALL_MINMAX_TYPES(SHMEM_DECLARE_TO_ALL_MINMAX_)
SHMEM_TO_ALL_ARITH_TYPES(SHMEM_DECLARE_TO_ALL_ARITH_)
#undef SHMEM_DECLARE_TO_ALL_BITWISE_
#undef SHMEM_DECLARE_TO_ALL_MINMAX_
#undef SHMEM_DECLARE_TO_ALL_ARITH_
#undef SHMEM_DECLARE_TO_ALL_

#ifdef __cplusplus
}
#endif

/* ---- generic names: selection on the type of dest (the second argument) ----------------------------------- */
#if defined(__cplusplus)
extern "C++" {

#define SHMEMI_CXX_COLL_(T, N)                                                                                     \
    inline int shmem_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root)         \
    {                                                                                                             \
        return shmem_##N##_broadcast(team, dest, source, nelems, PE_root);                                       \
    }                                                                                                             \
    inline int shmem_collect(shmem_team_t team, T *dest, const T *source, size_t nelems)                        \
    {                                                                                                             \
        return shmem_##N##_collect(team, dest, source, nelems);                                                  \
    }                                                                                                             \
    inline int shmem_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)                       \
    {                                                                                                             \
        return shmem_##N##_fcollect(team, dest, source, nelems);                                                 \
    }                                                                                                             \
    inline int shmem_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)                       \
    {                                                                                                             \
        return shmem_##N##_alltoall(team, dest, source, nelems);                                                 \
    }                                                                                                             \
    inline int shmem_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,      \
                               size_t nelems)                                                                     \
    {                                                                                                             \
        return shmem_##N##_alltoalls(team, dest, source, dst, sst, nelems);                                      \
    }
SHMEM_RMA_STANDARD_TYPES(SHMEMI_CXX_COLL_)
#undef SHMEMI_CXX_COLL_

#define SHMEMI_CXX_REDUCE_(T, N, OP)                                                                               \
    inline int shmem_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce)                 \
    {                                                                                                             \
        return shmem_##N##_##OP##_reduce(team, dest, source, nreduce);                                           \
    }
#define SHMEMI_CXX_BITWISE_(T, N) SHMEMI_CXX_REDUCE_(T, N, and) SHMEMI_CXX_REDUCE_(T, N, or) SHMEMI_CXX_REDUCE_(T, N, xor)
#define SHMEMI_CXX_MINMAX_(T, N) SHMEMI_CXX_REDUCE_(T, N, max) SHMEMI_CXX_REDUCE_(T, N, min)
#define SHMEMI_CXX_ARITH_(T, N)                                                                                 \
    SHMEMI_CXX_REDUCE_(T, N, sum) SHMEMI_CXX_REDUCE_(T, N, prod)                                                  \
    inline int shmem_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems)                      \
    {                                                                                                             \
        return shmem_##N##_sum_inscan(team, dest, source, nelems);                                               \
    }                                                                                                             \
    inline int shmem_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems)                      \
    {                                                                                                             \
        return shmem_##N##_sum_exscan(team, dest, source, nelems);                                               \
    }
SHMEM_REDUCE_BITWISE_GENERIC_TYPES(SHMEMI_CXX_BITWISE_)
SHMEM_REDUCE_MINMAX_STANDARD_TYPES(SHMEMI_CXX_MINMAX_)
SHMEM_REDUCE_ARITH_STANDARD_TYPES(SHMEMI_CXX_ARITH_)
#undef SHMEMI_CXX_BITWISE_
#undef SHMEMI_CXX_MINMAX_
#undef SHMEMI_CXX_ARITH_
#undef SHMEMI_CXX_REDUCE_

}  /* extern "C++" */
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

#define SHMEMI_GEN_(T, N, SUFFIX) , T : shmem_##N##_##SUFFIX
#define SHMEMI_GEN_BROADCAST_(T, N) SHMEMI_GEN_(T, N, broadcast)
#define SHMEMI_GEN_COLLECT_(T, N) SHMEMI_GEN_(T, N, collect)
#define SHMEMI_GEN_FCOLLECT_(T, N) SHMEMI_GEN_(T, N, fcollect)
#define SHMEMI_GEN_ALLTOALL_(T, N) SHMEMI_GEN_(T, N, alltoall)
#define SHMEMI_GEN_ALLTOALLS_(T, N) SHMEMI_GEN_(T, N, alltoalls)
#define SHMEMI_GEN_AND_(T, N) SHMEMI_GEN_(T, N, and_reduce)
#define SHMEMI_GEN_OR_(T, N) SHMEMI_GEN_(T, N, or_reduce)
#define SHMEMI_GEN_XOR_(T, N) SHMEMI_GEN_(T, N, xor_reduce)
#define SHMEMI_GEN_MAX_(T, N) SHMEMI_GEN_(T, N, max_reduce)
#define SHMEMI_GEN_MIN_(T, N) SHMEMI_GEN_(T, N, min_reduce)
#define SHMEMI_GEN_SUM_(T, N) SHMEMI_GEN_(T, N, sum_reduce)
#define SHMEMI_GEN_PROD_(T, N) SHMEMI_GEN_(T, N, prod_reduce)
#define SHMEMI_GEN_INSCAN_(T, N) SHMEMI_GEN_(T, N, sum_inscan)
#define SHMEMI_GEN_EXSCAN_(T, N) SHMEMI_GEN_(T, N, sum_exscan)

#define shmem_broadcast(team, dest, ...) \
    _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEMI_GEN_BROADCAST_))(team, dest, __VA_ARGS__)
#define shmem_collect(team, dest, ...) \
    _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEMI_GEN_COLLECT_))(team, dest, __VA_ARGS__)
#define shmem_fcollect(team, dest, ...) \
    _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEMI_GEN_FCOLLECT_))(team, dest, __VA_ARGS__)
#define shmem_alltoall(team, dest, ...) \
    _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEMI_GEN_ALLTOALL_))(team, dest, __VA_ARGS__)
#define shmem_alltoalls(team, dest, ...) \
    _Generic(*(dest) SHMEM_RMA_STANDARD_TYPES(SHMEMI_GEN_ALLTOALLS_))(team, dest, __VA_ARGS__)
#define shmem_and_reduce(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_BITWISE_GENERIC_TYPES(SHMEMI_GEN_AND_))(team, dest, __VA_ARGS__)
#define shmem_or_reduce(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_BITWISE_GENERIC_TYPES(SHMEMI_GEN_OR_))(team, dest, __VA_ARGS__)
#define shmem_xor_reduce(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_BITWISE_GENERIC_TYPES(SHMEMI_GEN_XOR_))(team, dest, __VA_ARGS__)
#define shmem_max_reduce(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_MINMAX_STANDARD_TYPES(SHMEMI_GEN_MAX_))(team, dest, __VA_ARGS__)
#define shmem_min_reduce(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_MINMAX_STANDARD_TYPES(SHMEMI_GEN_MIN_))(team, dest, __VA_ARGS__)
#define shmem_sum_reduce(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_ARITH_STANDARD_TYPES(SHMEMI_GEN_SUM_))(team, dest, __VA_ARGS__)
#define shmem_prod_reduce(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_ARITH_STANDARD_TYPES(SHMEMI_GEN_PROD_))(team, dest, __VA_ARGS__)
#define shmem_sum_inscan(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_ARITH_STANDARD_TYPES(SHMEMI_GEN_INSCAN_))(team, dest, __VA_ARGS__)
#define shmem_sum_exscan(team, dest, ...) \
    _Generic(*(dest) SHMEM_REDUCE_ARITH_STANDARD_TYPES(SHMEMI_GEN_EXSCAN_))(team, dest, __VA_ARGS__)

#endif /* generic names */

/* shmem_sync(team) or shmem_sync(PE_start, logPE_stride, PE_size, pSync): chosen by the number of arguments. */
#define SHMEMI_SYNC_PICK_(_1, _2, _3, _4, NAME, ...) NAME
#define shmem_sync(...) \
    SHMEMI_SYNC_PICK_(__VA_ARGS__, shmemi_sync_active_set, shmemi_sync_bad_, shmemi_sync_bad_, shmem_sync, )(__VA_ARGS__)

#endif /* SHMEM_TEAMS_H */

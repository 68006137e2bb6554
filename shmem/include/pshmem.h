/* The OpenSHMEM profiling interface (OpenSHMEM 1.5 §10): every routine of shmem.h also as pshmem_NAME.
 *
 * A tool (a profiler, a tracer, a checker) interposes on a routine by defining shmem_NAME itself, with the
 * signature shmem.h declares, and calling pshmem_NAME from it to reach the library's routine:
 *
 *     #include <pshmem.h>
 *     static unsigned long puts;
 *     void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
 *     {
 *         ++puts;
 *         pshmem_putmem(dest, source, nelems, pe);
 *     }
 *
 * and linking its object (or its archive) before libshmem.a, which is where oshcc and add_shmem_executable put a
 * program's own objects. In libshmem.a every shmem_NAME is a weak symbol and pshmem_NAME a strong alias of the
 * same body: the tool's strong shmem_NAME wins at link time without a clash, and a program that does not
 * interpose, or does not call a routine at all, links exactly what it linked without this interface.
 *
 * pshmem_NAME has the type (and the attributes: noreturn) of shmem_NAME; the deprecated names of shmem_legacy.h
 * follow the same rule, "p" + name (pstart_pes, p_my_pe, pshmalloc, pshmem_int_fadd, ...). The library's own
 * routines call each other only by their pshmem_ names, so a tool sees the calls the program makes and no others
 * (start_pes is counted as start_pes, not also as shmem_init; a put-with-signal not also as an atomic set).
 *
 * What has no pshmem_ name: the C11 generic names (macros, §10 says they cannot have one) and the C++ overloads
 * of shmem.h, which are inline functions over the typed C routines: a tool that interposes on shmem_long_put
 * sees shmem_put(long *, ...) calls too, in C and in C++. shmem_sync(...) is a macro choosing between
 * shmem_sync(team) and the deprecated active-set form by its number of arguments; pshmem_sync(...) below makes the
 * same choice. The extensions of shmemx.h have pshmemx_ names in pshmemx.h.
 */
#ifndef PSHMEM_H
#define PSHMEM_H

#include "shmem.h"

/* ---- the name lists -------------------------------------------------------------------------------------------
 * Every routine libshmem defines, one list per source file of the library (shmem/src/<file>.cpp), because each
 * file makes the aliases of the routines it defines. A list expands to SHMEMI_NAME(shmem_...) once per name;
 * whoever expands it defines SHMEMI_NAME first: below, to declare pshmem_NAME; in the library
 * (shmem/src/internal.hpp, SHMEMI_PROFILING_ALIASES), to make shmem_NAME weak and pshmem_NAME its alias.
 *
 * A NEW ROUTINE of shmem.h: add its name to the list of the source file that defines it (a typed family: to the
 * per-type list, and the list to its type table in that file's list; the operation lists of shmem_amo.h already
 * feed the atomics and signals). Nothing else: the declaration here and the alias in the library follow. If it is
 * forgotten, the ctest conformance_profiling_names names it; a name in the list of a file that does not define it
 * does not compile ("aliased to undefined symbol"); a list no source file expands fails conformance_link. A NEW
 * SOURCE FILE of routines: a new list here, added to SHMEMI_NAMES_ALL, and the file ends with
 * SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_<its list>). Inside the library, call another public routine by its
 * pshmem_ name (conformance_profiling_internal_calls fails on a shmem_ one). */

/* pshmem_NAME and pshmem_ctx_NAME, from shmem_##NAME: the plain routine and its context form */
#define SHMEMI_NAMES_CTX_(NAME) SHMEMI_NAME(shmem_##NAME) SHMEMI_NAME(shmem_ctx_##NAME)

/* shmem/src/setup.cpp */
#define SHMEMI_NAMES_SETUP              \
    SHMEMI_NAME(shmem_init)             \
    SHMEMI_NAME(shmem_finalize)         \
    SHMEMI_NAME(shmem_my_pe)            \
    SHMEMI_NAME(shmem_n_pes)            \
    SHMEMI_NAME(shmem_init_thread)      \
    SHMEMI_NAME(shmem_query_thread)     \
    SHMEMI_NAME(shmem_pcontrol)         \
    SHMEMI_NAME(shmem_global_exit)      \
    SHMEMI_NAME(shmem_pe_accessible)    \
    SHMEMI_NAME(shmem_addr_accessible)  \
    SHMEMI_NAME(shmem_ptr)              \
    SHMEMI_NAME(shmem_info_get_version) \
    SHMEMI_NAME(shmem_info_get_name)    \
    SHMEMI_NAME(shmem_query_initialized)

/* shmem/src/alloc.cpp */
#define SHMEMI_NAMES_HEAP          \
    SHMEMI_NAME(shmem_malloc)      \
    SHMEMI_NAME(shmem_calloc)      \
    SHMEMI_NAME(shmem_free)        \
    SHMEMI_NAME(shmem_realloc)     \
    SHMEMI_NAME(shmem_align)       \
    SHMEMI_NAME(shmem_malloc_with_hints)

/* shmem/src/rma.cpp */
#define SHMEMI_NAMES_RMA_T_(T, N)     \
    SHMEMI_NAMES_CTX_(N##_put)        \
    SHMEMI_NAMES_CTX_(N##_get)        \
    SHMEMI_NAMES_CTX_(N##_p)          \
    SHMEMI_NAMES_CTX_(N##_g)          \
    SHMEMI_NAMES_CTX_(N##_iput)       \
    SHMEMI_NAMES_CTX_(N##_iget)       \
    SHMEMI_NAMES_CTX_(N##_put_nbi)    \
    SHMEMI_NAMES_CTX_(N##_get_nbi)    \
    SHMEMI_NAMES_CTX_(N##_ibput)      \
    SHMEMI_NAMES_CTX_(N##_ibget)
#define SHMEMI_NAMES_RMA_SIZE_(BITS)      \
    SHMEMI_NAMES_CTX_(put##BITS)          \
    SHMEMI_NAMES_CTX_(get##BITS)          \
    SHMEMI_NAMES_CTX_(iput##BITS)         \
    SHMEMI_NAMES_CTX_(iget##BITS)         \
    SHMEMI_NAMES_CTX_(put##BITS##_nbi)    \
    SHMEMI_NAMES_CTX_(get##BITS##_nbi)    \
    SHMEMI_NAMES_CTX_(ibput##BITS)        \
    SHMEMI_NAMES_CTX_(ibget##BITS)
#define SHMEMI_NAMES_RMA                          \
    SHMEM_RMA_TYPES(SHMEMI_NAMES_RMA_T_)          \
    SHMEM_RMA_SIZES(SHMEMI_NAMES_RMA_SIZE_)       \
    SHMEMI_NAMES_CTX_(putmem)                     \
    SHMEMI_NAMES_CTX_(getmem)                     \
    SHMEMI_NAMES_CTX_(putmem_nbi)                 \
    SHMEMI_NAMES_CTX_(getmem_nbi)

/* shmem/src/amo.cpp: the operation lists of shmem_amo.h over the AMO type tables */
#define SHMEMI_NAMES_OP_(RET, N, NAME, PARAMS, ARGS) SHMEMI_NAMES_CTX_(N##_##NAME)
#define SHMEMI_NAMES_AMO_EXTENDED_(T, N) SHMEMI_AMO_EXTENDED_OPS_(SHMEMI_NAMES_OP_, T, N)
#define SHMEMI_NAMES_AMO_STANDARD_(T, N) SHMEMI_AMO_STANDARD_OPS_(SHMEMI_NAMES_OP_, T, N)
#define SHMEMI_NAMES_AMO_BITWISE_(T, N) SHMEMI_AMO_BITWISE_OPS_(SHMEMI_NAMES_OP_, T, N)
#define SHMEMI_NAMES_AMO                                        \
    SHMEM_AMO_EXTENDED_TYPES(SHMEMI_NAMES_AMO_EXTENDED_)        \
    SHMEM_AMO_STANDARD_TYPES(SHMEMI_NAMES_AMO_STANDARD_)        \
    SHMEM_AMO_BITWISE_TYPES(SHMEMI_NAMES_AMO_BITWISE_)

/* shmem/src/signal.cpp: the put-with-signal operation lists of shmem_amo.h, and the signal routines (the plain
 * shmem_signal_add and shmem_signal_set are declared below by hand: in C++ each is an overload set, with the
 * context forms of shmem_amo.h, which has no single type to take) */
#define SHMEMI_NAMES_SIGNAL_T_(T, N) SHMEMI_SIGNAL_OPS_(SHMEMI_NAMES_OP_, T, N)
#define SHMEMI_NAMES_SIGNAL_SIZE_(BITS) SHMEMI_SIGNAL_SIZED_OPS_(SHMEMI_NAMES_OP_, BITS)
#define SHMEMI_NAMES_SIGNAL                              \
    SHMEM_RMA_TYPES(SHMEMI_NAMES_SIGNAL_T_)              \
    SHMEM_RMA_SIZES(SHMEMI_NAMES_SIGNAL_SIZE_)           \
    SHMEMI_SIGNAL_SIZED_OPS_(SHMEMI_NAMES_OP_, mem)      \
    SHMEMI_NAME(shmem_signal_fetch)                      \
    SHMEMI_NAME(shmem_signal_wait_until)                 \
    SHMEMI_NAME(shmem_ctx_signal_add)                    \
    SHMEMI_NAME(shmem_ctx_signal_set)

/* shmem/src/lock.cpp */
#define SHMEMI_NAMES_LOCK          \
    SHMEMI_NAME(shmem_set_lock)    \
    SHMEMI_NAME(shmem_clear_lock)  \
    SHMEMI_NAME(shmem_test_lock)

/* shmem/src/sync.cpp: memory ordering, barrier_all, sync_all, wait_until and test */
#define SHMEMI_NAMES_SYNC_T_(T, N)           \
    SHMEMI_NAME(shmem_##N##_wait_until)      \
    SHMEMI_NAME(shmem_##N##_test)
#define SHMEMI_NAMES_SYNC                    \
    SHMEMI_NAMES_CTX_(fence)                 \
    SHMEMI_NAMES_CTX_(quiet)                 \
    SHMEMI_NAMES_CTX_(pe_quiet)              \
    SHMEMI_NAME(shmem_barrier_all)           \
    SHMEMI_NAME(shmem_sync_all)              \
    SHMEM_SYNC_TYPES(SHMEMI_NAMES_SYNC_T_)

/* shmem/src/p2p.cpp */
#define SHMEMI_NAMES_P2P_T_(T, N)                       \
    SHMEMI_NAME(shmem_##N##_wait_until_all)             \
    SHMEMI_NAME(shmem_##N##_wait_until_any)             \
    SHMEMI_NAME(shmem_##N##_wait_until_some)            \
    SHMEMI_NAME(shmem_##N##_wait_until_all_vector)      \
    SHMEMI_NAME(shmem_##N##_wait_until_any_vector)      \
    SHMEMI_NAME(shmem_##N##_wait_until_some_vector)     \
    SHMEMI_NAME(shmem_##N##_test_all)                   \
    SHMEMI_NAME(shmem_##N##_test_any)                   \
    SHMEMI_NAME(shmem_##N##_test_some)                  \
    SHMEMI_NAME(shmem_##N##_test_all_vector)            \
    SHMEMI_NAME(shmem_##N##_test_any_vector)            \
    SHMEMI_NAME(shmem_##N##_test_some_vector)
#define SHMEMI_NAMES_P2P SHMEM_SYNC_TYPES(SHMEMI_NAMES_P2P_T_)

/* shmem/src/team.cpp: teams and contexts */
#define SHMEMI_NAMES_TEAM                       \
    SHMEMI_NAME(shmem_team_my_pe)               \
    SHMEMI_NAME(shmem_team_n_pes)               \
    SHMEMI_NAME(shmem_team_get_config)          \
    SHMEMI_NAME(shmem_team_translate_pe)        \
    SHMEMI_NAME(shmem_team_split_strided)       \
    SHMEMI_NAME(shmem_team_split_2d)            \
    SHMEMI_NAME(shmem_team_destroy)             \
    SHMEMI_NAME(shmem_ctx_create)               \
    SHMEMI_NAME(shmem_team_create_ctx)          \
    SHMEMI_NAME(shmem_ctx_get_team)             \
    SHMEMI_NAME(shmem_ctx_destroy)              \
    SHMEMI_NAME(shmem_team_ptr)                 \
    SHMEMI_NAME(shmem_ctx_session_start)        \
    SHMEMI_NAME(shmem_ctx_session_stop)

/* shmem/src/collectives.cpp, coll_reduce.cpp, coll_to_all.cpp: team synchronization, team-based and active-set
 * collectives. shmemi_sync_active_set is the deprecated shmem_sync(PE_start, logPE_stride, PE_size, pSync), which
 * the shmem_sync macro calls. */
#define SHMEMI_NAMES_COLL_T_(T, N)              \
    SHMEMI_NAME(shmem_##N##_broadcast)          \
    SHMEMI_NAME(shmem_##N##_collect)            \
    SHMEMI_NAME(shmem_##N##_fcollect)           \
    SHMEMI_NAME(shmem_##N##_alltoall)           \
    SHMEMI_NAME(shmem_##N##_alltoalls)
#define SHMEMI_NAMES_REDUCE_BITWISE_(T, N)      \
    SHMEMI_NAME(shmem_##N##_and_reduce)         \
    SHMEMI_NAME(shmem_##N##_or_reduce)          \
    SHMEMI_NAME(shmem_##N##_xor_reduce)
#define SHMEMI_NAMES_REDUCE_MINMAX_(T, N)       \
    SHMEMI_NAME(shmem_##N##_max_reduce)         \
    SHMEMI_NAME(shmem_##N##_min_reduce)
#define SHMEMI_NAMES_REDUCE_ARITH_(T, N)        \
    SHMEMI_NAME(shmem_##N##_sum_reduce)         \
    SHMEMI_NAME(shmem_##N##_prod_reduce)
#define SHMEMI_NAMES_SCAN_(T, N)                \
    SHMEMI_NAME(shmem_##N##_sum_inscan)         \
    SHMEMI_NAME(shmem_##N##_sum_exscan)
#define SHMEMI_NAMES_AS_SIZE_(BITS)             \
    SHMEMI_NAME(shmem_broadcast##BITS)          \
    SHMEMI_NAME(shmem_collect##BITS)            \
    SHMEMI_NAME(shmem_fcollect##BITS)           \
    SHMEMI_NAME(shmem_alltoall##BITS)           \
    SHMEMI_NAME(shmem_alltoalls##BITS)
#define SHMEMI_NAMES_TO_ALL_BITWISE_(T, N)      \
    SHMEMI_NAME(shmem_##N##_and_to_all)         \
    SHMEMI_NAME(shmem_##N##_or_to_all)          \
    SHMEMI_NAME(shmem_##N##_xor_to_all)
#define SHMEMI_NAMES_TO_ALL_MINMAX_(T, N)       \
    SHMEMI_NAME(shmem_##N##_max_to_all)         \
    SHMEMI_NAME(shmem_##N##_min_to_all)
#define SHMEMI_NAMES_TO_ALL_ARITH_(T, N)        \
    SHMEMI_NAME(shmem_##N##_sum_to_all)         \
    SHMEMI_NAME(shmem_##N##_prod_to_all)
/* By the library's source that defines them: collectives.cpp, coll_reduce.cpp, coll_to_all.cpp. */
#define SHMEMI_NAMES_COLL_MOVE                                      \
    SHMEMI_NAME(shmem_team_sync)                                    \
    SHMEMI_NAME(shmem_sync)                                         \
    SHMEMI_NAME(shmemi_sync_active_set)                             \
    SHMEMI_NAME(shmem_barrier)                                      \
    SHMEM_RMA_TYPES(SHMEMI_NAMES_COLL_T_)                           \
    SHMEMI_NAME(shmem_broadcastmem)                                 \
    SHMEMI_NAME(shmem_collectmem)                                   \
    SHMEMI_NAME(shmem_fcollectmem)                                  \
    SHMEMI_NAME(shmem_alltoallmem)                                  \
    SHMEMI_NAME(shmem_alltoallsmem)                                 \
    SHMEMI_NAMES_AS_SIZE_(32)                                       \
    SHMEMI_NAMES_AS_SIZE_(64)
#define SHMEMI_NAMES_COLL_REDUCE                                    \
    SHMEM_REDUCE_BITWISE_TYPES(SHMEMI_NAMES_REDUCE_BITWISE_)        \
    SHMEM_REDUCE_MINMAX_TYPES(SHMEMI_NAMES_REDUCE_MINMAX_)          \
    SHMEM_REDUCE_ARITH_TYPES(SHMEMI_NAMES_REDUCE_ARITH_)            \
    SHMEM_REDUCE_ARITH_TYPES(SHMEMI_NAMES_SCAN_)
#define SHMEMI_NAMES_COLL_TO_ALL                                    \
    SHMEM_TO_ALL_BITWISE_TYPES(SHMEMI_NAMES_TO_ALL_BITWISE_)        \
    SHMEM_TO_ALL_MINMAX_TYPES(SHMEMI_NAMES_TO_ALL_MINMAX_)          \
    SHMEM_TO_ALL_ARITH_TYPES(SHMEMI_NAMES_TO_ALL_ARITH_)
#define SHMEMI_NAMES_COLL SHMEMI_NAMES_COLL_MOVE SHMEMI_NAMES_COLL_REDUCE SHMEMI_NAMES_COLL_TO_ALL

/* shmem/src/legacy.cpp: the names of shmem_legacy.h, except the C function shmem_wait_until (below: in C++ that
 * name is an overload set, which has no single type to take) */
#define SHMEMI_NAMES_LEGACY_EXT_(T, N)          \
    SHMEMI_NAME(shmem_##N##_fetch)              \
    SHMEMI_NAME(shmem_##N##_set)                \
    SHMEMI_NAME(shmem_##N##_swap)
#define SHMEMI_NAMES_LEGACY_AMO_(T, N)          \
    SHMEMI_NAME(shmem_##N##_cswap)              \
    SHMEMI_NAME(shmem_##N##_fadd)               \
    SHMEMI_NAME(shmem_##N##_finc)               \
    SHMEMI_NAME(shmem_##N##_add)                \
    SHMEMI_NAME(shmem_##N##_inc)
#define SHMEMI_NAMES_LEGACY_WAIT_(T, N) SHMEMI_NAME(shmem_##N##_wait)
#define SHMEMI_NAMES_LEGACY                                         \
    SHMEMI_NAME(start_pes)                                          \
    SHMEMI_NAME(_my_pe)                                             \
    SHMEMI_NAME(_num_pes)                                           \
    SHMEMI_NAME(shmalloc)                                           \
    SHMEMI_NAME(shfree)                                             \
    SHMEMI_NAME(shrealloc)                                          \
    SHMEMI_NAME(shmemalign)                                         \
    SHMEMI_LEGACY_AMO_EXT_TYPES(SHMEMI_NAMES_LEGACY_EXT_)           \
    SHMEMI_LEGACY_AMO_TYPES(SHMEMI_NAMES_LEGACY_AMO_)               \
    SHMEMI_LEGACY_WAIT_TYPES(SHMEMI_NAMES_LEGACY_WAIT_)             \
    SHMEMI_NAME(shmem_wait)                                         \
    SHMEMI_NAME(shmem_clear_cache_inv)                              \
    SHMEMI_NAME(shmem_set_cache_inv)                                \
    SHMEMI_NAME(shmem_clear_cache_line_inv)                         \
    SHMEMI_NAME(shmem_set_cache_line_inv)                           \
    SHMEMI_NAME(shmem_udcflush)                                     \
    SHMEMI_NAME(shmem_udcflush_line)

/* Every list of shmem.h's routines */
#define SHMEMI_NAMES_ALL                                                                                    \
    SHMEMI_NAMES_SETUP SHMEMI_NAMES_HEAP SHMEMI_NAMES_RMA SHMEMI_NAMES_AMO SHMEMI_NAMES_SIGNAL               \
    SHMEMI_NAMES_LOCK SHMEMI_NAMES_SYNC SHMEMI_NAMES_P2P SHMEMI_NAMES_TEAM SHMEMI_NAMES_COLL SHMEMI_NAMES_LEGACY

/* ---- the declarations -------------------------------------------------------------------------------------- */
/* The type of shmem_NAME, and its attributes (GCC's copy: noreturn for pshmem_global_exit) */
#if defined(__has_attribute)
#if __has_attribute(copy)
#define SHMEMI_PCOPY_(name) __attribute__((copy(name)))
#endif
#endif
#ifndef SHMEMI_PCOPY_
#define SHMEMI_PCOPY_(name)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEMI_NAME(name) extern __typeof__(name) p##name SHMEMI_PCOPY_(name);
SHMEMI_NAMES_ALL
#undef SHMEMI_NAME

/* The 1.2 C function shmem_wait_until (shmem_legacy.h) on long */
void pshmem_wait_until(long *ivar, int cmp, long cmp_value);
/* The 1.6 signal routines without a context (shmem_amo.h) */
void pshmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void pshmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* pshmem_sync(team) or pshmem_sync(PE_start, logPE_stride, PE_size, pSync), as shmem_sync (shmem_teams.h) */
#define pshmem_sync(...) \
    SHMEMI_SYNC_PICK_(__VA_ARGS__, pshmemi_sync_active_set, shmemi_sync_bad_, shmemi_sync_bad_, pshmem_sync, )(__VA_ARGS__)

#endif /* PSHMEM_H */

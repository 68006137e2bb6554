// The deprecated names of OpenSHMEM 1.2-1.4 (shmem_legacy.h), each one call of its 1.5 routine, which does the
// checks (so a misuse is reported under the 1.5 name) and the work. The call is by the routine's pshmem_ name
// (pshmem.h): a profiling tool that interposes on shmem_init sees a start_pes call as start_pes, not as both.
#include "internal.hpp"

extern "C" {

void start_pes(int npes)
{
    (void)npes;  // 1.2: "the argument is ignored"; the run's PE count is the loader's
    pshmem_init();
}
int _my_pe(void) { return pshmem_my_pe(); }
int _num_pes(void) { return pshmem_n_pes(); }
void *shmalloc(size_t size) { return pshmem_malloc(size); }
void shfree(void *ptr) { pshmem_free(ptr); }
void *shrealloc(void *ptr, size_t size) { return pshmem_realloc(ptr, size); }
void *shmemalign(size_t alignment, size_t size) { return pshmem_align(alignment, size); }

#define SHMEM_DEFINE_LEGACY_EXT_(T, N)                                                                          \
    T shmem_##N##_fetch(const T *source, int pe) { return pshmem_##N##_atomic_fetch(source, pe); }             \
    void shmem_##N##_set(T *dest, T value, int pe) { pshmem_##N##_atomic_set(dest, value, pe); }               \
    T shmem_##N##_swap(T *dest, T value, int pe) { return pshmem_##N##_atomic_swap(dest, value, pe); }
#define SHMEM_DEFINE_LEGACY_AMO_(T, N)                                                                          \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                                                      \
    {                                                                                                           \
        return pshmem_##N##_atomic_compare_swap(dest, cond, value, pe);                                        \
    }                                                                                                           \
    T shmem_##N##_fadd(T *dest, T value, int pe) { return pshmem_##N##_atomic_fetch_add(dest, value, pe); }    \
    T shmem_##N##_finc(T *dest, int pe) { return pshmem_##N##_atomic_fetch_inc(dest, pe); }                    \
    void shmem_##N##_add(T *dest, T value, int pe) { pshmem_##N##_atomic_add(dest, value, pe); }               \
    void shmem_##N##_inc(T *dest, int pe) { pshmem_##N##_atomic_inc(dest, pe); }
SHMEMI_LEGACY_AMO_EXT_TYPES(SHMEM_DEFINE_LEGACY_EXT_)
SHMEMI_LEGACY_AMO_TYPES(SHMEM_DEFINE_LEGACY_AMO_)
#undef SHMEM_DEFINE_LEGACY_EXT_
#undef SHMEM_DEFINE_LEGACY_AMO_

// shmem_wait: block until the value is not equal to cmp_value.
#define SHMEM_DEFINE_LEGACY_WAIT_(T, N) \
    void shmem_##N##_wait(T *ivar, T cmp_value) { pshmem_##N##_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
SHMEMI_LEGACY_WAIT_TYPES(SHMEM_DEFINE_LEGACY_WAIT_)
#undef SHMEM_DEFINE_LEGACY_WAIT_
void shmem_wait(long *ivar, long cmp_value) { pshmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }

// The C symbol shmem_wait_until (1.2's long routine). In C++ that name is the overload set of shmem_generic.h,
// whose long member has C++ linkage, so the C symbol is defined under another name with its assembler name.
// (The assembler name carries the target's C symbol prefix: "_" on Epiphany, none on RISC-V.)
#define SHMEMI_XSTR_(x) #x
#define SHMEMI_STR_(x) SHMEMI_XSTR_(x)
void shmemi_legacy_wait_until(long *ivar, int cmp, long cmp_value) __asm__(SHMEMI_STR_(__USER_LABEL_PREFIX__) "shmem_wait_until");
void shmemi_legacy_wait_until(long *ivar, int cmp, long cmp_value) { pshmem_long_wait_until(ivar, cmp, cmp_value); }

// No caches to manage: remote stores reach the owner's memory directly (see shmem_legacy.h).
void shmem_clear_cache_inv(void) {}
void shmem_set_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
void shmem_set_cache_line_inv(void *dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *dest) { (void)dest; }

}  // extern "C"

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_LEGACY)
// ... and the C symbol shmem_wait_until, by its assembler name (it has no C++ name to take the type of)
extern "C" {
decltype(shmemi_legacy_wait_until) shmemi_legacy_wait_until __attribute__((weak));
decltype(shmemi_legacy_wait_until) pshmem_wait_until
    __attribute__((alias("shmem_wait_until"), copy(shmemi_legacy_wait_until)));
}

/* Test helpers: a failed check prints the PE, the place and the values, then ends the whole run with status 1. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <shmem.h>
#include <stdio.h>

#if defined(__epiphany__)
/* A check's texts (its condition, file and message) are read only when it fails, and the big API tests have
 * thousands of them: on Epiphany they live in the shared external DRAM (the .dram section of
 * linker/epiphany/sections.ld), not in the core's 32 KB, where they would take more room than the test's data. */
#define TEST_DRAM_STRING(name, literal) static const char name[] __attribute__((section(".dram.check"))) = literal
#define CHECK(cond, fmt, ...)                                                                  \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            TEST_DRAM_STRING(check_cond_, #cond);                                              \
            TEST_DRAM_STRING(check_file_, __FILE__);                                           \
            TEST_DRAM_STRING(check_fmt_, fmt);                                                 \
            printf("FAIL PE %d %s:%d: %s: ", shmem_my_pe(), check_file_, __LINE__, check_cond_); \
            printf(check_fmt_, ##__VA_ARGS__);                                                 \
            printf("\n");                                                                      \
            shmem_global_exit(1);                                                              \
        }                                                                                      \
    } while (0)
#else
/* Elsewhere the texts stay literals where they are used, so that the compiler checks every format against its
 * arguments (it cannot through the arrays above). */
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            printf("FAIL PE %d %s:%d: %s: ", shmem_my_pe(), __FILE__, __LINE__, #cond);        \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
            shmem_global_exit(1);                                                              \
        }                                                                                      \
    } while (0)
#endif

/* A value that depends on the PE, the index and a round, so that a misplaced or stale element is caught. */
static inline unsigned long long test_pattern(int pe, size_t i, int round)
{
    return (unsigned long long)pe * 1000003ull + (unsigned long long)i * 7919ull + (unsigned long long)round * 104729ull + 1;
}

/* ---- sizes by target (cmake/shmem.cmake sets SHMEM_TARGET_MAX_PES and SHMEM_SMALL_SIZES) --------------------
 * TARGET_SIZE(big, small): a count for the target. The big one is what virt-rv64 runs (a PE has megabytes); the
 * small one fits a PE of 32 KB (Epiphany: code, static data, symmetric heap and stack in one bank) and must
 * still take the same paths (several chunks, several blocks, odd lengths). */
#ifndef SHMEM_SMALL_SIZES
#define SHMEM_SMALL_SIZES 0
#endif
#define TARGET_SIZE(big, small) (SHMEM_SMALL_SIZES ? (small) : (big))

/* Arrays indexed by PE are sized for TEST_MAX_PES: 64 (the most any test runs at), or fewer if the target has
 * fewer (epiphany-e16: 16). A test checks the PE count against it. */
#ifndef SHMEM_TARGET_MAX_PES
#define SHMEM_TARGET_MAX_PES 64
#endif
#define TEST_MAX_PES (SHMEM_TARGET_MAX_PES < 64 ? SHMEM_TARGET_MAX_PES : 64)

/* The library's build-time limits where a test sizes data by them: a port may set them (SHMEM_PORT_DEFINITIONS
 * in cmake/toolchain-<port>.cmake, passed to the tests by tests/CMakeLists.txt); otherwise the library's
 * defaults (shmem/src/coll.hpp). */
#ifndef SHMEM_TEAM_WORK_UNIT
#define SHMEM_TEAM_WORK_UNIT 256 /* bytes of a reduction chunk per round in a team's work area */
#endif

#endif

/* Test helpers: a failed check prints the PE, the place and the values, then ends the whole run with status 1. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <shmem.h>
#include <stdio.h>

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            printf("FAIL PE %d %s:%d: %s: ", shmem_my_pe(), __FILE__, __LINE__, #cond);        \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
            shmem_global_exit(1);                                                              \
        }                                                                                      \
    } while (0)

/* A value that depends on the PE, the index and a round, so that a misplaced or stale element is caught. */
static inline unsigned long long test_pattern(int pe, size_t i, int round)
{
    return (unsigned long long)pe * 1000003ull + (unsigned long long)i * 7919ull + (unsigned long long)round * 104729ull + 1;
}

#endif

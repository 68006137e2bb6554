/* CHECK(cond) for the C++ tests, which check bare conditions: prints the PE, the line and the condition, then ends
 * the run with status 1. (check.h's CHECK takes a message too.) */
#ifndef SHMEM_TEST_CHECK_COND_H
#define SHMEM_TEST_CHECK_COND_H

#include <shmem.h>
#include <stdio.h>

#define CHECK(cond)                                                                                   \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            printf("FAIL PE %d line %d: %s\n", shmem_my_pe(), __LINE__, #cond);                      \
            shmem_global_exit(1);                                                                     \
        }                                                                                             \
    } while (0)

#endif

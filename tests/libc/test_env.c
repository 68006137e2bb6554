/* getenv: oshrun's -x NAME=VALUE (and every SHMEM_* variable of its environment) reach every PE. The test runs
 * with -x LIBSHMEM_TEST_VAR=hello; argv[1], if given, names a variable that must be set (to anything). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

extern char **environ;

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const char *v = getenv("LIBSHMEM_TEST_VAR");
    CHECK(v != NULL, "LIBSHMEM_TEST_VAR is not set");
    CHECK(strcmp(v, "hello") == 0, "LIBSHMEM_TEST_VAR = '%s'", v);
    CHECK(getenv("LIBSHMEM_TEST_UNSET_VAR") == NULL, "an unset variable has a value");
    CHECK(getenv("LIBSHMEM_TEST") == NULL, "a prefix of a name matches");
    if (argc > 1) CHECK(getenv(argv[1]) != NULL, "%s is not set", argv[1]);
    int count = 0, found = 0;
    for (char **e = environ; *e != NULL; ++e, ++count) found += strcmp(*e, "LIBSHMEM_TEST_VAR=hello") == 0;
    CHECK(found == 1, "environ has LIBSHMEM_TEST_VAR=hello %d times in %d strings", found, count);
    shmem_barrier_all();
    if (me == 0) printf("env: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}

/* The standard streams: stdout and stderr are separate line-buffered streams (records of their own kind, which
 * oshrun turns back into lines), stdin is empty, fflush(NULL) flushes both. The test's expected output checks
 * that a line longer than a record (255 bytes) arrives whole and that partial lines are joined. */
#include <string.h>

#include "check.h"

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();

    /* stdin: a real stream whose every read is end of file */
    CHECK(stdin != NULL, "stdin is NULL");
    CHECK(getchar() == EOF, "getchar");
    char buf[16];
    CHECK(fgets(buf, sizeof buf, stdin) == NULL, "fgets(stdin)");
    CHECK(feof(stdin), "feof(stdin)");
    CHECK(stdout != stderr, "stdout and stderr are one stream");

    /* fflush(NULL) and fflush of each stream */
    printf("PE %d: a line in ", me);
    CHECK(fflush(NULL) == 0, "fflush(NULL)");
    printf("two pieces\n");
    CHECK(fputs("stderr line from PE ", stderr) >= 0, "fputs(stderr)");
    fprintf(stderr, "%d\n", me);
    CHECK(fflush(stdout) == 0 && fflush(stderr) == 0, "fflush");

    /* a line longer than one record, from every PE at once */
    char long_line[700];
    for (int i = 0; i < 690; ++i) long_line[i] = (char)('a' + i % 26);
    long_line[690] = '\0';
    shmem_barrier_all();
    printf("long %d:%s:end\n", me, long_line);
    fprintf(stderr, "err %d:%s:end\n", me, long_line);

    /* a partial line at exit is written out */
    shmem_barrier_all();
    if (me == 0) printf("stdio: %d PEs ok\n", n);
    shmem_finalize();
    printf("PE %d: last words without a newline", me);
    return 0;
}

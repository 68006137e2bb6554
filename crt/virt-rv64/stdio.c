/* picolibc's standard streams. stdout and stderr write through a line buffer each (crt.cpp), which hands whole
 * lines to the console as records of their own kind ('o', 'e': crt/common/console_protocol.h); oshrun keeps the
 * two apart. stdin is there and empty: every read is end of file. (C, because picolibc declares these in C.)
 *
 * fflush is here too, in the object every program links (-Wl,-u,stdout), so it replaces picolibc's: that one
 * calls stream->flush without a NULL check, so fflush(NULL) (flush every stream) would fault. */
#include <stdio.h>

#include "console_protocol.h"

int shmem_crt_putc(char c, char stream);
void shmem_crt_flush(char stream);

static int out_put(char c, FILE *f)
{
    (void)f;
    return shmem_crt_putc(c, SHMEM_CONSOLE_STDOUT);
}

static int err_put(char c, FILE *f)
{
    (void)f;
    return shmem_crt_putc(c, SHMEM_CONSOLE_STDERR);
}

static int out_flush(FILE *f)
{
    (void)f;
    shmem_crt_flush(SHMEM_CONSOLE_STDOUT);
    return 0;
}

static int err_flush(FILE *f)
{
    (void)f;
    shmem_crt_flush(SHMEM_CONSOLE_STDERR);
    return 0;
}

static int no_input(FILE *f)
{
    (void)f;
    return _FDEV_EOF;
}

static FILE out = FDEV_SETUP_STREAM(out_put, NULL, out_flush, _FDEV_SETUP_WRITE);
static FILE err = FDEV_SETUP_STREAM(err_put, NULL, err_flush, _FDEV_SETUP_WRITE);
static FILE in = FDEV_SETUP_STREAM(NULL, no_input, NULL, _FDEV_SETUP_READ);

FILE *const stdin = &in;
FILE *const stdout = &out;
FILE *const stderr = &err;

/* NULL: stdout and stderr, the streams with output this runtime keeps (a stream a program makes itself with
 * fdevopen is flushed by name). */
int fflush(FILE *stream)
{
    if (stream == NULL) {
        shmem_crt_flush(SHMEM_CONSOLE_STDOUT);
        shmem_crt_flush(SHMEM_CONSOLE_STDERR);
        return 0;
    }
    return stream->flush != NULL ? stream->flush(stream) : 0;
}

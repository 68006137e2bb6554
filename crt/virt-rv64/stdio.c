/* picolibc's standard streams: stdout and stderr write through the per-PE line buffer in crt.cpp, which hands
 * whole lines to the console under its lock. There is no input. (C, because picolibc declares these in C.) */
#include <stdio.h>

int shmem_crt_putc(char c);
void shmem_crt_flush(void);

static int console_put(char c, FILE *f)
{
    (void)f;
    return shmem_crt_putc(c);
}

static int console_flush(FILE *f)
{
    (void)f;
    shmem_crt_flush();
    return 0;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, console_flush, _FDEV_SETUP_WRITE);

FILE *const stdin = NULL;
FILE *const stdout = &console;
FILE *const stderr = &console;

/* Decimal output for the Epiphany benchmarks that keep their code in local memory (no printf: it would not fit). */
#ifndef BENCH_EPIPHANY_PRINT_H
#define BENCH_EPIPHANY_PRINT_H

#include <stdint.h>
#include <string.h>
#include <unistd.h>

static void put_str(const char *s) { write(1, s, strlen(s)); }
static void put_u(uint32_t v)
{
    char d[12];
    int i = 11;
    d[i] = '\0';
    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    put_str(&d[i]);
}

#endif

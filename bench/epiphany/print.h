/* Decimal output for the Epiphany benchmarks that keep their code in local memory (no printf: it would not fit). */
#ifndef BENCH_EPIPHANY_PRINT_H
#define BENCH_EPIPHANY_PRINT_H

#include <stdint.h>
#include <string.h>
#include <unistd.h>

static void put_str(const char *s) { write(1, s, strlen(s)); }
/* Digits by subtracting powers of ten: Epiphany has no divide instruction, and `/` and `%` would link libgcc's
 * division routines (some 700 bytes of the 32 KB the benchmark's buffers need). */
static void put_u(uint32_t v)
{
    static const uint32_t tens[] = {1000000000u, 100000000u, 10000000u, 1000000u, 100000u,
                                    10000u,      1000u,      100u,      10u,      1u};
    char d[11];
    int i = 0;
    for (int k = 0; k < 10; ++k) {
        char c = '0';
        while (v >= tens[k]) {
            v -= tens[k];
            ++c;
        }
        if (c != '0' || i != 0 || k == 9) d[i++] = c;
    }
    d[i] = '\0';
    put_str(d);
}

#endif

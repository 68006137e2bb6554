/* Peer comparison benchmark: the same program, written only against the standard OpenSHMEM 1.4 API, built once
 * with libshmem's linux target and once with Open MPI's OSHMEM (scripts/peer-bench.sh does both; docs/peer.md).
 *
 * PE 0 prints one CSV row per measurement on stdout, after a header line:
 *
 *   op,bytes,npes,value,unit
 *
 *   put_lat           8      8-byte shmem_putmem + shmem_quiet, PE 0 -> PE npes-1            us per op
 *   get_lat           8      8-byte shmem_getmem, PE 0 <- PE npes-1                          us per op
 *   put_bw_cached     65536  64 KiB shmem_putmem + shmem_quiet, the same buffer every time   GB/s (1e9 B/s)
 *   put_bw_stream     65536  64 KiB shmem_putmem + shmem_quiet walking a -m MiB buffer       GB/s
 *   barrier_all       0      shmem_barrier_all, every PE calls                              us per barrier
 *   atomic_fetch_add  8      shmem_long_atomic_fetch_add, PE 0 -> PE npes-1                  us per op
 *   broadcast64       8, 65536  shmem_broadcast64 from PE 0 over all PEs                    us per call
 *   fcollect64        8, 65536  shmem_fcollect64, bytes contributed by each PE               us per call
 *   sum_to_all_long   8, 65536  shmem_long_sum_to_all over all PEs                          us per call
 *
 * Point-to-point figures are PE 0 talking to the last PE (PE 1 at 2 PEs) while every other PE waits in
 * shmem_barrier_all. Collective figures: every PE times each call on its own, with an untimed
 * shmem_barrier_all between calls (so that one pSync serves every call, as the specification allows, and a
 * root that returns early cannot run ahead); the figure is the largest of the PEs' mean times per call.
 * barrier_all is PE 0's mean time over back-to-back barriers.
 *
 * Each measurement has warm-up iterations (a tenth of the count, at least one; a whole pass for the streaming
 * put) and then a fixed count, then checks once that the values moved are right; a wrong value prints a message
 * on stderr and ends the run with shmem_global_exit(1). No timing is ever judged.
 *
 *   peer [-i N] [-b N] [-c N] [-p N] [-m MiB]
 *     -i N    iterations of put/get latency and atomic fetch-add (default 1000000)
 *     -b N    iterations of the cache-resident 64 KiB put (default -i / 50, at least 1)
 *     -c N    iterations of barrier_all and of each collective (default -i / 1000, at least 1)
 *     -p N    passes over the streaming buffer (default 4)
 *     -m MiB  streaming buffer size (default 64): the symmetric heap must hold it plus about 2 MiB
 *             (libshmem: SHMEM_SYMMETRIC_SIZE; Open MPI 4.1.4 reads SMA_SYMMETRIC_SIZE, default 256 MiB)
 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SMALL 8
#define LARGE (64 * 1024)
#define NLONG_MAX (LARGE / 8)

/* Work and sync arrays of the active-set collectives: static, hence symmetric. One pSync per routine family,
 * reused from call to call because a barrier separates the calls. */
static long psync_bcast[SHMEM_BCAST_SYNC_SIZE];
static long psync_collect[SHMEM_COLLECT_SYNC_SIZE];
static long psync_reduce[SHMEM_REDUCE_SYNC_SIZE];
#define PWRK_SIZE (NLONG_MAX / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? NLONG_MAX / 2 + 1 \
                                                                       : SHMEM_REDUCE_MIN_WRKDATA_SIZE)
static long pwrk[PWRK_SIZE];

static int me, npes, peer;
static double *times; /* symmetric: times[pe] on PE 0 collects every PE's figure */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static void row(const char *op, size_t bytes, double value, const char *unit)
{
    if (me == 0) {
        printf("%s,%zu,%d,%.6g,%s\n", op, bytes, npes, value, unit);
        fflush(stdout);
    }
}

static void fail(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "peer: PE %d: %s: wrong value: ", me, what);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(stderr);
    shmem_global_exit(1);
}

static void *sym_alloc(size_t bytes, const char *what)
{
    void *p = shmem_malloc(bytes);
    if (p == NULL) {
        if (me == 0)
            fprintf(stderr, "peer: shmem_malloc(%zu) for %s failed: symmetric heap too small (set "
                            "SHMEM_SYMMETRIC_SIZE; Open MPI 4.1: SMA_SYMMETRIC_SIZE)\n", bytes, what);
        shmem_global_exit(2);
    }
    return p;
}

static long pattern(size_t i, long salt) { return (long)(i * 2654435761u) ^ salt; }

/* The largest of the PEs' figures, known on PE 0 (only putmem and barrier: no typed max reduction needed). */
static double max_over_pes(double mine)
{
    shmem_putmem(&times[me], &mine, sizeof mine, 0);
    shmem_barrier_all();
    double m = mine;
    if (me == 0)
        for (int p = 0; p < npes; ++p)
            if (times[p] > m) m = times[p];
    return m;
}

static void bench_put_lat(long iters)
{
    long *dst = sym_alloc(sizeof(long), "put_lat");
    long src = 0, warm = iters / 10 + 1;
    double us = 0;
    *dst = -1;
    shmem_barrier_all();
    if (me == 0) {
        for (long i = 0; i < warm; ++i) {
            src = -2 - i;
            shmem_putmem(dst, &src, SMALL, peer);
            shmem_quiet();
        }
        double t0 = now_us();
        for (long i = 0; i < iters; ++i) {
            src = i;
            shmem_putmem(dst, &src, SMALL, peer);
            shmem_quiet();
        }
        us = (now_us() - t0) / (double)iters;
    }
    shmem_barrier_all();
    if (me == peer && *dst != iters - 1) fail("put_lat", "target holds %ld, expected %ld", *dst, iters - 1);
    shmem_barrier_all();
    row("put_lat", SMALL, us, "us");
    shmem_free(dst);
}

static void bench_get_lat(long iters)
{
    long *src = sym_alloc(sizeof(long), "get_lat");
    long got = 0, warm = iters / 10 + 1;
    *src = pattern(42, me);
    shmem_barrier_all();
    if (me == 0) {
        for (long i = 0; i < warm; ++i) shmem_getmem(&got, src, SMALL, peer);
        got = 0;
        double t0 = now_us();
        for (long i = 0; i < iters; ++i) shmem_getmem(&got, src, SMALL, peer);
        double us = (now_us() - t0) / (double)iters;
        if (got != pattern(42, peer)) fail("get_lat", "got %ld, expected %ld", got, pattern(42, peer));
        row("get_lat", SMALL, us, "us");
    }
    shmem_barrier_all();
    shmem_free(src);
}

/* 64 KiB puts, each followed by quiet. chunks = 1: the same 64 KiB again and again (cache-resident);
 * chunks > 1: put k goes to offset (k mod chunks) * 64 KiB of a buffer larger than the last-level cache. */
static void bench_put_bw(const char *op, long iters, long warm, size_t chunks)
{
    size_t total = chunks * (size_t)LARGE;
    long *dst = sym_alloc(total, op);
    long *src = NULL;
    double gbs = 0;
    const size_t nl = total / sizeof(long);
    if (me == peer) memset(dst, 0, total); /* maps every page of the target before timing */
    if (me == 0) {
        src = aligned_alloc(4096, total);
        if (src == NULL) {
            fprintf(stderr, "peer: %s: malloc(%zu) failed\n", op, total);
            shmem_global_exit(2);
        }
        for (size_t i = 0; i < nl; ++i) src[i] = pattern(i, 7);
    }
    shmem_barrier_all();
    if (me == 0) {
        for (long k = 0; k < warm; ++k) {
            size_t off = (size_t)k % chunks * (LARGE / sizeof(long));
            shmem_putmem(dst + off, src + off, LARGE, peer);
            shmem_quiet();
        }
        double t0 = now_us();
        for (long k = 0; k < iters; ++k) {
            size_t off = (size_t)k % chunks * (LARGE / sizeof(long));
            shmem_putmem(dst + off, src + off, LARGE, peer);
            shmem_quiet();
        }
        gbs = (double)iters * LARGE / (now_us() - t0) * 1e-3;
    }
    shmem_barrier_all();
    if (me == peer) /* warm-up plus timed puts cover every chunk (the callers make sure) */
        for (size_t i = 0; i < nl; ++i)
            if (dst[i] != pattern(i, 7)) fail(op, "target long %zu is %ld, the source's %ld", i, dst[i], pattern(i, 7));
    shmem_barrier_all();
    row(op, LARGE, gbs, "GB/s");
    free(src);
    shmem_free(dst);
}

static void bench_barrier(long iters)
{
    long warm = iters / 10 + 1;
    for (long i = 0; i < warm; ++i) shmem_barrier_all();
    double t0 = now_us();
    for (long i = 0; i < iters; ++i) shmem_barrier_all();
    double us = (now_us() - t0) / (double)iters;
    /* Check once that a barrier orders puts: every PE puts a mark into PE 0, barrier, PE 0 reads all marks. */
    long *marks = sym_alloc((size_t)npes * sizeof(long), "barrier_all");
    long mine = pattern((size_t)me, 3);
    marks[me] = -1;
    shmem_barrier_all();
    shmem_putmem(&marks[me], &mine, sizeof mine, 0);
    shmem_barrier_all();
    if (me == 0)
        for (int p = 0; p < npes; ++p)
            if (marks[p] != pattern((size_t)p, 3)) fail("barrier_all", "mark from PE %d is %ld", p, marks[p]);
    shmem_barrier_all();
    row("barrier_all", 0, us, "us");
    shmem_free(marks);
}

static void bench_atomic(long iters)
{
    long *ctr = sym_alloc(sizeof(long), "atomic_fetch_add");
    long warm = iters / 10 + 1, bad = -1;
    double us = 0;
    *ctr = 0;
    shmem_barrier_all();
    if (me == 0) {
        for (long i = 0; i < warm; ++i) shmem_long_atomic_fetch_add(ctr, 1, peer);
        double t0 = now_us();
        for (long i = 0; i < iters; ++i) {
            long old = shmem_long_atomic_fetch_add(ctr, 1, peer);
            if (old != warm + i && bad < 0) bad = i; /* a compare and a branch: noise next to a remote atomic */
        }
        us = (now_us() - t0) / (double)iters;
        if (bad >= 0) fail("atomic_fetch_add", "fetch %ld returned something else than %ld", bad, warm + bad);
    }
    shmem_barrier_all();
    if (me == peer && *ctr != warm + iters) fail("atomic_fetch_add", "counter is %ld, expected %ld", *ctr, warm + iters);
    shmem_barrier_all();
    row("atomic_fetch_add", sizeof(long), us, "us");
    shmem_free(ctr);
}

enum coll { BCAST, FCOLLECT, REDUCE };

static void coll_call(enum coll c, long *dst, const long *src, size_t nlong)
{
    switch (c) {
    case BCAST: shmem_broadcast64(dst, src, nlong, 0, 0, 0, npes, psync_bcast); break;
    case FCOLLECT: shmem_fcollect64(dst, src, nlong, 0, 0, npes, psync_collect); break;
    case REDUCE: shmem_long_sum_to_all(dst, src, (int)nlong, 0, 0, npes, pwrk, psync_reduce); break;
    }
}

static void bench_coll(enum coll c, const char *op, size_t bytes, long iters)
{
    const size_t nlong = bytes / sizeof(long);
    const size_t dst_n = c == FCOLLECT ? nlong * (size_t)npes : nlong;
    long *src = sym_alloc(bytes, op), *dst = sym_alloc(dst_n * sizeof(long), op);
    long warm = iters / 10 + 1;
    for (size_t i = 0; i < nlong; ++i) src[i] = pattern(i, me);
    for (size_t i = 0; i < dst_n; ++i) dst[i] = -7;
    shmem_barrier_all();
    for (long i = 0; i < warm; ++i) {
        coll_call(c, dst, src, nlong);
        shmem_barrier_all();
    }
    double sum = 0;
    for (long i = 0; i < iters; ++i) {
        double t0 = now_us();
        coll_call(c, dst, src, nlong);
        sum += now_us() - t0;
        shmem_barrier_all();
    }
    double worst = max_over_pes(sum / (double)iters);
    /* every call moved the same values: check the last one. OpenSHMEM 1.4 leaves the root's broadcast target
     * alone (1.5 copies into it too): skip it. */
    for (size_t i = 0; i < dst_n && !(c == BCAST && me == 0); ++i) {
        long want = 0;
        if (c == BCAST) want = pattern(i, 0);
        else if (c == FCOLLECT) want = pattern(i % nlong, (long)(i / nlong));
        else
            for (int p = 0; p < npes; ++p) want += pattern(i, p);
        if (dst[i] != want) fail(op, "element %zu is %ld, expected %ld", i, dst[i], want);
    }
    shmem_barrier_all();
    row(op, bytes, worst, "us");
    shmem_free(dst);
    shmem_free(src);
}

static long arg_long(const char *opt, const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1) {
        fprintf(stderr, "peer: %s needs a positive integer, not '%s'\n", opt, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    long iters = 1000000, bw_iters = 0, coll_iters = 0, passes = 4, stream_mib = 64;
    for (int a = 1; a < argc; ++a) {
        const char *o = argv[a];
        if (a + 1 < argc && strcmp(o, "-i") == 0) iters = arg_long(o, argv[++a]);
        else if (a + 1 < argc && strcmp(o, "-b") == 0) bw_iters = arg_long(o, argv[++a]);
        else if (a + 1 < argc && strcmp(o, "-c") == 0) coll_iters = arg_long(o, argv[++a]);
        else if (a + 1 < argc && strcmp(o, "-p") == 0) passes = arg_long(o, argv[++a]);
        else if (a + 1 < argc && strcmp(o, "-m") == 0) stream_mib = arg_long(o, argv[++a]);
        else {
            fprintf(stderr, "usage: peer [-i N] [-b N] [-c N] [-p N] [-m MiB]\n");
            return 2;
        }
    }
    if (bw_iters == 0) bw_iters = iters / 50 > 0 ? iters / 50 : 1;
    if (coll_iters == 0) coll_iters = iters / 1000 > 0 ? iters / 1000 : 1;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes < 2) {
        if (me == 0) fprintf(stderr, "peer: needs at least 2 PEs\n");
        shmem_finalize();
        return 2;
    }
    peer = npes - 1;
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) psync_bcast[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; ++i) psync_collect[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) psync_reduce[i] = SHMEM_SYNC_VALUE;
    times = sym_alloc((size_t)npes * sizeof(double), "times");
    shmem_barrier_all();
    if (me == 0) {
        printf("op,bytes,npes,value,unit\n");
        fflush(stdout);
    }

    bench_put_lat(iters);
    bench_get_lat(iters);
    bench_put_bw("put_bw_cached", bw_iters, bw_iters / 10 + 1, 1);
    const size_t chunks = (size_t)stream_mib * 1024 * 1024 / LARGE;
    bench_put_bw("put_bw_stream", passes * (long)chunks, (long)chunks, chunks);
    bench_barrier(coll_iters);
    bench_atomic(iters);
    static const size_t sizes[2] = {SMALL, LARGE};
    for (int s = 0; s < 2; ++s) {
        bench_coll(BCAST, "broadcast64", sizes[s], coll_iters);
        bench_coll(FCOLLECT, "fcollect64", sizes[s], coll_iters);
        bench_coll(REDUCE, "sum_to_all_long", sizes[s], coll_iters);
    }

    shmem_free(times);
    shmem_finalize();
    return 0;
}

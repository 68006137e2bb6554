/* 2D FFT of an N x N complex (double) matrix distributed by rows, with four ways to do the distributed
 * transpose between the row FFTs and the column FFTs. A case study of DESIGN §1's "remote store programming".
 *
 *   oshrun [--icount] -np P fft2d.elf [N [put|get|store|alltoall|all [corrupt]]]     (default: 64 all)
 *
 * N is a power of two (4..1024, or 4..64 on Epiphany; the tests and the benchmark use 64..256 on virt, 8..64 on
 * Epiphany), P must divide N. PE p owns the B = N/P consecutive rows p*B .. p*B+B-1 of every matrix. The
 * algorithm:
 *
 *   1. row FFTs      Z[r][.] = FFT(X[r][.])           on the PE's own B rows of the input X (in `a`)
 *   2. transpose     T[k2][r] = Z[r][k2]              T is row-distributed like X: the column block k2 of
 *                                                     every PE's Z lands in the rows of T that k2's owner has
 *   3. column FFTs   R[k2][.] = FFT(T[k2][.])         = row FFTs of T
 *
 * The result stays in transposed layout: R[k2][k1] = Y[k1][k2], Y the 2D DFT of X, so PE p holds the columns
 * p*B .. p*B+B-1 of Y as rows. It is not transposed back (a second transpose would cost what the first did and
 * teach nothing new); the check compares in the transposed layout.
 *
 * Each PE sends the B x B sub-block (its rows, the destination's columns) to every PE, itself included (the
 * diagonal block goes through the same path, so every variant moves all N*N elements). The four variants:
 *
 *   put      After the row FFTs, the producer pushes: for every destination q and every own row i, one
 *            shmem_iput128 writes the B elements Z[r][qB..qB+B) down column r of q's T (destination stride N):
 *            the transpose happens in the strided put, with no local packing. N library calls per PE, each B
 *            elements; then shmem_barrier_all completes the puts. Teaches: one-sided puts are fire-and-forget
 *            stores into the consumer; the strided form does a transpose for free; the cost is one call (argument
 *            checks, address translation, a wake-up check of the target) per B elements.
 *   get      After a barrier (the data must exist before anyone pulls it), the consumer pulls: for every source
 *            p and every own row j of T, one shmem_iget128 reads column me*B+j of p's Z (source stride N) into
 *            T[j][pB..pB+B). Same call count and element work as put, but every element is a remote *load*: on
 *            Epiphany or TILE a load from another core stalls for the round trip while a store is posted, which
 *            is why ARL made get into an interrupt-driven put. On virt both are the same copy, so the figures
 *            show the software cost only.
 *   store    Remote store programming: the transpose is fused into the row FFT. The last butterfly stage of
 *            each row's FFT stores its two outputs Z[r][k], Z[r][k+N/2] straight into their transposed places
 *            T[k mod B][r] in the owner's memory, through a pointer from shmem_ptr (one pointer per column k,
 *            computed once). Plain stores, no library call per element, no second pass over the data, and no
 *            PE ever reads remote memory. One shmem_barrier_all then completes the stores (OpenSHMEM's barrier
 *            completes all prior stores, shmem_ptr ones included; a shmem_fence would only be needed to order
 *            the data before a flag if a flag replaced the barrier). Teaches: the cheapest transpose is the
 *            one that costs a little address arithmetic per element (here 3 instructions: the owner's row
 *            pointer from a table, plus the row offset) while the element is still in a register.
 *   alltoall Local packing of the P blocks (transposed on the way: send[q][j][i] = Z[i][qB+j]) into a
 *            contiguous send buffer, one shmem_alltoallmem on SHMEM_TEAM_WORLD (one bulk put of B*B elements
 *            per pair, then the collective's barrier), and local unpacking (B contiguous rows per block into T).
 *            Teaches: the collective is the portable, bulk-transfer answer (best where a DMA engine or a
 *            network wants big messages), paid for with two extra local copies of the whole matrix and twice
 *            the memory.
 *
 * Timing: PE 0 reads shmemx_cycles() at the phase boundaries. Under `oshrun --icount` one cycle is one retired
 * instruction of the whole machine (QEMU runs the harts in turn on one counter), so a phase's figure is the
 * total instruction work of all PEs in it, not the elapsed time of one PE (a waiting PE sleeps in wfi and
 * retires nothing). A boundary is a pair of barriers with PE 0's reading between them (timed_sync), so that no
 * PE's work leaks across it, and the pair's own cost (measured empty) is taken off every phase. What remains of
 * a phase is its own work, including the one barrier each transpose needs (see "the transposes"). In the store
 * variant the row FFTs and the transpose are one phase: its transpose figure is that phase minus the same row
 * FFTs timed alone with local output (a calibration run in the same variant), i.e. exactly what the fused
 * remote stores and their barrier add. total = row FFTs + transpose + column FFTs. Without --icount (as under
 * ctest) the cycle counter follows host time: the figures are not repeatable, and nothing here ever judges them.
 *
 * Self-check: the input X[r][c] is a fixed function (two LCG steps) of the global index r*N+c, so every PE can
 * generate any element. Before the variants, every PE computes the expected values of its own rows of R with
 * a serial 2D FFT (all N row FFTs, keeping its B columns, then B column FFTs: about P times the distributed row
 * work, cheap at these sizes) and checks a few of them against a direct 2D DFT (O(N^2) each, independent of the
 * FFT code). Each variant's result is compared element by element with that reference; T is poisoned before
 * each variant, so an element the transpose failed to deliver, or delivered to the wrong place, fails the
 * check. A mismatch prints the variant, PE, element, value and expected value and ends the run with status 1.
 * The optional third argument `corrupt` swaps two elements of the last PE's T after the transpose, to show
 * that the check catches a wrong transpose (the test fft2d_corrupt expects that failure).
 *
 * What the figures show (oshrun --icount, N = 256, instructions of the whole machine per element moved, P = 1
 * -> 16): store 3.0 -> 3.5, put 8.4 -> 15.6, get 8.4 -> 14.5, alltoall 18.2 -> 19.4. Store touches each element
 * once, while it is produced; put and get make a second pass (load 16 B, store 16 B: 8 instructions) plus about
 * 105-125 instructions per call, and there are N*P calls (one per row and partner), so they grow with P/N;
 * alltoall makes three passes (pack, bulk copy, unpack) but only P*P calls. The transposes are 1-19% of the
 * whole transform here because the emulator charges a remote access like a local one: on a real mesh the
 * second and third passes also cost memory and network time, which is where remote stores won 1.64x on TILEPro.
 *
 * Memory: five B x N complex-double buffers per PE on the symmetric heap, 80*N*N/P bytes (N=128 on 1 PE:
 * 1.25 MiB; N=256 on 1 PE: 5 MiB, on 2 PEs 2.5 MiB). Large N on few PEs needs a heap above the default: run
 * with `oshrun --symmetric-size 8M` (or SHMEM_SYMMETRIC_SIZE); the program says so when the heap is too small.
 * Refusals (bad arguments, a PE count that does not divide N, too small a heap) end with status 2. */
#include <math.h> /* fabs only: an instruction, no libm */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest N: 1024, or 64 where a PE has 32 KB (SHMEM_SMALL_SIZES, set by cmake/shmem.cmake for Epiphany):
 * the tables below are about 40 * MAX_N bytes, and the share of the matrices, 80*N*N/P bytes, must fit a heap of
 * about 15 KB there (N = 8 on 1 PE, 16 on 2, 32 on 8, 64 on 64 PEs). */
#if SHMEM_SMALL_SIZES
#define MAX_N 64
#else
#define MAX_N 1024
#endif

typedef struct {
    double re, im;
} cplx;

enum { PUT, GET, STORE, ALLTOALL, NVARIANTS };
static const char *const variant_name[NVARIANTS] = {"put", "get", "store", "alltoall"};

static int N, LOG2N, B, me, npes;
static cplx W[MAX_N];          /* W[m] = exp(-2 pi i m / N), the twiddles of the forward transform */
static uint16_t rev[MAX_N];    /* bit reversal of LOG2N-bit indices */
static cplx *colptr[MAX_N];    /* store variant: &T[k mod B][0] on PE k / B, the row of T that column k feeds */
static cplx rowbuf[MAX_N];     /* the reference's scratch row */
static double tol;             /* allowed |error| of an output element (see compute_reference) */

/* Symmetric, B*N elements each (row i, column c at [i*N + c]). */
static cplx *a;       /* the PE's rows of X, turned into Z by the row FFTs */
static cplx *T;       /* the PE's rows of the transposed matrix, turned into R by the column FFTs */
static cplx *sendbuf; /* alltoall: packed blocks, block q = [j][i] for destination q */
static cplx *recvbuf; /* alltoall: received blocks, block p from PE p */
static cplx *ref;     /* expected R rows of this PE (used locally only) */

static double lerr, gerr; /* symmetric: for the max-reduction of the error */

/* ---- the input ---------------------------------------------------------------------------------------------- */

/* X[r][c]: real and imaginary parts in [-1, 1) from two steps of a 32-bit LCG seeded with the global index. */
static inline cplx input(int r, int c)
{
    uint32_t s = (uint32_t)(r * N + c) * 2654435761u + 20240601u;
    s = s * 1664525u + 1013904223u;
    const double re = (double)(s >> 8) * (2.0 / 16777216.0) - 1.0;
    s = s * 1664525u + 1013904223u;
    const double im = (double)(s >> 8) * (2.0 / 16777216.0) - 1.0;
    return (cplx){re, im};
}

static void generate_rows(void)
{
    for (int i = 0; i < B; ++i)
        for (int c = 0; c < N; ++c) a[(size_t)i * N + c] = input(me * B + i, c);
}

/* ---- the FFT: iterative radix-2 decimation in time, in place ---------------------------------------------- */

static inline cplx cmul(cplx x, cplx y) { return (cplx){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re}; }

/* cos and sin of 2 pi m / N without libm: a Taylor series on an angle folded into [0, pi/4] (its terms to x^21
 * are below 1e-22), then the octant and quadrant symmetries. */
static void unit_root(int m, double *c, double *s)
{
    const double two_pi = 6.283185307179586476925;
    const int quarter = N / 4, quadrant = m / quarter;
    int r = m % quarter;
    const int flip = 2 * r > quarter; /* angle above pi/4: use the complement */
    if (flip) r = quarter - r;
    const double x = two_pi * r / N, x2 = x * x;
    double cs = 0, sn = 0, tc = 1, ts = x;
    for (int k = 1; k <= 21; k += 2) { /* tc = (-1)^j x^(2j) / (2j)!, ts = (-1)^j x^(2j+1) / (2j+1)! */
        cs += tc;
        sn += ts;
        tc *= -x2 / ((double)k * (k + 1));
        ts *= -x2 / ((double)(k + 1) * (k + 2));
    }
    const double cq = flip ? sn : cs, sq = flip ? cs : sn; /* cos, sin of 2 pi (m mod N/4) / N */
    switch (quadrant) {                                    /* times i^quadrant */
    case 0: *c = cq; *s = sq; break;
    case 1: *c = -sq; *s = cq; break;
    case 2: *c = -cq; *s = -sq; break;
    default: *c = sq; *s = -cq; break;
    }
}

static void fft_setup(void)
{
    for (int m = 0; m < N; ++m) {
        double c, s;
        unit_root(m, &c, &s);
        W[m] = (cplx){c, -s};
    }
    for (int i = 0; i < N; ++i) {
        unsigned r = 0;
        for (int b = 0; b < LOG2N; ++b) r |= ((unsigned)(i >> b) & 1u) << (LOG2N - 1 - b);
        rev[i] = (uint16_t)r;
    }
}

/* Bit-reversal permutation and every butterfly stage but the last (spans 2 .. N/2). */
static void fft_front(cplx *x)
{
    for (int i = 0; i < N; ++i) {
        const int j = rev[i];
        if (i < j) {
            const cplx t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }
    for (int len = 2; len < N; len <<= 1) {
        const int half = len / 2, step = N / len;
        for (int start = 0; start < N; start += len)
            for (int k = 0; k < half; ++k) {
                const cplx u = x[start + k], v = cmul(x[start + k + half], W[k * step]);
                x[start + k] = (cplx){u.re + v.re, u.im + v.im};
                x[start + k + half] = (cplx){u.re - v.re, u.im - v.im};
            }
    }
}

/* The last stage (span N), writing the outputs back into x. */
static void fft_last_local(cplx *x)
{
    const int half = N / 2;
    for (int k = 0; k < half; ++k) {
        const cplx u = x[k], v = cmul(x[k + half], W[k]);
        x[k] = (cplx){u.re + v.re, u.im + v.im};
        x[k + half] = (cplx){u.re - v.re, u.im - v.im};
    }
}

/* The last stage of row r's FFT in the store variant: the same arithmetic, but output k goes straight to its
 * transposed place T[k mod B][r] on PE k / B (colptr[k] + r) with a plain store; nothing is written locally. */
static void fft_last_store(const cplx *x, int r)
{
    const int half = N / 2;
    for (int k = 0; k < half; ++k) {
        const cplx u = x[k], v = cmul(x[k + half], W[k]);
        colptr[k][r] = (cplx){u.re + v.re, u.im + v.im};
        colptr[k + half][r] = (cplx){u.re - v.re, u.im - v.im};
    }
}

static void fft(cplx *x)
{
    fft_front(x);
    fft_last_local(x);
}

/* ---- the expected result -------------------------------------------------------------------------------- */

/* Y[k1][k2] by the definition, sum over r, c of X[r][c] W^(r k1 + c k2): independent of the FFT code. */
static cplx direct_dft(int k1, int k2)
{
    double re = 0, im = 0;
    for (int r = 0; r < N; ++r) {
        const unsigned base = (unsigned)(r * k1) & (unsigned)(N - 1);
        for (int c = 0; c < N; ++c) {
            const cplx x = input(r, c), w = W[(base + (unsigned)(c * k2)) & (unsigned)(N - 1)];
            re += x.re * w.re - x.im * w.im;
            im += x.re * w.im + x.im * w.re;
        }
    }
    return (cplx){re, im};
}

static inline double cabs_max(cplx x, cplx y) /* max(|re diff|, |im diff|); NaN if either is NaN */
{
    const double dr = fabs(x.re - y.re), di = fabs(x.im - y.im);
    return dr > di || dr != dr ? dr : di;
}

/* ref[j][k1] = R[me*B + j][k1] = Y[k1][me*B + j]: the row FFTs of all N rows of X, keeping this PE's columns
 * (transposed), then the FFTs of those B rows; and a few elements checked against the direct DFT. */
static void compute_reference(void)
{
    for (int r = 0; r < N; ++r) {
        for (int c = 0; c < N; ++c) rowbuf[c] = input(r, c);
        fft(rowbuf);
        for (int j = 0; j < B; ++j) ref[(size_t)j * N + r] = rowbuf[me * B + j];
    }
    for (int j = 0; j < B; ++j) fft(&ref[(size_t)j * N]);

    /* Outputs have magnitude about N (a sum of N*N terms of size <= 1.4 with random phases). The variants
     * reproduce the serial FFT bit for bit (the same arithmetic in the same order), and the serial FFT differs
     * from the direct DFT, whose long sequential sums carry most of the rounding, by 1e-13..1e-11 at
     * N = 64..256 (printed below). 1e-10 * N is 100 times above that, and far below the error a misplaced
     * element causes (of the order of an input, 0.1..1). */
    tol = 1e-10 * N;
    const int samples = N >= 256 ? 2 : 3;
    lerr = 0;
    for (int s = 0; s < samples; ++s) {
        const int j = (me * 7 + s * 3) % B, k1 = (me * 37 + s * 101 + 1) % N;
        const cplx want = direct_dft(k1, me * B + j), got = ref[(size_t)j * N + k1];
        const double e = cabs_max(got, want);
        if (e > lerr || e != e) lerr = e;
        if (!(e <= tol)) {
            printf("fft2d: REFERENCE WRONG on PE %d: serial FFT gives Y[%d][%d] = (%.17g, %.17g), direct DFT "
                   "(%.17g, %.17g)\n", me, k1, me * B + j, got.re, got.im, want.re, want.im);
            shmem_global_exit(1);
        }
    }
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, &gerr, &lerr, 1);
    if (me == 0)
        printf("fft2d: serial reference agrees with a direct 2D DFT at %d sampled outputs per PE: max |error| "
               "%.2e (tolerance %.2e)\n", samples, gerr, tol);
}

/* Compares this PE's rows of R (in T) with the reference and ends the run at a mismatch; the largest error of
 * all PEs goes to gerr. */
static void check(int v)
{
    int bad = 0;
    lerr = 0;
    for (int j = 0; j < B; ++j)
        for (int k1 = 0; k1 < N; ++k1) {
            const cplx got = T[(size_t)j * N + k1], want = ref[(size_t)j * N + k1];
            const double e = cabs_max(got, want);
            if (e > lerr || e != e) lerr = e;
            if (!(e <= tol) && bad++ < 3)
                printf("fft2d: MISMATCH variant=%s PE %d: R[%d][%d] (= Y[%d][%d]) = (%.17g, %.17g), expected "
                       "(%.17g, %.17g), |error| %.3g > %.3g\n", variant_name[v], me, me * B + j, k1, k1,
                       me * B + j, got.re, got.im, want.re, want.im, e, tol);
        }
    if (bad) {
        printf("fft2d: variant %s: %d wrong elements on PE %d\n", variant_name[v], bad, me);
        shmem_global_exit(1);
    }
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, &gerr, &lerr, 1);
}

/* ---- the transposes ----------------------------------------------------------------------------------------- */
/* Each loops over the partners starting at the right neighbour (itself last), so the PEs do not all write to
 * or read from the same PE at once. Each contains exactly the synchronization a one-shot transform needs when
 * it starts with every PE's T free: one barrier (put, store: after the transfers, to complete them; get:
 * before, so the data exist; alltoall: the collective's own). A transform repeated in a loop needs one more in
 * every variant (or double buffering): a fast PE must not write into a T, or overwrite an `a`, that a slow PE
 * still uses. Between the variants of this program the measuring barriers (timed_sync) do that. */

static void transpose_put(void)
{
    for (int s = 1; s <= npes; ++s) {
        const int q = (me + s) % npes;
        /* my row i, columns qB..qB+B-1  ->  q's T[0..B-1][me*B + i], one element per row of T */
        for (int i = 0; i < B; ++i) shmem_iput128(&T[me * B + i], &a[(size_t)i * N + q * B], N, 1, B, q);
    }
    shmem_barrier_all(); /* completes the puts: T is whole on every PE */
}

static void transpose_get(void)
{
    shmem_barrier_all(); /* every PE's row FFTs are done: its Z may be read */
    for (int s = 1; s <= npes; ++s) {
        const int p = (me + s) % npes;
        /* p's rows 0..B-1, column me*B + j  ->  my T[j][pB..pB+B-1] */
        for (int j = 0; j < B; ++j) shmem_iget128(&T[(size_t)j * N + p * B], &a[me * B + j], 1, N, B, p);
    }
    /* a get is complete when it returns: my T is whole, nothing more to wait for */
}

static void transpose_alltoall(void)
{
    for (int q = 0; q < npes; ++q) /* pack, transposing each block: send[q][j][i] = Z[i][qB + j] */
        for (int j = 0; j < B; ++j)
            for (int i = 0; i < B; ++i) sendbuf[((size_t)q * B + j) * B + i] = a[(size_t)i * N + q * B + j];
    /* one put of B*B elements to each PE, then a barrier: on return every PE's recvbuf is whole */
    shmem_alltoallmem(SHMEM_TEAM_WORLD, recvbuf, sendbuf, (size_t)B * B * sizeof(cplx));
    for (int p = 0; p < npes; ++p) /* unpack: row j of block p is T[j][pB..pB+B-1] */
        for (int j = 0; j < B; ++j) {
            /* element copies, not memcpy: picolibc's memcpy on this target copies a byte at a time */
            cplx *to = &T[(size_t)j * N + p * B];
            const cplx *from = &recvbuf[((size_t)p * B + j) * B];
            for (int i = 0; i < B; ++i) to[i] = from[i];
        }
}

/* Row FFTs with the transpose fused in: see fft_last_store. */
static void rows_and_store(void)
{
    for (int q = 0; q < npes; ++q) { /* column k = qB + j feeds row j of q's T */
        cplx *const base = shmem_ptr(T, q);
        if (base == NULL) {
            printf("fft2d: PE %d: shmem_ptr(T, %d) is NULL: the store variant needs load/store access to every "
                   "PE\n", me, q);
            shmem_global_exit(1);
        }
        for (int j = 0; j < B; ++j) colptr[q * B + j] = base + (size_t)j * N;
    }
    for (int i = 0; i < B; ++i) {
        fft_front(&a[(size_t)i * N]);
        fft_last_store(&a[(size_t)i * N], me * B + i);
    }
    shmem_barrier_all(); /* completes every PE's plain stores: T is whole on every PE */
}

/* ---- one variant ------------------------------------------------------------------------------------------ */

/* A phase boundary: every PE has finished the phase before it when PE 0 reads the counter, and none starts
 * the next one before PE 0 has read it. (One barrier is not enough: QEMU runs the harts in turn, and a PE
 * released by the barrier before PE 0 gets the CPU would run part of the next phase before the reading.) The
 * cost of this pair of barriers, measured with nothing between two of them, is taken off every phase. */
static uint64_t sync_cost;
static uint64_t timed_sync(void)
{
    shmem_barrier_all();
    const uint64_t t = shmemx_cycles(); /* meaningful on PE 0, which prints */
    shmem_barrier_all();
    return t;
}

static int64_t phase(uint64_t from, uint64_t to) { return (int64_t)(to - from) - (int64_t)sync_cost; }

static void run_variant(int v, int corrupt)
{
    generate_rows();
    for (size_t e = 0; e < (size_t)B * N; ++e) T[e] = (cplx){1e300, -1e300}; /* poison: must all be replaced */

    int64_t row, tr;
    uint64_t t0 = timed_sync(), t1, t2; /* also: nobody writes into my T before I poisoned it */
    if (v == STORE) {
        /* calibration: the same row FFTs with local output, to split the fused phase */
        for (int i = 0; i < B; ++i) fft(&a[(size_t)i * N]);
        t1 = timed_sync();
        row = phase(t0, t1);
        generate_rows();
        t1 = timed_sync();
        rows_and_store();
        t2 = timed_sync();
        tr = phase(t1, t2) - row; /* what the fused stores and their barrier add to the row FFTs */
    } else {
        for (int i = 0; i < B; ++i) fft(&a[(size_t)i * N]);
        t1 = timed_sync();
        if (v == PUT) transpose_put();
        else if (v == GET) transpose_get();
        else transpose_alltoall();
        t2 = timed_sync();
        row = phase(t0, t1);
        tr = phase(t1, t2);
    }
    if (corrupt && me == npes - 1) { /* a deliberately wrong transpose: two elements trade places */
        const cplx t = T[0];
        T[0] = T[1];
        T[1] = t;
    }
    for (int j = 0; j < B; ++j) fft(&T[(size_t)j * N]);
    const int64_t col = phase(t2, timed_sync()), total = row + tr + col;

    check(v);
    if (me == 0) {
        printf("fft2d: N=%d PEs=%d %-8s row FFTs %9lld  transpose %9lld (%6.2f/element)  column FFTs %9lld  "
               "total %10lld cycles  check ok, max |error| %.2e\n", N, npes, variant_name[v], (long long)row,
               (long long)tr, (double)tr / ((double)N * N), (long long)col, (long long)total, gerr);
        printf("csv:fft2d:%d,%d,%s,%lld,%lld\n", npes, N, variant_name[v], (long long)tr, (long long)total);
    }
}

/* A decimal number, or -1. (Not atoi: picolibc's strtol sets errno, a TLS variable whose GOT slot leaves an
 * R_RISCV_NONE relocation in the image, which the startup code refuses.) */
static int parse_n(const char *s)
{
    long v = 0;
    if (*s == 0) return -1;
    for (; *s; ++s) {
        if (*s < '0' || *s > '9' || v > 100000) return -1;
        v = v * 10 + (*s - '0');
    }
    return (int)v;
}

/* Ends the run with status 2 after PE 0's message is out (a PE that exited at once could end the run first). */
static void refuse(void)
{
    shmem_barrier_all();
    exit(2);
}

int main(int argc, char **argv)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();

    N = argc > 1 ? parse_n(argv[1]) : 64;
    const char *which = argc > 2 ? argv[2] : "all";
    const int corrupt = argc > 3 && strcmp(argv[3], "corrupt") == 0;
    int selected = -1; /* -1: all */
    for (int v = 0; v < NVARIANTS; ++v)
        if (strcmp(which, variant_name[v]) == 0) selected = v;
    if (N < 4 || N > MAX_N || (N & (N - 1)) != 0 || (selected < 0 && strcmp(which, "all") != 0) ||
        (argc > 3 && !corrupt)) {
        if (me == 0)
            printf("usage: fft2d [N [put|get|store|alltoall|all [corrupt]]]: N a power of two, 4..%d "
                   "(got N=%s, variant=%s)\n", MAX_N, argc > 1 ? argv[1] : "64", which);
        refuse();
    }
    if (npes > N || N % npes != 0) {
        if (me == 0)
            printf("fft2d: %d PEs cannot share the %d rows of an %dx%d matrix: the PE count must divide N "
                   "(and be at most N)\n", npes, N, N, N);
        refuse();
    }
    B = N / npes;
    for (LOG2N = 0; (1 << LOG2N) < N; ++LOG2N) {}
    fft_setup();

    const size_t elems = (size_t)B * N, bytes = 5 * elems * sizeof(cplx);
    cplx *heap = shmem_malloc(bytes);
    if (heap == NULL) {
        if (me == 0)
            printf("fft2d: N=%d on %d PEs needs %zu KiB of symmetric heap per PE; run with "
                   "`oshrun --symmetric-size %zuM` (or SHMEM_SYMMETRIC_SIZE)\n", N, npes, bytes / 1024,
                   bytes / (1024 * 1024) + 1);
        refuse();
    }
    a = heap;
    T = a + elems;
    sendbuf = T + elems;
    recvbuf = sendbuf + elems;
    ref = recvbuf + elems;

    if (me == 0)
        printf("fft2d: %dx%d complex doubles on %d PEs (%d rows each), result in transposed layout\n", N, N, npes,
               B);
    compute_reference();

    /* the measuring syncs' own cost (the smallest of a few, as a reading can catch a few barrier instructions
     * of a PE that has not yet gone to sleep), and a barrier's, to read the phase figures */
    uint64_t prev = timed_sync();
    sync_cost = UINT64_MAX;
    for (int r = 0; r < 8; ++r) {
        const uint64_t t = timed_sync();
        if (t - prev < sync_cost) sync_cost = t - prev;
        prev = t;
    }
    int64_t barrier_cost = INT64_MAX;
    for (int r = 0; r < 8; ++r) {
        const uint64_t b0 = timed_sync();
        shmem_barrier_all();
        const int64_t b = phase(b0, timed_sync());
        if (b < barrier_cost) barrier_cost = b;
    }
    if (me == 0) {
        printf("fft2d: cycles: under `oshrun --icount` one cycle = one retired instruction of the whole machine, "
               "so a phase's figure is the work of all PEs in it; without --icount the cycle counter follows host time and "
               "the figures are not repeatable\n");
        printf("fft2d: one shmem_barrier_all costs %lld cycles; the %llu of the measuring syncs are taken off "
               "every phase\n", (long long)barrier_cost, (unsigned long long)sync_cost);
        printf("csv:fft2d:npes,n,variant,transpose_cycles,total_cycles\n");
    }

    for (int v = 0; v < NVARIANTS; ++v)
        if (selected < 0 || selected == v) run_variant(v, corrupt);

    shmem_barrier_all();
    shmem_free(heap);
    if (me == 0) printf("fft2d: ok\n");
    shmem_finalize();
    return 0;
}

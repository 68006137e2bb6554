/* OpenSHMEM 1.6 interleaved block transfers, shmem_ibput and shmem_ibget: every typed routine for every standard
 * RMA type, the sized forms, the context forms (the default context, a created one, and one on a team whose PE
 * numbers are team-relative), the C11 generic names, contiguous blocks, blocks of one element (iput's case), and
 * zero-length calls with NULL pointers. Each PE writes to its right neighbour and reads from its left one; every
 * element of every transfer is checked, and the elements between and around the blocks must stay untouched. */
#include <string.h>

#include "check.h"

#define BSIZE 3   /* elements per block */
#define NBLOCKS 7 /* blocks per transfer */
#define DST 5     /* dest stride (elements, >= BSIZE) */
#define SST 4     /* source stride */
#define SPAN(stride) ((NBLOCKS - 1) * (stride) + BSIZE)
#define LEN (SPAN(DST) + 2) /* the largest array, with a guard after it */

#define VAL(T, pe, i, round) ((T)(test_pattern((pe), (i), (round)) % 100))
#define GUARD(T) ((T)99)

/* is element i of an array of blocks of stride `stride` in a block? */
static int in_block(size_t i, size_t stride) { return i < (size_t)SPAN(stride) && i % stride < BSIZE; }
/* the source element that element i (in a block) of an array of stride `to` comes from, with source stride `from` */
static size_t from_index(size_t i, size_t to, size_t from) { return i / to * from + i % to; }

/* One source, one dest and one private buffer serve every type in turn: the static data of the largest type only
 * (32 KB per PE on Epiphany). */
#define BUFFER(T, N) T N##_[LEN];
static union { SHMEM_RMA_TYPES(BUFFER) } src_buf, dst_buf, local_buf;

static shmem_ctx_t ctx;      /* a context on the world team */
static shmem_team_t reverse; /* the world in reverse order: team PE i is world PE n - 1 - i */
static shmem_ctx_t rctx;     /* a context on it */

/* The transfer of one form: to (put) or from (get) the neighbour, by ibput or ibget, checked on the receiver. */
#define TEST_TYPE(T, N)                                                                                        \
    static void check_put_##N(const char *form, int round)                                                     \
    {                                                                                                          \
        const int left = (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes();                                 \
        const T *d = dst_buf.N##_;                                                                             \
        for (size_t i = 0; i < LEN; ++i)                                                                       \
            CHECK(d[i] == (in_block(i, DST) ? VAL(T, left, from_index(i, DST, SST), round) : GUARD(T)),        \
                  #N " %s element %zu", form, i);                                                              \
    }                                                                                                          \
    static void test_##N(int round)                                                                            \
    {                                                                                                          \
        const int me = shmem_my_pe(), n = shmem_n_pes();                                                       \
        const int right = (me + 1) % n, left = (me + n - 1) % n;                                               \
        T *const s = src_buf.N##_, *const d = dst_buf.N##_, *const l = local_buf.N##_;                         \
        for (int form = 0; form < 4; ++form) {                                                                 \
            for (size_t i = 0; i < LEN; ++i) s[i] = VAL(T, me, i, round + form);                               \
            for (size_t i = 0; i < LEN; ++i) d[i] = l[i] = GUARD(T);                                           \
            shmem_barrier_all();                                                                               \
            switch (form) {                                                                                    \
            case 0: shmem_##N##_ibput(d, s, DST, SST, BSIZE, NBLOCKS, right); break;                           \
            case 1: shmem_ctx_##N##_ibput(SHMEM_CTX_DEFAULT, d, s, DST, SST, BSIZE, NBLOCKS, right); break;    \
            case 2: shmem_ctx_##N##_ibput(ctx, d, s, DST, SST, BSIZE, NBLOCKS, right); break;                  \
            /* the reversed team: the right neighbour me + 1 is team PE n - 2 - me */                          \
            default: shmem_ctx_##N##_ibput(rctx, d, s, DST, SST, BSIZE, NBLOCKS, (2 * n - 2 - me) % n); break;  \
            }                                                                                                  \
            if (form >= 2) shmem_ctx_quiet(form == 2 ? ctx : rctx);                                            \
            shmem_barrier_all();                                                                               \
            check_put_##N("ibput", round + form);                                                              \
            /* ibget: the source is the left neighbour's dest, blocks of stride DST, into local stride SST */   \
            switch (form) {                                                                                    \
            case 0: shmem_##N##_ibget(l, d, SST, DST, BSIZE, NBLOCKS, left); break;                            \
            case 1: shmem_ctx_##N##_ibget(SHMEM_CTX_DEFAULT, l, d, SST, DST, BSIZE, NBLOCKS, left); break;     \
            case 2: shmem_ctx_##N##_ibget(ctx, l, d, SST, DST, BSIZE, NBLOCKS, left); break;                   \
            default: shmem_ctx_##N##_ibget(rctx, l, d, SST, DST, BSIZE, NBLOCKS, n - 1 - left); break;         \
            }                                                                                                  \
            /* what the left neighbour's dest holds came from its left neighbour */                           \
            const int left2 = (left + n - 1) % n;                                                              \
            for (size_t i = 0; i < LEN; ++i)                                                                   \
                CHECK(l[i] == (in_block(i, SST) ? VAL(T, left2, from_index(from_index(i, SST, DST), DST, SST), \
                                                       round + form)                                           \
                                                : GUARD(T)),                                                   \
                      #N " ibget form %d element %zu", form, i);                                               \
            shmem_barrier_all();                                                                               \
        }                                                                                                      \
        /* contiguous blocks (both strides bsize): one run of NBLOCKS * BSIZE elements */                      \
        for (size_t i = 0; i < LEN; ++i) d[i] = GUARD(T);                                                      \
        shmem_barrier_all();                                                                                   \
        shmem_##N##_ibput(d + 1, s, BSIZE, BSIZE, BSIZE, NBLOCKS, right);                                      \
        shmem_barrier_all();                                                                                   \
        for (size_t i = 0; i < LEN; ++i)                                                                       \
            CHECK(d[i] == (i >= 1 && i <= BSIZE * NBLOCKS ? VAL(T, left, i - 1, round + 3) : GUARD(T)),         \
                  #N " contiguous ibput element %zu", i);                                                      \
        for (size_t i = 0; i < LEN; ++i) l[i] = GUARD(T);                                                      \
        shmem_##N##_ibget(l, d + 1, BSIZE, BSIZE, BSIZE, NBLOCKS, left);                                       \
        for (size_t i = 0; i < LEN; ++i)                                                                       \
            CHECK(l[i] == (i < BSIZE * NBLOCKS ? VAL(T, (left + n - 1) % n, i, round + 3) : GUARD(T)),          \
                  #N " contiguous ibget element %zu", i);                                                      \
        shmem_barrier_all();                                                                                   \
        /* blocks of one element: iput's transfer */                                                           \
        for (size_t i = 0; i < LEN; ++i) d[i] = GUARD(T);                                                      \
        shmem_barrier_all();                                                                                   \
        shmem_##N##_ibput(d, s, 2, 3, 1, 10, right);                                                           \
        shmem_barrier_all();                                                                                   \
        for (size_t i = 0; i < LEN; ++i)                                                                       \
            CHECK(d[i] == (i % 2 == 0 && i < 20 ? VAL(T, left, i / 2 * 3, round + 3) : GUARD(T)),              \
                  #N " ibput bsize 1 element %zu", i);                                                         \
        /* nothing to move: any pointers, no access */                                                         \
        shmem_##N##_ibput(NULL, NULL, DST, SST, BSIZE, 0, right);                                              \
        shmem_##N##_ibput(NULL, NULL, DST, SST, 0, NBLOCKS, right);                                            \
        shmem_ctx_##N##_ibget(ctx, NULL, NULL, 0, 0, 0, NBLOCKS, left);                                        \
        shmem_barrier_all();                                                                                   \
    }

SHMEM_RMA_TYPES(TEST_TYPE)

/* The sized forms: elements of BITS / 8 bytes, copied as bytes; every byte is checked. */
static unsigned char bsrc[LEN * 16], bdst[LEN * 16] __attribute__((aligned(16)));
static unsigned char blocal[LEN * 16] __attribute__((aligned(16)));

static unsigned char bval(int pe, size_t byte, int bits) { return (unsigned char)(test_pattern(pe, byte, bits) % 251); }

static void test_sized(int bits)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    const size_t e = (size_t)bits / 8;
    for (size_t i = 0; i < sizeof bsrc; ++i) bsrc[i] = bval(me, i, bits);
    memset(bdst, 0xee, sizeof bdst);
    memset(blocal, 0xee, sizeof blocal);
    shmem_barrier_all();
    switch (bits) {
    case 8: shmem_ibput8(bdst, bsrc, DST, SST, BSIZE, NBLOCKS, right); break;
    case 16: shmem_ibput16(bdst, bsrc, DST, SST, BSIZE, NBLOCKS, right); break;
    case 32: shmem_ctx_ibput32(ctx, bdst, bsrc, DST, SST, BSIZE, NBLOCKS, right); break;
    case 64: shmem_ibput64(bdst, bsrc, DST, SST, BSIZE, NBLOCKS, right); break;
    default: shmem_ctx_ibput128(SHMEM_CTX_DEFAULT, bdst, bsrc, DST, SST, BSIZE, NBLOCKS, right); break;
    }
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (size_t b = 0; b < sizeof bdst; ++b) {
        const size_t i = b / e; /* the element */
        const unsigned char want = in_block(i, DST) ? bval(left, from_index(i, DST, SST) * e + b % e, bits) : 0xee;
        CHECK(bdst[b] == want, "ibput%d byte %zu", bits, b);
    }
    switch (bits) {
    case 8: shmem_ctx_ibget8(ctx, blocal, bsrc, SST, DST, BSIZE, NBLOCKS, left); break;
    case 16: shmem_ibget16(blocal, bsrc, SST, DST, BSIZE, NBLOCKS, left); break;
    case 32: shmem_ibget32(blocal, bsrc, SST, DST, BSIZE, NBLOCKS, left); break;
    case 64: shmem_ctx_ibget64(SHMEM_CTX_DEFAULT, blocal, bsrc, SST, DST, BSIZE, NBLOCKS, left); break;
    default: shmem_ibget128(blocal, bsrc, SST, DST, BSIZE, NBLOCKS, left); break;
    }
    for (size_t b = 0; b < sizeof blocal; ++b) {
        const size_t i = b / e;
        const unsigned char want = in_block(i, SST) ? bval(left, from_index(i, SST, DST) * e + b % e, bits) : 0xee;
        CHECK(blocal[b] == want, "ibget%d byte %zu", bits, b);
    }
    shmem_barrier_all();
}

/* the generic names pick the routine of the pointed-to type, with and without a context */
static long gl_src[LEN], gl_dst[LEN];
static double gd_src[LEN], gd_dst[LEN];
static void test_generic(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    for (int i = 0; i < LEN; ++i) {
        gl_src[i] = me * 1000 + i;
        gd_src[i] = me * 1000 + i + 0.5;
        gl_dst[i] = -1;
        gd_dst[i] = -1;
    }
    shmem_barrier_all();
    shmem_ibput(gl_dst, gl_src, DST, SST, BSIZE, NBLOCKS, right);
    shmem_ibput(ctx, gd_dst, gd_src, DST, SST, BSIZE, NBLOCKS, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (size_t i = 0; i < LEN; ++i) {
        const long wl = in_block(i, DST) ? left * 1000 + (long)from_index(i, DST, SST) : -1;
        CHECK(gl_dst[i] == wl, "generic ibput long element %zu", i);
        CHECK(gd_dst[i] == (in_block(i, DST) ? wl + 0.5 : -1), "generic ibput double element %zu", i);
    }
    long l[LEN];
    double dl[LEN];
    for (int i = 0; i < LEN; ++i) {
        l[i] = -2;
        dl[i] = -2;
    }
    shmem_ibget(l, gl_src, SST, DST, BSIZE, NBLOCKS, left);
    shmem_ibget(ctx, dl, gd_src, SST, DST, BSIZE, NBLOCKS, left);
    for (size_t i = 0; i < LEN; ++i) {
        const long wl = in_block(i, SST) ? left * 1000 + (long)from_index(i, SST, DST) : -2;
        CHECK(l[i] == wl, "generic ibget long element %zu", i);
        CHECK(dl[i] == (in_block(i, SST) ? wl + 0.5 : -2), "generic ibget double element %zu", i);
    }
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    const int n = shmem_n_pes();
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &reverse) == 0, "reverse split");
    CHECK(shmem_team_create_ctx(reverse, 0, &rctx) == 0, "reverse ctx");
    for (int round = 0; round < 2; ++round) {
#define RUN(T, N) test_##N(round * 10);
        SHMEM_RMA_TYPES(RUN)
#undef RUN
    }
    for (int bits = 8; bits <= 128; bits *= 2) test_sized(bits);
    test_generic();
    shmem_ctx_destroy(rctx);
    shmem_team_destroy(reverse);
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}

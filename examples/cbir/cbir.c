/* CBIR-style feature extraction: colour autocorrelograms of many small images, block-distributed over the PEs.
 *
 *   oshrun -np N cbir.elf [images [colours [query [feature|gather]]]]      (defaults 64 16 0; Epiphany: 16 16 0)
 *
 * Images. I images of 32 x 32 pixels (16 x 16 on Epiphany), each pixel a colour index in 0..C-1 (C = 16 or 32).
 * Image k is a noisy copy of base image k mod 8: copy j = k / 8 has (3 j)% of its pixels replaced by random
 * colours, so image k and k + 8 look alike, and copy 0 is the base itself. A base is a background and 12
 * rectangles of random colours and sizes. Everything comes from LCGs seeded by the base and the image index, so
 * any PE can make any image, and the serial and parallel runs see the same pixels.
 *
 * Feature: the autocorrelogram. For colour c and distance d in D = {1, 3, 5, 7}: of all ordered pixel pairs
 * (p, q) inside the image with L-infinity distance |p - q| = d and colour(p) = c, the fraction with colour(q) = c
 * too, in 16.16 fixed point: (matches << 16) / pairs (0 when c does not occur). Integer counts, integer division:
 * the serial and the parallel runs give bit-identical features. A feature vector is C x 4 uint32.
 *
 * Distribution and gather. PE p owns images [lo(p), lo(p) + n(p)), n(p) = I / P, plus one for the first I mod P
 * PEs. Each PE makes its images one at a time (the making is counted as "reading the image") and writes the
 * features into its block of a symmetric array; then the features are gathered on PE 0. The measured gather puts
 * each block into PE 0's symmetric array at offset lo(p) and ends with a barrier (which completes every put):
 * only PE 0 needs the features, so the whole database crosses the machine once. shmem_collect (the block
 * distribution is exactly collect's concatenation in PE order) would deliver all of it to every PE, P times the
 * data; both are measured, gather alone, for comparison, and both results are checked.
 *
 * Checks on PE 0: (1) every element of every gathered feature vector (put gather and collect gather) equals a
 * serial recomputation by PE 0; (2) the best match of the query image (smallest L1 distance of the features,
 * among all other images; ties to the lower index) is the same in the gathered and the serial features, and is
 * the expected similar image: a copy of the same base at the neighbouring noise level (judged for queries of
 * copy 0..2, i.e. up to 6% noise; above that the levels blur, though the base still matches). Any failure: exit
 * 1. The optional fourth argument injects a fault the checks must catch: "feature" makes the last PE deliver one
 * wrong feature element, "gather" makes it deliver its first two feature vectors swapped.
 *
 * Cycles: under `oshrun --icount` a cycle is one retired instruction of the whole machine, so the figure is the
 * work of all PEs together (constant for perfect parallelism; growth is overhead). The interval runs from the
 * first PE to leave the starting barrier to the first PE to leave the closing barrier: the minimum of the
 * per-PE readings at both ends, which leaves out the emulator's scheduling slack at the barriers. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a PE has 32 KB for code, data, heap and stack (SHMEM_SMALL_SIZES, set by cmake/shmem.cmake for
 * Epiphany; the code runs from external DRAM there) the images are 16 x 16 (the geometry table is 2 KB) and
 * the default database is 16 images: every PE holds three copies of the features (256 B per image at 16
 * colours) and its block in a symmetric heap of about 20 KB. */
#if SHMEM_SMALL_SIZES
#define SIDE 16
#define DEFAULT_IMAGES 16
#else
#define SIDE 32
#define DEFAULT_IMAGES 64
#endif
#define PIXELS (SIDE * SIDE)
#define BASES 8
#define NOISE_PERMILLE_PER_COPY 30
#define NDIST 4
#define MAX_IMAGES 1024
#define MAX_COLOURS 32

static const int dists[NDIST] = {1, 3, 5, 7};
static int images, colours, nfeat, npes, me;

static uint64_t t_start, t_end, t_min; /* symmetric: per-PE readings and their reduction */

static inline uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static void make_image(int index, uint8_t *img)
{
    const int base = index % BASES, copy = index / BASES;
    uint64_t s = 0x243F6A8885A308D3ull ^ ((uint64_t)(base + 1) * 0x9E3779B97F4A7C15ull);
    memset(img, (int)(lcg(&s) % (uint32_t)colours), PIXELS);
    for (int r = 0; r < 12; ++r) {
        const int x0 = (int)(lcg(&s) % SIDE), y0 = (int)(lcg(&s) % SIDE);
        const int w = 2 + (int)(lcg(&s) % 12), h = 2 + (int)(lcg(&s) % 12);
        const uint8_t c = (uint8_t)(lcg(&s) % (uint32_t)colours);
        for (int y = y0; y < y0 + h && y < SIDE; ++y)
            for (int x = x0; x < x0 + w && x < SIDE; ++x) img[y * SIDE + x] = c;
    }
    uint64_t n = 0x13198A2E03707344ull ^ ((uint64_t)(index + 1) * 0xBF58476D1CE4E5B9ull);
    const uint32_t permille = (uint32_t)(copy * NOISE_PERMILLE_PER_COPY);
    for (int p = 0; p < PIXELS; ++p) {
        const uint32_t roll = lcg(&n) % 1000, c = lcg(&n) % (uint32_t)colours;
        if (roll < permille) img[p] = (uint8_t)c;
    }
}

/* ring_size[di][p]: how many pixels at L-infinity distance dists[di] from pixel p are inside the image. */
static uint16_t ring_size[NDIST][PIXELS];

static int span(int centre, int r) /* pixels of [centre - r, centre + r] inside 0..SIDE-1 */
{
    const int a = centre - r < 0 ? 0 : centre - r, b = centre + r > SIDE - 1 ? SIDE - 1 : centre + r;
    return b - a + 1;
}

static void make_ring_sizes(void)
{
    for (int di = 0; di < NDIST; ++di)
        for (int y = 0; y < SIDE; ++y)
            for (int x = 0; x < SIDE; ++x) {
                const int d = dists[di];
                ring_size[di][y * SIDE + x] =
                    (uint16_t)(span(x, d) * span(y, d) - span(x, d - 1) * span(y, d - 1));
            }
}

/* pairs(c, d) = sum over pixels p of colour c of ring_size(p, d). matches(c, d) counts ordered pairs; the pairs
 * at offset o and at -o are the same unordered pairs, so half the ring (dy > 0, or dy = 0 and dx > 0) is
 * counted and doubled. For each offset the pixels whose partner is inside the image form a rectangle, so the
 * inner loop has no bounds tests. */
static void autocorrelogram(const uint8_t *img, uint32_t *f)
{
    uint32_t pairs[NDIST][MAX_COLOURS] = {{0}};
    for (int p = 0; p < PIXELS; ++p) {
        const unsigned c = img[p];
        for (int di = 0; di < NDIST; ++di) pairs[di][c] += ring_size[di][p];
    }
    for (int di = 0; di < NDIST; ++di) {
        const int d = dists[di];
        uint32_t match[MAX_COLOURS] = {0};
        for (int dy = 0; dy <= d; ++dy)
            for (int dx = dy == 0 ? d : -d; dx <= d; dx += dy == d ? 1 : 2 * d) { /* half the ring */
                const int x0 = dx < 0 ? -dx : 0, x1 = dx > 0 ? SIDE - dx : SIDE;
                for (int y = 0; y < SIDE - dy; ++y) {
                    const uint8_t *row = img + y * SIDE, *other = img + (y + dy) * SIDE + dx;
                    for (int x = x0; x < x1; ++x) {
                        const unsigned c = row[x];
                        if (other[x] == c) ++match[c];
                    }
                }
            }
        for (int c = 0; c < colours; ++c)
            f[c * NDIST + di] = pairs[di][c] ? (uint32_t)(((uint64_t)(2 * match[c]) << 16) / pairs[di][c]) : 0;
    }
}

static uint64_t distance(const uint32_t *a, const uint32_t *b)
{
    uint64_t sum = 0;
    for (int k = 0; k < nfeat; ++k) sum += a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
    return sum;
}

static int best_match(const uint32_t *feats, int query)
{
    int best = -1;
    uint64_t best_d = UINT64_MAX;
    for (int k = 0; k < images; ++k) {
        if (k == query) continue;
        const uint64_t d = distance(&feats[(size_t)query * nfeat], &feats[(size_t)k * nfeat]);
        if (d < best_d) best_d = d, best = k;
    }
    return best;
}

static int block_lo(int pe) { return pe * (images / npes) + (pe < images % npes ? pe : images % npes); }
static int block_n(int pe) { return images / npes + (pe < images % npes); }

/* Machine-wide counter readings: the least over all PEs of each PE's reading (see the header). */
static uint64_t min_over_pes(uint64_t mine)
{
    t_start = mine;
    shmem_barrier_all();
    shmem_uint64_min_reduce(SHMEM_TEAM_WORLD, &t_min, &t_start, 1);
    return t_min;
}

static void gather_by_puts(uint32_t *feats, const uint32_t *mine)
{
    const int lo = block_lo(me), n = block_n(me);
    if (n > 0) shmem_putmem(&feats[(size_t)lo * nfeat], mine, (size_t)n * nfeat * sizeof(uint32_t), 0);
    shmem_barrier_all(); /* completes every put: PE 0 has the whole database */
}

static void gather_by_collect(uint32_t *feats, const uint32_t *mine)
{
    shmem_uint32_collect(SHMEM_TEAM_WORLD, feats, mine, (size_t)block_n(me) * nfeat);
    shmem_barrier_all();
}

/* Every element of every gathered vector against the serial ones; returns the number of wrong elements. */
static long compare(const char *how, const uint32_t *gathered, const uint32_t *serial)
{
    long wrong = 0;
    for (int k = 0; k < images; ++k)
        for (int e = 0; e < nfeat; ++e) {
            const uint32_t got = gathered[(size_t)k * nfeat + e], want = serial[(size_t)k * nfeat + e];
            if (got != want) {
                if (wrong < 5)
                    printf("cbir: %s: image %d feature %d (colour %d, distance %d) is %lu, serial %lu\n", how, k, e,
                           e / NDIST, dists[e % NDIST], (unsigned long)got, (unsigned long)want);
                ++wrong;
            }
        }
    return wrong;
}

int main(int argc, char **argv)
{
    shmem_init();
    npes = shmem_n_pes();
    me = shmem_my_pe();
    images = argc > 1 ? atoi(argv[1]) : DEFAULT_IMAGES;
    colours = argc > 2 ? atoi(argv[2]) : 16;
    const int query = argc > 3 ? atoi(argv[3]) : 0;
    const char *fault = argc > 4 ? argv[4] : "";
    const int fault_feature = !strcmp(fault, "feature"), fault_gather = !strcmp(fault, "gather");
    if (images < 2 || images > MAX_IMAGES || (colours != 16 && colours != 32) || query < 0 || query >= images ||
        (argc > 4 && !fault_feature && !fault_gather) || (fault_gather && block_n(npes - 1) < 2)) {
        if (me == 0)
            printf("usage: cbir [images (2..%d) [colours (16|32) [query (0..images-1) [feature|gather]]]]; "
                   "the gather fault needs 2 images on the last PE\n", MAX_IMAGES);
        shmem_finalize();
        return 2;
    }
    nfeat = colours * NDIST;
    const size_t vec_bytes = (size_t)nfeat * sizeof(uint32_t);
    const int max_block = images / npes + 1;
    uint32_t *feats = shmem_malloc((size_t)images * vec_bytes);      /* gathered on PE 0 (puts) */
    uint32_t *feats_c = shmem_malloc((size_t)images * vec_bytes);    /* gathered everywhere (collect) */
    uint32_t *mine = shmem_malloc((size_t)max_block * vec_bytes);    /* this PE's block */
    uint32_t *serial = shmem_malloc((size_t)images * vec_bytes);     /* PE 0's serial recomputation */
    if (!feats || !feats_c || !mine || !serial) {
        if (me == 0) printf("cbir: %d images of %d colours do not fit in the symmetric heap\n", images, colours);
        shmem_global_exit(2);
    }
    memset(feats, 0xff, (size_t)images * vec_bytes); /* no feature is 0xffffffff: a missing one shows */
    memset(feats_c, 0xff, (size_t)images * vec_bytes);
    static uint8_t img[PIXELS];
    make_ring_sizes(); /* a table of the geometry, the same for every image */
    const int lo = block_lo(me), n = block_n(me);

    /* ---- measured: parallel extraction + gather on PE 0 by puts ---- */
    shmem_barrier_all();
    const uint64_t start = shmemx_cycles();
    for (int k = 0; k < n; ++k) {
        make_image(lo + k, img);
        autocorrelogram(img, &mine[(size_t)k * nfeat]);
    }
    if (fault_feature && me == npes - 1) mine[0] += 1;
    if (fault_gather && me == npes - 1)
        for (int e = 0; e < nfeat; ++e) {
            const uint32_t t = mine[e];
            mine[e] = mine[nfeat + e], mine[nfeat + e] = t;
        }
    gather_by_puts(feats, mine);
    const uint64_t end = shmemx_cycles();
    const uint64_t t0 = min_over_pes(start), t1 = min_over_pes(end);

    /* ---- the gather alone, both ways ---- */
    shmem_barrier_all();
    const uint64_t g0 = shmemx_cycles();
    gather_by_puts(feats, mine);
    const uint64_t g1 = shmemx_cycles();
    const uint64_t put_g0 = min_over_pes(g0), put_g1 = min_over_pes(g1);
    shmem_barrier_all();
    const uint64_t c0 = shmemx_cycles();
    gather_by_collect(feats_c, mine);
    const uint64_t c1 = shmemx_cycles();
    const uint64_t col_g0 = min_over_pes(c0), col_g1 = min_over_pes(c1);

    /* ---- PE 0: serial recomputation (the others asleep in the barrier) and the checks ---- */
    int status = 0;
    if (me == 0) {
        const uint64_t s0 = shmemx_cycles();
        for (int k = 0; k < images; ++k) {
            make_image(k, img);
            autocorrelogram(img, &serial[(size_t)k * nfeat]);
        }
        const uint64_t s1 = shmemx_cycles();
        const long wrong = compare("put gather", feats, serial) + compare("collect gather", feats_c, serial);
        const int best = best_match(feats, query), best_serial = best_match(serial, query),
                  best_collect = best_match(feats_c, query);
        const int qbase = query % BASES, qcopy = query / BASES, bcopy = best_serial / BASES;
        /* Judged for lightly noisy queries (copy <= 2, at most 6% noise) with a neighbour in the database; at
         * 18% noise and more the neighbouring levels blur (the best match is still a copy of the same base). */
        const int judged = qcopy <= 2 && (qcopy > 0 || query + BASES < images);
        const int as_expected = best_serial % BASES == qbase && (bcopy == qcopy - 1 || bcopy == qcopy + 1);
        printf("cbir: %d images %dx%d, %d colours, distances 1 3 5 7, %d PEs: query %d (base %d, copy %d) best "
               "match %d (base %d, copy %d), distance %lu\n", images, SIDE, SIDE, colours, npes, query, qbase, qcopy,
               best, best % BASES, best / BASES,
               (unsigned long)distance(&serial[(size_t)query * nfeat], &serial[(size_t)best_serial * nfeat]));
        if (wrong) {
            printf("cbir: FAIL: %ld gathered feature elements differ from the serial ones\n", wrong);
            status = 1;
        }
        if (best != best_serial || best_collect != best_serial) {
            printf("cbir: FAIL: best match %d (put gather), %d (collect gather), serial %d\n", best, best_collect,
                   best_serial);
            status = 1;
        }
        if (judged && !as_expected) {
            printf("cbir: FAIL: serial best match %d is not a copy of base %d at a neighbouring noise level\n",
                   best_serial, qbase);
            status = 1;
        } else if (!judged) {
            printf("cbir: (query copy %d: the best match is not judged; it is for copies 0..2 with a neighbour)\n",
                   qcopy);
        }
        if (!status) {
            printf("cbir: parallel extraction + gather %lu cycles (serial extraction on PE 0: %lu); gather alone: "
                   "puts to PE 0 %lu, shmem_collect %lu; all %d x %d features checked\n",
                   (unsigned long)(t1 - t0), (unsigned long)(s1 - s0), (unsigned long)(put_g1 - put_g0),
                   (unsigned long)(col_g1 - col_g0), images, nfeat);
            printf("csv:cbir:npes,images,cycles\n");
            printf("csv:cbir:%d,%d,%lu\n", npes, images, (unsigned long)(t1 - t0));
        }
    }
    shmem_barrier_all();
    if (status) shmem_global_exit(status);
    shmem_free(serial);
    shmem_free(mine);
    shmem_free(feats_c);
    shmem_free(feats);
    shmem_finalize();
    return 0;
}

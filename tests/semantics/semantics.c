/* Differential semantics: C operations on every fixed-width integer type and on float and double, over special
 * and pseudo-random operands, each group's results hashed. The same source is compiled for the target and for the
 * host (cmake/check_semantics.cmake), and the two runs' group lines must be equal: a difference is the target's
 * instruction semantics (its simulator, its FPU, its libgcc helpers) or its compiler disagreeing with the host's.
 *
 *   semantics              every group: "group <name> <records> <hash>", then "semantics: done"
 *   semantics int          the integer groups only (a target whose floating point is not IEEE 754's, as the host's)
 *   semantics dump <name>  that group's records, one a line: the operation, its operands and its result, in hex
 *
 * Plain C11 with <stdint.h> types, for any target: no undefined behaviour (signed arithmetic that may overflow is
 * done in unsigned types, shifts are by 0..width-1, no division by zero or MIN / -1, a floating value is converted
 * to an integer type only when it is in range), nothing that depends on long's size, and nothing of libshmem.
 * Implementation-defined behaviour it relies on, as GCC and Clang define it on every target: a signed right shift
 * is arithmetic, a conversion to a signed type of a value out of its range is modulo 2^width. The floating-point
 * groups assume IEEE 754 (C's Annex F: an overflowing conversion to float gives inf, x / 0 gives inf or NaN).
 * Every operand is read from a volatile object, so that the compiler cannot compute a result when it compiles. */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SEM_CAT_(a, b) a##b
#define SEM_CAT(a, b) SEM_CAT_(a, b)
#define SEM_REP8(M, b) M(b + 0) M(b + 1) M(b + 2) M(b + 3) M(b + 4) M(b + 5) M(b + 6) M(b + 7)
#define SEM_REP64(M) \
    SEM_REP8(M, 0) SEM_REP8(M, 8) SEM_REP8(M, 16) SEM_REP8(M, 24) SEM_REP8(M, 32) SEM_REP8(M, 40) SEM_REP8(M, 48) SEM_REP8(M, 56)

/* The operands: each group runs over the specials' pairs (or triples, singles) and then this many random ones.
 * Changing a count changes every hash (host and target alike). */
enum {
    INT_RANDOM_PAIRS = 1000,
    INT_RANDOM_SINGLES = 1000,
    SHIFT_RANDOM_SINGLES = 100,
    CONV_RANDOM_SINGLES = 300,  /* each converted from and to all eight types */
    FLOAT_RANDOM_PAIRS = 2500,
    FLOAT_RANDOM_SINGLES = 2500,
    FLOAT_TRIPLE_SPECIALS = 10, /* the first specials' triples */
    FLOAT_RANDOM_TRIPLES = 1500,
};

/* ---- recording: a group's hash and count, or its records printed -------------------------------------------- */

static uint64_t g_hash, g_count;
static int g_dumping;
static char g_line[160];

static char *put_str(char *p, const char *s)
{
    while (*s) *p++ = *s++;
    return p;
}

static char *put_hex(char *p, uint64_t v)
{
    for (int i = 60; i >= 0; i -= 4) *p++ = "0123456789abcdef"[(v >> i) & 15];
    return p;
}

static char *put_dec(char *p, uint64_t v)
{
    char t[24];
    int n = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = t[--n];
    return p;
}

/* Each step is a bijection of the hash for a given v, so one differing value always gives a differing hash; no
 * multiply (a library call where the target has no 64-bit multiply). */
static void mix(uint64_t v)
{
    g_hash ^= v;
    g_hash += g_hash << 10;
    g_hash ^= g_hash >> 6;
}

/* One record: operation op on n operands (a, b, c) gave r. The hash covers the operands and the result. */
static void rec_(const char *op, int n, uint64_t a, uint64_t b, uint64_t c, uint64_t r)
{
    g_count++;
    if (g_dumping) {
        char *p = put_str(g_line, op);
        const uint64_t v[3] = {a, b, c};
        for (int i = 0; i < n; i++) {
            *p++ = ' ';
            p = put_hex(p, v[i]);
        }
        p = put_str(p, " -> ");
        p = put_hex(p, r);
        *p++ = '\n';
        *p = 0;
        fputs(g_line, stdout);
    }
    mix(a);
    if (n > 1) mix(b);
    if (n > 2) mix(c);
    mix(r);
}
#define rec1(op, a, r) rec_(op, 1, (uint64_t)(a), 0, 0, (uint64_t)(r))
#define rec2(op, a, b, r) rec_(op, 2, (uint64_t)(a), (uint64_t)(b), 0, (uint64_t)(r))
#define rec3(op, a, b, c, r) rec_(op, 3, (uint64_t)(a), (uint64_t)(b), (uint64_t)(c), (uint64_t)(r))

/* ---- operands --------------------------------------------------------------------------------------------- */

/* xorshift64*, restarted at each group from its name, so that a group's operands do not depend on the others. */
static uint64_t g_rng;

static void seed(const char *name)
{
    g_rng = 0x2545f4914f6cdd1du;
    for (const char *p = name; *p; p++) g_rng = (g_rng ^ (unsigned char)*p) * 0x100000001b3u;
    if (g_rng == 0) g_rng = 1;
}

static uint64_t rnd(void)
{
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 0x2545f4914f6cdd1du;
}

static uint64_t width_mask(unsigned w) { return w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }

enum { INT_SPECIALS = 20 };

/* The k-th special operand of a width-w integer type, as the low w bits. */
static uint64_t int_special(unsigned k, unsigned w)
{
    const uint64_t mask = width_mask(w), min = (uint64_t)1 << (w - 1);
    static const uint64_t fixed[] = {0, 1, 2, 3, 7, 10, 100};
    if (k < 7) return fixed[k];
    switch (k) {
    case 7: return mask;                       /* -1 */
    case 8: return mask - 1;                   /* -2 */
    case 9: return (0 - (uint64_t)3) & mask;   /* -3 */
    case 10: return (0 - (uint64_t)10) & mask; /* -10 */
    case 11: return min;                       /* the signed minimum */
    case 12: return min - 1;                   /* the signed maximum */
    case 13: return min + 1;
    case 14: return min - 2;
    case 15: return 0x5555555555555555u & mask;
    case 16: return 0xaaaaaaaaaaaaaaaau & mask;
    case 17: return (uint64_t)1 << (w / 2);
    case 18: return ((uint64_t)1 << (w / 2)) - 1;
    default: return 0x0f0f0f0f0f0f0f0fu & mask;
    }
}

/* A random width-w integer: uniform bits, or short (positive or negative), near a special, a power of two. */
static uint64_t rand_int(unsigned w)
{
    const uint64_t r = rnd();
    const uint64_t k = rnd();
    const unsigned n = (unsigned)(k >> 8) % w;
    uint64_t v;
    switch (k & 7) {
    case 3: v = r >> (64 - w) >> n; break;
    case 4: v = ~(r >> (64 - w) >> n); break;
    case 5: v = int_special((unsigned)(k >> 16) % INT_SPECIALS, w) + (r & 7) - 3; break;
    case 6: v = ((uint64_t)1 << n) - (r & 1); break;
    case 7: v = (r & 0xff) - 128; break;
    default: v = r; break;
    }
    return v & width_mask(w);
}

static unsigned int_pairs(void) { return INT_SPECIALS * INT_SPECIALS + INT_RANDOM_PAIRS; }
static unsigned int_singles(void) { return INT_SPECIALS + INT_RANDOM_SINGLES; }
static unsigned shift_singles(void) { return INT_SPECIALS + SHIFT_RANDOM_SINGLES; }
static unsigned conv_singles(void) { return INT_SPECIALS + CONV_RANDOM_SINGLES; }

static void int_pair(unsigned i, unsigned w, uint64_t *a, uint64_t *b)
{
    if (i < INT_SPECIALS * INT_SPECIALS) {
        *a = int_special(i / INT_SPECIALS, w);
        *b = int_special(i % INT_SPECIALS, w);
        return;
    }
    *a = rand_int(w);
    *b = rand_int(w);
}

static uint64_t int_single(unsigned i, unsigned w) { return i < INT_SPECIALS ? int_special(i, w) : rand_int(w); }

/* Floating-point specials, as representations: zeros, ones, halves, an ulp either side of 1, the normal and
 * denormal extremes, infinities, quiet and signalling NaNs with payloads and either sign, and the boundaries of
 * the integer types (2^24, 2^31, 2^32, 2^53, 2^63, 2^64) and of rounding (x.5). */
static const uint32_t f32_specials[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x40400000, 0x3eaaaaab, 0x3f800001,
    0x3f7fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x00000001, 0x80000001, 0x007fffff, 0x00400000,
    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345, 0x4b800000, 0x4b800001,
    0x4f000000, 0xcf000000, 0x4f800000, 0x5f000000, 0xdf000000, 0x5f800000, 0x3effffff, 0x3fc00000, 0x40200000,
    0xc0200000, 0x4effffff, 0x7e800000, 0x01000000, 0x33800000, 0x34000000, 0x5a000000, 0x00800001,
};
static const uint64_t f64_specials[] = {
    0x0000000000000000u, 0x8000000000000000u, 0x3ff0000000000000u, 0xbff0000000000000u, 0x3fe0000000000000u,
    0x4000000000000000u, 0x4008000000000000u, 0x3fd5555555555555u, 0x3ff0000000000001u, 0x3fefffffffffffffu,
    0x0010000000000000u, 0x8010000000000000u, 0x7fefffffffffffffu, 0xffefffffffffffffu, 0x0000000000000001u,
    0x8000000000000001u, 0x000fffffffffffffu, 0x0008000000000000u, 0x7ff0000000000000u, 0xfff0000000000000u,
    0x7ff8000000000000u, 0xfff8000000000000u, 0x7ff8000012345678u, 0x7ff0000000000001u, 0xfff0000012345678u,
    0x4340000000000000u, 0x4340000000000001u, 0x41e0000000000000u, 0xc1e0000000000000u, 0x41f0000000000000u,
    0x43e0000000000000u, 0xc3e0000000000000u, 0x43f0000000000000u, 0x3fdfffffffffffffu, 0x3ff8000000000000u,
    0x4004000000000000u, 0xc004000000000000u, 0x41dfffffffffffffu, 0x7fd0000000000000u, 0x0020000000000000u,
    0x3ca0000000000000u, 0x3cb0000000000000u, 0x4170000000000000u, 0x0010000000000001u, 0x47efffffe0000000u,
    0x36a0000000000000u, 0x3810000000000000u, 0x380fffffffffffffu,
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static unsigned float_specials(unsigned w) { return w == 32 ? COUNT(f32_specials) : COUNT(f64_specials); }
static uint64_t float_special(unsigned k, unsigned w) { return w == 32 ? f32_specials[k] : f64_specials[k]; }

/* A random representation: any bits, ordinary magnitudes, the denormal range, near overflow, magnitudes whose
 * products underflow or overflow, short significands (exact sums, ties). */
static uint64_t rand_float(unsigned w)
{
    const unsigned fb = w == 32 ? 23 : 52;
    const uint64_t emax = w == 32 ? 0xff : 0x7ff, bias = emax >> 1;
    const uint64_t r = rnd();
    const uint64_t k = rnd();
    const unsigned m = (unsigned)(k >> 8);
    uint64_t frac = r & width_mask(fb), e;
    switch ((k >> 1) & 7) {
    case 0: return r & width_mask(w);
    case 4: e = m % 4; break;
    case 5: e = emax - 1 - m % 4; break;
    case 6: e = bias / 2 + m % 8 - 4; break;
    case 7:
        e = bias + m % 40 - 20;
        frac &= width_mask(fb) << (fb - m % 8);
        break;
    default: e = bias + m % 41 - 20; break;
    }
    return (k & 1) << (w - 1) | e << fb | frac;
}

/* A random pair: independent, or b close to a (a few low bits or the sign changed: cancellation), or b a few
 * binades below a (alignment and the sticky bit). */
static void rand_float_pair(unsigned w, uint64_t *a, uint64_t *b)
{
    const unsigned fb = w == 32 ? 23 : 52;
    const uint64_t x = rand_float(w);
    const uint64_t k = rnd();
    const uint64_t r = rnd();
    uint64_t y;
    switch (k & 3) {
    case 0: y = x ^ (r & width_mask((unsigned)(k >> 8) % fb)) ^ ((k >> 2) & 1) << (w - 1); break;
    case 1: {
        const uint64_t ex = (x >> fb) & width_mask(w - 1 - fb), d = (k >> 8) % (fb + 4);
        y = (r & (width_mask(fb) | (uint64_t)1 << (w - 1))) | (ex > d ? ex - d : 0) << fb;
        break;
    }
    default: y = rand_float(w); break;
    }
    *a = x;
    *b = y;
}

static unsigned float_pairs(unsigned w) { return float_specials(w) * float_specials(w) + FLOAT_RANDOM_PAIRS; }

static void float_pair(unsigned i, unsigned w, uint64_t *a, uint64_t *b)
{
    const unsigned ns = float_specials(w);
    if (i < ns * ns) {
        *a = float_special(i / ns, w);
        *b = float_special(i % ns, w);
        return;
    }
    rand_float_pair(w, a, b);
}

static unsigned float_singles(unsigned w) { return float_specials(w) + FLOAT_RANDOM_SINGLES; }

static uint64_t float_single(unsigned i, unsigned w) { return i < float_specials(w) ? float_special(i, w) : rand_float(w); }

static unsigned float_triples(void)
{
    return FLOAT_TRIPLE_SPECIALS * FLOAT_TRIPLE_SPECIALS * FLOAT_TRIPLE_SPECIALS + FLOAT_RANDOM_TRIPLES;
}

static void float_triple(unsigned i, unsigned w, uint64_t *a, uint64_t *b, uint64_t *c)
{
    const unsigned n = FLOAT_TRIPLE_SPECIALS;
    if (i < n * n * n) {
        *a = float_special(i / (n * n), w);
        *b = float_special(i / n % n, w);
        *c = float_special(i % n, w);
        return;
    }
    rand_float_pair(w, a, b);
    *c = rand_float(w);
}

/* The representation of a result, any NaN as the default quiet NaN of positive sign. */
static uint64_t canon_f32(float f)
{
    uint32_t u;
    if (f != f) return 0x7fc00000u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t canon_f64(double f)
{
    uint64_t u;
    if (f != f) return 0x7ff8000000000000u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The high 64 bits of a 64 x 64-bit product from 32 x 32 -> 64-bit products (for a target without __int128; where
 * it has one, the groups record both). */
static uint64_t umulh64(uint64_t a, uint64_t b)
{
    const uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    const uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 sem_i128;
__extension__ typedef unsigned __int128 sem_u128;
#endif

/* Signed: the unsigned product's high half less b for a negative a and a for a negative b (mod 2^64). */
static uint64_t smulh64(int64_t a, int64_t b)
{
    uint64_t h = umulh64((uint64_t)a, (uint64_t)b);
    if (a < 0) h -= (uint64_t)b;
    if (b < 0) h -= (uint64_t)a;
    return h;
}

/* ---- the groups --------------------------------------------------------------------------------------------- */

#define SEM_NAME i8
#define SEM_SNAME i8
#define SEM_T int8_t
#define SEM_UT uint8_t
#define SEM_W 8
#define SEM_SIGNED 1
#define SEM_AT int32_t
#define SEM_LT uint32_t
#include "int_ops.h"

#define SEM_NAME i16
#define SEM_SNAME i16
#define SEM_T int16_t
#define SEM_UT uint16_t
#define SEM_W 16
#define SEM_SIGNED 1
#define SEM_AT int32_t
#define SEM_LT uint32_t
#include "int_ops.h"

#define SEM_NAME i32
#define SEM_SNAME i32
#define SEM_T int32_t
#define SEM_UT uint32_t
#define SEM_W 32
#define SEM_SIGNED 1
#define SEM_AT uint32_t
#define SEM_LT uint32_t
#include "int_ops.h"

#define SEM_NAME i64
#define SEM_SNAME i64
#define SEM_T int64_t
#define SEM_UT uint64_t
#define SEM_W 64
#define SEM_SIGNED 1
#define SEM_AT uint64_t
#define SEM_LT uint64_t
#include "int_ops.h"

#define SEM_NAME u8
#define SEM_SNAME i8
#define SEM_T uint8_t
#define SEM_UT uint8_t
#define SEM_W 8
#define SEM_SIGNED 0
#define SEM_AT uint32_t
#define SEM_LT uint32_t
#include "int_ops.h"

#define SEM_NAME u16
#define SEM_SNAME i16
#define SEM_T uint16_t
#define SEM_UT uint16_t
#define SEM_W 16
#define SEM_SIGNED 0
#define SEM_AT uint32_t
#define SEM_LT uint32_t
#include "int_ops.h"

#define SEM_NAME u32
#define SEM_SNAME i32
#define SEM_T uint32_t
#define SEM_UT uint32_t
#define SEM_W 32
#define SEM_SIGNED 0
#define SEM_AT uint32_t
#define SEM_LT uint32_t
#include "int_ops.h"

#define SEM_NAME u64
#define SEM_SNAME i64
#define SEM_T uint64_t
#define SEM_UT uint64_t
#define SEM_W 64
#define SEM_SIGNED 0
#define SEM_AT uint64_t
#define SEM_LT uint64_t
#include "int_ops.h"

/* Conversions between the eight integer types, as values and through memory of the destination type. */
#define SEM_TO(S, s, D, dn)                      \
    {                                            \
        rec1(#S ">" #dn, bits, (D)(s));          \
        volatile D m = (D)(s);                   \
        rec1(#S ">" #dn ".m", bits, m);          \
    }
#define SEM_FROM(S)                                                                                          \
    {                                                                                                        \
        const SEM_CAT(S, _t) s = SEM_CAT(opaque_, S)(bits);                                                  \
        SEM_TO(S, s, int8_t, i8) SEM_TO(S, s, int16_t, i16) SEM_TO(S, s, int32_t, i32)                       \
        SEM_TO(S, s, int64_t, i64) SEM_TO(S, s, uint8_t, u8) SEM_TO(S, s, uint16_t, u16)                     \
        SEM_TO(S, s, uint32_t, u32) SEM_TO(S, s, uint64_t, u64)                                              \
    }
typedef int8_t i8_t;
typedef int16_t i16_t;
typedef int32_t i32_t;
typedef int64_t i64_t;
typedef uint8_t u8_t;
typedef uint16_t u16_t;
typedef uint32_t u32_t;
typedef uint64_t u64_t;

static void int_conv(void)
{
    for (unsigned i = 0; i < conv_singles(); i++) {
        const uint64_t bits = int_single(i, 64);
        SEM_FROM(i8) SEM_FROM(i16) SEM_FROM(i32) SEM_FROM(i64)
        SEM_FROM(u8) SEM_FROM(u16) SEM_FROM(u32) SEM_FROM(u64)
    }
}

/* What the floating-point groups take for granted: each operation rounded to its type (no wider evaluation), and
 * a * b - c not contracted to one fused multiply-add (with a = 1 + 2^-13, a * a = 1 + 2^-12 + 2^-26 rounds to
 * c = 1 + 2^-12; fused, a * a - c is 2^-26, not 0). */
static void float_env(void)
{
    volatile float fa = 1.0f + 0x1p-13f, fc = 1.0f + 0x1p-12f;
    volatile double da = 1.0 + 0x1p-29, dc = 1.0 + 0x1p-28;
    const float fx = fa, fz = fc;
    const double dx = da, dz = dc;
    rec1("contracted_f32", 0, fx * fx - fz != 0.0f);
    rec1("contracted_f64", 0, dx * dx - dz != 0.0);
    rec1("FLT_EVAL_METHOD", 0, FLT_EVAL_METHOD);
    rec1("FLT_MANT_DIG", 0, FLT_MANT_DIG);
    rec1("DBL_MANT_DIG", 0, DBL_MANT_DIG);
    rec1("sizeof_float", 0, sizeof(float));
    rec1("sizeof_double", 0, sizeof(double));
}

#define SEM_NAME f32
#define SEM_F float
#define SEM_UF uint32_t
#define SEM_FW 32
#define SEM_O double
#define SEM_ONAME f64
#define SEM_IW 24
#include "float_ops.h"

#define SEM_NAME f64
#define SEM_F double
#define SEM_UF uint64_t
#define SEM_FW 64
#define SEM_O float
#define SEM_ONAME f32
#define SEM_IW 53
#include "float_ops.h"

/* ---- the table and main ---------------------------------------------------------------------------------- */

struct group {
    const char *name;
    void (*run)(void);
    int floating;
};

#define INT_GROUPS(t) \
    {#t ".arith", arith_##t, 0}, {#t ".divc", divc_##t, 0}, {#t ".cmp", cmp_##t, 0}, {#t ".shift", shift_##t, 0}, \
    {#t ".rot", rot_##t, 0}, {#t ".mulh", mulh_##t, 0}
#define FLOAT_GROUPS(t) \
    {#t ".arith", farith_##t, 1}, {#t ".cmp", fcmp_##t, 1}, {#t ".conv", fconv_##t, 1}, {#t ".sign", fsign_##t, 1}, \
    {#t ".fused", ffused_##t, 1}

static const struct group groups[] = {
    INT_GROUPS(i8), INT_GROUPS(i16), INT_GROUPS(i32), INT_GROUPS(i64),
    INT_GROUPS(u8), INT_GROUPS(u16), INT_GROUPS(u32), INT_GROUPS(u64),
    {"u8.bits", bits_u8, 0}, {"u16.bits", bits_u16, 0}, {"u32.bits", bits_u32, 0}, {"u64.bits", bits_u64, 0},
    {"int.conv", int_conv, 0},
    {"float.env", float_env, 1},
    FLOAT_GROUPS(f32), FLOAT_GROUPS(f64),
};

int main(int argc, char **argv)
{
    const char *dump = NULL;
    int integer_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "dump") == 0 && i + 1 < argc) {
            dump = argv[++i];
        } else if (strcmp(argv[i], "int") == 0) {
            integer_only = 1;
        } else {
            fputs("usage: semantics [int] [dump <group>]\n", stderr);
            return 2;
        }
    }
    int ran = 0;
    for (unsigned g = 0; g < COUNT(groups); g++) {
        if (dump ? strcmp(dump, groups[g].name) != 0 : integer_only && groups[g].floating) continue;
        seed(groups[g].name);
        g_hash = 0xcbf29ce484222325u;
        g_count = 0;
        g_dumping = dump != NULL;
        groups[g].run();
        char *p = put_str(g_line, "group ");
        p = put_str(p, groups[g].name);
        *p++ = ' ';
        p = put_dec(p, g_count);
        *p++ = ' ';
        p = put_hex(p, g_hash);
        *p++ = '\n';
        *p = 0;
        fputs(g_line, stdout);
        ran++;
    }
    if (ran == 0) {
        fputs("semantics: no such group\n", stderr);
        return 2;
    }
    fputs("semantics: done\n", stdout);
    fflush(stdout);
    return 0;
}

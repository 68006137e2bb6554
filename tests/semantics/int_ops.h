/* The integer groups of one type; semantics.c includes this once per type, with:
 *   SEM_NAME    the groups' prefix (i8 ... u64)
 *   SEM_T       the type, SEM_UT the unsigned type of its width, SEM_W its width, SEM_SIGNED 1 if it is signed
 *   SEM_AT      the type + - * are computed in: int32_t for the narrow signed types (their exact results fit),
 *               uint32_t for the narrow unsigned ones (uint16_t * uint16_t promoted to int could overflow), the
 *               unsigned type of the width otherwise (signed overflow is undefined, unsigned wraps)
 *   SEM_LT      the unsigned type a left shift is computed in (a left shift of a negative value is undefined)
 *   SEM_SNAME   the prefix of the signed type of the width (its val_ function is defined before the unsigned one's)
 * This file undefines them at its end.
 * A result is recorded as its C value converted to uint64_t (modulo 2^64: a negative value sign-extends). */

#define SEM_FN(f) SEM_CAT(f, SEM_NAME)
#define SEM_MASK ((uint64_t)(SEM_UT)~(SEM_UT)0)

/* The value of the type whose representation is the low SEM_W bits of `bits`. */
static SEM_T SEM_FN(val_)(uint64_t bits)
{
    SEM_UT u = (SEM_UT)bits;
    SEM_T v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* The same, read back from a volatile object: the compiler cannot know it, so the work happens at run time. */
static SEM_T SEM_FN(opaque_)(uint64_t bits)
{
    volatile SEM_T v = SEM_FN(val_)(bits);
    return v;
}

/* + - * / % & | ^ ~ unary minus, min/max by ?:, on the specials' pairs and random pairs. */
static void SEM_FN(arith_)(void)
{
    for (unsigned i = 0; i < int_pairs(); i++) {
        uint64_t ab, bb;
        int_pair(i, SEM_W, &ab, &bb);
        SEM_T x = SEM_FN(opaque_)(ab), y = SEM_FN(opaque_)(bb);
        rec2("add", x, y, (SEM_AT)x + (SEM_AT)y);
        rec2("sub", x, y, (SEM_AT)x - (SEM_AT)y);
        rec2("mul", x, y, (SEM_AT)x * (SEM_AT)y);
        rec2("and", x, y, x & y);
        rec2("or", x, y, x | y);
        rec2("xor", x, y, x ^ y);
        rec1("not", x, ~x);
        rec1("neg", x, (SEM_AT)0 - (SEM_AT)x);
        rec2("min", x, y, x < y ? x : y);
        rec2("max", x, y, x > y ? x : y);
#if SEM_SIGNED && SEM_W >= 32
        /* MIN / -1 overflows (undefined); narrower types divide in int, where it does not */
        if (y != 0 && !(y == -1 && x == SEM_FN(val_)((uint64_t)1 << (SEM_W - 1)))) {
#else
        if (y != 0) {
#endif
            rec2("div", x, y, x / y);
            rec2("rem", x, y, x % y);
        }
    }
}

/* Division by constants: GCC turns these into multiply-high and shift sequences. */
static void SEM_FN(divc_)(void)
{
    for (unsigned i = 0; i < int_singles(); i++) {
        uint64_t xb = int_single(i, SEM_W);
        SEM_T x = SEM_FN(opaque_)(xb);
        rec1("div3", x, x / 3);
        rec1("rem3", x, x % 3);
        rec1("div7", x, x / 7);
        rec1("rem7", x, x % 7);
        rec1("div10", x, x / 10);
        rec1("rem10", x, x % 10);
        rec1("div100", x, x / 100);
        rec1("div16", x, x / 16);
        rec1("rem16", x, x % 16);
        rec1("div127", x, x / 127);
        rec1("divmax", x, x / (SEM_T)(SEM_MASK >> SEM_SIGNED));
#if SEM_SIGNED
        rec1("divm3", x, x / -3);
        rec1("remm7", x, x % -7);
        rec1("divm16", x, x / -16);
        rec1("remm16", x, x % -16);
#endif
    }
}

/* The six comparisons, with each other and with constants, as values and as branches. */
static void SEM_FN(cmp_)(void)
{
    for (unsigned i = 0; i < int_pairs(); i++) {
        uint64_t ab, bb;
        int_pair(i, SEM_W, &ab, &bb);
        SEM_T x = SEM_FN(opaque_)(ab), y = SEM_FN(opaque_)(bb);
        unsigned m = (unsigned)(x == y) | (unsigned)(x != y) << 1 | (unsigned)(x < y) << 2 |
                     (unsigned)(x <= y) << 3 | (unsigned)(x > y) << 4 | (unsigned)(x >= y) << 5;
        rec2("cmp", x, y, m);
        unsigned b = 0;
        if (x < y) b |= 1;
        if (x >= y) b |= 2;
        if (x == y) b |= 4;
        if (x > y) b |= 8;
        rec2("cmpbr", x, y, b);
        unsigned c = (unsigned)(x == 0) | (unsigned)(x != 0) << 1 | (unsigned)(x < 1) << 2 |
                     (unsigned)(x <= 5) << 3 | (unsigned)(x > 100) << 4 | (unsigned)(x >= 127) << 5;
#if SEM_SIGNED
        c |= (unsigned)(x < 0) << 6 | (unsigned)(x >= -100) << 7 | (unsigned)(x > -2) << 8;
#endif
        rec1("cmpc", x, c);
    }
}

/* Shifts by every amount 0..width-1, in a register and as constants; rotates written the usual way. */
#define SEM_SHC(k)                                                                                   \
    if ((k) < SEM_W) {                                                                               \
        rec2("shlc", x, (k), (SEM_LT)x << ((k) & (SEM_W - 1)));                                      \
        rec2("shrc", x, (k), x >> ((k) & (SEM_W - 1)));                                              \
    }
static void SEM_FN(shift_)(void)
{
    for (unsigned i = 0; i < shift_singles(); i++) {
        uint64_t xb = int_single(i, SEM_W);
        SEM_T x = SEM_FN(opaque_)(xb);
        for (unsigned s0 = 0; s0 < SEM_W; s0++) {
            volatile unsigned vs = s0;
            unsigned s = vs;
            rec2("shl", x, s, (SEM_LT)x << s);
            /* a signed right shift of a negative value is arithmetic in GCC and Clang (implementation-defined) */
            rec2("shr", x, s, x >> s);
        }
        SEM_REP64(SEM_SHC)
    }
}

static void SEM_FN(rot_)(void)
{
    for (unsigned i = 0; i < shift_singles(); i++) {
        uint64_t xb = int_single(i, SEM_W);
        SEM_UT u = (SEM_UT)SEM_FN(opaque_)(xb);
        for (unsigned s0 = 0; s0 < SEM_W; s0++) {
            volatile unsigned vs = s0;
            unsigned s = vs;
            rec2("rotl", u, s, (SEM_UT)((u << s) | (u >> ((SEM_W - s) & (SEM_W - 1)))));
            rec2("rotr", u, s, (SEM_UT)((u >> s) | (u << ((SEM_W - s) & (SEM_W - 1)))));
        }
        rec1("rotl1", u, (SEM_UT)((u << 1) | (u >> (SEM_W - 1))));
        rec1("rotl3", u, (SEM_UT)((u << 3) | (u >> (SEM_W - 3))));
        rec1("rotlh", u, (SEM_UT)((u << (SEM_W / 2)) | (u >> (SEM_W / 2))));
        rec1("rotr1", u, (SEM_UT)((u >> 1) | (u << (SEM_W - 1))));
    }
}

/* The high half of the double-width product; the overflow builtins. */
static void SEM_FN(mulh_)(void)
{
    for (unsigned i = 0; i < int_pairs(); i++) {
        uint64_t ab, bb;
        int_pair(i, SEM_W, &ab, &bb);
        SEM_T x = SEM_FN(opaque_)(ab), y = SEM_FN(opaque_)(bb);
#if SEM_W <= 16
        rec2("mulh", x, y, ((uint32_t)((SEM_AT)x * (SEM_AT)y) >> SEM_W) & SEM_MASK);
#elif SEM_W == 32 && SEM_SIGNED
        rec2("mulh", x, y, (uint32_t)((uint64_t)((int64_t)x * y) >> 32));
#elif SEM_W == 32
        rec2("mulh", x, y, (uint32_t)(((uint64_t)x * y) >> 32));
#else
#if SEM_SIGNED
        rec2("mulh64", x, y, smulh64(x, y));
#ifdef __SIZEOF_INT128__
        rec2("mulh128", x, y, (uint64_t)((sem_u128)((sem_i128)x * y) >> 64));
#else
        rec2("mulh128", x, y, smulh64(x, y));
#endif
#else
        rec2("mulh64", x, y, umulh64(x, y));
#ifdef __SIZEOF_INT128__
        rec2("mulh128", x, y, (uint64_t)(((sem_u128)x * y) >> 64));
#else
        rec2("mulh128", x, y, umulh64(x, y));
#endif
#endif
#endif
        SEM_T r;
        int o = __builtin_add_overflow(x, y, &r);
        rec2("addo", x, y, r);
        rec2("addo.f", x, y, o);
        o = __builtin_sub_overflow(x, y, &r);
        rec2("subo", x, y, r);
        rec2("subo.f", x, y, o);
        o = __builtin_mul_overflow(x, y, &r);
        rec2("mulo", x, y, r);
        rec2("mulo.f", x, y, o);
    }
}

#if !SEM_SIGNED
/* popcount, parity, clz, ctz, ffs, clrsb (of the signed type of the width), bswap. */
static void SEM_FN(bits_)(void)
{
    for (unsigned i = 0; i < int_singles(); i++) {
        uint64_t xb = int_single(i, SEM_W);
        SEM_UT x = SEM_FN(opaque_)(xb);
#if SEM_W == 64
        rec1("popcount", x, __builtin_popcountll(x));
        rec1("parity", x, __builtin_parityll(x));
        rec1("ffs", x, __builtin_ffsll((long long)(x & 0x7fffffffffffffffu)));
        rec1("clrsb", x, __builtin_clrsbll(SEM_CAT(val_, SEM_SNAME)(x)));
        if (x != 0) {
            rec1("clz", x, __builtin_clzll(x));
            rec1("ctz", x, __builtin_ctzll(x));
        }
        rec1("bswap", x, __builtin_bswap64(x));
#else
        uint32_t w = x;  /* promoted: the builtins of unsigned int, 32 bits on every target here */
        rec1("popcount", x, __builtin_popcount(w));
        rec1("parity", x, __builtin_parity(w));
        rec1("ffs", x, __builtin_ffs((int)(w & 0x7fffffffu)));
        rec1("clrsb", x, __builtin_clrsb(SEM_CAT(val_, SEM_SNAME)(x)) - (32 - SEM_W));
        if (x != 0) {
            rec1("clz", x, __builtin_clz(w) - (32 - SEM_W));
            rec1("ctz", x, __builtin_ctz(w));
        }
#if SEM_W == 32
        rec1("bswap", x, __builtin_bswap32(x));
#elif SEM_W == 16
        rec1("bswap", x, __builtin_bswap16(x));
#endif
#endif
    }
}
#endif

#undef SEM_SHC
#undef SEM_MASK
#undef SEM_FN
/* The parameters, for the next inclusion. */
#undef SEM_NAME
#undef SEM_SNAME
#undef SEM_T
#undef SEM_UT
#undef SEM_W
#undef SEM_SIGNED
#undef SEM_AT
#undef SEM_LT

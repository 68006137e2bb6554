/* The floating-point groups of one type; semantics.c includes this for float and for double, with:
 *   SEM_NAME    the groups' prefix (f32, f64)
 *   SEM_F       the type, SEM_UF the unsigned type of its representation, SEM_FW its width
 *   SEM_O       the other type (double for float, float for double), SEM_ONAME its prefix
 *   SEM_IW      the width of SEM_F's significand plus one: an integer of up to that many bits converts exactly
 * This file undefines them at its end.
 * A floating-point result is recorded as its representation, any NaN as one canonical NaN (canon32/canon64): the
 * sign and payload of a NaN result differ between ISAs (x86 SSE makes a negative default NaN, RISC-V a positive
 * one, others pass an operand's payload through). Only the values in range are converted to an integer type (the
 * others are undefined). */

#define SEM_FN(f) SEM_CAT(f, SEM_NAME)
#define SEM_CANON(x) SEM_CAT(canon_, SEM_NAME)(x)
#define SEM_OCANON(x) SEM_CAT(canon_, SEM_ONAME)(x)

static SEM_F SEM_FN(fval_)(uint64_t bits)
{
    SEM_UF u = (SEM_UF)bits;
    SEM_F f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static SEM_F SEM_FN(fopaque_)(uint64_t bits)
{
    volatile SEM_F v = SEM_FN(fval_)(bits);
    return v;
}

static uint64_t SEM_FN(frep_)(SEM_F f)  /* the representation as it is, NaN payloads and all */
{
    SEM_UF u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* + - * /, and min/max by ?:, on the specials' pairs and random pairs. */
static void SEM_FN(farith_)(void)
{
    for (unsigned i = 0; i < float_pairs(SEM_FW); i++) {
        uint64_t ab, bb;
        float_pair(i, SEM_FW, &ab, &bb);
        SEM_F x = SEM_FN(fopaque_)(ab), y = SEM_FN(fopaque_)(bb);
        rec2("add", ab, bb, SEM_CANON(x + y));
        rec2("sub", ab, bb, SEM_CANON(x - y));
        rec2("mul", ab, bb, SEM_CANON(x * y));
        rec2("div", ab, bb, SEM_CANON(x / y));
        rec2("min", ab, bb, SEM_CANON(x < y ? x : y));
        rec2("max", ab, bb, SEM_CANON(x > y ? x : y));
    }
}

/* The six comparisons (false when unordered, but != true), as values and as branches, the quiet comparison
 * builtins, comparisons with constants. */
static void SEM_FN(fcmp_)(void)
{
    for (unsigned i = 0; i < float_pairs(SEM_FW); i++) {
        uint64_t ab, bb;
        float_pair(i, SEM_FW, &ab, &bb);
        SEM_F x = SEM_FN(fopaque_)(ab), y = SEM_FN(fopaque_)(bb);
        unsigned m = (unsigned)(x == y) | (unsigned)(x != y) << 1 | (unsigned)(x < y) << 2 |
                     (unsigned)(x <= y) << 3 | (unsigned)(x > y) << 4 | (unsigned)(x >= y) << 5 |
                     (unsigned)(x != x) << 6 | (unsigned)!(x < y) << 7 | (unsigned)!(x >= y) << 8;
        rec2("cmp", ab, bb, m);
        unsigned b = 0;
        if (x < y) b |= 1;
        if (x >= y) b |= 2;
        if (x == y) b |= 4;
        if (x > y) b |= 8;
        if (x <= y) b |= 16;
        rec2("cmpbr", ab, bb, b);
        unsigned q = (unsigned)__builtin_isless(x, y) | (unsigned)__builtin_islessequal(x, y) << 1 |
                     (unsigned)__builtin_isgreater(x, y) << 2 | (unsigned)__builtin_isgreaterequal(x, y) << 3 |
                     (unsigned)__builtin_islessgreater(x, y) << 4 | (unsigned)__builtin_isunordered(x, y) << 5;
        rec2("cmpq", ab, bb, q);
        unsigned c = (unsigned)(x == 0) | (unsigned)(x < 0) << 1 | (unsigned)(x > 1) << 2 |
                     (unsigned)(x <= (SEM_F)-0.5) << 3 | (unsigned)(x >= (SEM_F)1e30) << 4;
        rec1("cmpc", ab, c);
    }
}

/* Conversions: to the other floating type, to and from int32/uint32/int64/uint64. */
static void SEM_FN(fconv_)(void)
{
    for (unsigned i = 0; i < float_singles(SEM_FW); i++) {
        uint64_t xb = float_single(i, SEM_FW);
        SEM_F x = SEM_FN(fopaque_)(xb);
        rec1("to_other", xb, SEM_OCANON((SEM_O)x));
        if (x >= (SEM_F)-2147483648.0 && x < (SEM_F)2147483648.0) rec1("to_i32", xb, (int32_t)x);
        if (x > (SEM_F)-1.0 && x < (SEM_F)4294967296.0) rec1("to_u32", xb, (uint32_t)x);
        if (x >= (SEM_F)-9223372036854775808.0 && x < (SEM_F)9223372036854775808.0) rec1("to_i64", xb, (int64_t)x);
        if (x > (SEM_F)-1.0 && x < (SEM_F)18446744073709551616.0) rec1("to_u64", xb, (uint64_t)x);
        if (x > (SEM_F)-129.0 && x < (SEM_F)128.0) rec1("to_i8", xb, (int8_t)x);
        if (x > (SEM_F)-1.0 && x < (SEM_F)65536.0) rec1("to_u16", xb, (uint16_t)x);
    }
    for (unsigned i = 0; i < int_singles(); i++) {
        uint64_t nb = int_single(i, 64);
        /* integers of about the significand's width too, where the rounding of a conversion is decided */
        if (i >= INT_SPECIALS && (i & 1)) {
            nb >>= 64 - SEM_IW - (i >> 1) % 8; /* SEM_IW to SEM_IW + 7 bits */
            if (i & 2) nb = 0 - nb;
        }
        int32_t n32 = val_i32(nb);
        uint32_t u32 = val_u32(nb);
        int64_t n64 = val_i64(nb);
        uint64_t u64 = val_u64(nb);
        volatile int32_t vn32 = n32;
        volatile uint32_t vu32 = u32;
        volatile int64_t vn64 = n64;
        volatile uint64_t vu64 = u64;
        rec1("from_i32", nb, SEM_CANON((SEM_F)vn32));
        rec1("from_u32", nb, SEM_CANON((SEM_F)vu32));
        rec1("from_i64", nb, SEM_CANON((SEM_F)vn64));
        rec1("from_u64", nb, SEM_CANON((SEM_F)vu64));
        volatile int8_t vn8 = val_i8(nb);
        volatile uint16_t vu16 = val_u16(nb);
        rec1("from_i8", nb, SEM_CANON((SEM_F)vn8));
        rec1("from_u16", nb, SEM_CANON((SEM_F)vu16));
    }
}

/* Sign operations: negation, and fabs/copysign written as bit operations on the representation. */
static void SEM_FN(fsign_)(void)
{
    for (unsigned i = 0; i < float_pairs(SEM_FW); i++) {
        uint64_t ab, bb;
        float_pair(i, SEM_FW, &ab, &bb);
        SEM_F x = SEM_FN(fopaque_)(ab), y = SEM_FN(fopaque_)(bb);
        const SEM_UF sign = (SEM_UF)1 << (SEM_FW - 1);
        SEM_UF rx = (SEM_UF)SEM_FN(frep_)(x), ry = (SEM_UF)SEM_FN(frep_)(y);
        rec1("neg", ab, SEM_CANON(-x));
        rec1("fabs", ab, SEM_CANON(SEM_FN(fval_)(rx & ~sign)));
        rec2("copysign", ab, bb, SEM_CANON(SEM_FN(fval_)((rx & ~sign) | (ry & sign))));
        rec2("signbit", ab, bb, (rx ^ ry) >> (SEM_FW - 1));
        rec2("mulsign", ab, bb, SEM_CANON(x * SEM_FN(fval_)((ry & sign) | SEM_FN(frep_)((SEM_F)1.0))));
    }
}

/* Expressions of several operations, each rounded (the build turns contraction into fused multiply-add off):
 * the specials' triples and random triples. */
static void SEM_FN(ffused_)(void)
{
    for (unsigned i = 0; i < float_triples(); i++) {
        uint64_t ab, bb, cb;
        float_triple(i, SEM_FW, &ab, &bb, &cb);
        SEM_F x = SEM_FN(fopaque_)(ab), y = SEM_FN(fopaque_)(bb), z = SEM_FN(fopaque_)(cb);
        rec3("mul_add", ab, bb, cb, SEM_CANON(x * y + z));
        rec3("mul_sub", ab, bb, cb, SEM_CANON(x * y - z));
        rec3("sub_mul", ab, bb, cb, SEM_CANON(z - x * y));
        rec3("add_mul", ab, bb, cb, SEM_CANON((x + y) * z));
        rec3("div_add", ab, bb, cb, SEM_CANON(x / y + z));
        rec3("sq_sum", ab, bb, cb, SEM_CANON(x * x + y * y - z));
        /* in the other type, then rounded back: float through double, double through float */
        rec3("other", ab, bb, cb, SEM_CANON((SEM_F)((SEM_O)x * (SEM_O)y + (SEM_O)z)));
    }
}

#undef SEM_OCANON
#undef SEM_CANON
#undef SEM_FN
/* The parameters, for the next inclusion. */
#undef SEM_NAME
#undef SEM_F
#undef SEM_UF
#undef SEM_FW
#undef SEM_O
#undef SEM_ONAME
#undef SEM_IW

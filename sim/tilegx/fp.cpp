// TILE-Gx's floating-point helper instructions: see fp.hpp for the formats and the sources.
#include "fp.hpp"

namespace tgxsim::fp {

namespace {

constexpr uint64_t bit(unsigned n) { return uint64_t(1) << n; }

// Unpacked single: fields (fp.hpp).
constexpr uint64_t kSNaN = bit(11), kSInf = bit(12), kSSub = bit(13), kSSign = bit(10);
// Unpacked double flags.
constexpr unsigned kDExpShift = 7, kDSignBit = 20, kDOpShift = 21;
constexpr uint64_t kDInf = bit(23), kDNaN = bit(24);
enum : unsigned { kOpAdd = 1, kOpSub = 2, kOpMul = 3 };

uint64_t shr_jam(uint64_t x, int64_t n) {  // x >> n, the bits shifted out ORed into bit 0
    if (n <= 0) return x;
    if (n >= 64) return x != 0;
    return (x >> n) | ((x << (64 - n)) != 0);
}

// The IEEE value (sign, biased exponent be, significand sig with its leading one at bit 62: value =
// sig * 2^(be - bias - 62), bit 0 sticky), rounded to nearest even into a format of `frac` fraction bits and an
// all-ones exponent `emax`, its sign at bit `sign_bit`. Overflow gives inf; be <= 0 shifts into the denormal
// range before rounding, so a result is rounded once, at its own precision.
uint64_t round_pack(bool sign, int64_t be, uint64_t sig, unsigned frac, uint64_t emax, unsigned sign_bit) {
    const unsigned rb = 62 - frac;  // rounding bits below the result's last bit
    const uint64_t half = bit(rb - 1), sgn = uint64_t(sign) << sign_bit;
    const uint64_t inf = sgn | (emax << frac);
    if (be >= int64_t(emax)) return inf;
    if (be <= 0) {
        sig = shr_jam(sig, 1 - be);
        be = 0;
    }
    const uint64_t r = sig & (bit(rb) - 1);
    sig >>= rb;
    if (r > half || (r == half && (sig & 1))) ++sig;
    if (be == 0) return sgn | sig;  // denormal; a carry to bit `frac` is the smallest normal, exponent field 1
    if (sig >> (frac + 1)) {
        sig >>= 1;
        if (++be >= int64_t(emax)) return inf;
    }
    return sgn | (uint64_t(be) << frac) | (sig & (bit(frac) - 1));
}

// Comparison bits of a ? b from signs and magnitudes (magnitude: the encoding without its sign bit, which orders
// like the value).
uint64_t cmp_bits(bool unordered, bool sa, uint64_t ma, bool sb, uint64_t mb) {
    if (unordered) return bit(kCmpUN) | bit(kCmpNE);
    const int64_t ka = sa ? -int64_t(ma) : int64_t(ma), kb = sb ? -int64_t(mb) : int64_t(mb);
    uint64_t r = 0;
    if (ka == kb) r |= bit(kCmpEQ) | bit(kCmpLE) | bit(kCmpGE);
    else r |= bit(kCmpNE);
    if (ka < kb) r |= bit(kCmpLT) | bit(kCmpLE);
    if (ka > kb) r |= bit(kCmpGT) | bit(kCmpGE);
    return r;
}

// An IEEE operand taken apart. frac_bits 23 or 52.
struct Operand {
    bool sign;
    uint64_t mag;  // encoding without the sign
    int64_t exp;   // effective biased exponent: denormals and zero count as 1
    uint64_t sig;  // significand with the hidden bit (frac_bits + 1 bits), 0 for zero
    bool nan, inf, zero;
};

Operand take(uint64_t bits, unsigned frac_bits, unsigned width) {
    Operand o;
    const uint64_t emax = (width == 32) ? 0xff : 0x7ff;
    o.sign = (bits >> (width - 1)) & 1;
    o.mag = bits & (bit(width - 1) - 1);
    const uint64_t e = o.mag >> frac_bits, f = o.mag & (bit(frac_bits) - 1);
    o.nan = e == emax && f != 0;
    o.inf = e == emax && f == 0;
    o.zero = o.mag == 0;
    o.exp = e ? int64_t(e) : 1;
    o.sig = e ? (f | bit(frac_bits)) : f;
    return o;
}
Operand single(uint64_t r) { return take(uint32_t(r), 23, 32); }
Operand dbl(uint64_t r) { return take(r, 52, 64); }

// Shared by add/sub of both precisions: the result's class and sign for a + b' where b' is b, or -b for subtract.
struct AddPlan {
    bool nan, inf, sign, subtract;
    int64_t emax;  // exponent of the larger-magnitude operand
};
AddPlan plan_add(const Operand& a, Operand b, bool negate_b) {
    b.sign ^= negate_b;
    AddPlan p{};
    p.subtract = a.sign != b.sign;
    if (a.nan || b.nan || (a.inf && b.inf && p.subtract)) {
        p.nan = true;
    } else if (a.inf || b.inf) {
        p.inf = true;
        p.sign = a.inf ? a.sign : b.sign;
    } else if (!p.subtract) {
        p.sign = a.sign;  // includes -0 + -0 = -0
    } else {
        p.sign = a.mag > b.mag ? a.sign : b.mag > a.mag ? b.sign : false;  // exact cancellation is +0
    }
    p.emax = a.exp > b.exp ? a.exp : b.exp;
    return p;
}

int64_t sext(uint64_t v, unsigned width) {  // width-bit two's complement field value
    const uint64_t m = bit(width) - 1;
    v &= m;
    return (v & bit(width - 1)) ? int64_t(v) - int64_t(bit(width)) : int64_t(v);
}

int clz64(uint64_t x) { return __builtin_clzll(x); }  // x != 0

uint64_t single_add1(uint64_t ra, uint64_t rb, bool negate_b) {
    const Operand a = single(ra), b = single(rb);
    const AddPlan p = plan_add(a, b, negate_b);
    uint64_t t = cmp_bits(a.nan || b.nan, a.sign, a.mag, b.sign, b.mag);
    if (p.nan) return t | kSNaN;
    if (p.sign) t |= kSSign;
    if (p.inf) return t | kSInf;
    if (p.subtract) t |= kSSub;
    return t | (uint64_t(p.emax + 1) & 0x3ff);
}

uint64_t double_add_flags(uint64_t ra, uint64_t rb, bool negate_b) {
    const Operand a = dbl(ra), b = dbl(rb);
    const AddPlan p = plan_add(a, b, negate_b);
    uint64_t f = cmp_bits(a.nan || b.nan, a.sign, a.mag, b.sign, b.mag);
    if (p.nan) return f | kDNaN;
    if (p.sign) f |= bit(kDSignBit);
    if (p.inf) return f | kDInf;
    f |= uint64_t(p.subtract ? kOpSub : kOpAdd) << kDOpShift;
    return f | ((uint64_t(p.emax) & 0x1fff) << kDExpShift);
}

// Unpacked double mantissa of an operand: hidden bit at 59, fraction at 7-58.
uint64_t dmant(const Operand& o) { return o.sig << 7; }

}  // namespace

// ---- single ------------------------------------------------------------------------------------------------------

uint64_t fsingle_add1(uint64_t, uint64_t a, uint64_t b) { return single_add1(a, b, false); }
uint64_t fsingle_sub1(uint64_t, uint64_t a, uint64_t b) { return single_add1(a, b, true); }

uint64_t fsingle_addsub2(uint64_t dest, uint64_t a, uint64_t b) {
    if (dest & (kSNaN | kSInf)) return dest;
    Operand x = single(a), y = single(b);
    if (x.mag < y.mag) {
        const Operand t = x;
        x = y;
        y = t;
    }
    const uint64_t big = x.sig << 7, small = shr_jam(y.sig << 7, x.exp - y.exp);  // hidden bits at 30
    const uint64_t m = (dest & kSSub) ? big - small : big + small;                  // < 2^32
    return uint32_t(dest) | (m << 32);
}

uint64_t fsingle_mul1(uint64_t, uint64_t a, uint64_t b) {
    const Operand x = single(a), y = single(b);
    uint64_t t = cmp_bits(x.nan || y.nan, x.sign, x.mag, y.sign, y.mag);
    if (x.nan || y.nan || (x.inf && y.zero) || (y.inf && x.zero)) return t | kSNaN;
    if (x.sign != y.sign) t |= kSSign;
    if (x.inf || y.inf) return t | kSInf;
    if (x.zero) return t;  // M = 0: the product is +-0 whatever mul2 multiplies it by
    const int lz = clz64(x.sig) - 40;  // normalize the significand to bit 23
    const int64_t e = (x.exp - lz) + y.exp - 126;
    return t | ((x.sig << lz) << 32) | (uint64_t(e) & 0x3ff);
}

uint64_t fsingle_mul2(uint64_t, uint64_t a, uint64_t b) {
    if (a & (kSNaN | kSInf)) return a;
    const Operand y = single(b);
    const uint64_t m = a >> 32;
    if (m == 0 || y.zero) return uint32_t(a);  // M = 0
    const int lz = clz64(y.sig) - 40;
    const int64_t e = sext(a, 10) - lz;
    const uint64_t p = m * (y.sig << lz);  // < 2^48, leading one at bit 46 or 47
    return (uint32_t(a) & ~uint64_t(0x3ff)) | (uint64_t(e) & 0x3ff) | (shr_jam(p, 16) << 32);
}

uint64_t fsingle_pack1(uint64_t, uint64_t a, uint64_t) { return a; }

uint64_t fsingle_pack2(uint64_t, uint64_t a, uint64_t) {
    const bool sign = a & kSSign;
    if (a & kSNaN) return kSingleNaN;
    if (a & kSInf) return (uint64_t(sign) << 31) | 0x7f800000;
    const uint64_t m = a >> 32;
    if (m == 0) return uint64_t(sign) << 31;
    // value = M * 2^(E - 158): with M's leading one moved to bit 62 the biased exponent is E - (leading zeros of
    // M as a 32-bit number).
    const int lz = clz64(m) - 32;
    return round_pack(sign, sext(a, 10) - lz, m << (31 + lz), 23, 0xff, 31);
}

// ---- double ------------------------------------------------------------------------------------------------------

uint64_t fdouble_unpack_max(uint64_t, uint64_t a, uint64_t b) {
    const Operand x = dbl(a), y = dbl(b);
    if (x.nan || y.nan || x.inf || y.inf) return 0;
    return dmant(x.mag >= y.mag ? x : y);
}

uint64_t fdouble_unpack_min(uint64_t, uint64_t a, uint64_t b) {
    const Operand x = dbl(a), y = dbl(b);
    if (x.nan || y.nan || x.inf || y.inf) return 0;
    const Operand& big = x.mag >= y.mag ? x : y;
    const Operand& small = x.mag >= y.mag ? y : x;
    return shr_jam(dmant(small), big.exp - small.exp);
}

uint64_t fdouble_add_flags(uint64_t, uint64_t a, uint64_t b) { return double_add_flags(a, b, false); }
uint64_t fdouble_sub_flags(uint64_t, uint64_t a, uint64_t b) { return double_add_flags(a, b, true); }

uint64_t fdouble_addsub(uint64_t dest, uint64_t a, uint64_t b) {
    return ((b >> kDOpShift) & 3) == kOpAdd ? dest + a : dest - a;
}

uint64_t fdouble_mul_flags(uint64_t, uint64_t a, uint64_t b) {
    const Operand x = dbl(a), y = dbl(b);
    uint64_t f = cmp_bits(x.nan || y.nan, x.sign, x.mag, y.sign, y.mag);
    if (x.nan || y.nan || (x.inf && y.zero) || (y.inf && x.zero)) return f | kDNaN;
    if (x.sign != y.sign) f |= bit(kDSignBit);
    if (x.inf || y.inf) return f | kDInf;
    f |= uint64_t(kOpMul) << kDOpShift;
    return f | ((uint64_t(x.exp + y.exp - 1023) & 0x1fff) << kDExpShift);
}

uint64_t fdouble_pack1(uint64_t, uint64_t, uint64_t b) { return b; }

uint64_t fdouble_pack2(uint64_t dest, uint64_t a, uint64_t b) {
    const bool sign = (dest >> kDSignBit) & 1;
    if (dest & kDNaN) return kDoubleNaN;
    if (dest & kDInf) return (uint64_t(sign) << 63) | 0x7ff0000000000000ull;
    if ((a | b) == 0) return uint64_t(sign) << 63;
    // The 128-bit mantissa a:b, its leading one at bit k, brought to bit 62 of a 64-bit significand (sticky bit 0).
    int k;
    uint64_t sig;
    if (a == 0) {
        k = 63 - clz64(b);
        sig = k >= 62 ? shr_jam(b, k - 62) : b << (62 - k);
    } else {
        k = 127 - clz64(a);
        const int sh = k - 62;  // 2..65
        if (sh < 64) sig = (a << (64 - sh)) | (b >> sh) | ((b << (64 - sh)) != 0);
        else sig = shr_jam(a, sh - 64) | (b != 0);
    }
    // Bit 123 of a:b (bit 59 of a) is 2^(E-1023) for add/sub/conversion; bit 118 is for a product.
    const int64_t e = sext(dest >> kDExpShift, 13);
    const int64_t be = e + k - (((dest >> kDOpShift) & 3) == kOpMul ? 118 : 123);
    return round_pack(sign, be, sig, 52, 0x7ff, 63);
}

}  // namespace tgxsim::fp

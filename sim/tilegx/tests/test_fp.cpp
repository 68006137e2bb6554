// TILE-Gx's floating-point helper instructions (sim/tilegx/fp.hpp): GCC 12's own instruction sequences for float
// and double arithmetic, comparisons and int -> float/double conversions, replayed in C++ instruction by
// instruction (the integer instructions written out too), must give the host's IEEE 754 results bit for bit.
//
// The sequences are those tilegx-linux-gnu-gcc 12.2 -O2 emits (and tilegx.md's expanders addsf3, subsf3, mulsf3,
// adddf3, subdf3, muldf3, floatsisf2, floatunssisf2, floatsidf2, floatunssidf2 and tilegx.cc's
// tilegx_emit_fp_setcc generate). Register names in the comments are those of the -O2 code; `junk` stands for the
// old value of a destination register the instruction does not read, so a helper that did read it would fail.
// Float operands are the low 32 bits of a register; their high bits are random too (GCC leaves them unspecified).
//
// Documented behaviour encoded here (fp.hpp): results are rounded to nearest even with gradual underflow (denormal
// operands and results are not flushed: no source says the hardware flushes them); every NaN result is the
// canonical quiet NaN (kSingleNaN, kDoubleNaN) whatever the operands' payloads, so against the host (whose NaN
// payload and sign follow x86 rules) NaN-ness is compared, and the bits against the canonical NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tilegx/fp.hpp"

namespace fp = tgxsim::fp;

namespace {

uint32_t fbits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
float bitsf(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
uint64_t dbits(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }
double bitsd(uint64_t u) { double d; std::memcpy(&d, &u, 8); return d; }

std::mt19937_64 rng(20240601);
uint64_t junk() { return rng(); }
// A float in a register: the low 32 bits are the float, the high 32 bits whatever.
uint64_t freg(uint32_t f) { return (rng() << 32) | f; }

// ---- integer instructions used by the sequences ----------------------------------------------------------------
uint64_t mul_lu_lu(uint64_t a, uint64_t b) { return uint64_t(uint32_t(a)) * uint32_t(b); }
uint64_t mul_hu_lu(uint64_t a, uint64_t b) { return (a >> 32) * uint32_t(b); }
uint64_t mula_hu_lu(uint64_t d, uint64_t a, uint64_t b) { return d + (a >> 32) * uint32_t(b); }
uint64_t mul_hu_hu(uint64_t a, uint64_t b) { return (a >> 32) * (b >> 32); }
uint64_t cmpltu(uint64_t a, uint64_t b) { return a < b; }
uint64_t cmpltsi(uint64_t a, int64_t imm) { return int64_t(a) < imm; }
uint64_t subx(uint64_t a, uint64_t b) { return uint64_t(int64_t(int32_t(uint32_t(a) - uint32_t(b)))); }
uint64_t cmovnez(uint64_t d, uint64_t c, uint64_t s) { return c != 0 ? s : d; }
uint64_t cmoveqz(uint64_t d, uint64_t c, uint64_t s) { return c == 0 ? s : d; }
uint64_t bfins(uint64_t d, uint64_t s, unsigned start, unsigned end) {  // start <= end here
    const unsigned n = end - start + 1;
    const uint64_t m = (n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1) << start;
    return (d & ~m) | ((s << start) & m);
}
uint64_t bfextu(uint64_t s, unsigned start, unsigned end) {
    return (s >> start) & ((uint64_t(1) << (end - start + 1)) - 1);
}
uint64_t shruxi(uint64_t s, unsigned n) { return uint64_t(int64_t(int32_t(uint32_t(s) >> n))); }

// ---- GCC's sequences ---------------------------------------------------------------------------------------------

// addsf3:  fsingle_add1 r10, r0, r1; fsingle_addsub2 r10, r0, r1; fsingle_pack1 r11, r10; fsingle_pack2 r0, r10, r11
uint32_t gcc_addsf3(uint64_t r0, uint64_t r1) {
    uint64_t r10 = fp::fsingle_add1(junk(), r0, r1);
    r10 = fp::fsingle_addsub2(r10, r0, r1);
    const uint64_t r11 = fp::fsingle_pack1(junk(), r10, 0);
    const uint64_t res = fp::fsingle_pack2(junk(), r10, r11);
    EXPECT_EQ(res >> 32, 0u);
    return uint32_t(res);
}
// subsf3: the same with fsingle_sub1.
uint32_t gcc_subsf3(uint64_t r0, uint64_t r1) {
    uint64_t r10 = fp::fsingle_sub1(junk(), r0, r1);
    r10 = fp::fsingle_addsub2(r10, r0, r1);
    const uint64_t r11 = fp::fsingle_pack1(junk(), r10, 0);
    return uint32_t(fp::fsingle_pack2(junk(), r10, r11));
}
// mulsf3:  fsingle_mul1 r0, r0, r1; fsingle_mul2 r0, r0, r1; fsingle_pack1 r10, r0; fsingle_pack2 r0, r0, r10
uint32_t gcc_mulsf3(uint64_t r0, uint64_t r1) {
    r0 = fp::fsingle_mul1(r0, r0, r1);
    r0 = fp::fsingle_mul2(r0, r0, r1);
    const uint64_t r10 = fp::fsingle_pack1(junk(), r0, 0);
    return uint32_t(fp::fsingle_pack2(r0, r0, r10));
}
// adddf3:  fdouble_add_flags r10, r0, r1; fdouble_unpack_min r11, r0, r1; fdouble_unpack_max r1, r0, r1;
//          fdouble_addsub r1, r11, r10; fdouble_pack1 r0, r1, r10; fdouble_pack2 r0, r1, zero
uint64_t gcc_adddf3(uint64_t r0, uint64_t r1, bool sub = false) {
    const uint64_t r10 = sub ? fp::fdouble_sub_flags(junk(), r0, r1) : fp::fdouble_add_flags(junk(), r0, r1);
    const uint64_t r11 = fp::fdouble_unpack_min(junk(), r0, r1);
    r1 = fp::fdouble_unpack_max(r1, r0, r1);
    r1 = fp::fdouble_addsub(r1, r11, r10);
    r0 = fp::fdouble_pack1(r0, r1, r10);
    return fp::fdouble_pack2(r0, r1, 0);
}
// subdf3: the same with fdouble_sub_flags.
uint64_t gcc_subdf3(uint64_t r0, uint64_t r1) { return gcc_adddf3(r0, r1, true); }
// muldf3:  fdouble_unpack_max r13, r1, zero; fdouble_unpack_max r10, r0, zero; fdouble_mul_flags r0, r0, r1;
//          mul_hu_lu r11, r10, r13; mul_lu_lu r12, r10, r13; mula_hu_lu r11, r13, r10; mul_hu_hu r10, r10, r13;
//          shli r13, r11, 32; shrui r11, r11, 32; add r12, r12, r13; add r10, r10, r11; cmpltu r13, r12, r13;
//          add r10, r10, r13; fdouble_pack1 r0, r10, r0; fdouble_pack2 r0, r10, r12
uint64_t gcc_muldf3(uint64_t r0, uint64_t r1) {
    uint64_t r13 = fp::fdouble_unpack_max(junk(), r1, 0);
    uint64_t r10 = fp::fdouble_unpack_max(junk(), r0, 0);
    r0 = fp::fdouble_mul_flags(r0, r0, r1);
    uint64_t r11 = mul_hu_lu(r10, r13);
    uint64_t r12 = mul_lu_lu(r10, r13);
    r11 = mula_hu_lu(r11, r13, r10);
    r10 = mul_hu_hu(r10, r13);
    r13 = r11 << 32;
    r11 = r11 >> 32;
    r12 = r12 + r13;
    r10 = r10 + r11;
    r13 = cmpltu(r12, r13);
    r10 = r10 + r13;
    r0 = fp::fdouble_pack1(r0, r10, r0);
    return fp::fdouble_pack2(r0, r10, r12);
}
// floatsisf (r0 holds the int sign-extended):  cmpltsi r11, r0, 0; subx r10, zero, r0; cmovnez r0, r11, r10;
//          moveli r10, 158; bfins r10, r11, 10, 10; bfins r10, r0, 32, 63; fsingle_pack1 r11, r10;
//          fsingle_pack2 r0, r10, r11
uint32_t gcc_floatsisf(int32_t x) {
    uint64_t r0 = uint64_t(int64_t(x));
    uint64_t r11 = cmpltsi(r0, 0);
    uint64_t r10 = subx(0, r0);
    r0 = cmovnez(r0, r11, r10);
    r10 = 158;
    r10 = bfins(r10, r11, 10, 10);
    r10 = bfins(r10, r0, 32, 63);
    r11 = fp::fsingle_pack1(r11, r10, 0);
    return uint32_t(fp::fsingle_pack2(r0, r10, r11));
}
// floatunssisf:  move r10, r0; moveli r0, 158; bfins r0, r10, 32, 63; fsingle_pack1 r10, r0; fsingle_pack2 r0, r0, r10
uint32_t gcc_floatunssisf(uint32_t x) {
    uint64_t r10 = uint64_t(int64_t(int32_t(x)));  // 32-bit values live sign-extended in registers
    uint64_t r0 = 158;
    r0 = bfins(r0, r10, 32, 63);
    r10 = fp::fsingle_pack1(r10, r0, 0);
    return uint32_t(fp::fsingle_pack2(r0, r0, r10));
}
// floatsidf:  cmpltsi r11, r0, 0; sub r10, zero, r0; cmoveqz r10, r11, r0; moveli r0, 539; shli r0, r0, 8;
//          shli r10, r10, 4; bfins r0, r11, 20, 20; fdouble_pack1 r0, r10, r0; fdouble_pack2 r0, r10, zero
uint64_t gcc_floatsidf(int32_t x) {
    uint64_t r0 = uint64_t(int64_t(x));
    const uint64_t r11 = cmpltsi(r0, 0);
    uint64_t r10 = 0 - r0;
    r10 = cmoveqz(r10, r11, r0);
    r0 = 539;
    r0 = r0 << 8;
    r10 = r10 << 4;
    r0 = bfins(r0, r11, 20, 20);
    r0 = fp::fdouble_pack1(r0, r10, r0);
    return fp::fdouble_pack2(r0, r10, 0);
}
// floatunssidf:  movei r10, 0; bfins r10, r0, 4, 35; moveli r0, 539; shli r0, r0, 8; fdouble_pack1 r0, r10, r0;
//          fdouble_pack2 r0, r10, zero
uint64_t gcc_floatunssidf(uint32_t x) {
    uint64_t r0 = uint64_t(int64_t(int32_t(x)));
    uint64_t r10 = 0;
    r10 = bfins(r10, r0, 4, 35);
    r0 = 539;
    r0 = r0 << 8;
    r0 = fp::fdouble_pack1(r0, r10, r0);
    return fp::fdouble_pack2(r0, r10, 0);
}
// Comparisons (tilegx_emit_fp_setcc): fsingle_add1 / fdouble_add_flags r0, r0, r1, then
// ==: bfextu r0, r0, 30, 30   !=: shruxi r0, r0, 31   <: bfextu 26   <=: bfextu 27   >: bfextu 28   >=: bfextu 29
// and !(a < b): bfextu r0, r0, 26, 26; xori r0, r0, 1; andi r0, r0, 1.
struct Cmp { uint64_t eq, ne, lt, le, gt, ge, nlt; };
Cmp gcc_cmp(uint64_t flags) {
    return {bfextu(flags, 30, 30), shruxi(flags, 31), bfextu(flags, 26, 26), bfextu(flags, 27, 27),
            bfextu(flags, 28, 28), bfextu(flags, 29, 29), (bfextu(flags, 26, 26) ^ 1) & 1};
}

// ---- checks ------------------------------------------------------------------------------------------------------

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

::testing::AssertionResult same_float(const char* what, uint32_t a, uint32_t b, uint32_t got, float want) {
    const uint32_t w = fbits(want);
    if (std::isnan(want) ? got == fp::kSingleNaN : got == w) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << "(" << hex(a) << ", " << hex(b) << ") = " << hex(got)
                                         << ", host " << hex(w) << " (" << bitsf(got) << " vs " << want << ")";
}
::testing::AssertionResult same_double(const char* what, uint64_t a, uint64_t b, uint64_t got, double want) {
    const uint64_t w = dbits(want);
    if (std::isnan(want) ? got == fp::kDoubleNaN : got == w) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << "(" << hex(a) << ", " << hex(b) << ") = " << hex(got)
                                         << ", host " << hex(w) << " (" << bitsd(got) << " vs " << want << ")";
}

void check_float_pair(uint32_t a, uint32_t b) {
    const float fa = bitsf(a), fb = bitsf(b);
    ASSERT_TRUE(same_float("add", a, b, gcc_addsf3(freg(a), freg(b)), fa + fb));
    ASSERT_TRUE(same_float("sub", a, b, gcc_subsf3(freg(a), freg(b)), fa - fb));
    ASSERT_TRUE(same_float("mul", a, b, gcc_mulsf3(freg(a), freg(b)), fa * fb));
    const Cmp c = gcc_cmp(fp::fsingle_add1(junk(), freg(a), freg(b)));
    const Cmp w{fa == fb, fa != fb, fa < fb, fa <= fb, fa > fb, fa >= fb, !(fa < fb)};
    ASSERT_TRUE(c.eq == w.eq && c.ne == w.ne && c.lt == w.lt && c.le == w.le && c.gt == w.gt && c.ge == w.ge &&
                c.nlt == w.nlt)
        << "compare " << hex(a) << " ? " << hex(b);
}

void check_double_pair(uint64_t a, uint64_t b) {
    const double da = bitsd(a), db = bitsd(b);
    ASSERT_TRUE(same_double("add", a, b, gcc_adddf3(a, b), da + db));
    ASSERT_TRUE(same_double("sub", a, b, gcc_subdf3(a, b), da - db));
    ASSERT_TRUE(same_double("mul", a, b, gcc_muldf3(a, b), da * db));
    const Cmp c = gcc_cmp(fp::fdouble_add_flags(junk(), a, b));
    const Cmp w{da == db, da != db, da < db, da <= db, da > db, da >= db, !(da < db)};
    ASSERT_TRUE(c.eq == w.eq && c.ne == w.ne && c.lt == w.lt && c.le == w.le && c.gt == w.gt && c.ge == w.ge &&
                c.nlt == w.nlt)
        << "compare " << hex(a) << " ? " << hex(b);
}

// Special operands: zeros, infinities, NaNs (quiet, signalling, negative, with payloads), denormals (smallest,
// largest), smallest and largest normals, values around 1 and the rounding boundaries.
std::vector<uint32_t> float_specials() {
    std::vector<uint32_t> v = {0x00000000, 0x7f800000, 0x7fc00000, 0x7f800001, 0x7fa5a5a5, 0xffc00001,
                               0x00000001, 0x00000002, 0x00000003, 0x007fffff, 0x00400000, 0x00800000,
                               0x00800001, 0x00ffffff, 0x01000000, 0x7f7fffff, 0x7f7ffffe, 0x7f000000,
                               0x3f800000, 0x3f800001, 0x3f7fffff, 0x3f000000, 0x3fc00000, 0x40000000,
                               0x33800000, 0x33000000, 0x34000000, 0x4b800000, 0x4b7fffff, 0x1f800000,
                               0x5f800000, 0x20000000, 0x3f800002, 0x3f800003, 0x33800001, 0x337fffff};
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i) v.push_back(v[i] ^ 0x80000000u);
    return v;
}
std::vector<uint64_t> double_specials() {
    std::vector<uint64_t> v = {0, 0x7ff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001,
                               0x7ff4a5a5a5a5a5a5, 0xfff8000000000001, 1, 2, 3, 0x000fffffffffffff,
                               0x0008000000000000, 0x0010000000000000, 0x0010000000000001, 0x001fffffffffffff,
                               0x0020000000000000, 0x7fefffffffffffff, 0x7feffffffffffffe, 0x7fe0000000000000,
                               0x3ff0000000000000, 0x3ff0000000000001, 0x3fefffffffffffff, 0x3fe0000000000000,
                               0x3ff8000000000000, 0x4000000000000000, 0x3ca0000000000000, 0x3c90000000000000,
                               0x3cb0000000000000, 0x4340000000000000, 0x433fffffffffffff, 0x1ff0000000000000,
                               0x5ff0000000000000, 0x2000000000000000, 0x3ff0000000000002, 0x3ff0000000000003,
                               0x3ca0000000000001, 0x3c9fffffffffffff};
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i) v.push_back(v[i] ^ 0x8000000000000000ull);
    return v;
}

constexpr int kRandom = 200000;

// ---- float -------------------------------------------------------------------------------------------------------

TEST(TgxsimFp, SingleSpecials) {
    const auto s = float_specials();
    for (uint32_t a : s)
        for (uint32_t b : s) ASSERT_NO_FATAL_FAILURE(check_float_pair(a, b));
}

TEST(TgxsimFp, SingleRandom) {
    for (int i = 0; i < kRandom; ++i) {
        const uint32_t a = uint32_t(rng()), b = uint32_t(rng());
        ASSERT_NO_FATAL_FAILURE(check_float_pair(a, b));
        ASSERT_NO_FATAL_FAILURE(check_float_pair(a, a));  // x + x (GCC's x * 2), x - x, x == x
        ASSERT_NO_FATAL_FAILURE(check_float_pair(a, a + uint32_t(rng() % 64) - 32));  // cancellation, near-ties
        // Exponents close together (a full-range random pair mostly has one operand dwarf the other).
        const uint32_t e = uint32_t(rng() % 254) + 1, d = uint32_t(rng() % 30);
        const uint32_t c = (uint32_t(rng()) & 0x807fffff) | (e << 23);
        const uint32_t f = (uint32_t(rng()) & 0x807fffff) | ((e > d ? e - d : 0) << 23);
        ASSERT_NO_FATAL_FAILURE(check_float_pair(c, f));
        // Denormals and results near the underflow threshold, and near overflow.
        const uint32_t r1 = uint32_t(rng()), r2 = uint32_t(rng());
        ASSERT_NO_FATAL_FAILURE(check_float_pair(r1 & 0x80ffffff, r2 & 0x81ffffff));
        ASSERT_NO_FATAL_FAILURE(check_float_pair((r1 & 0x87ffffff) | 0x30000000, (r2 & 0x87ffffff) | 0x08000000));
        ASSERT_NO_FATAL_FAILURE(check_float_pair((r1 & 0x87ffffff) | 0x78000000, (r2 & 0x83ffffff) | 0x3c000000));
    }
}

// Exact ties: a + b with b half an ulp of a (times an odd number), and products of two 13-bit odd integers that
// have 25 significant bits, scaled to random exponents (including the denormal range).
TEST(TgxsimFp, SingleHalfway) {
    for (int i = 0; i < kRandom / 4; ++i) {
        const uint32_t e = uint32_t(rng() % 250) + 2;
        const uint32_t a = (uint32_t(rng()) & 0x807fffff) | (e << 23);
        const int shift = 24 + int(rng() % 3);  // half, quarter and eighth of an ulp
        const float half = std::ldexp(float(int(rng() % 8) * 2 + 1), int(e) - 127 - shift);
        const uint32_t b = fbits(rng() & 1 ? half : -half);
        ASSERT_NO_FATAL_FAILURE(check_float_pair(a, b));
        const float x = float((rng() & 0xfff) | 0x1001), y = float((rng() & 0xfff) | 0x1001);
        const int k1 = int(rng() % 200) - 140, k2 = int(rng() % 200) - 100;
        ASSERT_NO_FATAL_FAILURE(check_float_pair(fbits(std::ldexp(x, k1)), fbits(std::ldexp(y, k2))));
    }
    // Named cases: 1 + 2^-24 ties to 1; (1 + 2^-23) + 2^-24 ties up; max + half an ulp overflows to inf;
    // the smallest denormal times 0.5 ties to 0, times 1.5 ties to 2^-148; min normal - min denormal.
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x3f800000, 0x33800000));
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x3f800001, 0x33800000));
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x7f7fffff, 0x73000000));
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x7f7fffff, 0x72ffffff));
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x00000001, 0x3f000000));
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x00000001, 0x3fc00000));
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x00000003, 0x3f000000));
    ASSERT_NO_FATAL_FAILURE(check_float_pair(0x00800000, 0x80000001));
    EXPECT_EQ(gcc_addsf3(0x3f800000, 0x33800000), 0x3f800000u);
    EXPECT_EQ(gcc_addsf3(0x3f800001, 0x33800000), 0x3f800002u);
    EXPECT_EQ(gcc_addsf3(0x7f7fffff, 0x73000000), 0x7f800000u);
    EXPECT_EQ(gcc_mulsf3(0x00000001, 0x3f000000), 0x00000000u);
    EXPECT_EQ(gcc_mulsf3(0x00000001, 0x3fc00000), 0x00000002u);
    EXPECT_EQ(gcc_mulsf3(0x7f7fffff, 0x40000000), 0x7f800000u);
    EXPECT_EQ(gcc_subsf3(0x3f800000, 0x3f800000), 0x00000000u);  // x - x is +0
    EXPECT_EQ(gcc_addsf3(0x80000000, 0x80000000), 0x80000000u);  // -0 + -0 is -0
    EXPECT_EQ(gcc_mulsf3(0x80000000, 0x3f800000), 0x80000000u);
    EXPECT_EQ(gcc_mulsf3(0x7f800000, 0x00000000), fp::kSingleNaN);
    EXPECT_EQ(gcc_subsf3(0x7f800000, 0x7f800000), fp::kSingleNaN);
    EXPECT_EQ(gcc_addsf3(0xffc12345, 0x3f800000), fp::kSingleNaN);  // the payload is not propagated
}

TEST(TgxsimFp, SingleFromInt) {
    std::vector<uint32_t> xs = {0, 1, 2, 3, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe,
                                0x01000000, 0x01000001, 0x01000003, 0x01000002, 0x02000002, 0x02000006,
                                0x00ffffff, 0x7fffffc0, 0x7fffffbf, 0xffffff80, 0xffffff7f};
    for (int i = 0; i < kRandom; ++i) xs.push_back(uint32_t(rng()) >> (rng() % 32));
    for (uint32_t x : xs) {
        ASSERT_EQ(gcc_floatunssisf(x), fbits(float(x))) << hex(x);
        ASSERT_EQ(gcc_floatsisf(int32_t(x)), fbits(float(int32_t(x)))) << hex(x);
        ASSERT_EQ(gcc_floatunssidf(x), dbits(double(x))) << hex(x);
        ASSERT_EQ(gcc_floatsidf(int32_t(x)), dbits(double(int32_t(x)))) << hex(x);
    }
}

// ---- double ------------------------------------------------------------------------------------------------------

TEST(TgxsimFp, DoubleSpecials) {
    const auto s = double_specials();
    for (uint64_t a : s)
        for (uint64_t b : s) ASSERT_NO_FATAL_FAILURE(check_double_pair(a, b));
}

TEST(TgxsimFp, DoubleRandom) {
    for (int i = 0; i < kRandom; ++i) {
        const uint64_t a = rng(), b = rng();
        ASSERT_NO_FATAL_FAILURE(check_double_pair(a, b));
        ASSERT_NO_FATAL_FAILURE(check_double_pair(a, a));
        ASSERT_NO_FATAL_FAILURE(check_double_pair(a, a + (rng() % 64) - 32));
        const uint64_t e = rng() % 2046 + 1, d = rng() % 60;
        const uint64_t c = (rng() & 0x800fffffffffffffull) | (e << 52);
        const uint64_t f = (rng() & 0x800fffffffffffffull) | ((e > d ? e - d : 0) << 52);
        ASSERT_NO_FATAL_FAILURE(check_double_pair(c, f));
        const uint64_t r1 = rng(), r2 = rng();
        ASSERT_NO_FATAL_FAILURE(check_double_pair(r1 & 0x801fffffffffffffull, r2 & 0x803fffffffffffffull));
        ASSERT_NO_FATAL_FAILURE(check_double_pair((r1 & 0x80ffffffffffffffull) | 0x3000000000000000ull,
                                                  (r2 & 0x80ffffffffffffffull) | 0x0100000000000000ull));
        ASSERT_NO_FATAL_FAILURE(check_double_pair((r1 & 0x80ffffffffffffffull) | 0x7f00000000000000ull,
                                                  (r2 & 0x807fffffffffffffull) | 0x3f80000000000000ull));
    }
}

TEST(TgxsimFp, DoubleHalfway) {
    for (int i = 0; i < kRandom / 4; ++i) {
        const uint64_t e = rng() % 2040 + 4;
        const uint64_t a = (rng() & 0x800fffffffffffffull) | (e << 52);
        const int shift = 53 + int(rng() % 3);
        const double half = std::ldexp(double(int(rng() % 8) * 2 + 1), int(e) - 1023 - shift);
        ASSERT_NO_FATAL_FAILURE(check_double_pair(a, dbits(rng() & 1 ? half : -half)));
        // Two odd 27-bit integers: a product of 53 or 54 significant bits, scaled.
        const double x = double((rng() & 0x3ffffff) | 0x4000001), y = double((rng() & 0x3ffffff) | 0x4000001);
        const int k1 = int(rng() % 1400) - 1100, k2 = int(rng() % 1400) - 600;
        ASSERT_NO_FATAL_FAILURE(check_double_pair(dbits(std::ldexp(x, k1)), dbits(std::ldexp(y, k2))));
    }
    ASSERT_NO_FATAL_FAILURE(check_double_pair(0x3ff0000000000000, 0x3ca0000000000000));
    ASSERT_NO_FATAL_FAILURE(check_double_pair(0x3ff0000000000001, 0x3ca0000000000000));
    ASSERT_NO_FATAL_FAILURE(check_double_pair(0x7fefffffffffffff, 0x7c90000000000000));
    ASSERT_NO_FATAL_FAILURE(check_double_pair(0x7fefffffffffffff, 0x7c8fffffffffffff));
    ASSERT_NO_FATAL_FAILURE(check_double_pair(0x0000000000000001, 0x3fe0000000000000));
    ASSERT_NO_FATAL_FAILURE(check_double_pair(0x0000000000000001, 0x3ff8000000000000));
    ASSERT_NO_FATAL_FAILURE(check_double_pair(0x0010000000000000, 0x8000000000000001));
    EXPECT_EQ(gcc_adddf3(0x3ff0000000000000, 0x3ca0000000000000), 0x3ff0000000000000u);
    EXPECT_EQ(gcc_adddf3(0x3ff0000000000001, 0x3ca0000000000000), 0x3ff0000000000002u);
    EXPECT_EQ(gcc_adddf3(0x7fefffffffffffff, 0x7c90000000000000), 0x7ff0000000000000u);
    EXPECT_EQ(gcc_muldf3(0x0000000000000001, 0x3fe0000000000000), 0x0000000000000000u);
    EXPECT_EQ(gcc_muldf3(0x0000000000000001, 0x3ff8000000000000), 0x0000000000000002u);
    EXPECT_EQ(gcc_subdf3(0x3ff0000000000000, 0x3ff0000000000000), 0x0000000000000000u);
    EXPECT_EQ(gcc_adddf3(0x8000000000000000, 0x8000000000000000), 0x8000000000000000u);
    EXPECT_EQ(gcc_muldf3(0xfff0000000000000, 0x0000000000000000), fp::kDoubleNaN);
    EXPECT_EQ(gcc_adddf3(0xfff8000000000123, 0x3ff0000000000000), fp::kDoubleNaN);
}

}  // namespace

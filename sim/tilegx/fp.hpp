// TILE-Gx's floating-point helper instructions (fsingle_*, fdouble_*), as pure functions of their operands.
//
// TILE-Gx has no FPU. GCC 12 (gcc/config/tilegx/tilegx.md, tilegx.cc) expands float and double add, sub and mul,
// the comparisons ==, !=, <, <=, >, >= and int/unsigned -> float/double conversions into short sequences of these
// instructions and ordinary integer ones; division, isunordered, float <-> double, float/double -> int and 64-bit
// int -> float/double are libgcc calls. Every function here takes (dest, a, b): dest is the destination register's
// old value (only fsingle_addsub2, fdouble_addsub and fdouble_pack2 read it: their GCC patterns tie operand 1 to
// the destination with a "0" constraint), a is srcA, b is srcB (0 where the instruction has none: fsingle_pack1).
//
// Sources, cited per function:
//   [GCC]  GCC 12.2 gcc/config/tilegx: the expanders addsf3, subsf3, mulsf3, adddf3, subdf3, muldf3, floatsisf2,
//          floatunssisf2, floatsidf2, floatunssidf2 (tilegx.md) and tilegx_emit_fp_setcc (tilegx.cc).
//   [QCG]  Chen Gang's 2015 TILE-Gx FPU patches for QEMU (target-tilegx/helper-fsingle.c, helper-fdouble.c,
//          helper-fshared.c), two revisions of helper-fsingle.c among them. They were not merged: the QEMU
//          translate.c in the index raises TILEGX_EXCP_OPCODE_UNIMPLEMENTED for these opcodes.
// No source at hand gives the hardware's bit-exact intermediate values (Tilera's UG401 chapter 7 was not
// readable). What GCC's sequences fix is implemented as they fix it; the rest of the intermediate layout is this
// simulator's own, chosen so that every GCC sequence gives the IEEE 754 round-to-nearest-even result, with
// gradual underflow (denormal inputs and outputs) and a canonical quiet NaN for every NaN result.
//
// Unpacked single ("sfmt"), the value of fsingle_add1/sub1/addsub2/mul1/mul2 and the srcA of fsingle_pack2:
//   bits 0-9   E, biased exponent, 10-bit two's complement   [GCC: floatsisf2 moves 158 into the low bits; the
//              width, wide enough for a product's exponent before rounding, is this simulator's]
//   bit  10    sign of the result                            [GCC: floatsisf2 bfins sign at 10]
//   bit  11    the result is NaN; bit 12: the result is +-inf; bit 13: add1/sub1 chose a magnitude subtraction
//              (bits 11-13: this simulator's; GCC's hand-built values leave them 0)
//   bits 25-31 comparison of the operands a ? b (kCmp*)      [GCC: tilegx_emit_fp_setcc reads 26-31; QCG: 25]
//   bits 32-63 M, an unsigned mantissa: value = (-1)^sign * M * 2^(E - 158)
//                                                            [GCC: floatunssisf2 is bfins(158, x, 32, 63)]
// Unpacked double: the "flags" word (fdouble_*_flags, fdouble_pack1, dest of fdouble_pack2)
//   bits 7-19  E, biased exponent, 13-bit two's complement   [GCC: floatsidf2's 0x21b00 = 1078 << 7; QCG]
//   bit  20    sign of the result                            [GCC: floatsidf2 bfins sign at 20]
//   bits 21-22 operation: 1 add, 2 subtract magnitudes, 3 multiply; bit 23: +-inf; bit 24: NaN   [QCG]
//   bits 25-31 comparison bits as for single                 [GCC, QCG]
// and mantissas (fdouble_unpack_*, fdouble_addsub, srcA:srcB of fdouble_pack2) with the hidden bit at bit 59,
// the 52 fraction bits at 7-58 [QCG; GCC: floatsidf2 shifts the integer left by 4 against exponent 1078 =
// 1023 + 59 - 4, and muldf3 relies on "the high few bits of the unpacked mantissa" being zero]:
//   value = (-1)^sign * M * 2^(E - 1023 - 59)              for add, subtract and conversions (M = srcA of pack2)
//   value = (-1)^sign * (srcA:srcB) * 2^(E - 1023 - 118)   for multiply (the 128-bit product of two mantissas)
#pragma once

#include <cstdint>

namespace tgxsim::fp {

// Comparison bits of fsingle_add1/sub1/mul1 and fdouble_add_flags/sub_flags/mul_flags: a op b is true iff the bit
// is set. GCC reads them with bfextu (EQ 30, NE 31, LE 27, LT 26, GE 29, GT 28: tilegx_emit_fp_setcc); UN (25)
// is QCG's and GCC never reads it. With a NaN operand only NE and UN are set; -0 and +0 compare equal.
enum : unsigned { kCmpUN = 25, kCmpLT = 26, kCmpLE = 27, kCmpGT = 28, kCmpGE = 29, kCmpEQ = 30, kCmpNE = 31 };

// The NaN every NaN result is (payloads are not propagated). QCG's fdouble_pack2 returns QEMU's default NaN,
// 0x7ff8000000000000; the later QCG fsingle_pack2 propagates softfloat's NaN instead (the sources disagree, and
// the hardware's choice is not known): single uses the matching canonical 0x7fc00000.
constexpr uint32_t kSingleNaN = 0x7fc00000u;
constexpr uint64_t kDoubleNaN = 0x7ff8000000000000ull;

// ---- single precision (float operands are the low 32 bits of a register; the high 32 bits are ignored) --------

// a + b (fsingle_add1) or a - b (fsingle_sub1), first part: the comparison bits of a ? b, and the result's sign,
// exponent (the larger operand's, plus 1: M's bit 31 is the carry), NaN/inf class and whether the magnitudes are
// added or subtracted; M is 0. The sign of an exact zero sum is + unless both addends are -0 (round to nearest).
// [GCC: addsf3/subsf3 are add1|sub1, addsub2, pack1, pack2; compares are fsingle_add1 alone. QCG: add1/sub1
// compute the whole result (with softfloat) and the comparison bits, and addsub2 is a no-op.]
uint64_t fsingle_add1(uint64_t dest, uint64_t a, uint64_t b);
uint64_t fsingle_sub1(uint64_t dest, uint64_t a, uint64_t b);
// Second part of add/sub: dest (add1/sub1's value, tied [GCC]) with M = the sum or difference of a's and b's
// 24-bit significands, placed at bits 7-30 and aligned to the larger; the smaller one's bits shifted out are
// ORed into M's bit 0 ("sticky"), which keeps the later rounding exact. NaN/inf values pass unchanged.
uint64_t fsingle_addsub2(uint64_t dest, uint64_t a, uint64_t b);
// a * b, first part: comparison bits (QCG computes them for mul too; GCC never reads them), the sign (a xor b),
// NaN (a NaN operand, or inf * 0) or inf class, a's significand normalized to 24 bits as M, and
// E = a's normalized exponent + b's exponent - 126. [GCC: mulsf3 is mul1(a, b), mul2(tmp, b), pack1, pack2.]
uint64_t fsingle_mul1(uint64_t dest, uint64_t a, uint64_t b);
// Second part of mul: a (mul1's value) with M = (M * b's normalized 24-bit significand) >> 16, sticky in bit 0,
// and E lowered by b's normalization. NaN/inf values pass unchanged. [GCC: srcA is mul1's result, srcB is b.]
uint64_t fsingle_mul2(uint64_t dest, uint64_t a, uint64_t b);
// Returns a unchanged: fsingle_pack2 does not need its result. [QCG: pack1 is a no-op whose value pack2 ignores;
// GCC always feeds pack1's value to pack2 as srcB and nothing else.]
uint64_t fsingle_pack1(uint64_t dest, uint64_t a, uint64_t b);
// The float (zero-extended to 64 bits) that the unpacked single a stands for, rounded to nearest even: normalizes
// M, rounds, overflows to inf, underflows gradually to denormals and zero; NaN -> kSingleNaN, inf -> +-inf,
// M == 0 -> +-0. b is not read. [GCC: srcA is the unpacked value, also when it is hand-built by floatsisf2 with an
// unnormalized 32-bit integer as M; QCG: pack2 converts the unpacked value to float32.]
uint64_t fsingle_pack2(uint64_t dest, uint64_t a, uint64_t b);

// ---- double precision ------------------------------------------------------------------------------------------

// Mantissa (hidden bit at 59) of whichever of a, b has the larger magnitude; 0 if either is NaN or inf. GCC's
// muldf3 unpacks one operand with unpack_max(x, 0). [GCC, QCG]
uint64_t fdouble_unpack_max(uint64_t dest, uint64_t a, uint64_t b);
// Mantissa of the smaller-magnitude operand shifted right by the exponent difference (denormals count as
// exponent 1), the bits shifted out ORed into bit 0; 0 if either is NaN or inf. [QCG shifts without the sticky
// bit, which rounds some sums wrongly; the sticky bit is this simulator's, for IEEE results.]
uint64_t fdouble_unpack_min(uint64_t dest, uint64_t a, uint64_t b);
// Flags for a + b / a - b: comparison bits of a ? b, result sign, E = the larger operand's exponent, operation
// 1 (add magnitudes) or 2 (subtract), NaN (a NaN operand, inf - inf) or inf. [GCC: adddf3/subdf3 are unpack_min,
// unpack_max, add_flags|sub_flags, addsub, pack1, pack2(result, max, 0); compares read add_flags. QCG]
uint64_t fdouble_add_flags(uint64_t dest, uint64_t a, uint64_t b);
uint64_t fdouble_sub_flags(uint64_t dest, uint64_t a, uint64_t b);
// dest + a if b (the flags) says add (operation 1), else dest - a: dest is unpack_max's mantissa (tied [GCC]),
// a unpack_min's. The sum may carry into bit 60. [QCG]
uint64_t fdouble_addsub(uint64_t dest, uint64_t a, uint64_t b);
// Flags for a * b: comparison bits, sign a xor b, E = ea + eb - 1023 (denormals count as exponent 1), operation
// 3, NaN (NaN operand, inf * 0) or inf. [GCC: muldf3 multiplies the two unpack_max(x, 0) mantissas to 128 bits
// with mul_lu_lu, mul_hu_lu, mula_hu_lu, mul_hu_hu and feeds high:low to pack2. QCG: the exponent sum, op 3.]
uint64_t fdouble_mul_flags(uint64_t dest, uint64_t a, uint64_t b);
// Returns b (the flags) for fdouble_pack2's dest. [QCG: "move srcb (flags) to dest"; GCC: pack1(res, mant,
// flags) then pack2(res, mant, low) with res tied.]
uint64_t fdouble_pack1(uint64_t dest, uint64_t a, uint64_t b);
// The double that flags dest and the 128-bit mantissa a:b stand for (see the layout above), rounded to nearest
// even, with overflow to inf and gradual underflow; NaN -> kDoubleNaN, inf -> +-inf, a:b == 0 -> +-0.
// [GCC: a is the high mantissa (addsub's, a product's high half, or floatsidf2's |x| << 4), b the low half or 0.]
uint64_t fdouble_pack2(uint64_t dest, uint64_t a, uint64_t b);

}  // namespace tgxsim::fp

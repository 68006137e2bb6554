// The TILE-Gx instruction set as the simulator sees it: a 64-bit bundle decoded into its two (X mode) or three
// (Y mode) instructions, and a bundle written back in objdump's syntax (for traces, fault reports and the
// differential tests against tilegx-linux-gnu-objdump).
//
// A bundle is 64 bits, little-endian. Bits 62-63 are the mode: 0 is an X bundle, X0 in bits 0-30 and X1 in bits
// 31-61; anything else a Y bundle, Y0 in bits 0-19 and 27-30, Y1 in bits 31-50 and 58-61, and Y2 (the memory pipe)
// in bits 20-26, 51-57 and the mode bits. Operands sit in fixed fields (enum Field). Which instruction a pipe holds
// is a mask and a value over the pipe's other bits: isa_table.inc, derived by sim/tilegx/tools/gen_isa.py from
// probes of the project's assembler and disassembler (binutils 2.40).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tgxsim {

enum class Pipe : uint8_t { X0, X1, Y0, Y1, Y2 };
const char* pipe_name(Pipe p);

// Operand fields: where an operand's bits are. Names as in binutils' include/opcode/tilegx.h.
enum Field : uint8_t {
    F_Dest_X0, F_SrcA_X0, F_SrcB_X0, F_Imm8_X0, F_Imm16_X0, F_ShAmt_X0, F_BFEnd_X0, F_BFStart_X0,
    F_Dest_X1, F_SrcA_X1, F_SrcB_X1, F_Imm8_X1, F_Imm16_X1, F_ShAmt_X1, F_MF_Imm14_X1, F_MT_Imm14_X1,
    F_Dest_Imm8_X1, F_BrOff_X1, F_JumpOff_X1,
    F_Dest_Y0, F_SrcA_Y0, F_SrcB_Y0, F_Imm8_Y0, F_ShAmt_Y0,
    F_Dest_Y1, F_SrcA_Y1, F_SrcB_Y1, F_Imm8_Y1, F_ShAmt_Y1,
    F_SrcA_Y2, F_SrcBDest_Y2,
    F_count
};

// What an operand is: a register number (0..63), a signed or unsigned immediate, a branch or jump target (the
// field counts bundles from the bundle's own address; decoded, it is the absolute address), an SPR number.
enum Kind : uint8_t { K_Reg, K_Simm, K_Uimm, K_Addr, K_Spr };

enum Op : uint16_t {
    I_invalid,  // no instruction of TILE-Gx in this pipe: the simulator faults
#define TILEGX_MNEMONIC(name, solo) I_##name,
#include "isa_table.inc"
#undef TILEGX_MNEMONIC
    I_count
};

const char* op_name(Op op);
// An instruction that cannot share a bundle (drain, nap, swint*, bpt): the assembler pads it with nops.
bool op_solo(Op op);

// Registers 0..52 are general; then tp (53), sp (54), lr (55), sn (56), the network ports idn0, idn1 (57, 58),
// udn0..udn3 (59..62), and zero (63).
enum : uint8_t { R_TP = 53, R_SP = 54, R_LR = 55, R_SN = 56, R_IDN0 = 57, R_IDN1 = 58, R_UDN0 = 59, R_UDN1 = 60,
                 R_UDN2 = 61, R_UDN3 = 62, R_ZERO = 63 };
const char* reg_name(unsigned r);

// objdump's name of an SPR, or nullptr when it has none.
const char* spr_name(unsigned spr);

struct Insn {
    Op op = I_invalid;
    Pipe pipe = Pipe::X0;
    uint8_t nops = 0;
    Kind kind[4] = {};
    int64_t opnd[4] = {};  // registers 0..63; immediates sign- or zero-extended; addresses absolute
};

struct Bundle {
    bool y = false;  // Y mode: three slots (Y0, Y1, Y2); else two (X0, X1)
    uint8_t n = 2;
    Insn slot[3];
};

// Decodes the bundle `bits` at address `pc` (branch targets are pc-relative). Never throws: a pipe that holds no
// instruction gets I_invalid.
Bundle decode(uint64_t bits, uint64_t pc);

// The bundle as objdump -d prints it after the encoding: "{ add r1, r2, r3 ; ld r4, r5 }". Padding is left out as
// objdump does (fnops, or nops beside an instruction that cannot be bundled; a bundle of nothing else shows one),
// an undecodable pipe reads "<invalid>", addresses are printed "0x..." (objdump's -b binary form).
std::string format(const Bundle& b);

// The decoding table, for its own tests: entry i's instruction, pipe, mask and value.
size_t table_size();
void table_entry(size_t i, Op& op, Pipe& pipe, uint64_t& mask, uint64_t& match);

}  // namespace tgxsim

// The Epiphany instruction set as the simulator sees it: one decoded form per instruction word, and that form
// written back in the assembler's syntax (for the trace, and for the round-trip test against epiphany-elf-as).
//
// Written from the architecture's encodings (binutils' cpu/epiphany.cpu describes the same fields): the low four
// bits of the first halfword select the family; 0x8, 0x9, 0xb, 0xc, 0xd and 0xf are 32-bit instructions, the
// others 16-bit. A 32-bit instruction is two halfwords, the first at the lower address; its register fields are
// split, the low three bits in the first halfword and the high three in the second.
#pragma once

#include <cstdint>
#include <string>

namespace epsim {

enum class Op : uint8_t {
    Invalid,  // no instruction of the E16/E64 cores: the software exception, "unimplemented instruction"
    // control flow
    Bcc,   // cond, imm = byte offset from the instruction
    Bl,    // imm = byte offset
    Jr,    // rn
    Jalr,  // rn
    Rti,
    // memory: width = log2 bytes (0..3); mode; rd (data), rn (base), rm (index) or imm (byte displacement);
    // sub: index or displacement is subtracted
    Load,
    Store,
    Testset,  // indexed form only
    // moves
    Movcc,  // cond, rd <- rn
    MovI,   // rd <- imm (16 bits)
    Movt,   // rd[31:16] <- imm
    Movts,  // special register (group, imm = index 0..63) <- rd
    Movfs,  // rd <- special register (group, imm)
    // integer
    Add, Sub, And, Orr, Eor, Lsl, Lsr, Asr,  // rd <- rn op rm
    AddI, SubI,                              // rd <- rn op imm (signed)
    LslI, LsrI, AsrI,                        // rd <- rn op imm (0..31)
    Bitr,                                    // rd <- bit-reversed rn
    // floating point (or integer in the IALU2 mode of CONFIG)
    Fadd, Fsub, Fmul, Fmadd, Fmsub, Float, Fix, Fabs,
    // core control
    Nop, Idle, Wand, Gie, Gid, Swi, Trap, Bkpt, Mbkpt, Sync,
};

enum class Mode : uint8_t {
    Index,     // [rn, +/-rm]
    PostIndex, // [rn], +/-rm
    Disp,      // [rn, +/-imm]
    PostDisp,  // [rn], +/-imm
};

struct Insn {
    Op op = Op::Invalid;
    uint8_t size = 2;   // bytes: 2 or 4
    uint8_t rd = 0, rn = 0, rm = 0;
    uint8_t cond = 0;   // Bcc, Movcc: 0 eq .. 14 always (15 is bl for branches)
    uint8_t width = 0;  // Load/Store/Testset: log2 of the access size
    Mode mode = Mode::Index;
    bool sub = false;   // Load/Store: the index or displacement is subtracted
    uint8_t group = 0;  // Movts/Movfs: 0 core, 1 DMA, 2 memory, 3 mesh registers
    int32_t imm = 0;
};

// The condition names, 0..15: eq ne gtu gteu lteu ltu gt gte lt lte beq bne blt blte (always) (link).
const char* cond_name(unsigned cond);

// Decodes the instruction whose first halfword is the low 16 bits of `word` (the next halfword in the high 16
// bits; ignored by 16-bit instructions). Never throws: an encoding no E16/E64 core executes is Op::Invalid.
Insn decode(uint32_t word);

// The length of the instruction whose first halfword is `half`: 2 or 4.
inline unsigned insn_size(uint16_t half) {
    const unsigned opc = half & 0xf;
    return (opc & 8) && opc != 0xa && opc != 0xe ? 4 : 2;
}

// The instruction in the syntax epiphany-elf-as accepts, with the form (16- or 32-bit) made explicit where the
// assembler would otherwise choose: assembling the text at address `pc` gives the same encoding back. A branch's
// target is written as an offset from the instruction (".+8": gas takes a bare number as one too), followed by
// its absolute address (pc + offset) in a comment. What gas cannot write comes back readable but not
// assemblable: the 32-bit jr/jalr of r0..r7 ("jr.l r3"), swi with a number other than 0, the 16-bit fabs (gas
// takes "fabs r1,r2" as the 32-bit form), and encodings whose ignored fields are set (snop reads as nop, an odd
// ldrd/strd register as itself).
std::string format(const Insn& in, uint32_t pc);

// The name of a special register (movts/movfs): "config", "status", ..., "dma0config", ..., "coreid"; "" if none.
const char* special_name(unsigned group, unsigned index);

}  // namespace epsim

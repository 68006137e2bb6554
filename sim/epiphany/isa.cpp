// Decoding and formatting of Epiphany instructions (isa.hpp).
#include "isa.hpp"

#include <cstdio>

namespace epsim {

namespace {

inline uint32_t bits(uint32_t w, unsigned hi, unsigned lo) { return (w >> lo) & ((1u << (hi - lo + 1)) - 1); }
inline int32_t sext(uint32_t v, unsigned width) {
    const uint32_t m = 1u << (width - 1);
    return int32_t((v ^ m) - m);
}
// 32-bit register fields: low three bits in the first halfword, high three in the second.
inline uint8_t rd6(uint32_t w) { return uint8_t(bits(w, 15, 13) | bits(w, 31, 29) << 3); }
inline uint8_t rn6(uint32_t w) { return uint8_t(bits(w, 12, 10) | bits(w, 28, 26) << 3); }
inline uint8_t rm6(uint32_t w) { return uint8_t(bits(w, 9, 7) | bits(w, 25, 23) << 3); }

// The shift-by-immediate families, 16- and 32-bit alike: bit 4 picks lsr/lsl, or (arithmetic family) asr/bitr;
// the amount is bits 9:5, and bitr has none.
Insn shift_imm(uint32_t w, bool arith, Insn in) {
    in.imm = int32_t(bits(w, 9, 5));
    if (!arith) {
        in.op = bits(w, 4, 4) ? Op::LslI : Op::LsrI;
        return in;
    }
    in.op = bits(w, 4, 4) ? Op::Bitr : Op::AsrI;
    return in.op == Op::Bitr && in.imm != 0 ? Insn{} : in;
}

const Op kAlu[8] = {Op::Eor, Op::Add, Op::Lsl, Op::Sub, Op::Lsr, Op::And, Op::Asr, Op::Orr};
const Op kFpu[8] = {Op::Fadd, Op::Fsub, Op::Fmul, Op::Fmadd, Op::Fmsub, Op::Float, Op::Fix, Op::Fabs};

// FLOW16 and its 32-bit extension (MISC with bits 19:16 = 2) share the sub-opcode in bits 8:4.
Insn flow(uint32_t w, bool wide) {
    Insn in;
    in.size = wide ? 4 : 2;
    const uint8_t rd = wide ? rd6(w) : uint8_t(bits(w, 15, 13));
    const uint8_t rn = wide ? rn6(w) : uint8_t(bits(w, 12, 10));
    if (bits(w, 9, 9) == 0 && bits(w, 8, 8) == 0) {  // movCOND
        if (wide && bits(w, 25, 20) != 0) return Insn{};
        in.op = Op::Movcc;
        in.cond = uint8_t(bits(w, 7, 4));
        if (in.cond == 15) return Insn{};
        in.rd = rd;
        in.rn = rn;
        return in;
    }
    const unsigned sub = bits(w, 8, 4);
    if (wide) {
        // 32-bit: movts/movfs (group in bits 21:20, bits 25:22 zero), jr, jalr.
        if ((sub == 0x10 || sub == 0x11) && bits(w, 9, 9) == 0 && bits(w, 25, 22) == 0) {
            in.op = sub == 0x10 ? Op::Movts : Op::Movfs;
            in.rd = rd;
            in.group = uint8_t(bits(w, 21, 20));
            in.imm = rn;  // the special register's index: the rn field
            return in;
        }
        if ((sub == 0x14 || sub == 0x15) && bits(w, 9, 9) == 0 && bits(w, 15, 13) == 0 && bits(w, 31, 29) == 0 &&
            bits(w, 25, 20) == 0) {
            in.op = sub == 0x14 ? Op::Jr : Op::Jalr;
            in.rn = rn;
            return in;
        }
        return Insn{};
    }
    switch (sub) {
    case 0x10:
    case 0x11:
        if (bits(w, 9, 9) != 0) return Insn{};
        in.op = sub == 0x10 ? Op::Movts : Op::Movfs;
        in.rd = rd;
        in.imm = rn;
        return in;
    case 0x14:
    case 0x15:
        if (bits(w, 9, 9) != 0 || bits(w, 15, 13) != 0) return Insn{};
        in.op = sub == 0x14 ? Op::Jr : Op::Jalr;
        in.rn = rn;
        return in;
    case 0x18: in.op = Op::Wand; break;
    case 0x19: in.op = bits(w, 9, 9) ? Op::Gid : Op::Gie; return bits(w, 15, 10) ? Insn{} : in;
    case 0x1a: in.op = Op::Nop; break;
    case 0x1b: in.op = Op::Idle; break;
    case 0x1c: in.op = bits(w, 9, 9) ? Op::Mbkpt : Op::Bkpt; return bits(w, 15, 10) ? Insn{} : in;
    case 0x1d: in.op = Op::Rti; break;
    case 0x1e:
        in.op = bits(w, 9, 9) ? Op::Trap : Op::Swi;
        in.imm = int32_t(bits(w, 15, 10));
        return in;
    case 0x1f: in.op = Op::Sync; break;
    default: return Insn{};
    }
    // The remaining forms have nothing in bits 15:9 (snop, bits 9 set over nop, executes as nop).
    if (in.op == Op::Nop && bits(w, 15, 9) == 1) return in;
    return bits(w, 15, 9) ? Insn{} : in;
}

Insn memory(uint32_t w, unsigned opc) {
    Insn in;
    in.width = uint8_t(bits(w, 6, 5));
    in.op = bits(w, 4, 4) ? Op::Store : Op::Load;
    switch (opc) {
    case 0x1:  // [rn, rm]
    case 0x5:  // [rn], rm
    case 0x4:  // [rn, #disp3]
        in.size = 2;
        in.rd = uint8_t(bits(w, 15, 13));
        in.rn = uint8_t(bits(w, 12, 10));
        if (opc == 0x4) {
            in.mode = Mode::Disp;
            in.imm = int32_t(bits(w, 9, 7) << in.width);
        } else {
            in.mode = opc == 0x1 ? Mode::Index : Mode::PostIndex;
            in.rm = uint8_t(bits(w, 9, 7));
        }
        return in;
    case 0x9:  // [rn, +/-rm], testset
    case 0xd:  // [rn], +/-rm
        in.size = 4;
        if (bits(w, 19, 16) != 0 || bits(w, 22, 22) != 0) return Insn{};
        if (bits(w, 21, 21)) {
            if (opc != 0x9 || in.op != Op::Load || in.width == 3) return Insn{};
            in.op = Op::Testset;
        }
        in.rd = rd6(w);
        in.rn = rn6(w);
        in.rm = rm6(w);
        in.sub = bits(w, 20, 20) != 0;
        in.mode = opc == 0x9 ? Mode::Index : Mode::PostIndex;
        return in;
    default:  // 0xc: [rn, +/-#disp11] or [rn], +/-#disp11
        in.size = 4;
        in.rd = rd6(w);
        in.rn = rn6(w);
        in.sub = bits(w, 24, 24) != 0;
        in.mode = bits(w, 25, 25) ? Mode::PostDisp : Mode::Disp;
        in.imm = int32_t((bits(w, 9, 7) | bits(w, 23, 16) << 3) << in.width);
        return in;
    }
}

}  // namespace

const char* cond_name(unsigned cond) {
    static const char* const names[16] = {"eq",  "ne", "gtu", "gteu", "lteu", "ltu",  "gt", "gte",
                                          "lt",  "lte", "beq", "bne", "blt",  "blte", "",   "l"};
    return names[cond & 15];
}

namespace {

Insn decode_form(uint32_t w) {
    const unsigned opc = w & 0xf;
    Insn in;
    switch (opc) {
    case 0x0:  // B<cond>.s simm8
    case 0x8:  // B<cond>.l simm24
        in.size = opc ? 4 : 2;
        in.cond = uint8_t(bits(w, 7, 4));
        in.op = in.cond == 15 ? Op::Bl : Op::Bcc;
        in.imm = opc ? sext(bits(w, 31, 8), 24) * 2 : sext(bits(w, 15, 8), 8) * 2;
        return in;
    case 0x1:
    case 0x4:
    case 0x5:
    case 0x9:
    case 0xc:
    case 0xd:
        return memory(w, opc);
    case 0x2:
        return flow(w, false);
    case 0x3:  // mov.b rd, imm8; add.s/sub.s rd, rn, simm3
        in.rd = uint8_t(bits(w, 15, 13));
        if (bits(w, 4, 4) == 0) {
            in.op = Op::MovI;
            in.imm = int32_t(bits(w, 12, 5));
            return in;
        }
        if (bits(w, 6, 4) != 1 && bits(w, 6, 4) != 3) return Insn{};
        in.op = bits(w, 6, 4) == 1 ? Op::AddI : Op::SubI;
        in.rn = uint8_t(bits(w, 12, 10));
        in.imm = sext(bits(w, 9, 7), 3);
        return in;
    case 0xb:  // mov.l/movt rd6, imm16; add.l/sub.l rd6, rn6, simm11
        in.size = 4;
        in.rd = rd6(w);
        if (bits(w, 4, 4) == 0) {
            if (bits(w, 19, 16) != 2) return Insn{};
            in.op = bits(w, 28, 28) ? Op::Movt : Op::MovI;
            in.imm = int32_t(bits(w, 12, 5) | bits(w, 27, 20) << 8);
            return in;
        }
        if ((bits(w, 6, 4) != 1 && bits(w, 6, 4) != 3) || bits(w, 25, 24) != 0) return Insn{};
        in.op = bits(w, 6, 4) == 1 ? Op::AddI : Op::SubI;
        in.rn = rn6(w);
        in.imm = sext(bits(w, 9, 7) | bits(w, 23, 16) << 3, 11);
        return in;
    case 0x6:  // lsr/lsl rd, rn, #shift
    case 0xe:  // asr rd, rn, #shift; bitr rd, rn
        in.rd = uint8_t(bits(w, 15, 13));
        in.rn = uint8_t(bits(w, 12, 10));
        return shift_imm(w, opc == 0xe, in);
    case 0x7:  // fpu16
    case 0xa:  // alu16
        in.op = opc == 0x7 ? kFpu[bits(w, 6, 4)] : kAlu[bits(w, 6, 4)];
        in.rd = uint8_t(bits(w, 15, 13));
        in.rn = uint8_t(bits(w, 12, 10));
        in.rm = uint8_t(bits(w, 9, 7));
        return in;
    case 0xf: {
        in.size = 4;
        const unsigned sub = bits(w, 19, 16);
        in.rd = rd6(w);
        in.rn = rn6(w);
        in.rm = rm6(w);
        switch (sub) {
        case 0x2:
            return flow(w, true);
        case 0xa:  // alu32; bit 20 set: fext/fdep/lfsr, which the E16/E64 do not have
        case 0x7:  // fpu32; bit 20 set: frecip/fsqrt, likewise
            if (bits(w, 22, 20) != 0) return Insn{};
            in.op = sub == 0x7 ? kFpu[bits(w, 6, 4)] : kAlu[bits(w, 6, 4)];
            return in;
        case 0x6:
        case 0xe:
            if (bits(w, 25, 20) != 0) return Insn{};
            in.rm = 0;
            return shift_imm(w, sub == 0xe, in);
        default:
            return Insn{};
        }
    }
    }
    return Insn{};
}

}  // namespace

// An invalid encoding keeps the length its first halfword gives (an exception's IRET, the trace, the next
// instruction's address follow it), not Insn's default of 2.
Insn decode(uint32_t w) {
    Insn in = decode_form(w);
    if (in.op == Op::Invalid) in.size = uint8_t(insn_size(uint16_t(w)));
    return in;
}

const char* special_name(unsigned group, unsigned index) {
    // The assembler's names; "hstatus" is the architecture's FSTATUS, "debug" its DEBUGSTATUS.
    static const char* const core[] = {"config", "status", "pc",     "debug",   "iab",     "lc",
                                       "ls",     "le",     "iret",   "imask",   "ilat",    "ilatst",
                                       "ilatcl", "ipend",  "ctimer0", "ctimer1", "hstatus"};
    static const char* const dma[] = {"dma0config", "dma0stride", "dma0count", "dma0srcaddr", "dma0dstaddr",
                                      "dma0auto0",  "dma0auto1",  "dma0status", "dma1config", "dma1stride",
                                      "dma1count",  "dma1srcaddr", "dma1dstaddr", "dma1auto0", "dma1auto1",
                                      "dma1status"};
    static const char* const mem[] = {"memconfig", "memstatus", "memprotect", "memreserve"};
    static const char* const mesh[] = {"meshconfig", "coreid", "meshmulticast", "swreset"};
    switch (group) {
    case 0: return index < sizeof core / sizeof *core ? core[index] : "";
    case 1: return index < sizeof dma / sizeof *dma ? dma[index] : "";
    case 2: return index < sizeof mem / sizeof *mem ? mem[index] : "";
    case 3: return index < sizeof mesh / sizeof *mesh ? mesh[index] : "";
    }
    return "";
}

std::string format(const Insn& in, uint32_t pc) {
    char b[96];
    const bool l = in.size == 4;
    const char* sfx = l ? ".l" : "";
    auto r = [](unsigned n) { return std::string("r") + std::to_string(n); };
    static const char* const alu[] = {"add", "sub", "and", "orr", "eor", "lsl", "lsr", "asr"};
    static const char* const fpu[] = {"fadd", "fsub", "fmul", "fmadd", "fmsub", "float", "fix", "fabs"};
    static const char* const ld[] = {"ldrb", "ldrh", "ldr", "ldrd"};
    static const char* const st[] = {"strb", "strh", "str", "strd"};
    static const char* const ts[] = {"testsetb", "testseth", "testset", ""};
    switch (in.op) {
    case Op::Invalid: return ".invalid";
    // gas reads a branch's bare number as an offset from the instruction (".+number"), never as an address: the
    // target is written as that offset, and the absolute address follows in a comment.
    case Op::Bcc:
    case Op::Bl:
        std::snprintf(b, sizeof b, "b%s%s .%+d ; 0x%x", in.op == Op::Bl ? "l" : cond_name(in.cond), l ? ".l" : ".s",
                      in.imm, pc + uint32_t(in.imm));
        return b;
    // gas has no ".l" for jr and jalr: it takes the 32-bit form for r8..r63 and the 16-bit one for r0..r7, so the
    // 32-bit form of r0..r7 has no syntax (it keeps ".l" here to show the form; gas rejects it).
    case Op::Jr: return (l && in.rn < 8 ? "jr.l " : "jr ") + r(in.rn);
    case Op::Jalr: return (l && in.rn < 8 ? "jalr.l " : "jalr ") + r(in.rn);
    case Op::Rti: return "rti";
    case Op::Load:
    case Op::Store:
    case Op::Testset: {
        const char* name = in.op == Op::Load ? ld[in.width] : in.op == Op::Store ? st[in.width] : ts[in.width];
        const char* sign = in.sub ? "-" : "";
        const uint32_t disp = uint32_t(in.imm) >> in.width;  // the assembler scales the displacement
        switch (in.mode) {
        case Mode::Index:
            std::snprintf(b, sizeof b, "%s%s r%u,[r%u,%sr%u]", name, sfx, in.rd, in.rn, sign, in.rm);
            break;
        case Mode::PostIndex:
            std::snprintf(b, sizeof b, "%s%s r%u,[r%u],%sr%u", name, sfx, in.rd, in.rn, sign, in.rm);
            break;
        case Mode::Disp:
            std::snprintf(b, sizeof b, "%s%s r%u,[r%u,#%s%u]", name, sfx, in.rd, in.rn, sign, disp);
            break;
        case Mode::PostDisp:
            std::snprintf(b, sizeof b, "%s%s r%u,[r%u],#%s%u", name, sfx, in.rd, in.rn, sign, disp);
            break;
        }
        return b;
    }
    case Op::Movcc: std::snprintf(b, sizeof b, "mov%s%s r%u,r%u", cond_name(in.cond), sfx, in.rd, in.rn); return b;
    case Op::MovI:
        std::snprintf(b, sizeof b, "mov%s r%u,#%d", l ? ".l" : ".b", in.rd, in.imm);
        return b;
    case Op::Movt: std::snprintf(b, sizeof b, "movt%s r%u,#%d", sfx, in.rd, in.imm); return b;
    case Op::Movts:
    case Op::Movfs: {
        const char* s = special_name(in.group, unsigned(in.imm));
        std::string sr = *s ? s : "?";
        if (in.op == Op::Movts) std::snprintf(b, sizeof b, "movts%s %s,r%u", sfx, sr.c_str(), in.rd);
        else std::snprintf(b, sizeof b, "movfs%s r%u,%s", sfx, in.rd, sr.c_str());
        return b;
    }
    case Op::Add: case Op::Sub: case Op::And: case Op::Orr: case Op::Eor: case Op::Lsl: case Op::Lsr:
    case Op::Asr:
        std::snprintf(b, sizeof b, "%s%s r%u,r%u,r%u", alu[int(in.op) - int(Op::Add)], sfx, in.rd, in.rn, in.rm);
        return b;
    case Op::AddI:
    case Op::SubI:
        std::snprintf(b, sizeof b, "%s%s r%u,r%u,#%d", in.op == Op::AddI ? "add" : "sub", l ? ".l" : ".s", in.rd,
                      in.rn, in.imm);
        return b;
    case Op::LslI:
    case Op::LsrI:
    case Op::AsrI:
        std::snprintf(b, sizeof b, "%s%s r%u,r%u,#%d",
                      in.op == Op::LslI ? "lsl" : in.op == Op::LsrI ? "lsr" : "asr", sfx, in.rd, in.rn, in.imm);
        return b;
    case Op::Bitr: std::snprintf(b, sizeof b, "bitr%s r%u,r%u", sfx, in.rd, in.rn); return b;
    case Op::Fadd: case Op::Fsub: case Op::Fmul: case Op::Fmadd: case Op::Fmsub:
        std::snprintf(b, sizeof b, "%s%s r%u,r%u,r%u", fpu[int(in.op) - int(Op::Fadd)], sfx, in.rd, in.rn, in.rm);
        return b;
    case Op::Float: case Op::Fix: case Op::Fabs:
        std::snprintf(b, sizeof b, "%s%s r%u,r%u", fpu[int(in.op) - int(Op::Fadd)], sfx, in.rd, in.rn);
        return b;
    case Op::Nop: return "nop";
    case Op::Idle: return "idle";
    case Op::Wand: return "wand";
    case Op::Gie: return "gie";
    case Op::Gid: return "gid";
    case Op::Swi: return "swi #" + std::to_string(in.imm);
    case Op::Trap: return "trap #" + std::to_string(in.imm);
    case Op::Bkpt: return "bkpt";
    case Op::Mbkpt: return "mbkpt";
    case Op::Sync: return "sync";
    }
    return ".invalid";
}

}  // namespace epsim

// The Epiphany simulator (sim/epiphany, epsim): its decoder and formatter against binutils' assembler, and the
// chip's behaviour running small programs.
//
// Most tests need the cross assembler (epiphany-elf-as, with epiphany-elf-ld and epiphany-elf-objcopy beside it):
// CMakeLists.txt compiles them only when it has one (EPSIM_ASSEMBLER). Code is assembled, linked at local address
// 0 and its .text taken as raw bytes; the chip's cores get those bytes through Chip::host_write, like the loader's.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "chip.hpp"
#include "isa.hpp"

using namespace epsim;

namespace {

std::string hex(uint32_t v, int digits = 8) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%0*x", digits, v);
    return b;
}

// ---- the decoder, without the assembler ------------------------------------------------------------------------

TEST(EpsimDecode, TheLowNibbleGivesTheSize) {
    for (unsigned opc = 0; opc < 16; ++opc) {
        const bool wide = opc == 0x8 || opc == 0x9 || opc == 0xb || opc == 0xc || opc == 0xd || opc == 0xf;
        EXPECT_EQ(insn_size(uint16_t(0x1230 | opc)), wide ? 4u : 2u) << opc;
    }
}

// Encodings that no E16/E64 core executes, written from the architecture's fields (binutils' cpu/epiphany.cpu):
// each is the software exception's "unimplemented instruction".
TEST(EpsimDecode, EncodingsTheE16AndE64DoNotHaveAreInvalid) {
    const struct {
        uint32_t word;
        const char* what;
    } cases[] = {
        {0xffffffffu, "all ones (MISC, sub-opcode 0xf)"},
        {0x0000ffffu, "0xffff then 0 (MISC, sub-opcode 0xf)"},
        {0xffff000fu, "MISC, sub-opcode 0xf, other fields set"},
        {0x001a298fu, "fext r1,r2,r3 (a later core's bit-field extract)"},
        {0x001a299fu, "fdep r1,r2,r3"},
        {0x001a29afu, "lfsr r1,r2,r3"},
        {0x0017280fu, "frecip r1,r2"},
        {0x0017281fu, "fsqrt r1,r2"},
        {0x0040299fu, "add.l with bit 22 set"},
        {0x000000f2u, "16-bit movCOND with condition 15"},
        {0x000200ffu, "32-bit movCOND with condition 15"},
        {0x00000122u, "FLOW16 sub-opcode 0x12"},
        {0x00000172u, "FLOW16 sub-opcode 0x17"},
        {0x00000053u, "IMM16 operation 5"},
        {0x00000073u, "IMM16 operation 7"},
        {0x0000003eu, "bitr with a shift amount"},
        {0x0000000bu, "mov.l without its 0x2 in bits 19:16"},
        {0x00200069u, "testset of a doubleword"},
        {0x00200079u, "testset as a store"},
        {0x0001000fu, "MISC, sub-opcode 1"},
    };
    for (const auto& c : cases) {
        const Insn in = decode(c.word);
        EXPECT_EQ(in.op, Op::Invalid) << hex(c.word) << " " << c.what << " decodes as " << format(in, 0);
        EXPECT_EQ(in.size, insn_size(uint16_t(c.word))) << hex(c.word) << " " << c.what << ": its length";
    }
}

// Forms the decoder takes that the assembler has no syntax for (format() says so in isa.hpp).
TEST(EpsimDecode, FormsTheAssemblerCannotWrite) {
    // snop: nop with bit 9 set, executed as a nop.
    EXPECT_EQ(decode(0x03a2).op, Op::Nop);
    // swi with a number: gas takes only 0 (its range check gives the field no bits).
    Insn in = decode(0x0de2);
    EXPECT_EQ(in.op, Op::Swi);
    EXPECT_EQ(in.imm, 3);
    EXPECT_EQ(format(in, 0), "swi #3");
    // The 32-bit jr and jalr of r0..r7 (gas takes the 16-bit form for these registers).
    in = decode(0x00020d4f);
    EXPECT_EQ(in.op, Op::Jr);
    EXPECT_EQ(in.size, 4);
    EXPECT_EQ(in.rn, 3);
    EXPECT_EQ(format(in, 0), "jr.l r3");
    in = decode(0x00020d5f);
    EXPECT_EQ(in.op, Op::Jalr);
    EXPECT_EQ(in.size, 4);
    EXPECT_EQ(format(in, 0), "jalr.l r3");
    // The 16-bit fabs: binutils writes its syntax "fabs rd,rn" without the operands' '$', so gas takes the 32-bit
    // form for "fabs r1,r2".
    in = decode(0x2877);
    EXPECT_EQ(in.op, Op::Fabs);
    EXPECT_EQ(in.size, 2);
    EXPECT_EQ(in.rd, 1);
    EXPECT_EQ(in.rn, 2);
    // An odd register in ldrd (gas wants the even one of the pair): decoded as written.
    in = decode(0x5165 | 1u << 13);  // ldrd r3,[r4],r2
    EXPECT_EQ(in.op, Op::Load);
    EXPECT_EQ(in.width, 3);
    EXPECT_EQ(in.rd, 3);
}

TEST(EpsimDecode, BranchesFormatAsOffsetsWithTheTargetInAComment) {
    EXPECT_EQ(format(decode(0x0260), 0x100), "bgt.s .+4 ; 0x104");            // bgt.s, offset +4
    EXPECT_EQ(format(decode(0xfe60), 0x100), "bgt.s .-4 ; 0xfc");
    EXPECT_EQ(format(decode(0xffffffe8u), 0x100), "b.l .-2 ; 0xfe");          // b.l, offset -2
    EXPECT_EQ(format(decode(0x000002f8u), 0x100), "bl.l .+4 ; 0x104");
}

#ifdef EPSIM_ASSEMBLER

// ---- the toolchain ---------------------------------------------------------------------------------------------

// A scratch directory of this process (ctest runs tests in parallel processes), removed when it ends.
class Scratch {
public:
    Scratch() {
        std::string tmpl = ::testing::TempDir() + "epsim-XXXXXX";
        if (::mkdtemp(tmpl.data()) == nullptr) {
            std::perror(tmpl.c_str());
            std::abort();
        }
        dir_ = tmpl;
    }
    ~Scratch() {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }

private:
    std::string dir_;
};

const Scratch& scratch() {
    static const Scratch s;
    return s;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string read_text(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// Assembles `source`, links it at address 0 and gives its .text: true, or false with the tools' messages in
// `errors` (which names the source's lines as "prog.s:N").
bool assemble(const std::string& source, std::vector<uint8_t>& text, std::string& errors) {
    const Scratch& s = scratch();
    {
        std::ofstream f(s.path("prog.s"));
        f << source;
    }
    const std::string log = s.path("log");
    const std::string cmd = "cd " + quoted(s.path("")) + " && " + quoted(EPSIM_ASSEMBLER) +
                            " -o prog.o prog.s >log 2>&1 && " + quoted(EPSIM_LINKER) +
                            " -Ttext=0 -e 0 --no-warn-rwx-segments -o prog.elf prog.o >>log 2>&1 && " +
                            quoted(EPSIM_OBJCOPY) + " -O binary -j .text prog.elf prog.bin >>log 2>&1";
    std::filesystem::remove(s.path("prog.bin"));
    const int status = std::system(cmd.c_str());
    errors = read_text(log);
    if (status != 0) return false;
    std::ifstream bin(s.path("prog.bin"), std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(bin), std::istreambuf_iterator<char>());
    return true;
}

// The same, failing the test (with the source, numbered) if the tools fail; empty then.
std::vector<uint8_t> assemble_or_fail(const std::string& source) {
    std::vector<uint8_t> text;
    std::string errors;
    if (!assemble(source, text, errors)) {
        std::ostringstream numbered;
        std::istringstream in(source);
        std::string line;
        for (unsigned n = 1; std::getline(in, line); ++n) numbered << n << ":\t" << line << '\n';
        ADD_FAILURE() << "the toolchain failed:\n" << errors << "on:\n" << numbered.str();
        text.clear();
    }
    return text;
}

// The line numbers of prog.s that gas's messages name as errors.
std::vector<unsigned> error_lines(const std::string& errors) {
    std::vector<unsigned> lines;
    std::istringstream in(errors);
    std::string msg;
    while (std::getline(in, msg)) {
        const size_t at = msg.find("prog.s:");
        if (at == std::string::npos || msg.find("Error") == std::string::npos) continue;
        lines.push_back(unsigned(std::strtoul(msg.c_str() + at + 7, nullptr, 10)));
    }
    return lines;
}

uint32_t word_at(const std::vector<uint8_t>& b, size_t off) {
    uint32_t w = 0;
    for (size_t i = 0; i < 4 && off + i < b.size(); ++i) w |= uint32_t(b[off + i]) << (8 * i);
    return w;
}

std::string encoding(const std::vector<uint8_t>& b, size_t off, unsigned size) {
    const uint32_t w = word_at(b, off);
    return size == 2 ? hex(w & 0xffff, 4) : hex(w & 0xffff, 4) + " " + hex(w >> 16, 4);
}

// ---- every instruction form, in the assembler's syntax -----------------------------------------------------------

// Deterministic choices (xorshift), the same on every host.
class Rng {
public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint32_t below(uint32_t n) {
        s_ ^= s_ << 13;
        s_ ^= s_ >> 7;
        s_ ^= s_ << 17;
        return uint32_t((s_ >> 11) % n);
    }
    int between(int lo, int hi) { return lo + int(below(uint32_t(hi - lo + 1))); }

private:
    uint64_t s_;
};

struct Line {
    std::string text;  // one instruction
    Op op;             // what it must decode as
    unsigned size;     // and its length
};

std::string r(unsigned n) { return "r" + std::to_string(n); }
std::string offset(int v) { return v < 0 ? ".-" + std::to_string(-v) : ".+" + std::to_string(v); }

// Several hundred lines covering every form decode() knows, with registers and immediates chosen at random
// within each form's fields (low registers r0..r7 where the 16-bit form needs them).
std::vector<Line> every_form() {
    Rng rng(0x5eed1e55);
    std::vector<Line> v;
    auto lo = [&] { return rng.below(8); };
    auto any = [&] { return rng.below(64); };
    auto high = [&] { return 8 + rng.below(56); };
    auto add = [&](Op op, unsigned size, const std::string& text) { v.push_back({text, op, size}); };

    // Branches: every condition (14 is the unconditional "b"), 16- and 32-bit, with the fields' extremes.
    for (unsigned c = 0; c < 15; ++c) {
        const std::string b = std::string("b") + cond_name(c);
        for (int off : {-256, 254, 0, 2 * rng.between(-128, 127), 2 * rng.between(-128, 127)})
            add(Op::Bcc, 2, b + ".s " + offset(off));
        for (int off : {-(1 << 24), (1 << 24) - 2, 2 * rng.between(-(1 << 23), (1 << 23) - 1),
                        2 * rng.between(-(1 << 23), (1 << 23) - 1)})
            add(Op::Bcc, 4, b + ".l " + offset(off));
    }
    for (int off : {-256, 254, 2 * rng.between(-128, 127)}) add(Op::Bl, 2, "bl.s " + offset(off));
    for (int off : {-(1 << 24), (1 << 24) - 2, 2 * rng.between(-(1 << 23), (1 << 23) - 1)})
        add(Op::Bl, 4, "bl.l " + offset(off));
    // jr and jalr: gas takes the 16-bit form for r0..r7 and the 32-bit one for the others.
    for (unsigned i = 0; i < 4; ++i) {
        add(Op::Jr, 2, "jr " + r(lo()));
        add(Op::Jr, 4, "jr " + r(high()));
        add(Op::Jalr, 2, "jalr " + r(lo()));
        add(Op::Jalr, 4, "jalr " + r(high()));
    }
    add(Op::Rti, 2, "rti");

    // Loads and stores: each width, each addressing mode, 16-bit (low registers, no sign, displacement 0..7 in
    // units of the width) and 32-bit (any registers, + or -, displacement 0..2047). ldrd/strd take an even
    // register; gas refuses a post-modified load whose base is one of the registers it loads.
    static const char* const ld[] = {"ldrb", "ldrh", "ldr", "ldrd"};
    static const char* const st[] = {"strb", "strh", "str", "strd"};
    static const char* const sign[] = {"", "+", "-"};
    for (unsigned store = 0; store < 2; ++store) {
        for (unsigned w = 0; w < 4; ++w) {
            const std::string name = store ? st[w] : ld[w];
            const Op op = store ? Op::Store : Op::Load;
            for (unsigned i = 0; i < 3; ++i) {
                auto data = [&](bool wide) {
                    unsigned d = wide ? any() : lo();
                    return w == 3 ? d & ~1u : d;
                };
                // A base register the post-modified load may use with data register d.
                auto base = [&](unsigned d, bool wide) {
                    for (;;) {
                        const unsigned n = wide ? any() : lo();
                        if (store || (n != d && !(w == 3 && n == (d | 1)))) return n;
                    }
                };
                unsigned d = data(false);
                add(op, 2, name + " " + r(d) + ",[" + r(lo()) + "," + r(lo()) + "]");
                d = data(false);
                add(op, 2, name + " " + r(d) + ",[" + r(base(d, false)) + "]," + r(lo()));
                d = data(false);
                add(op, 2, name + " " + r(d) + ",[" + r(lo()) + ",#" + std::to_string(rng.below(8)) + "]");
                const bool low = i == 0;  // once with low registers and ".l", the 32-bit form still
                auto reg = [&] { return low ? lo() : any(); };
                const std::string l = name + ".l ";
                d = low ? data(false) : data(true);
                add(op, 4, l + r(d) + ",[" + r(reg()) + "," + sign[rng.below(3)] + r(reg()) + "]");
                d = low ? data(false) : data(true);
                add(op, 4, l + r(d) + ",[" + r(base(d, !low)) + "]," + sign[rng.below(3)] + r(reg()));
                d = low ? data(false) : data(true);
                add(op, 4, l + r(d) + ",[" + r(reg()) + ",#" + sign[rng.below(3)] + std::to_string(rng.below(2048)) + "]");
                d = low ? data(false) : data(true);
                add(op, 4, l + r(d) + ",[" + r(base(d, !low)) + "],#" + sign[rng.below(3)] +
                               std::to_string(i == 1 ? 2047 : rng.below(2048)));
            }
        }
    }
    for (const char* ts : {"testsetb", "testseth", "testset"})
        for (unsigned i = 0; i < 3; ++i)
            add(Op::Testset, 4, std::string(ts) + (i == 0 ? " " : ".l ") + r(any()) + ",[" + r(any()) + "," +
                                    sign[rng.below(3)] + r(any()) + "]");

    // Moves.
    for (unsigned c = 0; c < 15; ++c) {
        const std::string m = std::string("mov") + cond_name(c);
        add(Op::Movcc, 2, m + " " + r(lo()) + "," + r(lo()));
        add(Op::Movcc, 4, m + ".l " + r(lo()) + "," + r(lo()));
        add(Op::Movcc, 4, m + " " + r(high()) + "," + r(any()));
    }
    for (unsigned i = 0; i < 4; ++i) {
        add(Op::MovI, 2, "mov.b " + r(lo()) + ",#" + std::to_string(i == 0 ? 255 : rng.below(256)));
        add(Op::MovI, 4, "mov.l " + r(any()) + ",#" + std::to_string(i == 0 ? 65535 : rng.below(65536)));
        add(Op::Movt, 4, (i & 1 ? "movt.l " : "movt ") + r(any()) + ",#" + std::to_string(rng.below(65536)));
    }
    // movts/movfs of every special register the assembler names, in its four groups; the 16-bit form exists
    // for the first eight core registers and r0..r7.
    for (unsigned g = 0; g < 4; ++g) {
        for (unsigned i = 0; *special_name(g, i); ++i) {
            const std::string sr = special_name(g, i);
            add(Op::Movts, 4, "movts.l " + sr + "," + r(any()));
            add(Op::Movfs, 4, "movfs.l " + r(any()) + "," + sr);
            if (g == 0 && i < 8) {
                add(Op::Movts, 2, "movts " + sr + "," + r(lo()));
                add(Op::Movfs, 2, "movfs " + r(lo()) + "," + sr);
            }
        }
    }

    // Integer operations.
    const std::pair<const char*, Op> alu[] = {{"add", Op::Add}, {"sub", Op::Sub}, {"and", Op::And},
                                              {"orr", Op::Orr}, {"eor", Op::Eor}, {"lsl", Op::Lsl},
                                              {"lsr", Op::Lsr}, {"asr", Op::Asr}};
    for (const auto& [name, op] : alu) {
        for (unsigned i = 0; i < 3; ++i) {
            add(op, 2, std::string(name) + " " + r(lo()) + "," + r(lo()) + "," + r(lo()));
            add(op, 4, std::string(name) + ".l " + r(any()) + "," + r(any()) + "," + r(any()));
        }
    }
    for (const auto& [name, op] : {std::pair<const char*, Op>{"add", Op::AddI}, {"sub", Op::SubI}}) {
        for (int imm : {-4, 3, rng.between(-4, 3), rng.between(-4, 3)})
            add(op, 2, std::string(name) + ".s " + r(lo()) + "," + r(lo()) + ",#" + std::to_string(imm));
        for (int imm : {-1024, 1023, -1, rng.between(-1024, 1023), rng.between(-1024, 1023)})
            add(op, 4, std::string(name) + ".l " + r(any()) + "," + r(any()) + ",#" + std::to_string(imm));
    }
    for (const auto& [name, op] : {std::pair<const char*, Op>{"lsl", Op::LslI}, {"lsr", Op::LsrI}, {"asr", Op::AsrI}}) {
        for (unsigned sh : {0u, 31u, rng.below(32), rng.below(32)}) {
            add(op, 2, std::string(name) + " " + r(lo()) + "," + r(lo()) + ",#" + std::to_string(sh));
            add(op, 4, std::string(name) + ".l " + r(any()) + "," + r(any()) + ",#" + std::to_string(sh));
        }
    }
    for (unsigned i = 0; i < 3; ++i) {
        add(Op::Bitr, 2, "bitr " + r(lo()) + "," + r(lo()));
        add(Op::Bitr, 4, "bitr.l " + r(any()) + "," + r(any()));
    }

    // Floating point (the same encodings are the integer operations of the IALU2 mode).
    const std::pair<const char*, Op> fpu3[] = {
        {"fadd", Op::Fadd}, {"fsub", Op::Fsub}, {"fmul", Op::Fmul}, {"fmadd", Op::Fmadd}, {"fmsub", Op::Fmsub}};
    for (const auto& [name, op] : fpu3) {
        for (unsigned i = 0; i < 2; ++i) {
            add(op, 2, std::string(name) + " " + r(lo()) + "," + r(lo()) + "," + r(lo()));
            add(op, 4, std::string(name) + ".l " + r(any()) + "," + r(any()) + "," + r(any()));
        }
    }
    // (gas has no syntax for the 16-bit fabs: EpsimDecode.FormsTheAssemblerCannotWrite.)
    for (const auto& [name, op] : {std::pair<const char*, Op>{"float", Op::Float}, {"fix", Op::Fix}, {"fabs", Op::Fabs}}) {
        for (unsigned i = 0; i < 2; ++i) {
            if (op != Op::Fabs) add(op, 2, std::string(name) + " " + r(lo()) + "," + r(lo()));
            add(op, 4, std::string(name) + ".l " + r(any()) + "," + r(any()));
            add(op, 4, std::string(name) + " " + r(high()) + "," + r(any()));
        }
    }

    // Core control.
    add(Op::Nop, 2, "nop");
    add(Op::Idle, 2, "idle");
    add(Op::Wand, 2, "wand");
    add(Op::Gie, 2, "gie");
    add(Op::Gid, 2, "gid");
    add(Op::Swi, 2, "swi");
    add(Op::Swi, 2, "swi #0");
    for (unsigned n : {0u, 3u, 63u, rng.below(64)}) add(Op::Trap, 2, "trap #" + std::to_string(n));
    add(Op::Bkpt, 2, "bkpt");
    add(Op::Mbkpt, 2, "mbkpt");
    add(Op::Sync, 2, "sync");
    return v;
}

// Every form, assembled; each instruction decoded (never Invalid, the expected operation and length) and
// formatted at its address; the formatted text assembled again (one instruction per 8-byte slot, as a branch's
// target is written relative to it) and compared, instruction by instruction, with the first encoding.
TEST(EpsimRoundTrip, EveryFormDecodesAndFormatsBackToItsEncoding) {
    const std::vector<Line> lines = every_form();
    ASSERT_GT(lines.size(), 500u);
    std::string source = "    .text\n";
    for (const Line& l : lines) source += "    " + l.text + "\n";
    const std::vector<uint8_t> first = assemble_or_fail(source);
    ASSERT_FALSE(first.empty());

    struct Decoded {
        uint32_t pc;
        Insn in;
        std::string text;
    };
    std::vector<Decoded> decoded;
    for (uint32_t pc = 0; pc < first.size();) {
        const unsigned size = insn_size(uint16_t(word_at(first, pc)));
        const Insn in = decode(word_at(first, pc));
        decoded.push_back({pc, in, format(in, pc)});
        pc += size;
    }
    ASSERT_EQ(decoded.size(), lines.size()) << "an instruction per line";
    for (size_t i = 0; i < lines.size(); ++i) {
        const Decoded& d = decoded[i];
        EXPECT_NE(d.in.op, Op::Invalid) << lines[i].text << ": " << encoding(first, d.pc, 4);
        EXPECT_EQ(d.in.op, lines[i].op) << lines[i].text << ": " << encoding(first, d.pc, d.in.size) << " is "
                                        << d.text;
        EXPECT_EQ(d.in.size, lines[i].size) << lines[i].text << ": " << encoding(first, d.pc, d.in.size);
    }

    // The formatted text; instruction i is on line 3 + 2 i. What gas refuses is reported and replaced by a nop
    // for a second try, so that the others are still compared.
    std::vector<std::string> formatted;
    for (const Decoded& d : decoded) formatted.push_back(d.text);
    std::vector<bool> refused(decoded.size(), false);
    std::vector<uint8_t> second;
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::string text = "    .text\n";
        for (size_t i = 0; i < decoded.size(); ++i)
            text += "    .org " + std::to_string(8 * i) + "\n    " + (refused[i] ? "nop" : formatted[i]) + "\n";
        std::string errors;
        if (assemble(text, second, errors)) break;
        ASSERT_EQ(attempt, 0) << errors;
        const std::vector<unsigned> bad = error_lines(errors);
        ASSERT_FALSE(bad.empty()) << errors;
        for (unsigned line : bad) {
            ASSERT_TRUE(line >= 3 && (line - 3) % 2 == 0) << errors;
            const size_t i = (line - 3) / 2;
            refused[i] = true;
            ADD_FAILURE() << "gas refuses the formatted text of " << lines[i].text << " ("
                          << encoding(first, decoded[i].pc, decoded[i].in.size) << "): " << formatted[i];
        }
    }
    ASSERT_GE(second.size(), 8 * (decoded.size() - 1) + 2);
    for (size_t i = 0; i < decoded.size(); ++i) {
        if (refused[i]) continue;
        const Decoded& d = decoded[i];
        const size_t at = 8 * i;
        const unsigned size = insn_size(uint16_t(word_at(second, at)));
        const bool same = size == d.in.size && std::memcmp(&first[d.pc], &second[at], size) == 0;
        EXPECT_TRUE(same) << lines[i].text << " = " << encoding(first, d.pc, d.in.size) << ", formatted at "
                          << hex(d.pc) << " as " << d.text << " = " << encoding(second, at, size);
    }
}

// The extensions of later cores, as gas writes them, are not E16/E64 instructions.
TEST(EpsimRoundTrip, LaterCoresExtensionsAreInvalid) {
    const char* const lines[] = {"fext r1,r2,r3", "fdep.l r40,r2,r63", "lfsr r1,r2,r3", "frecip r1,r2",
                                 "fsqrt.l r20,r30"};
    std::string source = "    .text\n";
    for (const char* l : lines) source += std::string("    ") + l + "\n";
    const std::vector<uint8_t> text = assemble_or_fail(source);
    ASSERT_EQ(text.size(), 4 * std::size(lines));
    for (size_t i = 0; i < std::size(lines); ++i) {
        EXPECT_EQ(insn_size(uint16_t(word_at(text, 4 * i))), 4u);
        EXPECT_EQ(decode(word_at(text, 4 * i)).op, Op::Invalid) << lines[i] << " " << encoding(text, 4 * i, 4);
    }
}

// ---- the chip --------------------------------------------------------------------------------------------------

// Local addresses of a core's registers (the register page at 0xf0000).
constexpr uint32_t kIlat = 0xf0428, kIlatst = 0xf042c, kCtimer0 = 0xf0438, kDma0Status = 0xf051c;
constexpr int kUnexpected = 100;  // exit status kUnexpected + n: interrupt n was taken with no handler

// A program for a core, linked at local address 0: the vector table (entry n at 4 n), a reset handler that
// leaves the SYNC interrupt the host starts the core with (rti into `main`: interrupts enabled, nothing
// pending), and the test's code at 0x100 from the label `main`. Vector n is `b.l vectors[n]` if given, else
// an exit with status kUnexpected + n. The code ends before `code_end` (gas refuses the final .org otherwise):
// the tests keep their data above it, from 0x1000 by default.
std::string program(const std::string& main, const std::map<unsigned, std::string>& vectors = {},
                    uint32_t code_end = 0x1000) {
    std::ostringstream s;
    s << "    .text\n    b.l _reset\n";
    for (unsigned n = 1; n < 10; ++n) {
        const auto it = vectors.find(n);
        if (it != vectors.end()) s << "    b.l " << it->second << "\n";
        else s << "    mov r0,#" << kUnexpected + n << "\n    trap #3\n";
    }
    s << "_reset:\n"
         "    mov sp,#0x7ff0\n"
         "    mov r0,%low(main)\n"
         "    movt r0,%high(main)\n"
         "    movts iret,r0\n"
         "    rti\n"
         "    .org 0x100\n"
         "main:\n"
      << main << "    .org " << code_end << "\n";
    return s.str();
}

// `mov` and `movt` of a 32-bit constant into a register.
std::string load_const(unsigned reg, uint32_t v) {
    return "    mov " + r(reg) + ",#" + std::to_string(v & 0xffff) + "\n    movt " + r(reg) + ",#" +
           std::to_string(v >> 16) + "\n";
}

uint32_t global(const Chip& chip, unsigned core, uint32_t local) { return chip.coreid(core) << 20 | local; }

uint32_t read_word(Chip& chip, unsigned core, uint32_t local) {
    uint32_t v = 0;
    chip.host_read(global(chip, core, local), &v, 4);
    return v;
}

void write_word(Chip& chip, unsigned core, uint32_t local, uint32_t v) {
    chip.host_write(global(chip, core, local), &v, 4);
}

// Writes the image at the core's local address 0.
void load(Chip& chip, unsigned core, const std::vector<uint8_t>& image) {
    chip.host_write(global(chip, core, 0), image.data(), image.size());
}

// Latches SYNC: the core leaves its reset IDLE through IVT entry 0.
void start(Chip& chip, unsigned core) { write_word(chip, core, kIlatst, 1); }

// A one-core run: loads, starts, and runs until nothing more can happen (or the budget is spent).
Chip::Stop run_one(Chip& chip, const std::string& source, uint64_t budget = 100000) {
    const std::vector<uint8_t> image = assemble_or_fail(source);
    if (image.empty()) return Chip::Stop::Fault;
    load(chip, 0, image);
    start(chip, 0);
    const Chip::Stop stop = chip.run(budget);
    if (stop == Chip::Stop::Fault) ADD_FAILURE() << "fault at " << hex(chip.fault().pc) << ": " << chip.fault().what;
    return stop;
}

// STATUS bits.
constexpr uint32_t kAz = 1u << 4, kAn = 1u << 5, kAc = 1u << 6, kAv = 1u << 7, kAvs = 1u << 12;

// The branch conditions 0..13, as epiphany.cpu defines them, from the flags.
bool condition(unsigned c, bool z, bool n, bool cy, bool v, bool bz, bool bn) {
    switch (c) {
    case 0: return z;                  // eq
    case 1: return !z;                 // ne
    case 2: return cy && !z;           // gtu
    case 3: return cy;                 // gteu
    case 4: return !cy || z;           // lteu
    case 5: return !cy;                // ltu
    case 6: return !z && v == n;       // gt
    case 7: return v == n;             // gte
    case 8: return v != n;             // lt
    case 9: return z || v != n;        // lte
    case 10: return bz;                // beq
    case 11: return !bz;               // bne
    case 12: return bn && !bz;         // blt
    case 13: return bn || bz;          // blte
    }
    return true;
}

// Code that stores, at [r60] onwards, one word per condition 0..13 for b<cond> (1 if taken) and then one for
// mov<cond> (1 if it moved): neither they nor mov/str change a flag. Uses r61 and r62.
std::string record_conditions() {
    std::string s = "    mov r62,#1\n";
    for (unsigned c = 0; c < 14; ++c) {
        const std::string name = cond_name(c);
        s += "    mov r61,#0\n    b" + name + ".s 1f\n    b.s 2f\n1:  mov r61,#1\n2:  str r61,[r60],#1\n";
        s += "    mov r61,#0\n    mov" + name + " r61,r62\n    str r61,[r60],#1\n";
    }
    return s;
}

// add, sub (register and immediate forms, 16 and 32 bits) and the logical operations: the result, STATUS's
// AZ AN AC AV and the sticky AVS as epiphany.cpu defines them, and every condition following those flags.
TEST(EpsimChip, IntegerFlagsAndEveryCondition) {
    struct Case {
        const char* op;  // add, sub, and, orr, eor; with "i": the immediate form
        bool wide;       // the 32-bit encoding
        uint32_t a, b;
    };
    const Case cases[] = {
        {"add", false, 1, 2},
        {"add", true, 0xffffffffu, 1},           // carry, zero
        {"add", false, 0x7fffffffu, 1},          // overflow, negative
        {"add", true, 0x80000000u, 0x80000000u}, // carry, overflow, zero
        {"add", false, 0xfffffff0u, 0x20},       // carry
        {"and", false, 0xf0f0f0f0u, 0x0f0f0f0fu},// zero: C and V cleared
        {"sub", false, 5, 5},                    // zero, no borrow (C set)
        {"sub", true, 3, 5},                     // borrow (C clear), negative
        {"sub", false, 0x80000000u, 1},          // overflow
        {"sub", true, 0x7fffffffu, 0xffffffffu}, // overflow, borrow
        {"sub", false, 0xffffffffu, 0},          // negative, no borrow
        {"orr", true, 0x80000000u, 1},           // negative
        {"eor", false, 0x12345678u, 0x12345678u},
        {"addi", false, 0x7fffffffu, 3},         // add.s: overflow
        {"addi", true, 0xffffffffu, 1},          // add.l: carry, zero
        {"subi", false, 0, 1},                   // sub.s: borrow
        {"subi", true, 0x80000000u, uint32_t(-1024)},  // sub.l of a negative: borrow (unsigned a < b)
        {"addi", true, 5, uint32_t(-5)},         // add.l of a negative: zero, carry
    };
    std::string main = "    mov r60,#0x4000\n";
    for (const Case& c : cases) {
        main += load_const(0, c.a) + load_const(1, c.b);
        const std::string op = c.op;
        const std::string sfx = c.wide ? ".l" : "";
        if (op == "addi" || op == "subi")
            main += "    " + op.substr(0, 3) + (c.wide ? ".l" : ".s") + " r2,r0,#" + std::to_string(int32_t(c.b)) + "\n";
        else
            main += "    " + op + sfx + " r2,r0,r1\n";
        main += "    movfs r3,status\n    str r2,[r60],#1\n    str r3,[r60],#1\n" + record_conditions();
    }
    main += "    mov r0,#0\n    trap #3\n";
    Chip chip{ChipConfig()};
    ASSERT_EQ(run_one(chip, program(main, {}, 0x4000), 1000000), Chip::Stop::Quiescent);
    ASSERT_EQ(chip.trap_status(), 0);

    uint32_t at = 0x4000;
    bool avs = false;
    for (const Case& c : cases) {
        const std::string op = c.op;
        const uint32_t a = c.a, b = c.b;
        uint32_t res = 0;
        bool cy = false, v = false;
        if (op == "add" || op == "addi") {
            res = a + b;
            cy = (uint64_t(a) + b) >> 32;
            v = int64_t(int32_t(a)) + int32_t(b) != int64_t(int32_t(res));
        } else if (op == "sub" || op == "subi") {
            res = a - b;
            cy = a >= b;  // the carry is "no borrow"
            v = int64_t(int32_t(a)) - int32_t(b) != int64_t(int32_t(res));
        } else {
            res = op == "and" ? (a & b) : op == "orr" ? (a | b) : (a ^ b);
        }
        avs = avs || v;
        const bool z = res == 0, n = res >> 31;
        const std::string what = op + (c.wide ? ".l " : " ") + hex(a) + ", " + hex(b);
        EXPECT_EQ(read_word(chip, 0, at), res) << what;
        const uint32_t status = read_word(chip, 0, at + 4);
        EXPECT_EQ(bool(status & kAz), z) << what;
        EXPECT_EQ(bool(status & kAn), n) << what;
        EXPECT_EQ(bool(status & kAc), cy) << what;
        EXPECT_EQ(bool(status & kAv), v) << what;
        EXPECT_EQ(bool(status & kAvs), avs) << what;
        at += 8;
        for (unsigned k = 0; k < 14; ++k) {
            const bool expect = condition(k, z, n, cy, v, false, false);
            EXPECT_EQ(read_word(chip, 0, at), expect) << "b" << cond_name(k) << " after " << what;
            EXPECT_EQ(read_word(chip, 0, at + 4), expect) << "mov" << cond_name(k) << " after " << what;
            at += 8;
        }
    }
}

// Every condition against every combination of the flags it reads (AZ AN AC AV, BZ BN), set by writing
// STATUS with movts: a run for each combination of BZ and BN (the code of all 64 would not fit in 32 KB).
TEST(EpsimChip, EveryConditionForEveryFlagCombination) {
    for (uint32_t fpu = 0; fpu < 4; ++fpu) {
        std::string main = "    mov r60,#0x6000\n";
        for (uint32_t alu = 0; alu < 16; ++alu) {
            const uint32_t status = alu << 4 | fpu << 8;  // AZ AN AC AV at bits 4..7, BZ BN at 8..9
            main += load_const(0, status) + "    movts status,r0\n    movfs r1,status\n    str r1,[r60],#1\n" +
                    record_conditions();
        }
        main += "    mov r0,#0\n    trap #3\n";
        Chip chip{ChipConfig()};
        ASSERT_EQ(run_one(chip, program(main, {}, 0x6000)), Chip::Stop::Quiescent);
        ASSERT_EQ(chip.trap_status(), 0);
        uint32_t at = 0x6000;
        for (uint32_t alu = 0; alu < 16; ++alu) {
            const bool z = alu & 1, n = alu & 2, cy = alu & 4, v = alu & 8, bz = fpu & 1, bn = fpu & 2;
            const std::string what = "AZ " + std::to_string(z) + " AN " + std::to_string(n) + " AC " +
                                     std::to_string(cy) + " AV " + std::to_string(v) + " BZ " +
                                     std::to_string(bz) + " BN " + std::to_string(bn);
            EXPECT_EQ(read_word(chip, 0, at) & 0x3f0, alu << 4 | fpu << 8) << what << ": STATUS read back";
            at += 4;
            for (unsigned k = 0; k < 14; ++k) {
                const bool expect = condition(k, z, n, cy, v, bz, bn);
                EXPECT_EQ(read_word(chip, 0, at), expect) << "b" << cond_name(k) << ", " << what;
                EXPECT_EQ(read_word(chip, 0, at + 4), expect) << "mov" << cond_name(k) << ", " << what;
                at += 8;
            }
        }
    }
}

// LC, LS and LE written with movts: the body from LS to LE (the address of its last instruction) runs LC
// times, then the code after it; LC reads 0 at the end.
TEST(EpsimChip, HardwareLoopRunsTheBodyLcTimes) {
    for (uint32_t count : {1u, 2u, 5u, 100u}) {
        const std::string main =
            "    mov r0,#0\n"
            "    mov r3,#0\n"
            "    mov r1,#" + std::to_string(count) + "\n"
            "    movts lc,r1\n"
            "    mov r1,%low(2f)\n"
            "    movts ls,r1\n"
            "    mov r1,%low(3f)\n"
            "    movts le,r1\n"
            "    .balign 8\n"
            "2:  add r0,r0,#1\n"
            "    nop\n"
            "3:  add r3,r3,r0\n"
            "    movfs r5,lc\n"
            "    mov r0,#0\n"
            "    trap #3\n";
        Chip chip{ChipConfig()};
        ASSERT_EQ(run_one(chip, program(main)), Chip::Stop::Quiescent);
        EXPECT_EQ(chip.trap_status(), 0);
        EXPECT_EQ(chip.reg(0, 3), count * (count + 1) / 2) << "LC " << count;
        EXPECT_EQ(chip.reg(0, 5), 0u);
    }
}

// The deepest stack: the lowest SP after any instruction (the startup's SP of 0 is not counted), where a push
// below the frame went and came back.
TEST(EpsimChip, LowestSpIsTheDeepestTheStackWent) {
    const std::string main =
        "    mov r0,#0\n"
        "    str r0,[sp],#-4\n"  // push: SP 0x7ff0 -> 0x7fe0
        "    sub sp,sp,#40\n"    // 0x7fb8
        "    add sp,sp,#56\n"    // back to 0x7ff0
        "    trap #3\n";
    Chip chip{ChipConfig()};
    EXPECT_EQ(chip.lowest_sp(0), 0xffffffffu);
    ASSERT_EQ(run_one(chip, program(main)), Chip::Stop::Quiescent);
    EXPECT_EQ(chip.reg(0, 13), 0x7ff0u);
    EXPECT_EQ(chip.lowest_sp(0), 0x7fb8u);
    EXPECT_EQ(chip.lowest_sp(1), 0xffffffffu) << "a core that never ran";
}

// Every width and addressing mode: [rn,rm] [rn],rm [rn,#d] [rn],#d with + and -, the displacement in units of
// the width, post-modify writing the base back; ldrd/strd move an even/odd register pair.
TEST(EpsimChip, LoadsAndStoresInEveryAddressingMode) {
    const std::string main =
        "    mov r0,#0x2010\n"
        "    mov r7,#8\n"
        "    ldrd r2,[r0,#1]\n"     // r2, r3 = [0x2018], [0x201c]
        "    ldrd r10,[r0,-r7]\n"   // r10, r11 = [0x2008], [0x200c]
        "    ldr r4,[r0],#2\n"      // [0x2010]; r0 = 0x2018
        "    ldrh r5,[r0],#-1\n"    // [0x2018]; r0 = 0x2016
        "    ldrb r8,[r0,#3]\n"     // [0x2019]
        "    ldrh r9,[r0,r7]\n"     // [0x201e]
        "    ldrh r12,[r0],-r7\n"   // [0x2016]; r0 = 0x200e
        "    ldrb r15,[r0],r7\n"    // [0x200e]; r0 = 0x2016
        "    ldrh r16,[r0,#-5]\n"   // [0x200c]
        "    mov r1,#0x3000\n"
        "    strd r2,[r1],#1\n"     // [0x3000], [0x3004]; r1 = 0x3008
        "    str r4,[r1,#1]\n"      // [0x300c]
        "    strh r5,[r1],#1\n"     // [0x3008]; r1 = 0x300a
        "    strb r8,[r1,#6]\n"     // [0x3010]
        "    strh r9,[r1],r7\n"     // [0x300a]; r1 = 0x3012
        "    mov r20,#0x3018\n"
        "    strd r10,[r20,#1]\n"   // [0x3020], [0x3024]
        "    strb r15,[r20],#-1\n"  // [0x3018]; r20 = 0x3017
        "    mov r0,#0\n"
        "    trap #3\n";
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    uint8_t data[0x40];
    for (unsigned i = 0; i < sizeof data; ++i) data[i] = uint8_t(i);  // byte 0x20nn holds nn
    chip.host_write(global(chip, 0, 0x2000), data, sizeof data);
    start(chip, 0);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Quiescent) << chip.fault().what;
    ASSERT_EQ(chip.trap_status(), 0);

    const std::pair<unsigned, uint32_t> regs[] = {
        {2, 0x1b1a1918}, {3, 0x1f1e1d1c}, {10, 0x0b0a0908}, {11, 0x0f0e0d0c}, {4, 0x13121110},
        {5, 0x1918},     {8, 0x19},       {9, 0x1f1e},      {12, 0x1716},     {15, 0x0e},
        {16, 0x0d0c},    {1, 0x3012},     {20, 0x3017}};
    for (const auto& [reg, v] : regs) EXPECT_EQ(chip.reg(0, reg), v) << "r" << reg;
    const std::pair<uint32_t, uint32_t> words[] = {
        {0x3000, 0x1b1a1918}, {0x3004, 0x1f1e1d1c}, {0x3008, 0x1f1e1918}, {0x300c, 0x13121110},
        {0x3010, 0x19},       {0x3014, 0},          {0x3018, 0x0e},       {0x301c, 0},
        {0x3020, 0x0b0a0908}, {0x3024, 0x0f0e0d0c}};
    for (const auto& [addr, v] : words) EXPECT_EQ(read_word(chip, 0, addr), v) << hex(addr);
}

// The software exception (IVT entry 1): an access not aligned to its width, an instruction the E16/E64 do not
// have, swi. STATUS[18:16] (EXCAUSE, as crt/epiphany/crt.cpp reads it) says which; IRET is the next
// instruction; the access does nothing (no register loaded, no memory written, no base written back).
TEST(EpsimChip, SoftwareExceptionsAndTheirCause) {
    const struct {
        uint32_t base;
        const char* insn;
        uint32_t cause;
    } cases[] = {
        {0x2002, "ldr r3,[r8]", 2},       {0x2001, "ldrh r3,[r8]", 2},   {0x2004, "ldrd r2,[r8]", 2},
        {0x2003, "strh r3,[r8]", 2},      {0x2000, "ldr r3,[r8,r1]", 2}, {0x2006, "strd r2,[r8],#1", 2},
        {0x2002, "str r3,[r8],#-1", 2},   {0x2000, "fext r3,r2,r1", 4},  {0x2000, "swi", 1},
    };
    for (const auto& c : cases) {
        const std::string main = load_const(8, c.base) +
                                 "    mov r1,#2\n"
                                 "    mov r2,#0x55\n"
                                 "    mov r3,#0x55\n"
                                 "    " + c.insn + "\n"
                                 "2:  mov r0,#1\n"  // not reached: the handler exits
                                 "    trap #3\n"
                                 "swexc:\n"
                                 "    movfs r4,status\n"
                                 "    movfs r5,iret\n"
                                 "    mov r6,%low(2b)\n"
                                 "    movfs r7,ipend\n"
                                 "    mov r0,#0\n"
                                 "    trap #3\n";
        Chip chip{ChipConfig()};
        ASSERT_EQ(run_one(chip, program(main, {{1, "swexc"}})), Chip::Stop::Quiescent) << c.insn;
        EXPECT_EQ(chip.trap_status(), 0) << c.insn;
        EXPECT_EQ((chip.reg(0, 4) >> 16) & 7, c.cause) << c.insn;
        EXPECT_EQ(chip.reg(0, 5), chip.reg(0, 6)) << c.insn << ": IRET";
        EXPECT_EQ(chip.reg(0, 7), 1u << 1) << c.insn << ": IPEND";
        EXPECT_EQ(chip.reg(0, 2), 0x55u) << c.insn;
        EXPECT_EQ(chip.reg(0, 3), 0x55u) << c.insn;
        EXPECT_EQ(chip.reg(0, 8), c.base) << c.insn;
        for (uint32_t a = 0x2000; a < 0x2010; a += 4) EXPECT_EQ(read_word(chip, 0, a), 0u) << c.insn;
    }
}

// An access where nothing is mapped (not the core's SRAM or registers, not another core, not external DRAM)
// stops the chip with a fault naming the core, the pc and the address.
TEST(EpsimChip, AccessWhereNothingIsMappedFaults) {
    const struct {
        uint32_t addr;
        const char* insn;
        const char* what;
    } cases[] = {
        {0x12345678, "ldr r1,[r0]", "load of 4 bytes from 0x12345678"},
        {0x00008000, "str r1,[r0]", "store of 4 bytes to 0x00008000"},  // just above the SRAM
        {0x80c02000, "ldrh r1,[r0]", "0x80c02000"},                     // column 12: not on the E16
        {0x8c000000, "strb r1,[r0]", "0x8c000000"},                     // below external DRAM
        {0x00100000, "jr r0", "instruction fetch from 0x00100000"},
    };
    for (const auto& c : cases) {
        const std::string main = load_const(0, c.addr) +
                                 "    b.l 1f\n"
                                 "    .org 0x200\n"
                                 "1:  " + c.insn + "\n"
                                 "    mov r0,#0\n"
                                 "    trap #3\n";
        Chip chip{ChipConfig()};
        const std::vector<uint8_t> image = assemble_or_fail(program(main));
        ASSERT_FALSE(image.empty());
        load(chip, 0, image);
        start(chip, 0);
        ASSERT_EQ(chip.run(100000), Chip::Stop::Fault) << c.insn;
        const Fault& f = chip.fault();
        EXPECT_TRUE(f.any);
        EXPECT_EQ(f.core, 0u);
        EXPECT_EQ(f.coreid, 0x808u);
        EXPECT_EQ(f.pc, std::string(c.insn) == "jr r0" ? c.addr : 0x200u) << c.insn;
        EXPECT_NE(f.what.find(c.what), std::string::npos) << c.insn << ": " << f.what;
        EXPECT_EQ(chip.run(1000), Chip::Stop::Fault) << "the chip stays stopped";
        EXPECT_EQ(chip.trap_status(), -1);
    }
}

// A core asleep in IDLE is woken by an interrupt another core latches with a store to its ILATST; it takes the
// interrupt (handler at IVT entry 9, USER) and RTI returns after the IDLE.
TEST(EpsimChip, InterruptLatchedByAnotherCoresStore) {
    const std::string sleeper = program(
        "    mov r5,#0\n"
        "    idle\n"
        "    mov r6,r5\n"
        "    mov r0,#0\n"
        "    trap #3\n"
        "user_isr:\n"
        "    add r5,r5,#1\n"
        "    rti\n",
        {{9, "user_isr"}});
    const std::string sender = program(load_const(0, 0x808f042c) +  // core 0's ILATST
                                       "    mov r1,#0x200\n"
                                       "    str r1,[r0]\n"
                                       "    mov r0,#0\n"
                                       "    trap #3\n");
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> a = assemble_or_fail(sleeper), b = assemble_or_fail(sender);
    ASSERT_FALSE(a.empty() || b.empty());
    load(chip, 0, a);
    load(chip, 1, b);
    start(chip, 0);
    ASSERT_EQ(chip.run(10000), Chip::Stop::Quiescent);
    EXPECT_FALSE(chip.running(0)) << "asleep in IDLE";
    EXPECT_EQ(chip.reg(0, 5), 0u);
    start(chip, 1);
    ASSERT_EQ(chip.run(10000), Chip::Stop::Quiescent);
    EXPECT_EQ(chip.reg(0, 5), 1u) << "the handler ran once";
    EXPECT_EQ(chip.reg(0, 6), 1u) << "and returned after the IDLE";
    EXPECT_EQ(chip.trap_status(), 0);
}

const char kUserIsr[] =
    "user_isr:\n"
    "    add r5,r5,#1\n"
    "    rti\n";

// A masked interrupt stays latched in ILAT and is taken when IMASK lets it through.
TEST(EpsimChip, ImaskHoldsALatchedInterrupt) {
    const std::string main = std::string(
                                 "    mov r5,#0\n"
                                 "    mov r0,#0x200\n"
                                 "    movts imask,r0\n"
                                 "    movts ilatst,r0\n"
                                 "    nop\n"
                                 "    nop\n"
                                 "    movfs r6,ilat\n"
                                 "    mov r7,r5\n"
                                 "    mov r0,#0\n"
                                 "    movts imask,r0\n"
                                 "    nop\n"
                                 "    mov r8,r5\n"
                                 "    movfs r9,ilat\n"
                                 "    mov r0,#0\n"
                                 "    trap #3\n") +
                             kUserIsr;
    Chip chip{ChipConfig()};
    ASSERT_EQ(run_one(chip, program(main, {{9, "user_isr"}})), Chip::Stop::Quiescent);
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_EQ(chip.reg(0, 6), 0x200u) << "latched";
    EXPECT_EQ(chip.reg(0, 7), 0u) << "not taken while masked";
    EXPECT_EQ(chip.reg(0, 8), 1u) << "taken once unmasked";
    EXPECT_EQ(chip.reg(0, 9), 0u) << "and no longer latched";
}

// GID holds every interrupt until GIE.
TEST(EpsimChip, GidDefersInterruptsUntilGie) {
    const std::string main = std::string(
                                 "    mov r5,#0\n"
                                 "    gid\n"
                                 "    mov r0,#0x200\n"
                                 "    movts ilatst,r0\n"
                                 "    nop\n"
                                 "    nop\n"
                                 "    movfs r6,ilat\n"
                                 "    mov r7,r5\n"
                                 "    gie\n"
                                 "    nop\n"
                                 "    mov r8,r5\n"
                                 "    mov r0,#0\n"
                                 "    trap #3\n") +
                             kUserIsr;
    Chip chip{ChipConfig()};
    ASSERT_EQ(run_one(chip, program(main, {{9, "user_isr"}})), Chip::Stop::Quiescent);
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_EQ(chip.reg(0, 6), 0x200u);
    EXPECT_EQ(chip.reg(0, 7), 0u);
    EXPECT_EQ(chip.reg(0, 8), 1u);
}

// Nesting by priority (the lower the number, the higher the priority): a handler that enables interrupts is
// interrupted by a higher-priority one at once, while one of lower or the same priority waits in ILAT until the
// handlers at or above its level have returned. IPEND shows the active ones; each RTI ends the highest. Each
// handler appends a code (and IPEND) at [r10]; the handlers that enable interrupts save IRET, which a nested
// interrupt overwrites.
TEST(EpsimChip, NestedInterruptsFollowPriority) {
    const std::string main =
        "    mov r10,#0x4000\n"
        "    mov r22,#0\n"
        "    mov r0,#0x200\n"
        "    movts ilatst,r0\n"  // USER (9)
        "    nop\n"
        "    mov r11,#14\n"
        "    str r11,[r10],#1\n"
        "    mov r0,#0\n"
        "    trap #3\n"
        "user_isr:\n"
        "    movfs r20,iret\n"
        "    mov r11,#1\n"
        "    str r11,[r10],#1\n"
        "    movfs r12,ipend\n"
        "    str r12,[r10],#1\n"
        "    gie\n"
        "    mov r0,#0x20\n"
        "    movts ilatst,r0\n"  // MESSAGE (5): higher, nests at once
        "    nop\n"
        "    mov r11,#2\n"
        "    str r11,[r10],#1\n"
        "    gid\n"
        "    movts iret,r20\n"
        "    rti\n"
        "message_isr:\n"
        "    mov r11,#3\n"
        "    str r11,[r10],#1\n"
        "    movfs r12,ipend\n"
        "    str r12,[r10],#1\n"
        "    gie\n"
        "    mov r0,#0x80\n"
        "    movts ilatst,r0\n"  // DMA1 (7): below MESSAGE, above USER: after this handler's rti
        "    nop\n"
        "    nop\n"
        "    mov r11,#4\n"
        "    str r11,[r10],#1\n"
        "    rti\n"
        "dma1_isr:\n"
        "    movfs r21,iret\n"
        "    mov r11,#5\n"
        "    str r11,[r10],#1\n"
        "    movfs r12,ipend\n"
        "    str r12,[r10],#1\n"
        "    add r22,r22,#1\n"
        "    sub r23,r22,#1\n"
        "    bne.s 1f\n"         // the first time only:
        "    gie\n"
        "    mov r0,#0x80\n"
        "    movts ilatst,r0\n"  // DMA1 again: the same level does not nest, it follows this rti
        "    nop\n"
        "    nop\n"
        "    mov r11,#6\n"
        "    str r11,[r10],#1\n"
        "    gid\n"
        "1:  movts iret,r21\n"
        "    rti\n";
    Chip chip{ChipConfig()};
    ASSERT_EQ(run_one(chip, program(main, {{5, "message_isr"}, {7, "dma1_isr"}, {9, "user_isr"}})),
              Chip::Stop::Quiescent);
    EXPECT_EQ(chip.trap_status(), 0);
    const uint32_t expected[] = {1, 0x200, 3, 0x220, 4, 5, 0x280, 6, 5, 0x280, 2, 14};
    for (size_t i = 0; i < std::size(expected); ++i)
        EXPECT_EQ(read_word(chip, 0, uint32_t(0x4000 + 4 * i)), expected[i]) << "record " << i;
    EXPECT_EQ(chip.reg(0, 10), uint32_t(0x4000 + 4 * std::size(expected)));
}

// IDLE with interrupts disabled still ends on a latched interrupt (the E16/E64's IDLE), and the core goes on
// after it without taking the interrupt, which stays latched until GIE.
TEST(EpsimChip, IdleWithInterruptsDisabledWakesWithoutTakingThem) {
    const std::string main = std::string(
                                 "    mov r5,#0\n"
                                 "    gid\n"
                                 "    idle\n"
                                 "    mov r7,r5\n"
                                 "    movfs r6,ilat\n"
                                 "    gie\n"
                                 "    nop\n"
                                 "    mov r8,r5\n"
                                 "    mov r0,#0\n"
                                 "    trap #3\n") +
                             kUserIsr;
    Chip chip{ChipConfig()};
    ASSERT_EQ(run_one(chip, program(main, {{9, "user_isr"}})), Chip::Stop::Quiescent);
    EXPECT_FALSE(chip.running(0));
    EXPECT_EQ(chip.trap_status(), -1);
    write_word(chip, 0, kIlatst, 0x200);
    ASSERT_EQ(chip.run(10000), Chip::Stop::Quiescent);
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_EQ(chip.reg(0, 7), 0u) << "not taken at the wake-up";
    EXPECT_EQ(chip.reg(0, 6), 0x200u) << "still latched";
    EXPECT_EQ(chip.reg(0, 8), 1u) << "taken after gie";
}

// WAND: the WAND interrupt (ILAT bit 8) reaches every core only once all 16 have executed wand. A second
// round raises it again only if every core has cleared its STATUS.WAND (bit 3) first, which only a write of
// FSTATUS (movts hstatus) can do; without it the wired AND stays true and the second round never raises it.
void wand_rounds(bool clear) {
    const std::string round2 = clear ? "    movfs r1,status\n" + load_const(2, ~0x8u) +
                                           "    and r1,r1,r2\n"
                                           "    movts hstatus,r1\n"
                                     : std::string();
    const std::string rounds = "    gid\n"
                               "    wand\n"
                               "    idle\n"
                               "    movfs r6,ilat\n"
                               "    mov r0,#0x100\n"
                               "    movts ilatcl,r0\n" +
                               round2 +
                               "    wand\n"
                               "    idle\n"
                               "    movfs r7,ilat\n"
                               "    mov r0,#0\n"
                               "    trap #3\n";
    // The last core waits for the host (USER, latched with interrupts disabled) before its first wand.
    const std::string late = "    gid\n"
                             "    idle\n"
                             "    mov r0,#0x200\n"
                             "    movts ilatcl,r0\n" +
                             rounds;
    Chip chip{ChipConfig()};
    const unsigned n = chip.cores();
    ASSERT_EQ(n, 16u);
    const std::vector<uint8_t> a = assemble_or_fail(program(rounds)), b = assemble_or_fail(program(late));
    ASSERT_FALSE(a.empty() || b.empty());
    for (unsigned k = 0; k < n; ++k) load(chip, k, k + 1 == n ? b : a);
    for (unsigned k = 0; k < n; ++k) start(chip, k);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Quiescent);
    for (unsigned k = 0; k < n; ++k) {
        EXPECT_FALSE(chip.running(k)) << k;
        EXPECT_EQ(read_word(chip, k, kIlat), 0u) << "core " << k << ": 15 of 16 cores are not enough";
    }
    write_word(chip, n - 1, kIlatst, 0x200);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Quiescent);
    for (unsigned k = 0; k < n; ++k) {
        EXPECT_EQ(chip.reg(k, 6) & 0x1ff, 0x100u) << "core " << k << ": the first round";
        EXPECT_FALSE(chip.running(k)) << k;
        if (clear) {
            EXPECT_EQ(chip.reg(k, 7) & 0x1ff, 0x100u) << "core " << k << ": the second round";
        } else {
            EXPECT_EQ(chip.reg(k, 7), 0u) << "core " << k << ": never reached";
            EXPECT_EQ(read_word(chip, k, kIlat), 0u) << "core " << k;
        }
    }
    EXPECT_EQ(chip.trap_status(), clear ? 0 : -1);
}

TEST(EpsimChip, WandAfterEveryCoreAndAgainAfterClearingStatusBit3) { wand_rounds(true); }
TEST(EpsimChip, WandSecondRoundNeverRaisedWithoutClearingStatusBit3) { wand_rounds(false); }

// CTIMER0 in CONFIG mode 1 (clock cycles) counts down with the chip's clock, latches TIMER0 (ILAT bit 3) when
// it reaches 0, and stays there: the interrupt comes once.
TEST(EpsimChip, Ctimer0CountsCyclesDownToZeroAndLatchesOnce) {
    const std::string main =
        "    mov r0,#1000\n"
        "    movts ctimer0,r0\n"
        "    mov r0,#0x10\n"  // CONFIG[7:4] = 1: timer 0 counts clock cycles
        "    movts config,r0\n"
        "    gid\n"
        "    idle\n"
        "    movfs r6,ilat\n"
        "    movfs r7,ctimer0\n"
        "    mov r0,#8\n"
        "    movts ilatcl,r0\n"
        "    idle\n"  // nothing will come
        "    mov r0,#1\n"
        "    trap #3\n";
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    start(chip, 0);
    ASSERT_EQ(chip.run(50), Chip::Stop::Budget) << "the timer is pending";
    EXPECT_FALSE(chip.running(0)) << "asleep";
    const uint64_t t1 = chip.now();
    const uint32_t v1 = read_word(chip, 0, kCtimer0);
    EXPECT_LT(v1, 1000u);
    EXPECT_GT(v1, 900u);
    ASSERT_EQ(chip.run(100), Chip::Stop::Budget);
    EXPECT_EQ(chip.now(), t1 + 100);
    EXPECT_EQ(read_word(chip, 0, kCtimer0), v1 - 100) << "one count per cycle";
    EXPECT_EQ(read_word(chip, 0, kIlat), 0u);
    ASSERT_EQ(chip.run(10000), Chip::Stop::Quiescent);
    EXPECT_GE(chip.now(), t1 + v1);
    EXPECT_EQ(chip.reg(0, 6) & 0x3ff, 0x8u) << "TIMER0 latched";
    EXPECT_EQ(chip.reg(0, 7), 0u) << "the count stops at 0";
    EXPECT_EQ(read_word(chip, 0, kCtimer0), 0u);
    EXPECT_EQ(read_word(chip, 0, kIlat), 0u) << "latched once";
    EXPECT_FALSE(chip.running(0));
    EXPECT_EQ(chip.trap_status(), -1);
}

// A store to another core arrives write_base + hops * hop cycles after it issued; a store to the core's own
// memory at once. Here the remote store issues one cycle before the local one.
TEST(EpsimChip, RemoteStoreArrivesLaterThanALocalOne) {
    const std::string main = load_const(1, 0x80902000) +  // core 1, the neighbour: 1 hop
                             "    mov r3,#0x2000\n"
                             "    mov r2,#0x5a\n"
                             "    str r2,[r1]\n"
                             "    str r2,[r3]\n"
                             "    gid\n"
                             "    idle\n";
    for (const Timing& tm : {Timing(), [] { Timing t; t.write_base = 20; t.hop = 3; return t; }()}) {
        Chip chip{ChipConfig(), tm};
        const std::vector<uint8_t> image = assemble_or_fail(program(main));
        ASSERT_FALSE(image.empty());
        load(chip, 0, image);
        start(chip, 0);
        uint64_t local = 0, remote = 0;
        for (uint64_t i = 0; i < 1000 && (local == 0 || remote == 0); ++i) {
            chip.run(1);
            if (local == 0 && read_word(chip, 0, 0x2000) == 0x5a) local = chip.now();
            if (remote == 0 && read_word(chip, 1, 0x2000) == 0x5a) remote = chip.now();
        }
        ASSERT_NE(local, 0u);
        ASSERT_NE(remote, 0u);
        EXPECT_EQ(remote - local, tm.write_base + 1 * tm.hop - 1) << "write_base " << tm.write_base;
    }
}

// Stores from one core to one destination arrive in the order they were issued, whatever the seed's jitter;
// a store to a near core can overtake an earlier one to a far core.
TEST(EpsimChip, RemoteStoresToOneDestinationArriveInOrder) {
    std::string main = load_const(1, 0x8cb02000) +  // core 15, 6 hops away
                       load_const(3, 0x80902000) +  // core 1, 1 hop
                       "    mov r2,#0x77\n"
                       "    str r2,[r1]\n"
                       "    str r2,[r3],#1\n";
    for (unsigned i = 1; i <= 12; ++i) main += "    mov " + r(19 + i) + ",#" + std::to_string(i) + "\n";
    for (unsigned i = 1; i <= 12; ++i) main += "    str " + r(19 + i) + ",[r3],#1\n";  // one a cycle
    main += "    gid\n    idle\n";
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    for (uint64_t seed = 0; seed < 6; ++seed) {
        ChipConfig cfg;
        cfg.seed = seed;
        Chip chip{cfg};
        load(chip, 0, image);
        start(chip, 0);
        uint64_t near = 0, far = 0;
        for (uint64_t c = 0; c < 1000 && (near == 0 || far == 0 || read_word(chip, 1, 0x2030) == 0); ++c) {
            chip.run(1);
            if (near == 0 && read_word(chip, 1, 0x2000) == 0x77) near = chip.now();
            if (far == 0 && read_word(chip, 15, 0x2000) == 0x77) far = chip.now();
            // What has arrived at core 1 is always a prefix of what was sent.
            bool gap = false;
            for (unsigned k = 1; k <= 12; ++k) {
                const bool here = read_word(chip, 1, 0x2000 + 4 * k) == k;
                EXPECT_FALSE(here && gap) << "seed " << seed << ", cycle " << chip.now() << ": store " << k
                                          << " arrived before an earlier one";
                gap = gap || !here;
            }
        }
        EXPECT_NE(near, 0u);
        EXPECT_NE(far, 0u);
        EXPECT_LT(near, far) << "seed " << seed;
        EXPECT_EQ(read_word(chip, 1, 0x2030), 12u) << "seed " << seed;
    }
}

// A load from another core stalls its core read_base + 2 * hops * hop cycles more than a local one, a load from
// external DRAM dram_read more; CTIMER0 (counting cycles) measures it from the program.
TEST(EpsimChip, RemoteLoadsStall) {
    Timing tm;
    tm.read_base = 30;
    tm.hop = 2;
    tm.dram_read = 120;
    const std::string main = load_const(0, 0xffffffff) +
                             "    movts ctimer0,r0\n"
                             "    mov r0,#0x10\n"
                             "    movts config,r0\n"
                             "    mov r3,#0x2000\n" +
                             load_const(1, 0x84902000) +  // core 5: row 33, column 9, 2 hops
                             load_const(2, 0x8e000100) +  // external DRAM
                             "    movfs r20,ctimer0\n"
                             "    ldr r4,[r3]\n"
                             "    movfs r21,ctimer0\n"
                             "    ldr r5,[r1]\n"
                             "    movfs r22,ctimer0\n"
                             "    ldr r6,[r2]\n"
                             "    movfs r23,ctimer0\n"
                             "    mov r0,#0\n"
                             "    trap #3\n";
    Chip chip{ChipConfig(), tm};
    ASSERT_EQ(chip.coreid(5), 0x849u);
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    write_word(chip, 0, 0x2000, 0x11111111);
    write_word(chip, 5, 0x2000, 0x22222222);
    const uint32_t dram = 0x33333333;
    chip.host_write(0x8e000100, &dram, 4);
    start(chip, 0);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Quiescent) << chip.fault().what;
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_EQ(chip.reg(0, 4), 0x11111111u);
    EXPECT_EQ(chip.reg(0, 5), 0x22222222u);
    EXPECT_EQ(chip.reg(0, 6), 0x33333333u);
    const uint32_t local = chip.reg(0, 20) - chip.reg(0, 21), remote = chip.reg(0, 21) - chip.reg(0, 22),
                   external = chip.reg(0, 22) - chip.reg(0, 23);
    EXPECT_EQ(remote - local, tm.read_base + 2 * 2 * tm.hop) << "local " << local << ", remote " << remote;
    EXPECT_EQ(external - local, tm.dram_read) << "local " << local << ", DRAM " << external;
}

// TESTSET on the global address of a core's SRAM (its own or another's): returns the old word, and writes the
// register's value only if the old word was 0.
TEST(EpsimChip, TestsetOnAGlobalAddress) {
    const std::string main = load_const(0, 0x80802000) +  // core 0's own SRAM, by its global address
                             "    mov r1,#0\n"
                             "    mov r2,#5\n"
                             "    testset r2,[r0,r1]\n"
                             "    mov r3,#7\n"
                             "    testset r3,[r0,r1]\n" +
                             load_const(4, 0x80902000) +  // core 1's
                             "    mov r6,#9\n"
                             "    testset r6,[r4,r1]\n"
                             "    mov r7,#4\n"
                             "    mov r8,#11\n"
                             "    testset r8,[r4,r7]\n"
                             "    mov r0,#0\n"
                             "    trap #3\n";
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    write_word(chip, 1, 0x2004, 0x1234);
    start(chip, 0);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Quiescent) << chip.fault().what;
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_EQ(chip.reg(0, 2), 0u) << "was 0";
    EXPECT_EQ(chip.reg(0, 3), 5u) << "was set by the first";
    EXPECT_EQ(read_word(chip, 0, 0x2000), 5u) << "the second left it";
    EXPECT_EQ(chip.reg(0, 6), 0u);
    EXPECT_EQ(read_word(chip, 1, 0x2000), 9u);
    EXPECT_EQ(chip.reg(0, 8), 0x1234u);
    EXPECT_EQ(read_word(chip, 1, 0x2004), 0x1234u);
}

// TESTSET on a local address is a fault (the chip needs a global address).
TEST(EpsimChip, TestsetOnALocalAddressFaults) {
    const std::string main =
        "    mov r0,#0x2000\n"
        "    mov r1,#0\n"
        "    mov r2,#5\n"
        "    b.l 1f\n"
        "    .org 0x200\n"
        "1:  testset r2,[r0,r1]\n"
        "    mov r0,#0\n"
        "    trap #3\n";
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    start(chip, 0);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Fault);
    EXPECT_EQ(chip.fault().pc, 0x200u);
    EXPECT_NE(chip.fault().what.find("testset"), std::string::npos) << chip.fault().what;
    EXPECT_NE(chip.fault().what.find("0x00002000"), std::string::npos) << chip.fault().what;
    EXPECT_EQ(read_word(chip, 0, 0x2000), 0u);
}

// DMA in descriptor mode: DMA0CONFIG = ptr << 16 | 8 (STARTUP) loads the descriptor at local `ptr` (8-byte
// aligned: config, strides, counts, outer strides, source, destination) and copies; DMA0STATUS reads non-zero
// until the transfer's time is up, then 0; with the descriptor's IRQ bit the DMA0 interrupt follows.
void write_descriptor(Chip& chip, uint32_t at, uint32_t config) {
    const uint32_t desc[6] = {config,
                              4u << 16 | 4,   // inner strides: destination, source
                              1u << 16 | 16,  // counts: outer 1, inner 16
                              0,              // outer strides
                              0x2000,         // source: local
                              0x80903000};    // destination: core 1's SRAM
    chip.host_write(global(chip, 0, at), desc, sizeof desc);
    for (uint32_t i = 0; i < 16; ++i) write_word(chip, 0, 0x2000 + 4 * i, 0xa0000000u + i);
}

TEST(EpsimChip, DmaDescriptorModeCopiesAndReportsBusy) {
    const std::string main =
        "    mov r0,#8\n"
        "    movt r0,#0x1000\n"
        "    movts dma0config,r0\n"
        "    mov r7,#0\n"
        "1:  movfs r1,dma0status\n"
        "    add r7,r7,#1\n"
        "    sub r1,r1,#0\n"
        "    bne.s 1b\n"
        "    movfs r2,dma0status\n"
        "    mov r0,#0\n"
        "    trap #3\n";
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    write_descriptor(chip, 0x1000, 2u << 5 | 1);  // words, enabled
    start(chip, 0);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Quiescent) << chip.fault().what;
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_GE(chip.reg(0, 7), 2u) << "DMA0STATUS read busy at least once";
    EXPECT_EQ(chip.reg(0, 2), 0u);
    EXPECT_EQ(read_word(chip, 0, kDma0Status), 0u);
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(read_word(chip, 1, 0x3000 + 4 * i), 0xa0000000u + i) << i;
    EXPECT_EQ(read_word(chip, 1, 0x3040), 0u) << "16 words, no more";
}

TEST(EpsimChip, DmaInterruptWhenDone) {
    const std::string main =
        "    mov r5,#0\n"
        "    mov r0,#8\n"
        "    movt r0,#0x1000\n"
        "    movts dma0config,r0\n"
        "    movfs r1,dma0status\n"
        "    idle\n"
        "    movfs r2,dma0status\n"
        "    mov r0,#0\n"
        "    trap #3\n"
        "dma0_isr:\n"
        "    add r5,r5,#1\n"
        "    rti\n";
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> image = assemble_or_fail(program(main, {{6, "dma0_isr"}}));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    write_descriptor(chip, 0x1000, 2u << 5 | 0x10 | 1);  // words, IRQ, enabled
    start(chip, 0);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Quiescent) << chip.fault().what;
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_NE(chip.reg(0, 1), 0u) << "busy just after the start";
    EXPECT_EQ(chip.reg(0, 5), 1u) << "DMA0 taken once";
    EXPECT_EQ(chip.reg(0, 2), 0u);
    EXPECT_EQ(read_word(chip, 1, 0x303c), 0xa000000fu);
}

TEST(EpsimChip, DmaDescriptorNotEightByteAlignedFaults) {
    const std::string main =
        "    mov r0,#8\n"
        "    movt r0,#0x1004\n"
        "    movts dma0config,r0\n"
        "    mov r0,#0\n"
        "    trap #3\n";
    Chip chip{ChipConfig()};
    const std::vector<uint8_t> image = assemble_or_fail(program(main));
    ASSERT_FALSE(image.empty());
    load(chip, 0, image);
    start(chip, 0);
    ASSERT_EQ(chip.run(100000), Chip::Stop::Fault);
    EXPECT_NE(chip.fault().what.find("0x00001004"), std::string::npos) << chip.fault().what;
}

uint32_t bits_of(float f) {
    uint32_t v;
    std::memcpy(&v, &f, 4);
    return v;
}

// CONFIG bit 19 (IALU2): the FPU's operations are integer ones (gas's iadd/imul are their other names).
TEST(EpsimChip, IntegerModeMakesFmulAMultiply) {
    const std::string main = load_const(0, 1u << 19) +
                             "    movts config,r0\n"
                             "    mov r1,#7\n" +
                             load_const(2, uint32_t(-3)) +
                             "    fmul r3,r1,r2\n"
                             "    fadd r4,r1,r2\n"
                             "    fsub r5,r1,r2\n"
                             "    mov r6,#100\n"
                             "    fmadd r6,r1,r2\n"
                             "    mov r8,#1\n"
                             "    fmsub r8,r1,r2\n"
                             "    imul.l r9,r1,r1\n"
                             "    iadd r10,r1,r1\n"
                             "    mov r0,#0\n"
                             "    trap #3\n";
    Chip chip{ChipConfig()};
    ASSERT_EQ(run_one(chip, program(main)), Chip::Stop::Quiescent);
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_EQ(int32_t(chip.reg(0, 3)), -21);
    EXPECT_EQ(int32_t(chip.reg(0, 4)), 4);
    EXPECT_EQ(int32_t(chip.reg(0, 5)), 10);
    EXPECT_EQ(int32_t(chip.reg(0, 6)), 79);
    EXPECT_EQ(int32_t(chip.reg(0, 8)), 22);
    EXPECT_EQ(chip.reg(0, 9), 49u);
    EXPECT_EQ(chip.reg(0, 10), 14u);
}

// The float mode (CONFIG 0): single-precision operations, fix rounding to nearest (even) or, with CONFIG bit 0,
// toward zero; BZ and BN set by the result and followed by beq/bne/blt/blte, the integer flags untouched.
TEST(EpsimChip, FloatingPointOperationsAndTheirConditions) {
    std::string main = load_const(1, bits_of(1.5f)) + load_const(2, bits_of(2.25f)) +
                       "    fadd r3,r1,r2\n"
                       "    fmul r4,r1,r2\n"
                       "    fsub r5,r1,r2\n"
                       "    mov r6,#7\n"
                       "    float r6,r6\n" +
                       load_const(14, bits_of(2.75f)) +
                       "    fix r7,r14\n"
                       "    fabs r8,r5\n" +
                       load_const(9, bits_of(1.0f)) +
                       "    fmadd r9,r1,r2\n" +
                       load_const(10, bits_of(10.0f)) +
                       "    fmsub r10,r1,r2\n" +
                       load_const(11, bits_of(-2.5f)) +
                       "    fix r11,r11\n"
                       "    mov r0,#1\n"
                       "    movts config,r0\n"
                       "    fix r12,r14\n"
                       "    mov r0,#0\n"
                       "    movts config,r0\n"
                       "    mov r60,#0x4000\n";
    const char* const ops[] = {"fsub r13,r1,r1", "fsub r13,r1,r2", "fadd r13,r1,r2"};  // zero, negative, positive
    for (const char* op : ops) main += std::string("    ") + op + "\n    movfs r15,status\n    str r15,[r60],#1\n" + record_conditions();
    main += "    mov r0,#0\n    trap #3\n";
    Chip chip{ChipConfig()};
    ASSERT_EQ(run_one(chip, program(main)), Chip::Stop::Quiescent);
    EXPECT_EQ(chip.trap_status(), 0);
    EXPECT_EQ(chip.reg(0, 3), bits_of(3.75f));
    EXPECT_EQ(chip.reg(0, 4), bits_of(3.375f));
    EXPECT_EQ(chip.reg(0, 5), bits_of(-0.75f));
    EXPECT_EQ(chip.reg(0, 6), bits_of(7.0f));
    EXPECT_EQ(chip.reg(0, 7), 3u) << "2.75 to nearest";
    EXPECT_EQ(chip.reg(0, 8), bits_of(0.75f));
    EXPECT_EQ(chip.reg(0, 9), bits_of(4.375f));
    EXPECT_EQ(chip.reg(0, 10), bits_of(6.625f));
    EXPECT_EQ(int32_t(chip.reg(0, 11)), -2) << "-2.5 to nearest even";
    EXPECT_EQ(chip.reg(0, 12), 2u) << "2.75 toward zero";
    constexpr uint32_t kBz = 1u << 8, kBn = 1u << 9;
    uint32_t at = 0x4000;
    const bool zero[] = {true, false, false}, negative[] = {false, true, false};
    for (size_t i = 0; i < std::size(ops); ++i) {
        const uint32_t status = read_word(chip, 0, at);
        EXPECT_EQ(bool(status & kBz), zero[i]) << ops[i];
        EXPECT_EQ(bool(status & kBn), negative[i]) << ops[i];
        EXPECT_EQ(status & (kAz | kAn | kAc | kAv), 0u) << ops[i] << ": the integer flags are the ALU's";
        at += 4;
        for (unsigned k = 0; k < 14; ++k) {
            const bool expect = condition(k, false, false, false, false, zero[i], negative[i]);
            EXPECT_EQ(read_word(chip, 0, at), expect) << "b" << cond_name(k) << " after " << ops[i];
            EXPECT_EQ(read_word(chip, 0, at + 4), expect) << "mov" << cond_name(k) << " after " << ops[i];
            at += 8;
        }
    }
}

#endif  // EPSIM_ASSEMBLER

}  // namespace

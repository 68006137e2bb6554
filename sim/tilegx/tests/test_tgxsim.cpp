// The TILE-Gx simulator (sim/tilegx, tgxsim): its decoder and formatter against binutils.
//
// The round trip and the differential decode need the project's TILE-Gx binutils (tilegx-linux-gnu-as, -objcopy,
// -objdump: TGXSIM_TOOLS is their directory) and, for the round trip, Debian's binutils-source (TGXSIM_BINUTILS_TAR:
// its assembler test list gas/testsuite/gas/tilegx/t_insns.{s,d}, read from the tarball at test time, never kept).
// CMakeLists.txt compiles those tests only when it has them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tilegx/chip.hpp"
#include "tilegx/isa.hpp"

using namespace tgxsim;

namespace {

// ---- the table, without binutils -------------------------------------------------------------------------------

uint64_t pipe_bits(Pipe p) {
    auto bits = [](unsigned lo, unsigned hi) { return ((uint64_t(1) << (hi - lo + 1)) - 1) << lo; };
    const uint64_t mode = uint64_t(3) << 62;
    switch (p) {
    case Pipe::X0: return bits(0, 30) | mode;
    case Pipe::X1: return bits(31, 61) | mode;
    case Pipe::Y0: return bits(0, 19) | bits(27, 30);
    case Pipe::Y1: return bits(31, 50) | bits(58, 61);
    case Pipe::Y2: return bits(20, 26) | bits(51, 57) | mode;
    }
    return 0;
}

TEST(TgxsimTable, EveryEntryLivesInItsPipe) {
    for (size_t i = 0; i < table_size(); ++i) {
        Op op;
        Pipe p;
        uint64_t mask, match;
        table_entry(i, op, p, mask, match);
        EXPECT_EQ(mask & ~pipe_bits(p), 0u) << op_name(op) << " in " << pipe_name(p);
        EXPECT_EQ(match & ~mask, 0u) << op_name(op) << " in " << pipe_name(p);
        if (p == Pipe::X0 || p == Pipe::X1) {
            EXPECT_EQ(mask >> 62, 3u) << op_name(op) << ": an X pipe's entry must ask for mode 0";
        }
    }
}

// The decoder takes the most specific entry that matches: two entries with as many mask bits that both match
// one encoding would make the choice arbitrary.
TEST(TgxsimTable, NoTwoEquallySpecificEntriesShareAnEncoding) {
    for (size_t i = 0; i < table_size(); ++i)
        for (size_t j = i + 1; j < table_size(); ++j) {
            Op oa, ob;
            Pipe pa, pb;
            uint64_t ma, va, mb, vb;
            table_entry(i, oa, pa, ma, va);
            table_entry(j, ob, pb, mb, vb);
            if (pa != pb || __builtin_popcountll(ma) != __builtin_popcountll(mb)) continue;
            EXPECT_NE((va ^ vb) & ma & mb, 0u) << op_name(oa) << " and " << op_name(ob) << " in " << pipe_name(pa);
        }
}

// Bundles as tilegx-linux-gnu-as 2.40 encodes them and objdump prints them.
TEST(TgxsimDecode, KnownBundles) {
    const struct {
        uint64_t bits, pc;
        const char* text;
    } cases[] = {
        {0x9f864000071ff081ull, 0, "{ addi r1, r2, -1 ; ld r48, r49 }"},
        {0x9b821840ef12eb6cull, 0, "{ mul_hs_hs r44, r45, r46 ; add r1, r2, r3 ; ld r48, r49 }"},
        {0x14400000b5042b6cull, 0, "{ bfextu r44, r45, 1, 2 ; beqz r0, 0x8 }"},
        {0x147ff81fb5042b6cull, 0x48, "{ bfextu r44, r45, 1, 2 ; beqz r0, 0x40 }"},
        {0x2400000135042b6cull, 8, "{ bfextu r44, r45, 1, 2 ; j 0x18 }"},
        {0x18b20000b5042b6cull, 0, "{ bfextu r44, r45, 1, 2 ; mfspr r1, MPL_ILL_TRANS_SET_0 }"},
        {0x18bbf83fb5042b6cull, 0, "{ bfextu r44, r45, 1, 2 ; mtspr 8191, r1 }"},
        {0x286a080051485000ull, 0, "{ drain }"},
        {0x286b080051485000ull, 0, "{ nop ; nop }"},
        {0x286b000051485000ull, 0, "{ nap }"},
        {0x286a500051483000ull, 0, "{ iret }"},
        {0x286b080051483000ull, 0, "{ nop }"},
        // An undecodable pipe pads like an instruction that cannot be bundled: fnops shown, nops not.
        {0x9d06474be00e0ac5ull, 0, "{ shl3addx r5, r43, r32 ; fnop ; <invalid> }"},
        {0x9d9678e0cafed73eull, 0, "{ mz udn3, r28, r45 ; <invalid> }"},
    };
    for (const auto& c : cases) EXPECT_EQ(format(decode(c.bits, c.pc)), c.text) << std::hex << c.bits;
}

TEST(TgxsimDecode, OperandsAreDecodedValues) {
    const Bundle b = decode(0x9f864000071ff081ull, 0);  // { addi r1, r2, -1 ; ld r48, r49 }
    ASSERT_TRUE(b.y);
    EXPECT_EQ(b.slot[0].op, I_addi);
    EXPECT_EQ(b.slot[0].pipe, Pipe::Y0);
    EXPECT_EQ(b.slot[0].opnd[0], 1);
    EXPECT_EQ(b.slot[0].opnd[1], 2);
    EXPECT_EQ(b.slot[0].opnd[2], -1);
    EXPECT_EQ(b.slot[2].op, I_ld);
    EXPECT_EQ(b.slot[2].pipe, Pipe::Y2);
    EXPECT_EQ(b.slot[2].opnd[0], 48);
    EXPECT_EQ(b.slot[2].opnd[1], 49);
    const Bundle j = decode(0x147ff81fb5042b6cull, 0x48);  // beqz r0, 0x40
    EXPECT_EQ(j.slot[1].op, I_beqz);
    EXPECT_EQ(j.slot[1].kind[1], K_Addr);
    EXPECT_EQ(j.slot[1].opnd[1], 0x40);
}

TEST(TgxsimDecode, SprNames) {
    EXPECT_STREQ(spr_name(10113), "CYCLE");
    EXPECT_STREQ(spr_name(9995), "TILE_COORD");
    EXPECT_STREQ(spr_name(10112), "CMPEXCH_VALUE");
    EXPECT_STREQ(spr_name(2944), "UDN_DATA_AVAIL");
    EXPECT_EQ(spr_name(8191), nullptr);
}

#if defined(TGXSIM_TOOLS)

// ---- against binutils ------------------------------------------------------------------------------------------

std::string tool(const char* name) { return std::string(TGXSIM_TOOLS) + "/tilegx-linux-gnu-" + name; }

struct TempDir {
    std::string path;
    TempDir() {
        char tmpl[] = "/tmp/tgxsim_test.XXXXXX";
        const char* p = mkdtemp(tmpl);
        if (p) path = p;
    }
    ~TempDir() {
        if (!path.empty()) std::system(("rm -rf '" + path + "'").c_str());
    }
};

void run(const std::string& cmd) { ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd; }

std::vector<uint64_t> read_words(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::vector<uint64_t> w;
    unsigned char b[8];
    while (f.read(reinterpret_cast<char*>(b), 8)) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; --i) v = v << 8 | b[i];
        w.push_back(v);
    }
    return w;
}

// objdump's instruction text per line, in order: "   8:\t<hex> \t{ ... }".
std::vector<std::string> bundle_texts(const std::string& path) {
    std::ifstream f(path);
    std::vector<std::string> out;
    std::string l;
    static const std::regex line(R"(^\s*[0-9a-f]+:\s+(\[0-9a-f\]\*|[0-9a-f]{16})\s+(\{.*\})\s*$)");
    std::smatch m;
    while (std::getline(f, l))
        if (std::regex_match(l, m, line)) out.push_back(m[2]);
    return out;
}

#if defined(TGXSIM_BINUTILS_TAR)
// Every bundle of binutils' own assembler test (every instruction, in every slot pairing it allows), assembled
// by the project's tilegx-linux-gnu-as, decodes to the text the test expects of objdump.
TEST(TgxsimBinutils, AssemblerTestListRoundTrips) {
    TempDir d;
    ASSERT_FALSE(d.path.empty());
    const std::string dir = "binutils-2.40/gas/testsuite/gas/tilegx/";
    run("tar -xJf '" TGXSIM_BINUTILS_TAR "' -C '" + d.path + "' " + dir + "t_insns.s " + dir + "t_insns.d");
    const std::string s = d.path + "/" + dir + "t_insns.s", o = d.path + "/t.o", bin = d.path + "/t.bin";
    run("'" + tool("as") + "' '" + s + "' -o '" + o + "'");
    run("'" + tool("objcopy") + "' -O binary -j .text '" + o + "' '" + bin + "'");
    const auto words = read_words(bin);
    auto expected = bundle_texts(d.path + "/" + dir + "t_insns.d");
    ASSERT_GT(words.size(), 10000u);
    ASSERT_EQ(words.size(), expected.size());
    // The test's objdump -dr names branch targets by symbol: "0 <target>" is address 0.
    static const std::regex sym(R"(\b([0-9a-f]+) <target>)");
    unsigned bad = 0;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string want = std::regex_replace(expected[i], sym, "0x$1");
        const std::string got = format(decode(words[i], 8 * i));
        if (got != want && ++bad <= 20) ADD_FAILURE() << std::hex << 8 * i << ": " << words[i] << ": " << got
                                                      << " (objdump: " << want << ")";
    }
    EXPECT_EQ(bad, 0u) << "of " << words.size() << " bundles";
}
#endif

// Random bundles, X and Y, decoded here and by objdump -b binary -m tilegx: the same text, invalid pipes included.
// (objdump computes branch targets in 32 bits: addresses are compared modulo 2^32.)
TEST(TgxsimBinutils, RandomBundlesDecodeAsObjdumpDoes) {
    TempDir d;
    ASSERT_FALSE(d.path.empty());
    std::mt19937_64 rng(20261206);
    std::vector<uint64_t> words(40000);
    for (auto& w : words) {
        w = rng();
        if (rng() % 4 == 0) w &= ~(uint64_t(3) << 62);  // as many X bundles as any one Y mode
    }
    {
        std::ofstream f(d.path + "/r.bin", std::ios::binary);
        for (uint64_t w : words)
            for (int i = 0; i < 8; ++i) f.put(char(w >> (8 * i)));
    }
    run("'" + tool("objdump") + "' -D -b binary -m tilegx '" + d.path + "/r.bin' > '" + d.path + "/r.txt'");
    const auto expected = bundle_texts(d.path + "/r.txt");
    ASSERT_EQ(expected.size(), words.size());
    static const std::regex addr(R"(0x([0-9a-f]+))");
    auto mod32 = [](const std::string& s) {
        std::string out;
        auto it = std::sregex_iterator(s.begin(), s.end(), addr);
        size_t at = 0;
        for (; it != std::sregex_iterator(); ++it) {
            out += s.substr(at, size_t(it->position()) - at);
            char b[24];
            std::snprintf(b, sizeof b, "0x%llx", std::stoull((*it)[1], nullptr, 16) & 0xffffffffull);
            out += b;
            at = size_t(it->position() + it->length());
        }
        return out + s.substr(at);
    };
    unsigned bad = 0;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string got = mod32(format(decode(words[i], 8 * i)));
        if (got != expected[i] && ++bad <= 20)
            ADD_FAILURE() << std::hex << words[i] << ": " << got << " (objdump: " << expected[i] << ")";
    }
    EXPECT_EQ(bad, 0u) << "of " << words.size() << " bundles";
}


// ---- the chip, running code assembled here ----------------------------------------------------------------------

// Each program is assembled on its own and copied to its tile's code address (8 KiB apart from 0x10000); data at
// 0x80000. A program ends in nap (the tile stops).
constexpr uint64_t kMem = 0x10000, kData = 0x80000;
uint64_t code_at(unsigned tile) { return kMem + 0x2000 * tile; }

std::vector<uint8_t> assemble(const std::string& source) {
    TempDir d;
    EXPECT_FALSE(d.path.empty());
    {
        std::ofstream f(d.path + "/p.s");
        f << source << "\n";
    }
    const std::string o = d.path + "/p.o", bin = d.path + "/p.bin";
    EXPECT_EQ(std::system(("'" + tool("as") + "' '" + d.path + "/p.s' -o '" + o + "'").c_str()), 0) << source;
    EXPECT_EQ(std::system(("'" + tool("objcopy") + "' -O binary -j .text '" + o + "' '" + bin + "'").c_str()), 0);
    std::ifstream f(bin, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

struct ChipRun {
    std::unique_ptr<Chip> chip;
    Chip::Stop stop = Chip::Stop::Budget;
};

// Tile k runs programs[k] (an empty one: the tile is not started).
ChipRun run_programs(const std::vector<std::string>& programs, uint64_t cycles = 100000, unsigned cols = 6,
                 unsigned rows = 6, unsigned queue_words = 32) {
    ChipConfig cfg;
    cfg.cols = cols;
    cfg.rows = rows;
    cfg.mem_base = kMem;
    cfg.mem_size = 0x400000;
    cfg.udn_queue_words = queue_words;
    // 64 KiB "partitions" homed at tiles 0, 1, ...: 0x80000 is tile 7's (x 1, y 1), 0x240000 tile 35's.
    cfg.partition_base = kMem;
    cfg.log2_partition = 16;
    for (unsigned k = 0; k < cols * rows; ++k) cfg.partition_tile.push_back(k);
    ChipRun r;
    r.chip = std::make_unique<Chip>(cfg);
    for (size_t k = 0; k < programs.size(); ++k) {
        if (programs[k].empty()) continue;
        const auto bytes = assemble(programs[k]);
        r.chip->host_write(code_at(unsigned(k)), bytes.data(), bytes.size());
    }
    for (size_t k = 0; k < programs.size(); ++k)
        if (!programs[k].empty()) r.chip->start(unsigned(k), code_at(unsigned(k)), 0);
    r.stop = r.chip->run(cycles);
    return r;
}

TEST(TgxsimChip, ABundleReadsItsSourcesBeforeItWrites) {
    ChipRun r = run_programs({"movei r2, 5\n movei r3, 7\n { add r1, r2, r3 ; addi r2, r2, 1 }\n"
                          " { move r4, r5 ; move r5, r4 }\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(0, 1), 12u);
    EXPECT_EQ(r.chip->reg(0, 2), 6u);
    EXPECT_EQ(r.chip->state(0), Chip::TileState::Napping);
}

TEST(TgxsimChip, BitFieldsWrapAndMasksSelect) {
    ChipRun r = run_programs({"moveli r1, -1\n bfextu r2, r1, 60, 3\n"  // bits 60..63 and 0..3: 8 ones
                          " movei r3, 0\n bfins r3, r1, 62, 1\n"     // ones at 62, 63, 0, 1
                          " movei r4, 9\n mz r5, zero, r4\n mnz r6, zero, r4\n"
                          " moveli r7, 0x1234\n v4int_l r8, r7, r4\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(0, 2), 0xffu);
    EXPECT_EQ(r.chip->reg(0, 3), 0xc000000000000003ull);
    EXPECT_EQ(r.chip->reg(0, 5), 9u);
    EXPECT_EQ(r.chip->reg(0, 6), 0u);
    EXPECT_EQ(r.chip->reg(0, 8), 0x0000123400000009ull);
}

// GCC's -O2/-O3 code uses lane-wise forms (loops it vectorises) and dblalign (unaligned loads).
TEST(TgxsimChip, LanesAndDblalign) {
    ChipRun r = run_programs({"moveli r1, 0x0102\n shl16insli r1, r1, 0x0304\n shl16insli r1, r1, 0x0506\n"
                          " shl16insli r1, r1, 0x0708\n"
                          " v1add r2, r1, r1\n v2addi r3, r1, -1\n v1maxui r4, r1, 5\n"
                          " moveli r6, 0x1112\n shl16insli r6, r6, 0x1314\n shl16insli r6, r6, 0x1516\n"
                          " shl16insli r6, r6, 0x1718\n move r5, r1\n movei r7, 3\n dblalign r5, r6, r7\n"
                          " movei r9, -1\n v2mins r8, r1, r9\n v4int_l r10, r6, r1\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(0, 1), 0x0102030405060708ull);
    EXPECT_EQ(r.chip->reg(0, 2), 0x020406080a0c0e10ull);
    EXPECT_EQ(r.chip->reg(0, 3), 0x0101030305050707ull);
    EXPECT_EQ(r.chip->reg(0, 4), 0x0505050505060708ull);
    EXPECT_EQ(r.chip->reg(0, 5), 0x1617180102030405ull);  // bytes 3..10 of r1 (low) : r6 (high)
    EXPECT_EQ(r.chip->reg(0, 8), ~uint64_t(0));
    EXPECT_EQ(r.chip->reg(0, 10), 0x1516171805060708ull);
}

// GCC's code for an unaligned access (ldna: the aligned 8 bytes around it, no trap) and for storing a bit field of
// one register into another (mm: GCC's *insv_mm, "mm dest, src, pos + len, pos - 1").
TEST(TgxsimChip, LdnaAndMm) {
    ChipRun r = run_programs({"moveli r1, 0x0102\n shl16insli r1, r1, 0x0304\n shl16insli r1, r1, 0x0506\n"
                          " shl16insli r1, r1, 0x0708\n moveli r10, 8\n shl16insli r10, r10, 0\n st r10, r1\n"
                          " addi r11, r10, 5\n ldna r2, r11\n addi r12, r10, 3\n ldna_add r3, r12, 8\n"
                          " movei r4, -1\n mm r4, r1, 24, 7\n movei r5, 0\n mm r5, r1, 16, 63\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(0, 2), 0x0102030405060708ull);  // the 8 bytes at 0x80000, for 0x80005
    EXPECT_EQ(r.chip->reg(0, 3), 0x0102030405060708ull);
    EXPECT_EQ(r.chip->reg(0, 12), kData + 11);            // the address as it was, plus 8
    EXPECT_EQ(r.chip->reg(0, 4), 0xffffffffff0607ffull);  // bits 8..23 of r1 into all ones
    EXPECT_EQ(r.chip->reg(0, 5), 0x0708ull);              // bits 0..15 of r1 into zero
}

// Code written to memory runs once icoh has made the instruction cache's line coherent (a trampoline: GCC writes it
// to the stack and calls __clear_cache, which does mf and icoh on each line); until then the line's old bundles run.
TEST(TgxsimChip, IcohMakesWrittenCodeRun) {
    ChipRun r = run_programs({" jal patch\n move r6, r5\n lnk r10\n"
                          "here:\n addli r11, r10, newcode - here\n addli r12, r10, patch - here\n"
                          " ld r13, r11\n st r12, r13\n mf\n jal patch\n move r7, r5\n"
                          " icoh r12\n jal patch\n move r8, r5\n nap\n"
                          "patch:\n movei r5, 1\n jrp lr\n"
                          "newcode:\n movei r5, 2\n"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(0, 6), 1u);
    EXPECT_EQ(r.chip->reg(0, 7), 1u);  // written, not yet made coherent
    EXPECT_EQ(r.chip->reg(0, 8), 2u);
}

TEST(TgxsimChip, SprsTheProgramsRead) {
    // Tile 8 of a 6 x 6 chip is x 2, y 1.
    std::vector<std::string> p(9);
    p[8] = "mfspr r1, TILE_COORD\n mfspr r2, CYCLE\n mfspr r3, CYCLE\n"
           "moveli r10, 8\n shl16insli r10, r10, 0\n movei r11, 5\n st r10, r11\n"
           "movei r12, 5\n mtspr CMPEXCH_VALUE, r12\n movei r13, 9\n cmpexch r14, r10, r13\n"
           "cmpexch r15, r10, r11\n ld r16, r10\n nap";
    ChipRun r = run_programs(p);
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(8, 1), uint64_t(2) << 18 | uint64_t(1) << 7);
    EXPECT_EQ(r.chip->reg(8, 3) - r.chip->reg(8, 2), 1u);
    EXPECT_EQ(r.chip->reg(8, 14), 5u);  // it matched: 9 stored
    EXPECT_EQ(r.chip->reg(8, 15), 9u);  // no match: unchanged
    EXPECT_EQ(r.chip->reg(8, 16), 9u);
}

TEST(TgxsimChip, AnSprItDoesNotModelFaults) {
    ChipRun r = run_programs({"mfspr r1, MPL_UDN_ACCESS\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Fault);
    EXPECT_NE(r.chip->fault().what.find("MPL_UDN_ACCESS"), std::string::npos) << r.chip->fault().what;
    EXPECT_EQ(r.chip->fault().pc, code_at(0));
}

TEST(TgxsimChip, MisalignedAndOutsideAccessesFault) {
    ChipRun r = run_programs({"moveli r10, 8\n shl16insli r10, r10, 4\n ld r1, r10\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Fault);
    EXPECT_NE(r.chip->fault().what.find("misaligned"), std::string::npos) << r.chip->fault().what;
    ChipRun o = run_programs({"movei r10, 8\n ld r1, r10\n nap"});
    ASSERT_EQ(o.stop, Chip::Stop::Fault);
    EXPECT_NE(o.chip->fault().what.find("outside memory"), std::string::npos) << o.chip->fault().what;
}

TEST(TgxsimChip, AnUndecodableBundleFaultsNamingIt) {
    ChipRun r = run_programs({".quad 0xffffffffffffffff"});
    ASSERT_EQ(r.stop, Chip::Stop::Fault);
    EXPECT_NE(r.chip->fault().what.find("not a TILE-Gx encoding"), std::string::npos) << r.chip->fault().what;
}

// A tile sees its own store at once; mf waits until it has landed, which takes time (posted stores: here to
// memory homed 10 hops away).
TEST(TgxsimChip, StoresArePostedAndMfWaitsForThem) {
    ChipRun r = run_programs({"moveli r10, 0x24\n shl16insli r10, r10, 0\n movei r11, 42\n st r10, r11\n ld r12, r10\n"
                          "mfspr r5, CYCLE\n mf\n mfspr r6, CYCLE\n mf\n mfspr r7, CYCLE\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(0, 12), 42u);
    EXPECT_GT(r.chip->reg(0, 6) - r.chip->reg(0, 5), 2u);  // the first mf waited
    EXPECT_EQ(r.chip->reg(0, 7) - r.chip->reg(0, 6), 2u);  // nothing left to wait for: mf and mfspr, a cycle each
    uint64_t v = 0;
    r.chip->host_read(0x240000, &v, 8);
    EXPECT_EQ(v, 42u);
}

// Another tile reads the old value until the store lands: a missing fence shows.
TEST(TgxsimChip, AnotherTileSeesAStoreOnlyOnceItLands) {
    // Tile 0 stores 1 at cycle ~3; tile 1 (started with it) reads at once, then after a while.
    ChipRun r = run_programs({"moveli r10, 8\n shl16insli r10, r10, 0\n movei r11, 1\n st r10, r11\n nap",
                          "moveli r10, 8\n shl16insli r10, r10, 0\n nop\n nop\n ld r1, r10\n"
                          "movei r3, 20\n1: addi r3, r3, -1\n bnez r3, 1b\n ld r2, r10\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(1, 1), 0u);
    EXPECT_EQ(r.chip->reg(1, 2), 1u);
}

// "header, word" from tile 0 to tile 1 (x 1, y 0), which waits for it in a read of udn0.
const char* kSendOne = "moveli r20, 4\n shl16insli r20, r20, 1\n moveli r21, 0x77\n"
                       "move udn0, r20\n move udn0, r21\n nap";

TEST(TgxsimChip, AUdnWordArrivesAndEndsAWait) {
    ChipRun r = run_programs({kSendOne, "mfspr r2, UDN_DATA_AVAIL\n move r1, udn0\n mfspr r3, UDN_DATA_AVAIL\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent) << r.chip->fault().what;
    EXPECT_EQ(r.chip->reg(1, 1), 0x77u);
    EXPECT_EQ(r.chip->reg(1, 2), 0u);  // nothing there yet when it looked
    EXPECT_EQ(r.chip->reg(1, 3), 0u);  // taken
}

TEST(TgxsimChip, EveryTileWaitingOnTheUdnIsQuiescentAndSaysWhere) {
    ChipRun r = run_programs({"move r1, udn0\n nap", "move r1, udn0\n nap"});
    ASSERT_EQ(r.stop, Chip::Stop::Quiescent);
    EXPECT_EQ(r.chip->state(0), Chip::TileState::Receiving);
    EXPECT_EQ(r.chip->state(1), Chip::TileState::Receiving);
    EXPECT_NE(r.chip->describe(1).find("x 1 y 0, pc 0x12000, waiting on the UDN (udn0"), std::string::npos)
        << r.chip->describe(1);
    EXPECT_NE(r.chip->describe(1).find("move r1, udn0"), std::string::npos) << r.chip->describe(1);
}

// A queue never silently stalls its senders: one that would hold more than its depth faults.
TEST(TgxsimChip, AQueueThatOverflowsFaults) {
    const std::string flood = "moveli r20, 4\n shl16insli r20, r20, 1\n movei r3, 40\n"
                              "1: move udn0, r20\n move udn0, r3\n addi r3, r3, -1\n bnez r3, 1b\n nap";
    ChipRun r = run_programs({flood, "nap"}, 100000, 6, 6, 32);
    ASSERT_EQ(r.stop, Chip::Stop::Fault);
    EXPECT_NE(r.chip->fault().what.find("overflows"), std::string::npos) << r.chip->fault().what;
    EXPECT_EQ(r.chip->fault().tile, 0u);
}

TEST(TgxsimChip, AHeaderOutsideTheChipOrWithOtherBitsFaults) {
    ChipRun r = run_programs({"moveli r20, 40\n shl16insli r20, r20, 1\n move udn0, r20\n nap"});  // x 10
    ASSERT_EQ(r.stop, Chip::Stop::Fault);
    EXPECT_NE(r.chip->fault().what.find("no tile of the chip"), std::string::npos) << r.chip->fault().what;
    ChipRun d = run_programs({"moveli r20, 4\n shl16insli r20, r20, 0x21\n move udn0, r20\n nap"});  // bit 5
    ASSERT_EQ(d.stop, Chip::Stop::Fault);
    EXPECT_NE(d.chip->fault().what.find("demux"), std::string::npos) << d.chip->fault().what;
}

#endif  // TGXSIM_TOOLS

}  // namespace

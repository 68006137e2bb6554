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
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "isa.hpp"

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

#endif  // TGXSIM_TOOLS

}  // namespace

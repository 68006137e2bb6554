// The TILE targets (tilegx, tilepro): the boot block contract, image rules (the relocations the loader applies),
// the placement plan, the relocated images, the boot files, and oshrun end to end (which plans and stops: nothing
// can start TILE tiles).
#include <tile/boot_block.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include "backends/registry.hpp"
#include "backends/tile/tile.hpp"
#include "core/common.hpp"
#include "core/image.hpp"
#include "core/process.hpp"
#include "core/request.hpp"
#include "elf_builder.hpp"
#include "load.hpp"
#include "test_env.hpp"

using namespace oshrun;

namespace {

#define EXPECT_HAS(haystack, needle) EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

const Target& gx() { return *find_target("tilegx"); }
const Target& pro() { return *find_target("tilepro"); }

uint64_t le(const std::vector<uint8_t>& bytes, size_t at, unsigned size) {
    uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v |= uint64_t(bytes.at(at + i)) << (8 * i);
    return v;
}
uint64_t le64(const std::vector<uint8_t>& b, size_t at) { return le(b, at, 8); }
uint32_t le32(const std::vector<uint8_t>& b, size_t at) { return uint32_t(le(b, at, 4)); }

std::vector<uint8_t> slurp_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}
std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// ---------------------------------------------------------------------------------------------------------------
// The targets and the boot block

TEST(TileTarget, Table) {
    const Target& g = gx();
    EXPECT_EQ(g.elf_machine, 191u);
    EXPECT_EQ(g.elf_class, ELFCLASS64);
    EXPECT_EQ(g.elf_data, ELFDATA2LSB);
    EXPECT_EQ(g.elf_type, ET_DYN);
    EXPECT_EQ(g.link_address, 0u);
    EXPECT_EQ(g.image_offset, uint64_t(SHMEM_TILE_IMAGE_OFFSET));
    EXPECT_EQ(g.default_stack_size, 64 * KiB);
    EXPECT_EQ(g.min_stack_size, uint64_t(SHMEM_TILE_MIN_STACK));
    EXPECT_EQ(g.max_partition, GiB);
    EXPECT_EQ(g.max_pes, 36u);
    EXPECT_EQ(g.chip.rows, 6u);
    EXPECT_EQ(g.chip.cols, 6u);
    const Target& p = pro();
    EXPECT_EQ(p.elf_machine, 188u);
    EXPECT_EQ(p.elf_class, ELFCLASS32);
    EXPECT_EQ(p.elf_type, ET_DYN);
    EXPECT_EQ(p.image_offset, uint64_t(SHMEM_TILE_IMAGE_OFFSET));
    EXPECT_EQ(p.max_pes, 64u);
    EXPECT_EQ(p.chip.rows, 8u);
    EXPECT_EQ(p.chip.cols, 8u);
    EXPECT_EQ(find_backend("tilegx"), find_backend("tilepro"));
    for (const Target* t : {&g, &p}) EXPECT_TRUE(t->loader_relocates);
    // TILE-Gx's tiles come out of reset with the top left at (1, 1); TILEPro's coordinates are the firmware's.
    EXPECT_EQ(g.chip.first_row, 1u);
    EXPECT_EQ(g.chip.first_col, 1u);
    EXPECT_EQ(p.chip.first_row, 0u);
    EXPECT_EQ(p.chip.first_col, 0u);
    EXPECT_EQ(tile_variant(g).relative_type, 19u);
    EXPECT_EQ(tile_variant(g).field_bytes, 8u);
    EXPECT_EQ(tile_variant(g).physical_limit, 64 * GiB);
    EXPECT_EQ(tile_variant(p).relative_type, 13u);
    EXPECT_EQ(tile_variant(p).field_bytes, 4u);
    EXPECT_EQ(tile_variant(p).physical_limit, 4 * GiB);
    EXPECT_THROW(tile_variant(*find_target("virt-rv64")), std::logic_error);
    EXPECT_THROW(tile_variant(*find_target("epiphany-e16")), std::logic_error);
}

TEST(TileBootBlock, FieldOffsets) {
    // The contract with crt/tile (version 1): where each field is, byte for byte.
    EXPECT_EQ(SHMEM_TILE_BOOT_VERSION, 1u);
    EXPECT_EQ(sizeof(shmem_tile_boot_block), 4096u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, magic), 0u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, version), 8u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, pe), 12u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, npes), 16u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, log2_partition), 20u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, ram_base), 24u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, mailbox), 32u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, first_x), 40u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, first_y), 44u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, cols), 48u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, rows), 52u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, argc), 56u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, args_len), 60u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, envc), 64u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, env_len), 68u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, stack_size), 72u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, reserved), 80u);
    EXPECT_EQ(offsetof(shmem_tile_boot_block, args), 88u);
    EXPECT_EQ(SHMEM_TILE_ARGS_SIZE, 4096u - 88u);
    EXPECT_EQ(sizeof(shmem_tile_mailbox), 4160u);
    EXPECT_EQ(offsetof(shmem_tile_mailbox, ring), 64u);
}

// ---------------------------------------------------------------------------------------------------------------
// Images

class TileImage : public ::testing::Test {
protected:
    TempDir dir;

    std::string file(const TestElf& e) { return write_file(dir.path(), "app.elf", e.bytes()); }
    Image load(const TestElf& e, const Target& t) { return oshrun_test::load(file(e), t); }
    Image load(const TestElf& e) { return load(e, e.elf_class == ELFCLASS64 ? gx() : pro()); }
    // The message load_image refuses e with, without "<path>: ".
    std::string refusal(const TestElf& e) {
        const std::string path = file(e);
        try {
            oshrun_test::load(path, e.elf_class == ELFCLASS64 ? gx() : pro());
        } catch (const Failure& f) {
            EXPECT_EQ(f.status, 2);
            const std::string msg = f.what();
            EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
            return msg.substr(std::min(msg.size(), path.size() + 2));
        }
        ADD_FAILURE() << "accepted";
        return "";
    }
};

TEST_F(TileImage, ValidBothVariants) {
    for (unsigned char c : {ELFCLASS64, ELFCLASS32}) {
        const Image img = load(tile_elf(c));
        EXPECT_EQ(img.entry, 0x100u);  // _start need not be the first byte: the loader starts tiles at e_entry
        EXPECT_EQ(img.memory_size(), 0x5000u);
        EXPECT_EQ(img.flat.size(), 0x2100u);  // the file bytes; .bss is zeros the loader adds
        EXPECT_EQ(img.stack_size, 0x4000u);
        ASSERT_EQ(img.relocations.size(), 4u);
        EXPECT_EQ(img.relocation_sections, std::vector<std::string>{".rela.dyn"});
        const unsigned field = c == ELFCLASS64 ? 8 : 4;
        EXPECT_EQ(img.relocations[1].offset, 0x2000u + field);
        EXPECT_EQ(img.relocations[1].type, c == ELFCLASS64 ? 19u : 13u);
        EXPECT_EQ(img.relocations[1].addend, 0x2010);
        EXPECT_EQ(img.relocations[1].sym, 0u);
    }
}

TEST_F(TileImage, OtherTargetsKeepNoRelocations) {
    // Only a loader that relocates reads them (virt-rv64 images relocate themselves).
    TestElf e = valid_elf();
    e.sections = {{".rela.dyn", 0x10, 0, SHT_RELA, SHF_ALLOC, sizeof(Elf64_Rela),
                   rela_bytes(ELFCLASS64, {{0x2000, 3 /* R_RISCV_RELATIVE */, 0, 0}})}};
    const Image img = oshrun_test::load(file(e), *find_target("virt-rv64"));
    EXPECT_TRUE(img.relocations.empty());
}

TEST_F(TileImage, WrongVariantOrKind) {
    TestElf e = tile_elf(ELFCLASS32);
    const std::string path = file(e);
    try {
        oshrun_test::load(path, gx());
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "ELF class is ELFCLASS32 (32-bit); target tilegx needs ELFCLASS64 (64-bit)");
    }
    e = tile_elf(ELFCLASS64);
    e.machine = EM_TILEPRO;
    EXPECT_EQ(refusal(e), "ELF machine is Tilera TILEPro (188); target tilegx needs Tilera TILE-Gx (191)");
    e = tile_elf(ELFCLASS64);
    e.type = ET_EXEC;
    EXPECT_HAS(refusal(e), "ELF type is ET_EXEC (fixed-address executable), expected ET_DYN");
    e = tile_elf(ELFCLASS64);
    e.entry = 0x2010;  // in .data: not executable
    EXPECT_HAS(refusal(e), "entry point 0x2010 is not inside an executable PT_LOAD segment");
}

// What ld 2.40 leaves in .dynsym of a static PIE that takes a global's address through the GOT, for tile_elf: the
// symbols of the image (in .data, in .text, a weak one, an absolute one: linker/tile's __stack_size) and two it
// does not define, one weak, one not.
enum TileSym : uint32_t { kCounter = 1, kWorker, kHook, kMissing, kTuned, kStackSize, kNameless, kTileSyms = kNameless };
std::vector<TestSymbol> tile_symbols() {
    return {{"counter", 0x2040, kTileData, STB_GLOBAL, STT_OBJECT},
            {"worker", 0x180, kTileText, STB_GLOBAL, STT_FUNC},
            {"hook", 0, SHN_UNDEF, STB_WEAK, STT_FUNC},
            {"missing", 0, SHN_UNDEF, STB_GLOBAL, STT_FUNC},
            {"tuned", 0x2080, kTileData, STB_WEAK, STT_OBJECT},
            {"__stack_size", 0x4000, SHN_ABS, STB_GLOBAL, STT_NOTYPE},
            {"", 0, SHN_UNDEF, STB_GLOBAL, STT_NOTYPE}};
}
TestElf tile_elf_with_symbols(unsigned char c, const std::vector<TestRela>& relocations) {
    TestElf e = tile_elf(c);
    e.dynsym = tile_symbols();
    set_tile_relocations(e, relocations);
    return e;
}
// The variant's word-sized types that name a symbol.
struct WordTypes {
    uint32_t glob_dat, jmp_slot, word;
};
WordTypes word_types(unsigned char c) {
    return c == ELFCLASS64 ? WordTypes{R_TILEGX_GLOB_DAT, R_TILEGX_JMP_SLOT, R_TILEGX_64}
                           : WordTypes{R_TILEPRO_GLOB_DAT, R_TILEPRO_JMP_SLOT, R_TILEPRO_32};
}
// tile_relocations and then extra ones, the k-th (k = 0, 1, ...) at 0x2000 + (4 + k) * field.
std::vector<TestRela> with_relocations(unsigned char c, std::vector<TestRela> extra) {
    const uint64_t field = c == ELFCLASS64 ? 8 : 4;
    std::vector<TestRela> r = tile_relocations(c);
    for (size_t k = 0; k < extra.size(); ++k) {
        extra[k].offset = 0x2000 + (4 + k) * field;
        r.push_back(extra[k]);
    }
    return r;
}

const char* const kLinkHint = "link with add_shmem_executable/oshcc (a static PIE: relative relocations, and GOT "
                              "entries of symbols it defines)";

TEST_F(TileImage, ForeignRelocationType) {
    // Types oshrun does not apply are refused, even against a symbol the image defines (symbol 1, in .data).
    std::vector<TestRela> r = tile_relocations(ELFCLASS64);
    r[1].type = R_TILEGX_COPY;
    r[1].sym = kCounter;
    EXPECT_EQ(refusal(tile_elf_with_symbols(ELFCLASS64, r)),
              std::string("relocation type 16 (R_TILEGX_COPY) at offset 0x2008 (.rela.dyn): oshrun applies only "
                          "R_TILEGX_RELATIVE (19) relocations and word-sized ones of symbols the image defines; ") +
                  kLinkHint);
    r[1].type = R_TILEGX_TLS_DTPMOD64;
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS64, r)),
               "relocation type 106 (R_TILEGX_TLS_DTPMOD64) at offset 0x2008 (.rela.dyn): oshrun applies only");
    r[1].type = R_TILEGX_32;  // absolute, but not a pointer-sized field
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS64, r)), "relocation type 2 (R_TILEGX_32) at offset 0x2008");
    r[1].type = R_TILEPRO_GLOB_DAT;  // 11: R_TILEGX_HW2 on TILE-Gx
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS64, r)), "relocation type 11 at offset 0x2008 (.rela.dyn)");
    r = tile_relocations(ELFCLASS64);
    r[3].type = 200;
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS64, r)),
               "relocation type 200 at offset 0x2018 (.rela.dyn): oshrun applies only R_TILEGX_RELATIVE");
    // TILEPro: its own types, and TILE-Gx's numbers (19 RELATIVE, 17 GLOB_DAT) are something else there.
    r = tile_relocations(ELFCLASS32);
    r[0].type = R_TILEPRO_COPY;
    r[0].sym = kCounter;
    EXPECT_EQ(refusal(tile_elf_with_symbols(ELFCLASS32, r)),
              std::string("relocation type 10 (R_TILEPRO_COPY) at offset 0x2000 (.rela.dyn): oshrun applies only "
                          "R_TILEPRO_RELATIVE (13) relocations and word-sized ones of symbols the image defines; ") +
                  kLinkHint);
    r[0].type = R_TILEPRO_TLS_DTPMOD32;
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS32, r)), "(R_TILEPRO_TLS_DTPMOD32) at offset 0x2000");
    r[0].type = R_TILEGX_GLOB_DAT;
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS32, r)), "relocation type 17 at offset 0x2000 (.rela.dyn)");
    r[0].type = R_TILEGX_RELATIVE;
    r[0].sym = 0;
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS32, r)), "relocation type 19 at offset 0x2000");
}

TEST_F(TileImage, RelativeRelocationWithASymbol) {
    // A symbol the image's .dynsym has: refused by the TILE rule.
    std::vector<TestRela> r = tile_relocations(ELFCLASS64);
    r[2].sym = kStackSize;
    EXPECT_EQ(refusal(tile_elf_with_symbols(ELFCLASS64, r)),
              std::string("R_TILEGX_RELATIVE relocation at offset 0x2010 (.rela.dyn) names symbol 6; a relative "
                          "relocation names none: ") + kLinkHint);
    r = tile_relocations(ELFCLASS32);
    r[0].sym = kCounter;
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS32, r)),
               "R_TILEPRO_RELATIVE relocation at offset 0x2000 (.rela.dyn) names symbol 1; a relative relocation");
    // Without a symbol table (.rela.dyn's sh_link 0), the symbol cannot even be looked up.
    TestElf e = tile_elf(ELFCLASS64);
    r = tile_relocations(ELFCLASS64);
    r[2].sym = 5;
    set_tile_relocations(e, r);
    EXPECT_EQ(refusal(e), "relocation 2 of .rela.dyn names symbol 5, which its symbol table (section 0) does not "
                          "have");
}

TEST_F(TileImage, RelocationFieldOutsideTheFileBytes) {
    const auto refused_at = [&](unsigned char c, uint64_t offset, uint32_t type = 0, uint32_t sym = 0) {
        std::vector<TestRela> r = tile_relocations(c);
        r[0].offset = offset;
        if (type) {
            r[0].type = type;
            r[0].sym = sym;
        }
        return refusal(tile_elf_with_symbols(c, r));
    };
    // In .bss (the data segment's file bytes end at 0x2100), in the gap between the segments, beyond the image,
    // straddling the end of .data, and where offset + size would wrap.
    EXPECT_EQ(refused_at(ELFCLASS64, 0x2100),
              std::string("relocation type 19 (R_TILEGX_RELATIVE) at offset 0x2100 (.rela.dyn): its 8-byte field "
                          "0x2100..0x2108 is not inside the file bytes of a PT_LOAD segment (the image's bytes "
                          "0x0..0x2100, .bss excluded); ") + kLinkHint);
    EXPECT_HAS(refused_at(ELFCLASS64, 0x1800), "its 8-byte field 0x1800..0x1808 is not inside the file bytes");
    EXPECT_HAS(refused_at(ELFCLASS64, 0x100000), "at offset 0x100000 (.rela.dyn)");
    EXPECT_HAS(refused_at(ELFCLASS64, 0x20fc), "its 8-byte field 0x20fc..0x2104 is not inside");
    EXPECT_HAS(refused_at(ELFCLASS64, 0xfffffffffffffffc), "at offset 0xfffffffffffffffc");
    EXPECT_HAS(refused_at(ELFCLASS32, 0x2100), "relocation type 13 (R_TILEPRO_RELATIVE) at offset 0x2100 "
                                               "(.rela.dyn): its 4-byte field 0x2100..0x2104");
    // The same rule for the relocations that name a symbol, defined or undefined weak.
    EXPECT_HAS(refused_at(ELFCLASS64, 0x2100, R_TILEGX_GLOB_DAT, kCounter),
               "relocation type 17 (R_TILEGX_GLOB_DAT) at offset 0x2100 (.rela.dyn): its 8-byte field "
               "0x2100..0x2108 is not inside the file bytes");
    EXPECT_HAS(refused_at(ELFCLASS64, 0x4000, R_TILEGX_64, kHook), "(R_TILEGX_64) at offset 0x4000 (.rela.dyn): its "
                                                                   "8-byte field");
    EXPECT_HAS(refused_at(ELFCLASS32, 0x20fe, R_TILEPRO_JMP_SLOT, kWorker),
               "relocation type 12 (R_TILEPRO_JMP_SLOT) at offset 0x20fe (.rela.dyn): its 4-byte field "
               "0x20fe..0x2102 is not inside");
    // The last whole field of the file bytes is fine (TILEPro's 4 bytes at 0x20fc).
    std::vector<TestRela> r = tile_relocations(ELFCLASS32);
    r[0].offset = 0x20fc;
    EXPECT_NO_THROW(load(tile_elf_with_symbols(ELFCLASS32, r)));
    r[0] = {0x20fc, R_TILEPRO_GLOB_DAT, kCounter, 0};
    EXPECT_NO_THROW(load(tile_elf_with_symbols(ELFCLASS32, r)));
}

// ---------------------------------------------------------------------------------------------------------------
// Relocations against symbols: ld 2.40 leaves GLOB_DAT (and word-sized absolute ones) against .dynsym in a static
// PIE; oshrun resolves them against the image itself.

TEST_F(TileImage, SymbolsAreReadFromTheLinkedSymbolTable) {
    for (unsigned char c : {ELFCLASS64, ELFCLASS32}) {
        const WordTypes w = word_types(c);
        const Image img = load(tile_elf_with_symbols(
            c, with_relocations(c, {{0, w.glob_dat, kCounter, 0}, {0, w.jmp_slot, kTuned, 0},
                                    {0, w.word, kHook, 8}, {0, w.glob_dat, kStackSize, 0}})));
        ASSERT_EQ(img.relocations.size(), 8u);
        const Relocation& relative = img.relocations[0];
        EXPECT_EQ(relative.sym, 0u);
        EXPECT_EQ(relative.sym_name, "");
        EXPECT_FALSE(relative.sym_defined);
        const Relocation& counter = img.relocations[4];
        EXPECT_EQ(counter.type, w.glob_dat);
        EXPECT_EQ(counter.sym, 1u);
        EXPECT_EQ(counter.sym_name, "counter");
        EXPECT_EQ(counter.sym_value, 0x2040u);
        EXPECT_TRUE(counter.sym_defined);
        EXPECT_FALSE(counter.sym_absolute);
        EXPECT_FALSE(counter.sym_weak);
        const Relocation& tuned = img.relocations[5];  // defined weak
        EXPECT_EQ(tuned.sym_name, "tuned");
        EXPECT_TRUE(tuned.sym_defined);
        EXPECT_TRUE(tuned.sym_weak);
        const Relocation& hook = img.relocations[6];  // undefined weak
        EXPECT_EQ(hook.sym_name, "hook");
        EXPECT_EQ(hook.addend, 8);
        EXPECT_FALSE(hook.sym_defined);
        EXPECT_TRUE(hook.sym_weak);
        const Relocation& stack = img.relocations[7];
        EXPECT_EQ(stack.sym_name, "__stack_size");
        EXPECT_EQ(stack.sym_value, 0x4000u);
        EXPECT_TRUE(stack.sym_defined);
        EXPECT_TRUE(stack.sym_absolute);
    }
}

TEST_F(TileImage, DefinedSymbolsTileGx) {
    // Value = symbol + addend + load address, in all 8 bytes of the field.
    const Image img = load(tile_elf_with_symbols(
        ELFCLASS64, with_relocations(ELFCLASS64, {{0, R_TILEGX_GLOB_DAT, kCounter, 0},
                                                  {0, R_TILEGX_JMP_SLOT, kWorker, 0},
                                                  {0, R_TILEGX_64, kCounter, 8},
                                                  {0, R_TILEGX_64, kWorker, -0x80},
                                                  {0, R_TILEGX_GLOB_DAT, kTuned, 0}})));
    for (const uint64_t load : {uint64_t(0x14010000), uint64_t(0xf40010000)}) {
        const std::vector<uint8_t> bytes = relocate_tile_image(gx(), img, load);
        ASSERT_EQ(bytes.size(), img.flat.size());
        EXPECT_EQ(le64(bytes, 0x2000), load + 0x100);  // the RELATIVE ones as before
        EXPECT_EQ(le64(bytes, 0x2018), load);
        EXPECT_EQ(le64(bytes, 0x2020), load + 0x2040);  // GLOB_DAT counter
        EXPECT_EQ(le64(bytes, 0x2028), load + 0x180);   // JMP_SLOT worker
        EXPECT_EQ(le64(bytes, 0x2030), load + 0x2048);  // R_TILEGX_64 counter + 8
        EXPECT_EQ(le64(bytes, 0x2038), load + 0x100);   // R_TILEGX_64 worker - 0x80
        EXPECT_EQ(le64(bytes, 0x2040), load + 0x2080);  // GLOB_DAT of a defined weak symbol: as any defined one
        for (size_t i = 0; i < bytes.size(); ++i)
            if (i < 0x2000 || i >= 0x2048) {
                ASSERT_EQ(bytes[i], img.flat[i]) << i;
            }
    }
    Request req;
    req.argv = {"app.elf"};
    EXPECT_EQ(plan_tile(gx(), img, req).pes[0].relocations, 9u);
}

TEST_F(TileImage, DefinedSymbolsTilePro) {
    // The same with 4-byte fields and 32-bit arithmetic (an Elf32_Sword addend).
    const Image img = load(tile_elf_with_symbols(
        ELFCLASS32, with_relocations(ELFCLASS32, {{0, R_TILEPRO_GLOB_DAT, kCounter, 0},
                                                  {0, R_TILEPRO_JMP_SLOT, kWorker, 0},
                                                  {0, R_TILEPRO_32, kCounter, 8},
                                                  {0, R_TILEPRO_32, kWorker, -0x80},
                                                  {0, R_TILEPRO_GLOB_DAT, kTuned, 0}})));
    EXPECT_EQ(img.relocations[7].addend, -0x80);
    for (const uint32_t load : {0x4f010000u, 0x10010000u}) {
        const std::vector<uint8_t> bytes = relocate_tile_image(pro(), img, load);
        ASSERT_EQ(bytes.size(), 0x2100u);
        EXPECT_EQ(le32(bytes, 0x2000), load + 0x100);
        EXPECT_EQ(le32(bytes, 0x200c), load);
        EXPECT_EQ(le32(bytes, 0x2010), load + 0x2040);
        EXPECT_EQ(le32(bytes, 0x2014), load + 0x180);
        EXPECT_EQ(le32(bytes, 0x2018), load + 0x2048);
        EXPECT_EQ(le32(bytes, 0x201c), load + 0x100);
        EXPECT_EQ(le32(bytes, 0x2020), load + 0x2080);
        for (size_t i = 0; i < bytes.size(); ++i)
            if (i < 0x2000 || i >= 0x2024) {  // 4-byte fields only
                ASSERT_EQ(bytes[i], img.flat[i]) << i;
            }
    }
    // Cut to 32 bits: a symbol near the top of the 4 GiB, the load address past it.
    const Image wrap = load(tile_elf_with_symbols(
        ELFCLASS32, with_relocations(ELFCLASS32, {{0, R_TILEPRO_32, kCounter, -0x2048}})));
    EXPECT_EQ(le32(relocate_tile_image(pro(), wrap, 0x10010000), 0x2010), 0x1000fff8u);
    EXPECT_EQ(le32(relocate_tile_image(pro(), wrap, 0), 0x2010), 0xfffffff8u);
}

TEST_F(TileImage, UndefinedWeakSymbolsAreZero) {
    // An undefined weak symbol is 0 wherever the image is: the field gets exactly the addend.
    for (unsigned char c : {ELFCLASS64, ELFCLASS32}) {
        const WordTypes w = word_types(c);
        const unsigned field = c == ELFCLASS64 ? 8 : 4;
        const Target& t = c == ELFCLASS64 ? gx() : pro();
        const Image img = load(tile_elf_with_symbols(
            c, with_relocations(c, {{0, w.glob_dat, kHook, 0}, {0, w.jmp_slot, kHook, 0}, {0, w.word, kHook, 0x10}})));
        EXPECT_NE(le(img.flat, 0x2000 + 4 * field, field), 0u);  // the file's bytes there are not zero
        for (const uint64_t load : {uint64_t(0x10010000), uint64_t(0x4f010000)}) {
            const std::vector<uint8_t> bytes = relocate_tile_image(t, img, load);
            EXPECT_EQ(le(bytes, 0x2000 + 4 * field, field), 0u) << int(c);
            EXPECT_EQ(le(bytes, 0x2000 + 5 * field, field), 0u) << int(c);
            EXPECT_EQ(le(bytes, 0x2000 + 6 * field, field), 0x10u) << int(c);
            EXPECT_EQ(le(bytes, 0x2000, field), load + 0x100) << int(c);  // the RELATIVE ones as ever
        }
    }
}

TEST_F(TileImage, AbsoluteSymbolsAreNotMoved) {
    // SHN_ABS (__stack_size from linker/tile, or a --defsym): a value, the same in every partition (ld 2.40 leaves
    // GLOB_DAT and R_TILEGX_64 / R_TILEPRO_32 against it as against any other global).
    for (unsigned char c : {ELFCLASS64, ELFCLASS32}) {
        const WordTypes w = word_types(c);
        const unsigned field = c == ELFCLASS64 ? 8 : 4;
        const Target& t = c == ELFCLASS64 ? gx() : pro();
        const Image img = load(
            tile_elf_with_symbols(c, with_relocations(c, {{0, w.glob_dat, kStackSize, 0}, {0, w.word, kStackSize, 4}})));
        for (const uint64_t load : {uint64_t(0x10010000), uint64_t(0x4f010000)}) {
            const std::vector<uint8_t> bytes = relocate_tile_image(t, img, load);
            EXPECT_EQ(le(bytes, 0x2000 + 4 * field, field), 0x4000u) << int(c);
            EXPECT_EQ(le(bytes, 0x2000 + 5 * field, field), 0x4004u) << int(c);
        }
    }
}

TEST_F(TileImage, UndefinedSymbolsAreRefused) {
    // A TILE image is linked whole: a symbol it does not define (and is not weak) has no value anywhere.
    EXPECT_EQ(refusal(tile_elf_with_symbols(ELFCLASS64,
                                            with_relocations(ELFCLASS64, {{0, R_TILEGX_GLOB_DAT, kMissing, 0}}))),
              std::string("relocation type 17 (R_TILEGX_GLOB_DAT) at offset 0x2020 (.rela.dyn) names missing, which "
                          "the image does not define (a TILE image is linked whole, with no shared libraries); ") +
                  kLinkHint);
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS64, with_relocations(ELFCLASS64, {{0, R_TILEGX_64, kMissing, 8}}))),
               "relocation type 1 (R_TILEGX_64) at offset 0x2020 (.rela.dyn) names missing, which the image does not "
               "define");
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS32,
                                             with_relocations(ELFCLASS32, {{0, R_TILEPRO_JMP_SLOT, kMissing, 0}}))),
               "relocation type 12 (R_TILEPRO_JMP_SLOT) at offset 0x2010 (.rela.dyn) names missing, which the image "
               "does not define");
    // A symbol without a name is named by its index; no symbol at all (index 0) is refused as such.
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS32,
                                             with_relocations(ELFCLASS32, {{0, R_TILEPRO_32, kNameless, 0}}))),
               "relocation type 1 (R_TILEPRO_32) at offset 0x2010 (.rela.dyn) names #7, which the image does not "
               "define");
    EXPECT_EQ(refusal(tile_elf_with_symbols(ELFCLASS64, with_relocations(ELFCLASS64, {{0, R_TILEGX_GLOB_DAT, 0, 0}}))),
              std::string("relocation type 17 (R_TILEGX_GLOB_DAT) at offset 0x2020 (.rela.dyn) names no symbol (index "
                          "0); oshrun applies it only against a symbol the image defines (or an undefined weak one): ") +
                  kLinkHint);
}

TEST_F(TileImage, SymbolIndexBeyondTheSymbolTable) {
    // .dynsym (section 5) has symbols 0..7.
    EXPECT_EQ(refusal(tile_elf_with_symbols(
                  ELFCLASS64, with_relocations(ELFCLASS64, {{0, R_TILEGX_GLOB_DAT, kTileSyms + 1, 0}}))),
              "relocation 4 of .rela.dyn names symbol 8, which its symbol table (section 5) does not have");
    EXPECT_HAS(refusal(tile_elf_with_symbols(ELFCLASS32,
                                             with_relocations(ELFCLASS32, {{0, R_TILEPRO_GLOB_DAT, kTileSyms + 1, 0}}))),
               "relocation 4 of .rela.dyn names symbol 8, which its symbol table (section 5) does not have");
    // The largest index of each class: ld 2.40 writes it for a GOT entry of an undefined weak symbol it left out
    // of .dynsym (seen with tilegx-linux-gnu-ld and tilepro-linux-gnu-ld, -pie --no-dynamic-linker, in every
    // program that links newlib): taken as that undefined weak symbol, 0 wherever the image is.
    {
        TestElf e = tile_elf_with_symbols(ELFCLASS64, with_relocations(ELFCLASS64, {{0, R_TILEGX_GLOB_DAT, 0xffffffff, 0x10}}));
        const Image img = load(e);
        ASSERT_FALSE(img.relocations.empty());
        EXPECT_TRUE(img.relocations.back().sym_weak);
        EXPECT_FALSE(img.relocations.back().sym_defined);
    }
    {
        TestElf e = tile_elf_with_symbols(ELFCLASS32, with_relocations(ELFCLASS32, {{0, R_TILEPRO_GLOB_DAT, 0xffffff, 0}}));
        const Image img = load(e);
        EXPECT_TRUE(img.relocations.back().sym_weak);
    }
    // No symbol table: .rela.dyn's sh_link 0, or a section that is no symbol table (.text).
    TestElf e = tile_elf(ELFCLASS64);
    set_tile_relocations(e, with_relocations(ELFCLASS64, {{0, R_TILEGX_GLOB_DAT, 1, 0}}));
    EXPECT_EQ(refusal(e), "relocation 4 of .rela.dyn names symbol 1, which its symbol table (section 0) does not have");
    e.dynsym = tile_symbols();
    e.sections[kTileRelaDyn - 1].link = kTileText;
    EXPECT_EQ(refusal(e), "relocation 4 of .rela.dyn names symbol 1, which its symbol table (section 1) does not have");
    e.sections[kTileRelaDyn - 1].link.reset();
    EXPECT_NO_THROW(load(e));  // linked to .dynsym again
}

TEST_F(TileImage, NoneRelocationsAreSkipped) {
    TestElf e = tile_elf(ELFCLASS64);
    std::vector<TestRela> r = tile_relocations(ELFCLASS64);
    r.push_back({0, R_TILEGX_NONE, 0, 0});
    set_tile_relocations(e, r);
    const Image img = load(e);
    EXPECT_EQ(img.relocations.size(), 5u);
    Request req;
    req.argv = {"app.elf"};
    EXPECT_EQ(plan_tile(gx(), img, req).pes[0].relocations, 4u);  // the NONE is not applied
}

TEST_F(TileImage, RelocationSectionsMustBeRela) {
    TestElf e = tile_elf(ELFCLASS64);
    e.sections[1].type = SHT_REL;
    EXPECT_EQ(refusal(e), "section .rela.dyn holds SHT_REL relocations (without addends); a tilegx image's dynamic "
                          "relocations are SHT_RELA: link it with add_shmem_executable/oshcc");
    e = tile_elf(ELFCLASS64);
    e.sections[1].entsize = 16;
    EXPECT_EQ(refusal(e), "relocation section .rela.dyn has entries of 16 bytes; an Elf64_Rela is 24");
    e = tile_elf(ELFCLASS32);
    e.sections[1].entsize = 24;
    EXPECT_EQ(refusal(e), "relocation section .rela.dyn has entries of 24 bytes; an Elf32_Rela is 12");
    e = tile_elf(ELFCLASS64);
    e.sections[1].size = 4 * 24 + 5;
    EXPECT_EQ(refusal(e), "relocation section .rela.dyn is 101 bytes, not a whole number of 24-byte entries");
    // A table running past the end of the file: section header 2 (.rela.dyn) says a million entries.
    std::vector<uint8_t> bytes = tile_elf(ELFCLASS64).bytes();
    Elf64_Ehdr eh;
    std::memcpy(&eh, bytes.data(), sizeof eh);
    Elf64_Shdr sh;
    const size_t at = eh.e_shoff + 2 * sizeof sh;
    std::memcpy(&sh, bytes.data() + at, sizeof sh);
    sh.sh_size = 24 * 1000000;
    std::memcpy(bytes.data() + at, &sh, sizeof sh);
    const std::string path = write_file(dir.path(), "long.elf", bytes);
    try {
        oshrun_test::load(path, gx());
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(std::string(f.what()), path + ": truncated: relocation section .rela.dyn needs file bytes up to " +
                                             std::to_string(sh.sh_offset + 24000000) + " but the file has " +
                                             std::to_string(bytes.size()) + " bytes");
    }
}

TEST_F(TileImage, StaticRelocationSectionsAreNotApplied) {
    // ld --emit-relocs keeps a .rela.text (not SHF_ALLOC) of the linker's own relocations: nothing to load.
    TestElf e = tile_elf(ELFCLASS64);
    e.sections.push_back({".rela.text", 0, 0, SHT_RELA, 0, sizeof(Elf64_Rela),
                          rela_bytes(ELFCLASS64, {{0x10, 40, 3, 8}, {0x20, 41, 4, 0}})});
    const Image img = load(e);
    EXPECT_EQ(img.relocations.size(), 4u);
    EXPECT_EQ(img.relocation_sections, std::vector<std::string>{".rela.dyn"});
}

TEST_F(TileImage, StrippedOfSectionHeaders) {
    // With a PT_DYNAMIC segment there are relocations oshrun could not find: refused. Without one, no relocations.
    TestElf e = tile_elf(ELFCLASS64);
    e.section_headers = false;
    EXPECT_TRUE(load(e).relocations.empty());
    TestSegment dynamic;
    dynamic.type = PT_DYNAMIC;
    dynamic.vaddr = 0x2080;
    dynamic.data.assign(16, 0);
    dynamic.flags = PF_R | PF_W;
    e.segments.push_back(dynamic);
    EXPECT_EQ(refusal(e), "has a PT_DYNAMIC segment but no section headers: oshrun finds the relocations it applies "
                          "in the image's SHT_RELA sections; do not strip its section headers (a tilegx image is "
                          "relocated by the loader)");
}

TEST_F(TileImage, StackSize) {
    TestElf e = tile_elf(ELFCLASS64);
    e.stack_size = 0x4004;
    EXPECT_EQ(refusal(e), "its stack (__stack_size = 16388 bytes) is not a multiple of 8; the guard word at the bottom "
                          "of a tilegx PE's stack must be aligned");
    e.stack_size = 0x800;
    EXPECT_HAS(refusal(e), "its stack (__stack_size = 2048 bytes) is smaller than the 4 KiB a tilegx PE needs");
    e.stack_size.reset();
    EXPECT_EQ(load(e).stack_size, 64 * KiB);
    e.stack_size = GiB;
    EXPECT_HAS(refusal(e), "image too large");
}

// ---------------------------------------------------------------------------------------------------------------
// The plan

class TilePlanTest : public ::testing::Test {
protected:
    TempDir dir;
    Image gx_image = oshrun_test::load(write_file(dir.path(), "gx.elf", tile_elf(ELFCLASS64).bytes()), gx());
    Image pro_image = oshrun_test::load(write_file(dir.path(), "pro.elf", tile_elf(ELFCLASS32).bytes()), pro());

    static Request request(unsigned npes) {
        Request r;
        r.npes = npes;
        r.argv = {"app.elf", "x"};
        return r;
    }
    TilePlan plan(unsigned npes) { return plan_tile(gx(), gx_image, request(npes)); }
    static Failure failure(const std::function<void()>& f) {
        try {
            f();
        } catch (const Failure& e) {
            return e;
        }
        ADD_FAILURE() << "accepted";
        return Failure("");
    }
};

// Every PE's place: row-major in the rectangle, partitions one after the other from ram_base, each aligned to its
// power-of-two size, the image and entry at their offsets in it, the mailboxes after the last partition.
void expect_consistent(const TilePlan& p, const Image& img) {
    EXPECT_TRUE(is_power_of_two(p.partition_size));
    EXPECT_EQ(uint64_t(1) << p.log2_partition, p.partition_size);
    EXPECT_EQ(p.ram_base % p.partition_size, 0u);
    EXPECT_GE(p.cols * p.rows, p.npes);
    EXPECT_LT((p.rows - 1) * p.cols, p.npes);  // no empty row
    ASSERT_EQ(p.pes.size(), p.npes);
    for (unsigned k = 0; k < p.npes; ++k) {
        const TilePe& pe = p.pes[k];
        EXPECT_EQ(pe.pe, k);
        EXPECT_EQ(pe.x, p.first_x + k % p.cols);
        EXPECT_EQ(pe.y, p.first_y + k / p.cols);
        EXPECT_EQ(pe.base, p.ram_base + k * p.partition_size);
        EXPECT_EQ(pe.boot_block(), pe.base);
        EXPECT_EQ(pe.image, pe.base + 0x10000);
        EXPECT_EQ(pe.entry, pe.image + img.entry);
        EXPECT_EQ(pe.mailbox, p.mailbox + k * 4160);
        EXPECT_EQ(pe.boot.size(), 4096u);
        EXPECT_EQ(pe.relocations, 4u);
    }
    EXPECT_EQ(p.mailbox, p.ram_base + uint64_t(p.npes) * p.partition_size);
    EXPECT_EQ(p.end, p.mailbox + p.npes * 4160ull);
    EXPECT_GE(p.partition_size, 0x10000 + 0x10000 + p.stack_size + p.heap_room);  // image rounded to 64 KiB
}

TEST_F(TilePlanTest, OnePe) {
    const TilePlan p = plan(1);
    expect_consistent(p, gx_image);
    EXPECT_EQ(p.cols, 1u);
    EXPECT_EQ(p.rows, 1u);
    EXPECT_EQ(p.first_x, 1u);
    EXPECT_EQ(p.first_y, 1u);
    EXPECT_EQ(p.partition_size, 64 * MiB);  // virt-rv64's default for few PEs
    EXPECT_EQ(p.log2_partition, 26u);
    EXPECT_EQ(p.ram_base, 0x10000000u);
    EXPECT_EQ(p.pes[0].base, 0x10000000u);
    EXPECT_EQ(p.pes[0].image, 0x10010000u);
    EXPECT_EQ(p.pes[0].entry, 0x10010100u);
    EXPECT_EQ(p.mailbox, 0x14000000u);
    EXPECT_EQ(p.end, 0x14001040u);
    EXPECT_EQ(p.image_bytes, 0x5000u);
    EXPECT_EQ(p.image_end, 0x20000u);
    EXPECT_EQ(p.stack_size, 0x4000u);
    EXPECT_EQ(p.heap_room, 64 * MiB - 0x24000);
}

TEST_F(TilePlanTest, ThreeFiveSevenPes) {
    const TilePlan p3 = plan(3);
    expect_consistent(p3, gx_image);
    EXPECT_EQ(p3.cols, 3u);
    EXPECT_EQ(p3.rows, 1u);
    EXPECT_EQ(p3.pes[2].base, 0x18000000u);
    EXPECT_EQ(p3.pes[2].x, 3u);
    EXPECT_EQ(p3.mailbox, 0x1c000000u);
    const TilePlan p5 = plan(5);
    expect_consistent(p5, gx_image);
    EXPECT_EQ(p5.cols, 5u);
    EXPECT_EQ(p5.rows, 1u);
    EXPECT_EQ(p5.pes[4].base, 0x20000000u);
    EXPECT_EQ(p5.mailbox, 0x24000000u);
    const TilePlan p7 = plan(7);  // wider than the chip: a second row
    expect_consistent(p7, gx_image);
    EXPECT_EQ(p7.cols, 6u);
    EXPECT_EQ(p7.rows, 2u);
    EXPECT_EQ(p7.partition_size, 64 * MiB);
    EXPECT_EQ(p7.pes[5].x, 6u);
    EXPECT_EQ(p7.pes[5].y, 1u);
    EXPECT_EQ(p7.pes[6].x, 1u);
    EXPECT_EQ(p7.pes[6].y, 2u);
    EXPECT_EQ(p7.pes[6].base, 0x28000000u);
    EXPECT_EQ(p7.pes[6].entry, 0x28010100u);
    EXPECT_EQ(p7.mailbox, 0x2c000000u);
}

TEST_F(TilePlanTest, WholeTileGx36) {
    const TilePlan p = plan(36);
    expect_consistent(p, gx_image);
    EXPECT_EQ(p.cols, 6u);
    EXPECT_EQ(p.rows, 6u);
    EXPECT_EQ(p.partition_size, 16 * MiB);  // the default heap shrinks to keep the run within 1 GiB
    EXPECT_EQ(p.log2_partition, 24u);
    EXPECT_EQ(p.pes[35].x, 6u);
    EXPECT_EQ(p.pes[35].y, 6u);
    EXPECT_EQ(p.pes[35].base, 0x33000000u);
    EXPECT_EQ(p.mailbox, 0x34000000u);
    EXPECT_EQ(p.end, 0x34000000u + 36 * 4160);
}

TEST_F(TilePlanTest, WholeTilePro64) {
    const TilePlan p = plan_tile(pro(), pro_image, request(64));
    expect_consistent(p, pro_image);
    EXPECT_EQ(p.cols, 8u);
    EXPECT_EQ(p.rows, 8u);
    EXPECT_EQ(p.partition_size, 16 * MiB);
    EXPECT_EQ(p.pes[63].x, 7u);
    EXPECT_EQ(p.pes[63].y, 7u);
    EXPECT_EQ(p.pes[63].base, 0x4f000000u);
    EXPECT_EQ(p.pes[9].x, 1u);
    EXPECT_EQ(p.pes[9].y, 1u);
    EXPECT_EQ(p.mailbox, 0x50000000u);
    EXPECT_EQ(p.end, 0x50041000u);
}

// --tile-origin: the rectangle starts at the given top-left tile, on either chip, and the boot blocks say so; a
// chip whose tiles would lie beyond TILE_COORD's 11 bits is refused.
TEST_F(TilePlanTest, TileOrigin) {
    Request r = request(7);
    r.tile_origin = std::make_pair(0u, 0u);
    const TilePlan g0 = plan_tile(gx(), gx_image, r);
    expect_consistent(g0, gx_image);
    EXPECT_EQ(g0.first_x, 0u);
    EXPECT_EQ(g0.pes[6].x, 0u);
    EXPECT_EQ(g0.pes[6].y, 1u);
    EXPECT_EQ(le32(g0.pes[6].boot, 40), 0u);
    r.tile_origin = std::make_pair(3u, 2u);
    const TilePlan p = plan_tile(pro(), pro_image, r);
    expect_consistent(p, pro_image);
    EXPECT_EQ(p.pes[6].x, 9u);  // 7 of the chip's 8 columns
    EXPECT_EQ(p.pes[6].y, 2u);
    EXPECT_EQ(le32(p.pes[0].boot, 40), 3u);
    EXPECT_EQ(le32(p.pes[0].boot, 44), 2u);
    r.tile_origin = std::make_pair(2042u, 0u);  // x 2042..2047: the last that fits
    EXPECT_EQ(plan_tile(gx(), gx_image, r).pes[5].x, 2047u);
    r.tile_origin = std::make_pair(2043u, 0u);
    const Failure f = failure([&] { plan_tile(gx(), gx_image, r); });
    EXPECT_EQ(f.status, 2);
    EXPECT_HAS(f.what(), "--tile-origin 2043,0: the 6x6 tiles of tilegx from there have coordinates beyond 2047");
}

TEST_F(TilePlanTest, NumberOfPes) {
    Failure f = failure([&] { plan(0); });
    EXPECT_EQ(f.status, 2);
    EXPECT_EQ(std::string(f.what()), "-np must be between 1 and 36 on tilegx (6x6 tiles), got 0");
    EXPECT_EQ(std::string(failure([&] { plan(37); }).what()),
              "-np must be between 1 and 36 on tilegx (6x6 tiles), got 37");
    EXPECT_HAS(failure([&] { plan_tile(pro(), pro_image, request(65)); }).what(),
               "-np must be between 1 and 64 on tilepro (8x8 tiles), got 65");
}

TEST_F(TilePlanTest, SymmetricSizeAndRamBase) {
    Request r = request(2);
    r.symmetric_size = 4 * MiB;  // 0x24000 + 4 MiB: 8 MiB
    TilePlan p = plan_tile(gx(), gx_image, r);
    EXPECT_EQ(p.partition_size, 8 * MiB);
    EXPECT_EQ(p.heap_room, 8 * MiB - 0x24000);
    EXPECT_EQ(p.ram_base, 0x10000000u);
    // A partition larger than 256 MiB moves the default ram_base up to its alignment.
    r.symmetric_size = 300 * MiB;
    p = plan_tile(gx(), gx_image, r);
    expect_consistent(p, gx_image);
    EXPECT_EQ(p.partition_size, 512 * MiB);
    EXPECT_EQ(p.ram_base, 0x20000000u);
    EXPECT_EQ(p.pes[1].base, 0x40000000u);
    // A ram_base given must be aligned already.
    EXPECT_EQ(plan_tile(gx(), gx_image, r, 0x40000000u).pes[1].base, 0x60000000u);
    EXPECT_EQ(std::string(failure([&] { plan_tile(gx(), gx_image, r, 0x10000000u); }).what()),
              "ram_base 0x10000000 is not aligned to the partition size, 512 MiB (0x20000000): every partition must "
              "be aligned to its size");
    // More than a partition holds.
    r.symmetric_size = GiB;
    EXPECT_HAS(failure([&] { plan_tile(gx(), gx_image, r); }).what(),
               "gx.elf: image too large: the image needs 128 KiB (boot block, image and .bss, to a 64 KiB boundary) + "
               "16 KiB of stack + 1 GiB of symmetric heap, more than the largest partition, 1 GiB");
}

TEST_F(TilePlanTest, ForcedPartitionSize) {
    Request r = request(2);
    r.partition_size = 4 * MiB;
    EXPECT_EQ(plan_tile(gx(), gx_image, r).partition_size, 4 * MiB);
    r.partition_size = 3 * MiB;
    EXPECT_HAS(failure([&] { plan_tile(gx(), gx_image, r); }).what(), "is not a power of two");
    r.partition_size = 128 * KiB;
    EXPECT_HAS(failure([&] { plan_tile(gx(), gx_image, r); }).what(), "does not fit in a partition of 128 KiB");
    r.partition_size = 2 * GiB;
    EXPECT_HAS(failure([&] { plan_tile(gx(), gx_image, r); }).what(), "larger than the maximum, 1 GiB");
}

TEST_F(TilePlanTest, PhysicalMemory) {
    // TILEPro: 64 partitions of 64 MiB from 256 MiB end beyond 4 GiB.
    Request r = request(64);
    r.symmetric_size = 60 * MiB;
    EXPECT_EQ(std::string(failure([&] { plan_tile(pro(), pro_image, r); }).what()),
              "64 PEs x 64 MiB partitions from ram_base 0x10000000, then their console mailboxes (64 x 4160 bytes), "
              "end at 0x110041000, beyond the 4 GiB of physical memory of tilepro; ask for a smaller symmetric heap "
              "(--symmetric-size, SHMEM_SYMMETRIC_SIZE)");
    // 32 MiB partitions fit, right up to the mailboxes.
    r.symmetric_size = 30 * MiB;
    EXPECT_EQ(plan_tile(pro(), pro_image, r).end, 0x90041000u);
    // The mailboxes count: partitions ending exactly at 4 GiB leave them no room.
    r = request(4);
    r.partition_size = GiB;
    EXPECT_HAS(failure([&] { plan_tile(pro(), pro_image, r, 0); }).what(), "end at 0x100004100, beyond the 4 GiB");
    r.npes = 3;
    EXPECT_EQ(plan_tile(pro(), pro_image, r, 0).mailbox, 0xc0000000u);
    // TILE-Gx: 64 GiB; a ram_base near the top of the address space does not wrap around.
    r = request(36);
    r.partition_size = GiB;
    EXPECT_EQ(plan_tile(gx(), gx_image, r).ram_base, GiB);
    EXPECT_HAS(failure([&] { plan_tile(gx(), gx_image, r, 63 * GiB); }).what(),
               "36 PEs x 1 GiB partitions from ram_base 0xfc0000000");
    EXPECT_HAS(failure([&] { plan_tile(gx(), gx_image, r, 0xffffffffc0000000u); }).what(),
               "end at more than 2^64, beyond the 64 GiB of physical memory of tilegx; ask for a smaller symmetric "
               "heap (--symmetric-size, SHMEM_SYMMETRIC_SIZE) or a lower ram_base");
}

TEST_F(TilePlanTest, BootBlockBytes) {
    Request r = request(3);
    r.argv = {"build/app.elf", "-v", "", "last arg"};
    r.env = {"SHMEM_DEBUG=1", "X=y"};
    const TilePlan p = plan_tile(gx(), gx_image, r);
    const char strings[] = "build/app.elf\0-v\0\0last arg\0SHMEM_DEBUG=1\0X=y";  // and the final NUL
    for (unsigned k = 0; k < 3; ++k) {
        const std::vector<uint8_t>& b = p.pes[k].boot;
        ASSERT_EQ(b.size(), 4096u);
        EXPECT_EQ(std::memcmp(b.data(), "ILETEBB1", 8), 0);  // the magic, little-endian
        EXPECT_EQ(le64(b, 0), SHMEM_TILE_BOOT_MAGIC);
        EXPECT_EQ(le32(b, 8), 1u);    // version
        EXPECT_EQ(le32(b, 12), k);    // pe
        EXPECT_EQ(le32(b, 16), 3u);   // npes
        EXPECT_EQ(le32(b, 20), 26u);  // log2_partition
        EXPECT_EQ(le64(b, 24), 0x10000000u);  // ram_base
        EXPECT_EQ(le64(b, 32), 0x1c000000u);  // mailbox: PE 0's, for every PE
        EXPECT_EQ(le32(b, 40), 1u);   // first_x
        EXPECT_EQ(le32(b, 44), 1u);   // first_y
        EXPECT_EQ(le32(b, 48), 3u);   // cols
        EXPECT_EQ(le32(b, 52), 1u);   // rows
        EXPECT_EQ(le32(b, 56), 4u);   // argc
        EXPECT_EQ(le32(b, 60), 27u);  // args_len: "build/app.elf\0-v\0\0last arg\0"
        EXPECT_EQ(le32(b, 64), 2u);   // envc
        EXPECT_EQ(le32(b, 68), 18u);  // env_len: "SHMEM_DEBUG=1\0X=y\0"
        EXPECT_EQ(le64(b, 72), 0x4000u);  // stack_size
        EXPECT_EQ(le64(b, 80), 0u);       // reserved
        EXPECT_EQ(std::memcmp(b.data() + 88, strings, sizeof strings), 0);
        for (size_t i = 88 + sizeof strings; i < b.size(); ++i) ASSERT_EQ(b[i], 0) << i;
    }
}

TEST_F(TilePlanTest, ArgumentsMustFit) {
    // 4008 bytes of strings fit, one more does not.
    Request r = request(1);
    r.argv = {"app.elf", std::string(4008 - 8 - 1, 'a')};
    EXPECT_NO_THROW(plan_tile(gx(), gx_image, r));
    r.argv[1] += 'a';
    Failure f = failure([&] { plan_tile(gx(), gx_image, r); });
    EXPECT_EQ(f.status, 2);
    EXPECT_EQ(std::string(f.what()), "program arguments too long: they need 4009 bytes with their NULs (argv[0] "
                                     "included), the TILE boot block holds 4008");
    r.argv = {"app.elf", std::string(3000, 'a')};
    r.env = {"SHMEM_BIG=" + std::string(1100, 'b')};
    EXPECT_EQ(std::string(failure([&] { plan_tile(gx(), gx_image, r); }).what()),
              "program arguments and environment too long for the TILE boot block: the arguments need 3009 bytes with "
              "their NULs (argv[0] included), the environment (1 variables: SHMEM_* and -x) 1111, together 4120; "
              "the TILE boot block holds 4008");
}

// ---------------------------------------------------------------------------------------------------------------
// Relocated images

TEST_F(TilePlanTest, RelocatedTileGx) {
    const std::vector<uint8_t> bytes = relocate_tile_image(gx(), gx_image, 0x14010000);
    ASSERT_EQ(bytes.size(), gx_image.flat.size());
    EXPECT_EQ(le64(bytes, 0x2000), 0x14010100u);  // addend 0x100 + load address
    EXPECT_EQ(le64(bytes, 0x2008), 0x14012010u);
    EXPECT_EQ(le64(bytes, 0x2010), 0x14014ff8u);  // a pointer into .bss
    EXPECT_EQ(le64(bytes, 0x2018), 0x14010000u);
    // Every other byte as in the file: code, .rela.dyn, the rest of .data.
    for (size_t i = 0; i < bytes.size(); ++i)
        if (i < 0x2000 || i >= 0x2020) {
            ASSERT_EQ(bytes[i], gx_image.flat[i]) << i;
        }
    EXPECT_EQ(bytes[0x7ff], tile_code_byte(ELFCLASS64, 0x7ff));
    EXPECT_EQ(bytes[0x2020], 0xd0);
    // A 64-bit load address: all 8 bytes of the field.
    EXPECT_EQ(le64(relocate_tile_image(gx(), gx_image, 0xf40010000), 0x2008), 0xf40012010u);
}

TEST_F(TilePlanTest, RelocatedTilePro) {
    const std::vector<uint8_t> bytes = relocate_tile_image(pro(), pro_image, 0x4f010000);
    ASSERT_EQ(bytes.size(), 0x2100u);
    EXPECT_EQ(le32(bytes, 0x2000), 0x4f010100u);
    EXPECT_EQ(le32(bytes, 0x2004), 0x4f012010u);
    EXPECT_EQ(le32(bytes, 0x2008), 0x4f014ff8u);
    EXPECT_EQ(le32(bytes, 0x200c), 0x4f010000u);
    for (size_t i = 0; i < bytes.size(); ++i)
        if (i < 0x2000 || i >= 0x2010) {  // 4-byte fields only
            ASSERT_EQ(bytes[i], pro_image.flat[i]) << i;
        }
    // A negative addend (an Elf32_Sword): 32-bit arithmetic.
    TestElf e = tile_elf(ELFCLASS32);
    std::vector<TestRela> r = tile_relocations(ELFCLASS32);
    r[0].addend = -4;
    set_tile_relocations(e, r);
    const Image img = oshrun_test::load(write_file(dir.path(), "neg.elf", e.bytes()), pro());
    EXPECT_EQ(img.relocations[0].addend, -4);
    EXPECT_EQ(le32(relocate_tile_image(pro(), img, 0x10010000), 0x2000), 0x1000fffcu);
}

TEST_F(TilePlanTest, DryRunText) {
    const std::string text = tile_plan_text(gx(), plan(7), gx_image);
    EXPECT_HAS(text, "target tilegx: 7 PEs on a 2x6 rectangle (rows x cols) of the 6x6 tiles from tile x 1 y 1; PE k "
                     "at x = 1 + k % 6, y = 1 + k / 6\n");
    EXPECT_HAS(text, "partition 64 MiB (log2 26) per PE from ram_base 0x10000000: boot block at +0x0, image at "
                     "+0x10000, stack 16 KiB at the top, room for the heaps " + size_text(64 * MiB - 0x24000) + "\n");
    EXPECT_HAS(text, "image " + gx_image.path + ": 20480 bytes in memory (8448 from the file, then zeros), entry "
                     "+0x100, 4 relocations (R_TILEGX_RELATIVE, GOT entries) applied per PE\n");
    for (unsigned k = 0; k < 7; ++k) {
        const uint64_t base = 0x10000000 + k * 0x4000000ull;
        EXPECT_HAS(text, "pe " + std::to_string(k) + ": x " + std::to_string(1 + k % 6) + " y " +
                             std::to_string(1 + k / 6) +
                             " partition " + hex(base) + " boot-block " + hex(base) + " image " + hex(base + 0x10000) +
                             " entry " + hex(base + 0x10100) + " relocations 4\n");
    }
    EXPECT_HAS(text, "mailboxes: 0x2c000000..0x2c0071c0, 7 x 4160 bytes, zeroed (state RUNNING) before the tiles "
                     "start\n");
    EXPECT_HAS(text, "physical memory used: 0x10000000..0x2c0071c0 of tilegx's 64 GiB\n");
}

TEST_F(TilePlanTest, BootDirFiles) {
    Request r = request(3);
    r.env = {"SHMEM_X=1"};
    const TilePlan p = plan_tile(gx(), gx_image, r);
    const std::string boot = dir.path() + "/boot/sub";  // created, parents too
    write_tile_boot_dir(gx(), p, gx_image, boot);
    for (unsigned k = 0; k < 3; ++k) {
        const std::vector<uint8_t> b = slurp_bytes(boot + "/pe" + std::to_string(k) + ".boot");
        EXPECT_EQ(b, p.pes[k].boot);
        const std::vector<uint8_t> img = slurp_bytes(boot + "/pe" + std::to_string(k) + ".image");
        ASSERT_EQ(img.size(), 0x5000u);  // memory size: .bss included
        for (size_t i = 0; i < 0x800; ++i) ASSERT_EQ(img[i], tile_code_byte(ELFCLASS64, i)) << i;
        const uint64_t load = 0x10010000 + k * 0x4000000ull;
        EXPECT_EQ(le64(img, 0x2000), load + 0x100);
        EXPECT_EQ(le64(img, 0x2018), load);
        EXPECT_EQ(img[0x20ff], 0xdf);
        for (size_t i = 0x2100; i < img.size(); ++i) ASSERT_EQ(img[i], 0) << i;
    }
    EXPECT_FALSE(std::filesystem::exists(boot + "/pe3.boot"));
    const std::string plan_txt = slurp(boot + "/plan.txt");
    EXPECT_EQ(plan_txt.rfind(tile_plan_text(gx(), p, gx_image), 0), 0u) << plan_txt;  // the dry-run text first
    EXPECT_HAS(plan_txt, "pe0.boot: 4096 bytes to 0x10000000 (tile x 1 y 1)\n");
    EXPECT_HAS(plan_txt, "pe2.image: 20480 bytes to 0x18010000 (tile x 3 y 1: start at 0x18010100 with r0 = "
                         "0x18000000)\n");
    EXPECT_HAS(plan_txt, "mailboxes: zero 12480 bytes at 0x1c000000..0x1c0030c0 before any tile starts\n");
    // A file where the directory should be.
    write_file(dir.path(), "plain", {1});
    Failure f = failure([&] { write_tile_boot_dir(gx(), p, gx_image, dir.path() + "/plain/x"); });
    EXPECT_EQ(f.status, 1);
    EXPECT_HAS(f.what(), "--boot-dir " + dir.path() + "/plain/x: cannot create the directory");
}

// ---------------------------------------------------------------------------------------------------------------
// The command line, and oshrun end to end

TEST(TileCli, BootDirOption) {
    EXPECT_EQ(parse_cli({"--boot-dir", "out/boot", "p.elf"}).boot_dir, "out/boot");
    EXPECT_EQ(parse_cli({"--boot-dir=b", "--dry-run", "p.elf"}).boot_dir, "b");
    EXPECT_EQ(parse_cli({"p.elf"}).boot_dir, "");
    try {
        parse_cli({"--boot-dir=", "p.elf"});
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
        EXPECT_HAS(f.what(), "--boot-dir needs a directory");
    }
    EXPECT_EQ(close_options("--boot-dri"), std::vector<std::string>{"--boot-dir"});
    const std::string u = usage();
    for (const char* s : {"--boot-dir DIR", "  tilegx        1..36 PEs", "  tilepro       1..64 PEs", "pe<k>.boot",
                          "plan.txt", "docs/tile.md"})
        EXPECT_HAS(u, s);
}

TEST(TileCli, TileOriginOption) {
    EXPECT_EQ(parse_cli({"--tile-origin", "0,0", "p.elf"}).tile_origin, std::make_pair(0u, 0u));
    EXPECT_EQ(parse_cli({"--tile-origin=2047,5", "p.elf"}).tile_origin, std::make_pair(2047u, 5u));
    EXPECT_FALSE(parse_cli({"p.elf"}).tile_origin);
    for (const char* bad : {"--tile-origin=1", "--tile-origin=1,", "--tile-origin=,1", "--tile-origin=1,2048",
                            "--tile-origin=-1,0", "--tile-origin=1;1"}) {
        try {
            parse_cli({bad, "p.elf"});
            ADD_FAILURE() << bad;
        } catch (const Failure& f) {
            EXPECT_EQ(f.status, 2) << bad;
            EXPECT_HAS(f.what(), "--tile-origin");
        }
    }
    EXPECT_HAS(usage(), "--tile-origin X,Y");
}

class TileOshrun : public ::testing::Test {
protected:
    TempDir dir;
    std::string image = write_file(dir.path(), "app.elf", tile_elf(ELFCLASS64).bytes());
    std::string pro_image = write_file(dir.path(), "pro.elf", tile_elf(ELFCLASS32).bytes());
    std::string out, err;

    int oshrun(const std::string& args, const std::string& env = "") {
        const std::string cmd =
            oshrun_test::without_shmem_environment() + " " + env + " " + OSHRUN_PATH + " " + args + " >" + dir.path() +
            "/out 2>" + dir.path() + "/err";
        const int status = std::system(cmd.c_str());
        out = slurp(dir.path() + "/out");
        err = slurp(dir.path() + "/err");
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
};

TEST_F(TileOshrun, DryRun) {
    ASSERT_EQ(oshrun("--target tilegx -np 5 --dry-run " + image + " a b"), 0) << err;
    EXPECT_EQ(err, "");
    EXPECT_HAS(out, "target tilegx: 5 PEs on a 1x5 rectangle");
    for (unsigned k = 0; k < 5; ++k)
        EXPECT_HAS(out, "pe " + std::to_string(k) + ": x " + std::to_string(k + 1) + " y 1 partition " +
                            hex(0x10000000 + k * 0x4000000ull));
    EXPECT_HAS(out, "pe 4: x 5 y 1 partition 0x20000000 boot-block 0x20000000 image 0x20010000 entry 0x20010100 "
                    "relocations 4\n");
    EXPECT_HAS(out, "mailboxes: 0x24000000..0x24005140");
    ASSERT_EQ(oshrun("--target tilepro -np 64 --dry-run " + pro_image), 0) << err;
    EXPECT_HAS(out, "pe 63: x 7 y 7 partition 0x4f000000 boot-block 0x4f000000 image 0x4f010000 entry 0x4f010100");
    EXPECT_HAS(out, "of tilepro's 4 GiB");
    ASSERT_EQ(oshrun("--target tilegx -np 7 --tile-origin 0,3 --dry-run " + image), 0) << err;
    EXPECT_HAS(out, "from tile x 0 y 3;");
    EXPECT_HAS(out, "pe 6: x 0 y 4 partition");
    EXPECT_EQ(oshrun("--target tilegx --tile-origin 2046,0 --dry-run " + image), 2);
    EXPECT_HAS(err, "oshrun: --tile-origin 2046,0: the 6x6 tiles of tilegx from there have coordinates beyond 2047");
    // The heap: the option, else SHMEM_SYMMETRIC_SIZE (-x included).
    ASSERT_EQ(oshrun("--target tilegx --symmetric-size 300M --dry-run " + image), 0) << err;
    EXPECT_HAS(out, "partition 512 MiB (log2 29) per PE from ram_base 0x20000000");
    ASSERT_EQ(oshrun("--target tilegx -x SHMEM_SYMMETRIC_SIZE=4M --dry-run " + image), 0) << err;
    EXPECT_HAS(out, "partition 8 MiB");
    ASSERT_EQ(oshrun("--target tilegx --partition-size 2M --dry-run " + image), 0) << err;
    EXPECT_HAS(out, "partition 2 MiB");
}

// TILE-Gx runs on oshrun's simulator: the image's nops run into what follows its code (.rela.dyn), which is no
// TILE-Gx bundle, and the run ends with 139, naming the PE, the tile, the pc and the bundle.
TEST_F(TileOshrun, TilegxRunsOnTheSimulator) {
    EXPECT_EQ(oshrun("--target tilegx -np 2 " + image), 139);
    EXPECT_EQ(out, "");
    EXPECT_HAS(err, "oshrun: PE 0 (tile x 1 y 1, pc 0x10010800, tilegx simulator): no instruction in pipe X0: not a "
                    "TILE-Gx encoding (bundle 0x");
    // --boot-dir writes the files, and the run goes on.
    const std::string boot = dir.path() + "/boot";
    EXPECT_EQ(oshrun("--target tilegx -np 2 --boot-dir " + boot + " " + image), 139);
    EXPECT_EQ(slurp_bytes(boot + "/pe1.boot").size(), 4096u);
    EXPECT_EQ(slurp_bytes(boot + "/pe1.image").size(), 0x5000u);
    EXPECT_HAS(slurp(boot + "/plan.txt"), "pe1.image: 20480 bytes to 0x14010000");
}

// An image with instructions the simulator does not execute is run all the same, with a warning.
TEST_F(TileOshrun, TilegxWarnsOfInstructionsTheSimulatorLacks) {
    TestElf e = tile_elf(ELFCLASS64);
    for (size_t i = 0x400; i < 0x408; ++i) e.segments[0].data[i] = 0xff;  // an undecodable bundle at 0x400
    const std::string odd = write_file(dir.path(), "odd.elf", e.bytes());
    ASSERT_EQ(oshrun("--target tilegx --dry-run " + odd), 0) << err;
    EXPECT_EQ(err, "oshrun: warning: " + odd + " has instructions oshrun's TILE-Gx simulator does not execute: "
                   "<invalid> (1, first at 0x400); a run faults if it reaches one\n");
}

// Zero words in code are data (GCC's trampoline template keeps its address slots in .text): no warning.
TEST_F(TileOshrun, TilegxZeroWordsInCodeAreNotInstructions) {
    TestElf e = tile_elf(ELFCLASS64);
    for (size_t i = 0x400; i < 0x410; ++i) e.segments[0].data[i] = 0;
    const std::string zeros = write_file(dir.path(), "zeros.elf", e.bytes());
    ASSERT_EQ(oshrun("--target tilegx --dry-run " + zeros), 0) << err;
    EXPECT_EQ(err, "");
}

TEST_F(TileOshrun, NothingCanStartTileproTiles) {
    EXPECT_EQ(oshrun("--target tilepro -np 2 " + pro_image), 125);
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "oshrun: tilepro: no backend can start TILEPro tiles (there is no TILEPro board or simulator for "
                   "this loader; see docs/tile.md); --boot-dir DIR writes the files a board's boot loader needs, "
                   "--dry-run prints the plan\n");
    const std::string boot = dir.path() + "/boot";
    EXPECT_EQ(oshrun("--target tilepro -np 2 --boot-dir " + boot + " " + pro_image), 125);
    EXPECT_HAS(err, "no backend can start TILEPro tiles");
    EXPECT_HAS(err, "; the boot files are in " + boot + " (plan.txt says where each goes)\n");
    EXPECT_EQ(slurp_bytes(boot + "/pe1.boot").size(), 4096u);
    // -v prints the plan first.
    EXPECT_EQ(oshrun("--target tilepro -v " + pro_image), 125);
    EXPECT_HAS(err, "pe 0: x 0 y 0 partition 0x10000000");
}

TEST_F(TileOshrun, BootDirWithDryRunAndEnvironment) {
    const std::string boot = dir.path() + "/b";
    ASSERT_EQ(oshrun("--target tilegx -np 3 --dry-run --boot-dir " + boot + " -x FOO=bar " + image + " arg",
                     "SHMEM_DEBUG_X=1"), 0) << err;
    EXPECT_EQ(err, "");  // -x is no warning here: TILE boot blocks carry an environment
    EXPECT_HAS(out, "pe 2: x 3 y 1");
    EXPECT_HAS(out, "boot files: written to " + boot + " (plan.txt says where each goes)\n");
    const std::vector<uint8_t> b = slurp_bytes(boot + "/pe2.boot");
    ASSERT_EQ(b.size(), 4096u);
    EXPECT_EQ(le32(b, 12), 2u);  // pe
    EXPECT_EQ(le32(b, 56), 2u);  // argc
    EXPECT_EQ(le32(b, 64), 2u);  // envc
    const std::string strings = image + '\0' + "arg" + '\0' + "FOO=bar" + '\0' + "SHMEM_DEBUG_X=1" + '\0';
    EXPECT_EQ(std::string(b.begin() + 88, b.begin() + 88 + long(strings.size())), strings);
    const std::vector<uint8_t> img = slurp_bytes(boot + "/pe2.image");
    ASSERT_EQ(img.size(), 0x5000u);
    EXPECT_EQ(le64(img, 0x2000), 0x18010100u);
    // A smaller run into the same directory: the larger run's files are left, with a warning.
    ASSERT_EQ(oshrun("--target tilegx -np 1 --dry-run --boot-dir " + boot + " " + image), 0) << err;
    EXPECT_EQ(err, "oshrun: warning: --boot-dir " + boot + " also holds pe1.boot (and 4 file(s) in all) of PEs this "
                   "1-PE run does not have, from an earlier run; plan.txt lists this run's files\n");
}

TEST_F(TileOshrun, Refusals) {
    EXPECT_EQ(oshrun("--target tilegx -np 37 " + image), 2);
    EXPECT_HAS(err, "oshrun: -np 37: tilegx runs 1 to 36 PEs");
    EXPECT_EQ(oshrun("--target tilegx -np 0 " + image), 2);
    EXPECT_EQ(oshrun("--target tilepro -np 65 " + pro_image), 2);
    // --boot-dir belongs to the TILE targets.
    const std::string virt = write_file(dir.path(), "virt.elf", valid_elf().bytes());
    EXPECT_EQ(oshrun("--target virt-rv64 --dry-run --boot-dir " + dir.path() + "/x " + virt), 2);
    EXPECT_EQ(err, "oshrun: --boot-dir is an option of tilegx, tilepro; virt-rv64 does not take it\n");
    EXPECT_EQ(oshrun("--target epiphany-e16 --boot-dir x " + image), 2);
    EXPECT_HAS(err, "epiphany-e16 does not take it");
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/x"));
    // Options of the other backends.
    EXPECT_EQ(oshrun("--target tilegx --backend sim --dry-run " + image), 2);
    EXPECT_EQ(err, "oshrun: --backend is an option of epiphany-e16, epiphany-e64; tilegx does not take it\n");
    EXPECT_EQ(oshrun("--target tilegx --emulator /bin/true --dry-run " + image), 2);
    EXPECT_EQ(err, "oshrun: --emulator is an option of virt-rv64, epiphany-e16, epiphany-e64; tilegx does not take "
                   "it\n");
    EXPECT_EQ(oshrun("--target tilegx --gdb 0 " + image), 2);
    EXPECT_EQ(err, "oshrun: --gdb is an option of virt-rv64, linux; tilegx does not take it\n");
    EXPECT_EQ(oshrun("--target tilegx --icount " + image), 2);
    EXPECT_EQ(oshrun("--target tilegx --partition-size 0 " + image), 2);
    EXPECT_HAS(err, "--partition-size must not be 0");
    EXPECT_EQ(oshrun("--target tilegx --dry-run " + image, "SHMEM_SYMMETRIC_SIZE=huge"), 2);
    EXPECT_HAS(err, "SHMEM_SYMMETRIC_SIZE=huge: not a size");
    // The image.
    EXPECT_EQ(oshrun("--target tilegx --dry-run " + pro_image), 2);
    EXPECT_HAS(err, "ELF class is ELFCLASS32 (32-bit); target tilegx needs ELFCLASS64 (64-bit)");
    TestElf bad = tile_elf(ELFCLASS64);
    std::vector<TestRela> r = tile_relocations(ELFCLASS64);
    r[0].type = R_TILEGX_COPY;
    set_tile_relocations(bad, r);
    const std::string path = write_file(dir.path(), "bad.elf", bad.bytes());
    EXPECT_EQ(oshrun("--target tilegx --dry-run " + path), 2);
    EXPECT_EQ(err, "oshrun: " + path + ": relocation type 16 (R_TILEGX_COPY) at offset 0x2000 (.rela.dyn): oshrun "
                   "applies only R_TILEGX_RELATIVE (19) relocations and word-sized ones of symbols the image defines; "
                   "link with add_shmem_executable/oshcc (a static PIE: relative relocations, and GOT entries of "
                   "symbols it defines)\n");
    // A GOT entry of a symbol the image does not define; the same image defining it runs (GLOB_DAT applied).
    bad.dynsym = {{"shmem_missing", 0, SHN_UNDEF, STB_GLOBAL, STT_FUNC}};
    r = tile_relocations(ELFCLASS64);
    r.push_back({0x2020, R_TILEGX_GLOB_DAT, 1, 0});
    set_tile_relocations(bad, r);
    write_file(dir.path(), "bad.elf", bad.bytes());
    EXPECT_EQ(oshrun("--target tilegx --dry-run " + path), 2);
    EXPECT_EQ(err, "oshrun: " + path + ": relocation type 17 (R_TILEGX_GLOB_DAT) at offset 0x2020 (.rela.dyn) names "
                   "shmem_missing, which the image does not define (a TILE image is linked whole, with no shared "
                   "libraries); link with add_shmem_executable/oshcc (a static PIE: relative relocations, and GOT "
                   "entries of symbols it defines)\n");
    bad.dynsym[0] = {"shmem_missing", 0x2080, kTileData, STB_GLOBAL, STT_OBJECT};
    write_file(dir.path(), "bad.elf", bad.bytes());
    const std::string boot = dir.path() + "/got";
    ASSERT_EQ(oshrun("--target tilegx -np 2 --dry-run --boot-dir " + boot + " " + path), 0) << err;
    EXPECT_HAS(out, "pe 1: x 2 y 1 partition 0x14000000 boot-block 0x14000000 image 0x14010000 entry 0x14010100 "
                    "relocations 5\n");
    EXPECT_EQ(le64(slurp_bytes(boot + "/pe1.image"), 0x2020), 0x14012080u);
    EXPECT_EQ(oshrun("--target tilegx --dry-run " + image + " " + std::string(4100, 'a')), 2);
    EXPECT_HAS(err, "program arguments too long: they need 4128 bytes with their NULs (argv[0] included), the TILE "
                    "boot block holds 4008");
}

}  // namespace

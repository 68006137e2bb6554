// The Epiphany targets: image rules, the placement plan, the run loop against a fake mesh, and oshrun end to end
// as far as it goes without a board or a simulator.
#include <epiphany/boot_block.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <unordered_map>

#include "backends/epiphany/epiphany.hpp"
#include "backends/epiphany/mesh.hpp"
#include "backends/registry.hpp"
#include "console_records.hpp"
#include "core/common.hpp"
#include "core/image.hpp"
#include "core/process.hpp"
#include "elf_builder.hpp"
#include "load.hpp"
#include "test_env.hpp"

using namespace oshrun;

namespace {

#define EXPECT_HAS(haystack, needle) EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

const Target& e16() { return *find_target("epiphany-e16"); }
const Target& e64() { return *find_target("epiphany-e64"); }

// ---------------------------------------------------------------------------------------------------------------
// Images

class EpImage : public ::testing::Test {
protected:
    TempDir dir;

    std::string file(const TestElf& e) { return write_file(dir.path(), "app.elf", e.bytes()); }
    Image load(const TestElf& e) { return oshrun_test::load(file(e), e16()); }
    std::string refusal(const TestElf& e) {
        const std::string path = file(e);
        try {
            oshrun_test::load(path, e16());
        } catch (const Failure& f) {
            EXPECT_EQ(f.status, 2);
            const std::string msg = f.what();
            EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
            return msg.substr(std::min(msg.size(), path.size() + 2));  // without "<path>: "
        }
        ADD_FAILURE() << "accepted";
        return "";
    }
    // An image whose .bss (the last section) ends at bss_end.
    static TestElf with_bss_end(uint64_t bss_end) {
        TestElf e = epiphany_elf();
        e.segments[0].memsz = bss_end;
        e.sections[3].size = bss_end - e.sections[3].addr;
        return e;
    }
};

TEST_F(EpImage, Valid) {
    const Image img = load(epiphany_elf());
    EXPECT_EQ(img.entry, 0u);
    EXPECT_EQ(img.stack_size, 0x400u);
    ASSERT_EQ(img.segments.size(), 1u);
    EXPECT_EQ(img.segments[0].data.size(), 0x310u);
    EXPECT_EQ(img.segments[0].data[0x100], 0x00);
    EXPECT_EQ(img.segments[0].data[0x101], 0x01);
    EXPECT_TRUE(img.flat.empty());  // a partitioned target's
    // The SHF_ALLOC sections in address order (.comment is not allocated).
    std::vector<std::string> names;
    for (const Section& s : img.sections) names.push_back(s.name);
    EXPECT_EQ(names, (std::vector<std::string>{".ivt", ".text", ".data", ".bss"}));
    EXPECT_EQ(img.sections[3].type, uint32_t(SHT_NOBITS));
    EXPECT_EQ(epiphany_local_end(img), 0x1000u);
    EXPECT_NO_THROW(oshrun_test::load(file(epiphany_elf()), e64()));
}

TEST_F(EpImage, DefaultStack) {
    TestElf e = epiphany_elf();
    e.stack_size.reset();
    const Image img = load(e);
    EXPECT_EQ(img.stack_size, 1024u);
    EXPECT_FALSE(img.stack_size_from_symbol);
}

TEST_F(EpImage, ClassDataMachineType) {
    TestElf e = epiphany_elf();
    e.elf_class = ELFCLASS64;
    EXPECT_EQ(refusal(e), "ELF class is ELFCLASS64 (64-bit); target epiphany-e16 needs ELFCLASS32 (32-bit)");
    e = epiphany_elf();
    e.encoding = ELFDATA2MSB;
    EXPECT_HAS(refusal(e), "big-endian");
    e = epiphany_elf();
    e.machine = EM_RISCV;
    EXPECT_EQ(refusal(e), "ELF machine is RISC-V (243); target epiphany-e16 needs Adapteva Epiphany (4643)");
    e = epiphany_elf();
    e.type = ET_DYN;
    EXPECT_EQ(refusal(e), "ELF type is ET_DYN (position-independent executable), expected ET_EXEC: not a libshmem "
                          "image linked for a core's local memory; build it with add_shmem_executable");
    e.type = ET_REL;
    EXPECT_HAS(refusal(e), "ELF type is ET_REL (unlinked object file), expected ET_EXEC");
    // A virt image is refused for its class first.
    EXPECT_HAS(refusal(valid_elf()), "ELF class is ELFCLASS64");
}

TEST_F(EpImage, Truncated) {
    std::vector<uint8_t> bytes = epiphany_elf().bytes();
    bytes.resize(bytes.size() / 2);
    const std::string path = write_file(dir.path(), "half.elf", bytes);
    try {
        oshrun_test::load(path, e16());
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "truncated");
    }
    TestElf e = epiphany_elf();
    e.section_headers = false;
    bytes = e.bytes();
    bytes.resize(bytes.size() - 4);
    try {
        oshrun_test::load(write_file(dir.path(), "cut.elf", bytes), e16());
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "truncated: PT_LOAD segment at 0x0");
    }
}

TEST_F(EpImage, EntryMustBeZero) {
    TestElf e = epiphany_elf();
    e.entry = 0x100;
    EXPECT_HAS(refusal(e), "entry point 0x100 is not the first byte of the image (0x0)");
}

TEST_F(EpImage, LinkedAtZero) {
    TestElf e = epiphany_elf();
    e.segments[0].vaddr = 0x100;
    e.entry = 0x100;
    e.sections.clear();
    EXPECT_HAS(refusal(e), "lowest PT_LOAD address is 0x100; a epiphany-e16 image is linked at 0x0");
}

TEST_F(EpImage, OverlappingSegments) {
    TestElf e = epiphany_elf();
    TestSegment more;
    more.vaddr = 0x800;
    more.data = {1, 2, 3, 4};
    e.segments.push_back(more);
    EXPECT_HAS(refusal(e), "PT_LOAD segments overlap: [0x0, 0x1000) and [0x800, 0x804)");
}

TEST_F(EpImage, FitsExactly) {
    const Image img = load(with_bss_end(0x8000 - 0x400));
    EXPECT_EQ(epiphany_local_end(img), 0x7c00u);
}

TEST_F(EpImage, BssDoesNotFit) {
    TestElf e = with_bss_end(0x8100);
    e.sections[3].addr = 0x7a00;  // the example of the design: .bss 0x7a00..0x8100, 1 KB stack
    e.sections[3].size = 0x8100 - 0x7a00;
    e.sections[2].size = 0x7a00 - 0x300;
    EXPECT_EQ(refusal(e), "section .bss (0x7a00..0x8100) does not fit in the 32 KB of core-local memory (0x8000 "
                          "with 1024 B reserved for the stack): 0x500 B over");
}

TEST_F(EpImage, LastSectionRunsIntoTheStack) {
    EXPECT_EQ(refusal(with_bss_end(0x7e00)),
              "section .bss (0x310..0x7e00) does not fit in the 32 KB of core-local memory (0x8000 with 1024 B "
              "reserved for the stack): 0x200 B over");
    EXPECT_HAS(refusal(with_bss_end(0x7c01)), "section .bss (0x310..0x7c01) does not fit");
    EXPECT_HAS(refusal(with_bss_end(0x7c01)), ": 0x1 B over");
}

TEST_F(EpImage, EarlierSectionPastTheEndIsNamed) {
    // .data runs past 0x8000 by itself: it is the one named, and the excess is the image's.
    TestElf e = with_bss_end(0x8300);
    e.sections[2].size = 0x8200 - 0x300;
    e.sections[3].addr = 0x8200;
    e.sections[3].size = 0x100;
    EXPECT_EQ(refusal(e), "section .data (0x300..0x8200) does not fit in the 32 KB of core-local memory (0x8000 with "
                          "1024 B reserved for the stack): 0x700 B over");
}

TEST_F(EpImage, SectionPastTheEndOfItsSegmentIsNamed) {
    // .data fills the 32 KB exactly; .bss, after it in the same segment, starts beyond: .bss is the one named.
    TestElf e = with_bss_end(0x8100);
    e.sections[2].size = 0x8000 - 0x300;
    e.sections[3].addr = 0x8000;
    e.sections[3].size = 0x100;
    EXPECT_EQ(refusal(e), "section .bss (0x8000..0x8100) does not fit in the 32 KB of core-local memory (0x8000 with "
                          "1024 B reserved for the stack): 0x500 B over");
}

TEST_F(EpImage, StackTooLarge) {
    TestElf e = epiphany_elf();
    e.stack_size = 0x7800;  // 0x1000 + 0x7800 = 0x8800
    EXPECT_EQ(refusal(e), "section .bss (0x310..0x1000) does not fit in the 32 KB of core-local memory (0x8000 with "
                          "30720 B reserved for the stack): 0x800 B over");
}

TEST_F(EpImage, DefaultStackNamedInMessage) {
    TestElf e = with_bss_end(0x7d00);
    e.stack_size.reset();
    EXPECT_HAS(refusal(e), "(0x8000 with 1024 B reserved for the stack by default: the image has no __stack_size "
                           "symbol): 0x100 B over");
}

TEST_F(EpImage, StrippedImageNamesTheSegment) {
    TestElf e = with_bss_end(0x8100);
    e.section_headers = false;
    e.stack_size.reset();
    EXPECT_HAS(refusal(e), "PT_LOAD segment 0x0..0x8100 does not fit in the 32 KB of core-local memory");
}

TEST_F(EpImage, NothingInTheBootBlockHole) {
    TestElf e = epiphany_elf();
    e.sections.push_back({".rodata.early", 0x80, 0x10, SHT_PROGBITS, SHF_ALLOC});
    EXPECT_EQ(refusal(e), "section .rodata.early (0x80..0x90) lies in the boot block's hole 0x40..0x100, which the "
                          "loader fills with the boot block; the linker script must leave it empty");
    e = epiphany_elf();
    e.sections[0].size = 0x44;  // a vector table 4 bytes too long
    EXPECT_HAS(refusal(e), "section .ivt (0x0..0x44) lies in the boot block's hole");
    e = epiphany_elf();
    e.sections[1].addr = 0xfc;  // .text starting 4 bytes early
    EXPECT_HAS(refusal(e), "section .text (0xfc..0x2fc) lies in the boot block's hole");
}

TEST_F(EpImage, NeitherLocalNorExternal) {
    TestElf e = epiphany_elf();
    TestSegment far;
    far.vaddr = 0x10000;
    far.data = {1, 2, 3, 4};
    e.segments.push_back(far);
    EXPECT_EQ(refusal(e), "PT_LOAD segment 0x10000..0x10004 is neither core-local (0x0..0x8000) nor external DRAM "
                          "(0x8e000000..0x90000000)");
    // Another core's global address, named by its section.
    far.vaddr = 0x80800000;
    e.segments.back() = far;
    e.sections.push_back({".remote", 0x80800000, 4, SHT_PROGBITS, SHF_ALLOC});
    EXPECT_EQ(refusal(e), "section .remote (0x80800000..0x80800004) is neither core-local (0x0..0x8000) nor "
                          "external DRAM (0x8e000000..0x90000000)");
    // Running off the end of external DRAM.
    e = epiphany_elf();
    far.vaddr = 0x8ffffffc;
    far.data = {1, 2, 3, 4, 5, 6, 7, 8};
    e.segments.push_back(far);
    EXPECT_HAS(refusal(e), "PT_LOAD segment 0x8ffffffc..0x90000004 is neither core-local");
}

TEST_F(EpImage, ExternalDramSegment) {
    TestElf e = epiphany_elf();
    TestSegment ext;
    ext.vaddr = 0x8e000000;
    ext.data = {9, 8, 7, 6};
    ext.memsz = 0x100000;  // 1 MB table, mostly .bss
    ext.flags = PF_R | PF_W;
    e.segments.push_back(ext);
    e.sections.push_back({".ext.data", 0x8e000000, 4, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE});
    e.sections.push_back({".ext.bss", 0x8e000004, 0xffffc, SHT_NOBITS, SHF_ALLOC | SHF_WRITE});
    const Image img = load(e);
    EXPECT_EQ(epiphany_local_end(img), 0x1000u);  // external DRAM is not core-local
    ASSERT_EQ(img.segments.size(), 2u);
}

// ---------------------------------------------------------------------------------------------------------------
// Placement plan

class EpPlanTest : public EpImage {
protected:
    Image image = load(epiphany_elf());
    static Request request(unsigned npes, std::vector<std::string> argv = {"app.elf"}) {
        Request r;
        r.npes = npes;
        r.argv = std::move(argv);
        return r;
    }
    EpiphanyPlan plan(unsigned npes, const Target& t = e16(), std::vector<std::string> argv = {"app.elf"}) {
        return plan_epiphany(t, image, request(npes, std::move(argv)));
    }
};

shmem_ep_boot_block boot_block(const std::vector<uint8_t>& bytes) {
    shmem_ep_boot_block b;
    EXPECT_EQ(bytes.size(), sizeof b);
    std::memcpy(&b, bytes.data(), sizeof b);
    return b;
}

TEST_F(EpPlanTest, WorkgroupShape) {
    const auto shape = [&](const Target& t, unsigned n) {
        const EpiphanyPlan p = plan(n, t);
        return std::to_string(p.rows) + "x" + std::to_string(p.cols);
    };
    EXPECT_EQ(shape(e16(), 1), "1x1");
    EXPECT_EQ(shape(e16(), 3), "1x3");
    EXPECT_EQ(shape(e16(), 4), "1x4");
    EXPECT_EQ(shape(e16(), 5), "2x4");
    EXPECT_EQ(shape(e16(), 8), "2x4");
    EXPECT_EQ(shape(e16(), 16), "4x4");
    EXPECT_EQ(shape(e64(), 5), "1x5");
    EXPECT_EQ(shape(e64(), 9), "2x8");
    EXPECT_EQ(shape(e64(), 64), "8x8");
    const EpiphanyPlan p = plan(3);
    EXPECT_EQ(p.first_row, 32u);
    EXPECT_EQ(p.first_col, 8u);
}

TEST_F(EpPlanTest, CoreIdsRowMajor) {
    EpiphanyPlan p = plan(6);
    ASSERT_EQ(p.pes.size(), 6u);
    const unsigned expected[6] = {0x808, 0x809, 0x80a, 0x80b, 0x848, 0x849};
    for (unsigned k = 0; k < 6; ++k) {
        const EpiphanyPe& pe = p.pes[k];
        EXPECT_EQ(pe.pe, k);
        EXPECT_EQ(pe.coreid, expected[k]) << k;
        EXPECT_EQ(pe.row, 32 + k / 4);
        EXPECT_EQ(pe.col, 8 + k % 4);
        EXPECT_EQ(pe.base, expected[k] << 20);
        EXPECT_EQ(pe.boot_block, (expected[k] << 20) | 0x40);
        EXPECT_EQ(pe.mailbox, 0x8f000000 + k * SHMEM_EP_MAILBOX_STRIDE);
    }
    EXPECT_EQ(p.pes[5].base, 0x84900000u);
    EXPECT_EQ(p.coreids(), std::vector<unsigned>(expected, expected + 6));
    p = plan(64, e64());
    EXPECT_EQ(p.pes[63].coreid, 0x9cfu);  // row 39, col 15
}

TEST_F(EpPlanTest, NumberOfPes) {
    for (unsigned n : {0u, 17u}) {
        try {
            plan(n);
            ADD_FAILURE() << n;
        } catch (const Failure& f) {
            EXPECT_EQ(std::string(f.what()), "-np must be between 1 and 16 on epiphany-e16, got " + std::to_string(n));
        }
    }
    EXPECT_THROW(plan(65, e64()), Failure);
}

TEST_F(EpPlanTest, LocalWritesSkipTheHole) {
    const EpiphanyPlan p = plan(2);
    for (const EpiphanyPe& pe : p.pes) {
        ASSERT_EQ(pe.writes.size(), 3u);
        const MeshWrite &low = pe.writes[0], &high = pe.writes[1], &bb = pe.writes[2];
        // [0, 0x40): the vector table and what the file has up to the hole.
        EXPECT_EQ(low.global, pe.base);
        ASSERT_EQ(low.bytes.size(), 0x40u);
        EXPECT_EQ(low.zeros, 0u);
        EXPECT_EQ(low.bytes[0], 0xe0);
        EXPECT_EQ(low.bytes[0x27], uint8_t(0xe0 + 0x27));
        // [0x100, 0x1000): code and data from the file, then .bss as zeros.
        EXPECT_EQ(high.global, pe.base | 0x100);
        ASSERT_EQ(high.bytes.size(), 0x210u);
        EXPECT_EQ(high.bytes[0], 0x00);
        EXPECT_EQ(high.bytes[1], 0x01);
        EXPECT_EQ(high.bytes[0x200], 0xd0);
        EXPECT_EQ(high.zeros, 0x1000u - 0x310u);
        // Then the boot block, the only write into the hole.
        EXPECT_EQ(bb.global, pe.base | 0x40);
        EXPECT_EQ(bb.size(), 0xc0u);
        EXPECT_EQ(bb.what, "boot block");
        EXPECT_EQ(pe.bytes(), 0x40u + 0xf00u + 0xc0u);
    }
}

TEST_F(EpPlanTest, BootBlocks) {
    const EpiphanyPlan p = plan(5, e16(), {"build/app.elf", "-x", "", "last arg"});
    const char expected[] = "build/app.elf\0-x\0\0last arg";  // and the final NUL
    for (const EpiphanyPe& pe : p.pes) {
        const shmem_ep_boot_block b = boot_block(pe.writes.back().bytes);
        EXPECT_EQ(b.magic, SHMEM_EP_BOOT_MAGIC);
        EXPECT_EQ(b.version, SHMEM_EP_BOOT_VERSION);
        EXPECT_EQ(b.pe, pe.pe);
        EXPECT_EQ(b.npes, 5u);
        EXPECT_EQ(b.first_row, 32u);
        EXPECT_EQ(b.first_col, 8u);
        EXPECT_EQ(b.rows, 2u);
        EXPECT_EQ(b.cols, 4u);
        EXPECT_EQ(b.mailbox, 0x8f000000u);
        for (size_t i = offsetof(shmem_ep_boot_block, mailbox) + 4; i < offsetof(shmem_ep_boot_block, argc); ++i)
            ASSERT_EQ(pe.writes.back().bytes[i], 0) << i;  // reserved
        EXPECT_EQ(b.argc, 4u);
        EXPECT_EQ(b.args_len, sizeof expected);
        EXPECT_EQ(std::memcmp(b.args, expected, sizeof expected), 0);
        for (size_t i = sizeof expected; i < sizeof b.args; ++i) ASSERT_EQ(b.args[i], 0);
    }
    EXPECT_EQ(std::memcmp("EPBB", p.pes[0].writes.back().bytes.data(), 4), 0);  // the magic, little-endian
}

// The barrier's partner table (boot_block.h): written into its section, after the image's bytes and before the boot
// block; round k's pair names PE (pe + 2^k) mod npes (its ILATST, its base), then a pair of zeros.
uint32_t word_at(const std::vector<uint8_t>& b, size_t i) {
    return uint32_t(b.at(4 * i)) | uint32_t(b.at(4 * i + 1)) << 8 | uint32_t(b.at(4 * i + 2)) << 16 |
           uint32_t(b.at(4 * i + 3)) << 24;
}
TEST_F(EpPlanTest, BarrierPartners) {
    TestElf e = epiphany_elf();
    e.sections.push_back({SHMEM_EP_BARRIER_SECTION, 0x318, 0x28, SHT_NOBITS, SHF_ALLOC | SHF_WRITE});  // 5 pairs
    image = load(e);
    for (unsigned n : {1u, 2u, 3u, 5u, 7u, 16u}) {
        const EpiphanyPlan p = plan(n);
        unsigned rounds = 0;
        while ((1u << rounds) < n) ++rounds;
        if (rounds == 0) rounds = 1;  // a run of one PE: one round, with itself
        for (const EpiphanyPe& pe : p.pes) {
            ASSERT_GE(pe.writes.size(), 2u);
            const MeshWrite& w = pe.writes[pe.writes.size() - 2];
            EXPECT_EQ(w.what, "barrier partners");
            EXPECT_EQ(w.global, pe.base | 0x318u);
            ASSERT_EQ(w.bytes.size(), 8u * (rounds + 1)) << n;
            for (unsigned k = 0; k < rounds; ++k) {
                const EpiphanyPe& to = p.pes[(pe.pe + (1u << k)) % n];
                EXPECT_EQ(word_at(w.bytes, 2 * k), to.base | 0xf042cu) << n << " " << pe.pe << " " << k;
                EXPECT_EQ(word_at(w.bytes, 2 * k + 1), to.base) << n << " " << pe.pe << " " << k;
            }
            EXPECT_EQ(word_at(w.bytes, 2 * rounds), 0u);
            EXPECT_EQ(word_at(w.bytes, 2 * rounds + 1), 0u);
            EXPECT_EQ(pe.writes.back().what, "boot block");
            // the image's zeros around it, not under it: no two writes overlap, and the core's bytes add up
            uint64_t covered = 0;
            for (size_t i = 0; i < pe.writes.size(); ++i) {
                covered += pe.writes[i].size();
                for (size_t j = 0; j < i; ++j)
                    EXPECT_TRUE(pe.writes[i].global >= pe.writes[j].global + pe.writes[j].size() ||
                                pe.writes[j].global >= pe.writes[i].global + pe.writes[i].size())
                        << pe.writes[i].what << " over " << pe.writes[j].what;
            }
            EXPECT_EQ(covered, 0x40u + 0xf00u + 0xc0u);  // the image less the hole, and the boot block
        }
    }
    // 5 rounds (17 to 32 PEs, e64) and the zeros need 48 bytes: refused, with the sizes named
    try {
        plan(17, e64());
        ADD_FAILURE() << "accepted";
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "has room for 4 rounds; a run of 17 PEs needs 5");
    }
    EXPECT_NO_THROW(plan(16, e64()));
}
TEST_F(EpPlanTest, BarrierTableWhereItCanBe) {
    for (uint64_t addr : {0x31cull, 0x80ull, 0x7ff8ull, 0x8000ull}) {
        TestElf e = epiphany_elf();
        e.sections.push_back({SHMEM_EP_BARRIER_SECTION, addr, 0x28, SHT_NOBITS, SHF_ALLOC | SHF_WRITE});
        e.segments[0].memsz = 0x1000;
        try {
            image = load(e);
        } catch (const Failure&) {
            continue;  // refused by the image's own checks already (the boot block's hole, the 32 KB)
        }
        try {
            plan(2);
            ADD_FAILURE() << "accepted at " << addr;
        } catch (const Failure& f) {
            EXPECT_HAS(f.what(), "must be 8-byte aligned core-local memory after the boot block");
        }
    }
}
TEST_F(EpPlanTest, NoSectionHeadersRefused) {
    TestElf e = epiphany_elf();
    e.section_headers = false;
    image = load(e);
    try {
        plan(2);
        ADD_FAILURE() << "accepted";
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "has no section headers; oshrun finds the barrier's partner table");
    }
}

TEST_F(EpPlanTest, ArgumentsMustFit) {
    EXPECT_EQ(SHMEM_EP_ARGS_SIZE, 144u);
    EXPECT_NO_THROW(plan(1, e16(), {"p", std::string(141, 'x')}));  // 2 + 142 = 144 bytes
    try {
        plan(1, e16(), {"p", std::string(142, 'x')});
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
        EXPECT_EQ(std::string(f.what()), "program arguments too long for the Epiphany boot block: they need 145 bytes "
                                         "with their NULs (argv[0], the program path as given, is 2 of them); 144 fit");
    }
}

TEST_F(EpPlanTest, SharedWrites) {
    TestElf e = epiphany_elf();
    TestSegment ext;
    ext.vaddr = 0x8e000000;
    ext.data = {9, 8, 7, 6};
    ext.memsz = 0x2000;
    e.segments.push_back(ext);
    image = load(e);
    const EpiphanyPlan p = plan(3);
    ASSERT_EQ(p.shared.size(), 4u);
    // The external segment once, its .bss as zeros; no PE writes it.
    EXPECT_EQ(p.shared[0].global, 0x8e000000u);
    EXPECT_EQ(p.shared[0].bytes, (std::vector<uint8_t>{9, 8, 7, 6}));
    EXPECT_EQ(p.shared[0].zeros, 0x2000u - 4);
    for (const EpiphanyPe& pe : p.pes)
        for (const MeshWrite& w : pe.writes) EXPECT_LT(w.global & 0xfffff, 0x8000u);
    // Every PE's mailbox zeroed: head = tail = 0, state RUNNING.
    for (unsigned k = 0; k < 3; ++k) {
        const MeshWrite& mb = p.shared[1 + k];
        EXPECT_EQ(mb.global, 0x8f000000u + k * SHMEM_EP_MAILBOX_STRIDE);
        EXPECT_TRUE(mb.bytes.empty());
        EXPECT_EQ(mb.zeros, SHMEM_EP_MAILBOX_STRIDE);
    }
}

TEST_F(EpPlanTest, Mailboxes) {
    EXPECT_EQ(plan_epiphany(e16(), image, request(2, {"a"}), 0x8e100000).pes[1].mailbox,
              0x8e100000u + SHMEM_EP_MAILBOX_STRIDE);
    EXPECT_THROW(plan_epiphany(e16(), image, request(2, {"a"}), 0x80000000), Failure);   // not external DRAM
    EXPECT_THROW(plan_epiphany(e16(), image, request(2, {"a"}), 0x8fffff00), Failure);   // runs off its end
    EXPECT_THROW(plan_epiphany(e16(), image, request(2, {"a"}), 0x8f000004), Failure);   // misaligned
    // Over an external segment of the image.
    TestElf e = epiphany_elf();
    TestSegment ext;
    ext.vaddr = 0x8f000900;
    ext.data = {1};
    e.segments.push_back(ext);
    image = load(e);
    EXPECT_NO_THROW(plan(2));
    try {
        plan(3);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "app.elf: PT_LOAD segment 0x8f000900..0x8f000901 in external DRAM overlaps the console "
                             "mailboxes 0x8f000000..0x8f000c30");
    }
}

TEST_F(EpPlanTest, DryRunText) {
    const std::string text = epiphany_plan_text(e16(), plan(5), image);
    EXPECT_HAS(text, "target epiphany-e16: 5 PEs on a 2x4 workgroup of 4x4 cores, first core 0x808 (row 32, col 8)\n");
    EXPECT_HAS(text, "core-local 0x0..0x1000 (4096 bytes) + stack 1024 bytes, 27648 bytes of 32 KiB free; external DRAM 0 "
                     "bytes\n");
    EXPECT_HAS(text, "pe 0: coreid 0x808 row 32 col 8 base 0x80800000 bytes 4096 boot-block 0x80800040 mailbox "
                     "0x8f000000\n");
    EXPECT_HAS(text, "pe 4: coreid 0x848 row 33 col 8 base 0x84800000 bytes 4096 boot-block 0x84800040 mailbox "
                     "0x8f001040\n");
    EXPECT_HAS(text, "mailboxes: 0x8f000000..0x8f001450, 5 x 1040 bytes, zeroed (state RUNNING)");
}

// ---------------------------------------------------------------------------------------------------------------
// The run loop, against a mesh in memory whose "cores" are scripted

// A core's side of the console: writes its output, as console records of its PE (kind: 'o' stdout, 'e' stderr;
// records of at most 255 bytes, as the startup code writes them), into its ring as room allows, chunk bytes per
// poll at most, then its status and state, in the order the startup code does. raw: the output goes into the
// ring as it is.
struct ScriptedCore {
    std::string output;
    uint32_t state = SHMEM_EP_STATE_DONE, status = 0;
    size_t chunk = 64;
    long finish_after = 0;  // polls to wait, after its output is out, before setting its state (-1: never)
    char kind = 'o';
    bool raw = false;
    size_t sent = 0;
    bool finished = false;
    std::string stream{};   // the ring's bytes: output as records
};

class FakeMesh : public Mesh {
public:
    std::unordered_map<uint32_t, uint8_t> mem;
    std::vector<std::string> log;  // reset, write <addr>, start, stop
    std::vector<unsigned> reset_cores, started;
    std::map<unsigned, ScriptedCore> cores;  // by PE
    const EpiphanyPlan* plan = nullptr;
    long polls = 0;

    void reset(const std::vector<unsigned>& coreids) override {
        log.push_back("reset");
        reset_cores = coreids;
    }
    void write(uint32_t global, const void* data, size_t n) override {
        log.push_back("write " + hex(global));
        for (size_t i = 0; i < n; ++i) mem[global + uint32_t(i)] = static_cast<const uint8_t*>(data)[i];
    }
    void read(uint32_t global, void* data, size_t n) override {
        // The loop reads a PE's state first when it polls it: the cores take a step.
        if (plan && global >= plan->mailbox && (global - plan->mailbox) % SHMEM_EP_MAILBOX_STRIDE == offsetof(shmem_ep_mailbox, state))
            step();
        for (size_t i = 0; i < n; ++i) {
            const auto it = mem.find(global + uint32_t(i));
            static_cast<uint8_t*>(data)[i] = it == mem.end() ? 0xee : it->second;
        }
    }
    void start(const std::vector<unsigned>& coreids) override {
        log.push_back("start");
        started = coreids;
    }
    void stop() override { log.push_back("stop"); }

    uint32_t word(uint32_t global) {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(mem.at(global + i)) << (8 * i);
        return v;
    }
    void put_word(uint32_t global, uint32_t v) {
        for (int i = 0; i < 4; ++i) mem[global + i] = uint8_t(v >> (8 * i));
    }

private:
    void step() {
        ++polls;
        for (auto& [pe, core] : cores) {
            if (core.finished) continue;
            if (core.sent == 0) core.stream = core.raw ? core.output : console_records(pe, core.output, core.kind);
            const uint32_t mb = plan->pes.at(pe).mailbox;
            uint32_t head = word(mb + offsetof(shmem_ep_mailbox, head));
            const uint32_t tail = word(mb + offsetof(shmem_ep_mailbox, tail));
            size_t n = std::min({core.chunk, core.stream.size() - core.sent, size_t(SHMEM_EP_MAILBOX_RING - (head - tail))});
            for (; n > 0; --n, ++head)
                mem[mb + offsetof(shmem_ep_mailbox, ring) + head % SHMEM_EP_MAILBOX_RING] = uint8_t(core.stream[core.sent++]);
            put_word(mb + offsetof(shmem_ep_mailbox, head), head);
            if (core.sent == core.stream.size() && core.finish_after >= 0 && core.finish_after-- == 0) {
                put_word(mb + offsetof(shmem_ep_mailbox, status), core.status);
                put_word(mb + offsetof(shmem_ep_mailbox, state), core.state);
                core.finished = true;
            }
        }
    }
};

class RunLoop : public EpPlanTest {
protected:
    FakeMesh mesh;
    std::ostringstream out, err;
    MeshRunOptions opt;
    RunLoop() {
        opt.out = &out;
        opt.err = &err;
        opt.program = "app.elf";
        opt.min_poll = std::chrono::microseconds(1);
        opt.max_poll = std::chrono::microseconds(10);
    }
    int run(const EpiphanyPlan& p) {
        mesh.plan = &p;
        return run_mesh(mesh, p, opt);
    }
};

TEST_F(RunLoop, LoadsThenStartsThenStops) {
    const EpiphanyPlan p = plan(2);
    mesh.cores[0] = {};
    mesh.cores[1] = {};
    EXPECT_EQ(run(p), 0);
    ASSERT_GE(mesh.log.size(), 3u);
    EXPECT_EQ(mesh.log.front(), "reset");
    EXPECT_EQ(mesh.log.back(), "stop");
    EXPECT_EQ(std::count(mesh.log.begin(), mesh.log.end(), "stop"), 1);
    const auto start = std::find(mesh.log.begin(), mesh.log.end(), "start");
    ASSERT_NE(start, mesh.log.end());
    // Every write of the plan before the start; after it only the tails (none here: no output).
    EXPECT_EQ(std::count_if(start, mesh.log.end(), [](auto& s) { return s.rfind("write", 0) == 0; }), 0);
    EXPECT_EQ(mesh.reset_cores, (std::vector<unsigned>{0x808, 0x809}));
    EXPECT_EQ(mesh.started, (std::vector<unsigned>{0x808, 0x809}));
    // The image is in both cores, the boot blocks in their holes, and the zeroed mailboxes were written.
    for (const EpiphanyPe& pe : p.pes) {
        EXPECT_EQ(mesh.mem.at(pe.base + 0x101), 0x01);
        EXPECT_EQ(mesh.mem.at(pe.base + 0x300), 0xd0);
        EXPECT_EQ(mesh.mem.at(pe.base + 0xfff), 0x00);          // .bss zeroed
        EXPECT_EQ(mesh.word(pe.base + 0x40), SHMEM_EP_BOOT_MAGIC);
        EXPECT_EQ(mesh.word(pe.base + 0x48), pe.pe);
        EXPECT_EQ(mesh.mem.count(pe.base + 0x8000), 0u);       // nothing beyond the image
    }
    EXPECT_EQ(mesh.word(0x8f000000 + SHMEM_EP_MAILBOX_STRIDE + offsetof(shmem_ep_mailbox, state)), SHMEM_EP_STATE_DONE);
}

TEST_F(RunLoop, ConsoleLinesNeverInterleave) {
    // Two PEs write long outputs in small chunks: the ring (1 KB) wraps several times, lines cross chunk
    // boundaries, and chunks of both PEs alternate; every line must still come out whole.
    const EpiphanyPlan p = plan(2);
    std::vector<std::string> lines[2];
    for (unsigned k = 0; k < 2; ++k) {
        ScriptedCore core;
        for (int i = 0; i < 100; ++i) {
            lines[k].push_back("PE " + std::to_string(k) + " line " + std::to_string(i) + " " +
                               std::string(size_t(10 + (i * 7) % 50), char('a' + k)));
            core.output += lines[k].back() + "\n";
        }
        core.chunk = 37 + 10 * k;
        mesh.cores[k] = core;
    }
    ASSERT_GT(mesh.cores[0].output.size(), 3u * SHMEM_EP_MAILBOX_RING);
    EXPECT_EQ(run(p), 0);
    std::vector<std::string> got[2];
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) {
        ASSERT_TRUE(line.rfind("PE 0 ", 0) == 0 || line.rfind("PE 1 ", 0) == 0) << line;
        ASSERT_EQ(line.find_first_of(line[3] == '0' ? "b" : "a"), std::string::npos) << "mixed: " << line;
        got[line[3] - '0'].push_back(line);
    }
    EXPECT_EQ(got[0], lines[0]);
    EXPECT_EQ(got[1], lines[1]);
    // The host took everything: tail caught up with head.
    for (const EpiphanyPe& pe : p.pes)
        EXPECT_EQ(mesh.word(pe.mailbox + offsetof(shmem_ep_mailbox, tail)),
                  mesh.word(pe.mailbox + offsetof(shmem_ep_mailbox, head)));
}

TEST_F(RunLoop, FullRingWaitsForTheHost) {
    // A core that fills its ring at once must wait for the host to advance tail; the output arrives whole.
    const EpiphanyPlan p = plan(1);
    ScriptedCore core;
    for (int i = 0; i < 100; ++i) core.output += "line " + std::to_string(i) + " of a console that outruns the ring\n";
    core.chunk = 100000;
    mesh.cores[0] = core;
    EXPECT_EQ(run(p), 0);
    EXPECT_EQ(out.str(), core.output);
}

TEST_F(RunLoop, PartialLinesFlushedAtTheEnd) {
    const EpiphanyPlan p = plan(3);
    mesh.cores[0] = {"no newline at all", SHMEM_EP_STATE_DONE, 0, 5};
    mesh.cores[1] = {"first\nsecond without", SHMEM_EP_STATE_DONE, 0, 4};
    mesh.cores[2] = {"", SHMEM_EP_STATE_DONE, 0};
    EXPECT_EQ(run(p), 0);
    // The complete line as soon as it is there, then the unfinished ones by PE, each ended by a newline.
    EXPECT_EQ(out.str(), "first\nno newline at all\nsecond without\n");
}

TEST_F(RunLoop, DoneFromAllIsZero) {
    const EpiphanyPlan p = plan(4);
    for (unsigned k = 0; k < 4; ++k) mesh.cores[k] = {"hello from " + std::to_string(k) + "\n", SHMEM_EP_STATE_DONE, 0, 64, k * 3};
    EXPECT_EQ(run(p), 0);
    for (unsigned k = 0; k < 4; ++k) EXPECT_HAS(out.str(), "hello from " + std::to_string(k) + "\n");
    EXPECT_EQ(err.str(), "");
}

TEST_F(RunLoop, EndEndsTheRunAtOnce) {
    // PE 1 ends the run with 3 while PE 0 still runs (it never finishes): 3 at once, and the cores are stopped.
    const EpiphanyPlan p = plan(2);
    mesh.cores[0] = {"working\n", SHMEM_EP_STATE_DONE, 0, 64, -1};
    mesh.cores[1] = {"fatal: something\n", SHMEM_EP_STATE_END, 3, 64, 2};
    EXPECT_EQ(run(p), 3);
    EXPECT_HAS(out.str(), "working\n");
    EXPECT_HAS(out.str(), "fatal: something\n");
    EXPECT_EQ(mesh.log.back(), "stop");
    EXPECT_LT(mesh.polls, 50);
}

TEST_F(RunLoop, EndStatusMapping) {
    for (auto [status, expected] : std::vector<std::pair<uint32_t, int>>{{0, 0}, {1, 1}, {255, 255}, {256, 255},
                                                                          {0xffffffff, 255}}) {
        FakeMesh fresh;
        const EpiphanyPlan p = plan(1);
        fresh.plan = &p;
        fresh.cores[0] = {"", SHMEM_EP_STATE_END, status};
        EXPECT_EQ(run_mesh(fresh, p, opt), expected) << status;
    }
}

TEST_F(RunLoop, StackOverflowIsReportedByTheHost) {
    // The core only posts SHMEM_EP_STATE_STACK (it has no room for a message); oshrun names the PE and the stack.
    const EpiphanyPlan p = plan(2);
    mesh.cores[0] = {"", SHMEM_EP_STATE_DONE, 0, 64, 5};
    mesh.cores[1] = {"partial", SHMEM_EP_STATE_STACK, 0};
    EXPECT_EQ(run(p), 139);
    EXPECT_NE(err.str().find("libshmem: PE 1: stack overflow detected: the guard word at the bottom of its stack of " +
                             std::to_string(p.stack_size) + " bytes was overwritten"),
              std::string::npos)
        << err.str();
    EXPECT_NE(err.str().find("-Wl,--defsym=__stack_size=" + std::to_string(2 * p.stack_size)), std::string::npos);
    EXPECT_EQ(out.str(), "partial\n");  // the PE's unfinished line comes first
}

TEST_F(RunLoop, TimeoutStopsTheCores) {
    const EpiphanyPlan p = plan(3);
    mesh.cores[0] = {"still here", SHMEM_EP_STATE_DONE, 0, 64, -1};
    mesh.cores[1] = {"done\n", SHMEM_EP_STATE_DONE, 0};
    mesh.cores[2] = {"", SHMEM_EP_STATE_DONE, 0, 64, -1};
    opt.timeout = 0.2;
    opt.min_poll = std::chrono::microseconds(100);
    opt.max_poll = std::chrono::microseconds(1000);
    const auto begin = std::chrono::steady_clock::now();
    EXPECT_EQ(run(p), 124);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    EXPECT_GE(took, 0.2);
    EXPECT_LT(took, 2.0);
    EXPECT_EQ(err.str(), "oshrun: timeout: app.elf did not finish within 0.2 s on 3 PEs (still running: PE 0, 2); "
                         "cores stopped\n");
    EXPECT_EQ(out.str(), "done\nstill here\n");  // the unfinished line too
    EXPECT_EQ(mesh.log.back(), "stop");
    // It slept between polls: with the pause growing to 1 ms, about 200 rounds in 0.2 s, not hundreds of thousands.
    EXPECT_LT(mesh.polls, 1000);
}

TEST_F(RunLoop, Interrupted) {
    const EpiphanyPlan p = plan(1);
    mesh.cores[0] = {"", SHMEM_EP_STATE_DONE, 0, 64, -1};
    int polls = 0;
    opt.interrupted = [&] { return ++polls == 5 ? SIGINT : 0; };
    EXPECT_EQ(run(p), 128 + SIGINT);
    EXPECT_HAS(err.str(), "oshrun: interrupted by Interrupt; cores stopped");
    EXPECT_EQ(mesh.log.back(), "stop");
}

TEST_F(RunLoop, CorruptMailbox) {
    // What no core writes, put there after the plan's zeroing: a head too far ahead of tail, an unknown state.
    const EpiphanyPlan p = plan(2);
    class AfterStart : public FakeMesh {
    public:
        uint32_t where = 0;
        void start(const std::vector<unsigned>& ids) override {
            FakeMesh::start(ids);
            put_word(where, 5000);
        }
    } bad;
    bad.plan = &p;
    bad.where = p.pes[1].mailbox + offsetof(shmem_ep_mailbox, head);
    try {
        run_mesh(bad, p, opt);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 1);
        EXPECT_HAS(f.what(), "PE 1's console mailbox at 0x8f000410 is corrupt: head 5000 is 5000 bytes past tail 0");
    }
    EXPECT_EQ(bad.log.back(), "stop");
    class BadState : public FakeMesh {
    public:
        uint32_t where = 0;
        void start(const std::vector<unsigned>& ids) override {
            FakeMesh::start(ids);
            put_word(where, 7);
        }
    } weird;
    weird.plan = &p;
    weird.where = p.pes[0].mailbox + offsetof(shmem_ep_mailbox, state);
    try {
        run_mesh(weird, p, opt);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "PE 0's console mailbox at 0x8f000000 is corrupt: state 7");
    }
    EXPECT_EQ(weird.log.back(), "stop");
}

TEST_F(RunLoop, StderrTagsAndRawRings) {
    // The rings carry the same records as virt's UART: stderr records go to err, --tag-output prefixes every line
    // with its PE, and a ring of plain text (no records: an image older than the record console) passes through.
    const EpiphanyPlan p = plan(3);
    mesh.cores[0] = {"to out\n", SHMEM_EP_STATE_DONE, 0, 3};
    mesh.cores[1] = {"to err\nunfinished", SHMEM_EP_STATE_DONE, 0, 5, 0, 'e'};
    mesh.cores[2] = {"plain\n", SHMEM_EP_STATE_DONE, 0, 64, 0, 'o', true};
    opt.console.tag_output = true;
    EXPECT_EQ(run(p), 0);
    EXPECT_HAS(out.str(), "[PE 0] to out\n");
    EXPECT_HAS(out.str(), "plain\n");
    EXPECT_EQ(out.str().find("[PE 2]"), std::string::npos);
    EXPECT_EQ(err.str(), "[PE 1] to err\n[PE 1] unfinished\n");
}

TEST_F(RunLoop, OutputFiles) {
    const EpiphanyPlan p = plan(2);
    mesh.cores[0] = {"zero\n", SHMEM_EP_STATE_DONE, 0, 7};
    mesh.cores[1] = {"one\n", SHMEM_EP_STATE_DONE, 0, 2, 0, 'e'};
    const TempDir dir;
    opt.console.output_dir = dir.path() + "/out";
    EXPECT_EQ(run(p), 0);
    EXPECT_EQ(out.str(), "");
    EXPECT_EQ(err.str(), "");
    for (unsigned k = 0; k < 2; ++k) {
        std::ifstream f(dir.path() + "/out/pe." + std::to_string(k));
        std::stringstream text;
        text << f.rdbuf();
        EXPECT_EQ(text.str(), k == 0 ? "zero\n" : "one\n");
    }
}

TEST_F(RunLoop, AnotherPesRecordInARingIsNotARecord) {
    // PE 0's ring holds a record that claims to be PE 1's: its bytes pass through raw, reported once.
    const EpiphanyPlan p = plan(2);
    mesh.cores[0] = {console_records(1, "spoof\n"), SHMEM_EP_STATE_DONE, 0, 64, 0, 'o', true};
    mesh.cores[1] = {};
    EXPECT_EQ(run(p), 0);
    EXPECT_EQ(out.str(), console_records(1, "spoof\n"));
    EXPECT_HAS(err.str(), "oshrun: console: malformed record (a record of PE 1 in PE 0's stream)");
}

// ---------------------------------------------------------------------------------------------------------------
// oshrun end to end: what works without a board or a simulator

class EpOshrun : public ::testing::Test {
protected:
    TempDir dir;
    std::string image = write_file(dir.path(), "app.elf", epiphany_elf().bytes());
    std::string out, err;

    int oshrun(const std::string& args, const std::string& env = "") {
        const std::string cmd = oshrun_test::without_shmem_environment() + " " + env + " " + OSHRUN_PATH + " " + args +
                                " >" + dir.path() + "/out 2>" + dir.path() + "/err";
        const int status = std::system(cmd.c_str());
        out = slurp(dir.path() + "/out");
        err = slurp(dir.path() + "/err");
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    static std::string slurp(const std::string& path) {
        std::ifstream f(path);
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }
};

TEST_F(EpOshrun, DryRun) {
    ASSERT_EQ(oshrun("--target epiphany-e16 -np 5 --dry-run " + image + " a b"), 0) << err;
    EXPECT_HAS(out, "target epiphany-e16: 5 PEs on a 2x4 workgroup");
    EXPECT_HAS(out, "pe 0: coreid 0x808 row 32 col 8 base 0x80800000 bytes 4096 boot-block 0x80800040 mailbox 0x8f000000");
    EXPECT_HAS(out, "pe 4: coreid 0x848 row 33 col 8 base 0x84800000 bytes 4096 boot-block 0x84800040 mailbox 0x8f001040");
    EXPECT_HAS(out, "mailboxes: 0x8f000000..0x8f001450");
    EXPECT_HAS(out, "backend: ");
    if (access("/dev/epiphany/mesh0", F_OK) != 0) {  // no board: oshrun's own simulator
        EXPECT_HAS(out, "backend: sim (default: no /dev/epiphany/mesh0)\n");
    }
    ASSERT_EQ(oshrun("--target=epiphany-e64 -np 64 --backend esim --dry-run " + image), 0) << err;
    EXPECT_HAS(out, "pe 63: coreid 0x9cf row 39 col 15 base 0x9cf00000");
    EXPECT_HAS(out, "backend: esim\n");
}

TEST_F(EpOshrun, NoEnvironmentNoGdb) {
    // -x: a warning, not a failure (an Epiphany boot block has no room for an environment); --gdb is QEMU's.
    ASSERT_EQ(oshrun("--target epiphany-e16 -x FOO=1 --dry-run " + image), 0) << err;
    EXPECT_EQ(err, "oshrun: warning: -x ignored: Epiphany PEs have no environment (no room for one in their boot "
                   "block)\n");
    ASSERT_EQ(oshrun("--target epiphany-e16 --dry-run " + image, "SHMEM_FOO=1"), 0) << err;
    EXPECT_EQ(err, "");  // SHMEM_* of the environment: nothing to say
    EXPECT_EQ(oshrun("--target epiphany-e16 --gdb 0 " + image), 2);
    EXPECT_EQ(err, "oshrun: --gdb is an option of virt-rv64, linux; epiphany-e16 does not take it\n");
}

TEST_F(EpOshrun, Refusals) {
    EXPECT_EQ(oshrun("--target epiphany-e16 -np 17 " + image), 2);
    EXPECT_HAS(err, "epiphany-e16 runs 1 to 16 PEs");
    EXPECT_EQ(oshrun("--target epiphany-e16 --icount " + image), 2);
    EXPECT_EQ(err, "oshrun: --icount is an option of virt-rv64; epiphany-e16 does not take it\n");
    EXPECT_EQ(oshrun("--target epiphany-e16 --symmetric-size 4K " + image), 2);
    EXPECT_EQ(oshrun("--target epiphany-e16 --backend frob --dry-run " + image), 2);
    EXPECT_HAS(err, "--backend frob: unknown");
    EXPECT_EQ(oshrun("--backend esim " + image), 2);
    EXPECT_EQ(err, "oshrun: --backend is an option of epiphany-e16, epiphany-e64; virt-rv64 does not take it\n");
    EXPECT_EQ(oshrun("--target epiphany-e16 --dry-run " + write_file(dir.path(), "virt.elf", valid_elf().bytes())), 2);
    EXPECT_HAS(err, "ELF class is ELFCLASS64 (64-bit); target epiphany-e16 needs ELFCLASS32");
    TestElf big = epiphany_elf();
    big.segments[0].memsz = 0x8100;
    big.sections[3].size = 0x8100 - 0x310;
    const std::string path = write_file(dir.path(), "big.elf", big.bytes());
    EXPECT_EQ(oshrun("--target epiphany-e16 --dry-run " + path), 2);
    EXPECT_EQ(err, "oshrun: " + path + ": section .bss (0x310..0x8100) does not fit in the 32 KB of core-local memory "
                   "(0x8000 with 1024 B reserved for the stack): 0x500 B over\n");
    EXPECT_EQ(oshrun("--target epiphany-e16 --dry-run " + image + " " + std::string(200, 'x')), 2);
    EXPECT_HAS(err, "program arguments too long for the Epiphany boot block");
}

// The sim backend, end to end: a core that loads from where nothing is mapped ends the run with 139, and oshrun
// names the PE, the core, the pc and the access.
TEST_F(EpOshrun, SimFaultNamesThePeTheCoreAndThePc) {
    TestElf e = epiphany_elf();
    auto put32 = [&](size_t at, uint32_t w) {
        for (unsigned i = 0; i < 4; ++i) e.segments[0].data[at + i] = uint8_t(w >> (8 * i));
    };
    put32(0, 0x05620f0b);  // 0: mov.l r0, #0x5678 (the SYNC vector: where the core starts)
    put32(4, 0x1122068b);  // 4: movt r0, #0x1234
    e.segments[0].data[8] = 0x44;  // 8: ldr r1, [r0, #0] -- 0x12345678 is neither a core of the chip nor DRAM
    e.segments[0].data[9] = 0x20;
    const std::string path = write_file(dir.path(), "fault.elf", e.bytes());
    EXPECT_EQ(oshrun("--target epiphany-e16 --backend sim -np 2 --timeout 20 " + path), 139) << err;
    EXPECT_HAS(err, "oshrun: PE 0 (core 0x808, pc 0x00000008, epiphany simulator): load of 4 bytes from 0x12345678: "
                    "no memory there\n");

    // The trace of PE 0 alone: cycle, coreid, pc, instruction; the same run twice gives the same trace. (PE 1
    // starts 100 cycles after PE 0, the default OSHRUN_SIM_START_GAP; set to 0 here, both run from cycle 0.)
    const std::string trace = dir.path() + "/trace";
    const std::string env = "OSHRUN_SIM_TRACE=" + trace + " OSHRUN_SIM_TRACE_PES=0 OSHRUN_SIM_START_GAP=0";
    EXPECT_EQ(oshrun("--target epiphany-e16 -np 2 --timeout 20 " + path, env), 139) << err;
    const std::string first = slurp(trace);
    EXPECT_EQ(first.find(" 809 "), std::string::npos) << first;  // PE 1's core is not traced
    EXPECT_NE(first.find(" 808 00000000  mov.l r0,#22136\n"), std::string::npos) << first;
    EXPECT_NE(first.find(" 808 00000004  movt.l r0,#4660\n"), std::string::npos) << first;
    EXPECT_EQ(oshrun("--target epiphany-e16 -np 2 --timeout 20 " + path, env), 139) << err;
    EXPECT_EQ(slurp(trace), first);
    EXPECT_EQ(oshrun("--target epiphany-e16 -np 2 " + path, "OSHRUN_SIM_TRACE_PES=0-x OSHRUN_SIM_TRACE=" + trace), 2);
    EXPECT_HAS(err, "OSHRUN_SIM_TRACE_PES=0-x: expected PE numbers such as 0,3-5");
    EXPECT_EQ(oshrun("--target epiphany-e16 -np 2 " + path, "OSHRUN_SIM_SEED=abc"), 2);
    EXPECT_HAS(err, "OSHRUN_SIM_SEED=abc: expected a number");
}

TEST_F(EpOshrun, NoDevice) {
    if (access("/dev/epiphany/mesh0", F_OK) == 0) GTEST_SKIP() << "a real Epiphany device is here";
    EXPECT_EQ(oshrun("--target epiphany-e16 --backend parallella " + image), 127);
    EXPECT_EQ(err, "oshrun: no Epiphany device (/dev/epiphany/mesh0): run on a Parallella, or use --backend sim "
                   "(oshrun's Epiphany simulator, the default without a board)\n");
}

TEST_F(EpOshrun, SimulatorMissing) {
    EXPECT_EQ(oshrun("--target epiphany-e16 --backend esim " + image, "PATH=/nonexistent"), 127);
    EXPECT_HAS(err, "oshrun: epiphany-elf-run not found on PATH: the esim backend runs the Epiphany simulator");
    EXPECT_EQ(oshrun("--target epiphany-e16 --backend esim --emulator /nonexistent/sim " + image), 127);
    EXPECT_HAS(err, "--emulator /nonexistent/sim: not found or not executable");
}

TEST_F(EpOshrun, EsimSimulatorThatEndsEarlyEndsTheRunWithItsOutput) {
    // A stand-in simulator: records how it was started and the ELF it was given, prints, and exits at once.
    const std::string bin = dir.path() + "/bin";
    mkdir(bin.c_str(), 0755);
    const std::string script = "#!/bin/sh\necho \"$@\" > " + dir.path() + "/args\nfor a; do last=$a; done\ncp \"$last\" " +
                               dir.path() + "/core.elf\necho boom\nexit 3\n";
    write_file(bin, "epiphany-elf-run", std::vector<uint8_t>(script.begin(), script.end()));
    chmod((bin + "/epiphany-elf-run").c_str(), 0755);
    EXPECT_EQ(oshrun("--target epiphany-e16 --backend esim " + image, "PATH=" + bin + ":/usr/bin:/bin"), 1);
    EXPECT_HAS(err, "oshrun: esim: the simulator of core 0x808 (PE 0) exited with status 3 before the run ended; "
                    "it printed:\nboom");
    std::ifstream args(dir.path() + "/args");
    std::string line;
    std::getline(args, line);
    EXPECT_HAS(line, "--e-coreid 0x808 --e-rows 1 --e-cols 1 --e-first-core 0x808 --e-core-mem 32K --environment virtual");
    std::ifstream elf(dir.path() + "/core.elf", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(elf)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.rfind("\x7f" "ELF", 0), 0u);
    EXPECT_HAS(bytes, "EPBB");  // the boot block travels in the core's ELF
}

}  // namespace

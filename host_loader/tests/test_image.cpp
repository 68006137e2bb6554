// Reading and checking program images.
#include <gtest/gtest.h>

#include "backends/registry.hpp"
#include "core/common.hpp"
#include "core/image.hpp"
#include "core/process.hpp"
#include "elf_builder.hpp"
#include "load.hpp"

using namespace oshrun;

namespace {

class ImageTest : public ::testing::Test {
protected:
    TempDir dir;
    const Target& virt = *find_target("virt-rv64");

    std::string file(const TestElf& e, const std::string& name = "image.elf") {
        return write_file(dir.path(), name, e.bytes());
    }
    // The message load_image refuses path with; fails the test if it accepts it.
    std::string refusal(const std::string& path) {
        try {
            oshrun_test::load(path, virt);
        } catch (const Failure& f) {
            EXPECT_EQ(f.status, 2);
            const std::string msg = f.what();
            EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
            return msg;
        }
        ADD_FAILURE() << path << " was accepted";
        return "";
    }
    std::string refusal(const TestElf& e) { return refusal(file(e)); }
};

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

TEST_F(ImageTest, ValidImageLinkedAtZero) {
    const Image img = oshrun_test::load(file(valid_elf(0)), virt);
    EXPECT_EQ(img.link_base, 0u);
    EXPECT_EQ(img.entry, 0u);
    EXPECT_EQ(img.file_end, 0x2008u);
    EXPECT_EQ(img.mem_end, 0x5000u);
    EXPECT_EQ(img.memory_size(), 0x5000u);
    EXPECT_EQ(img.stack_size, 0x4000u);
    EXPECT_TRUE(img.stack_size_from_symbol);
    ASSERT_EQ(img.segments.size(), 2u);
    // Flat image: the code, a zero-filled gap up to 0x2000, then the data; .bss is not in it.
    ASSERT_EQ(img.flat.size(), 0x2008u);
    EXPECT_EQ(img.flat[0], 0x6f);
    EXPECT_EQ(img.flat[4], 0x13);
    for (size_t i = 8; i < 0x2000; ++i) ASSERT_EQ(img.flat[i], 0) << i;
    for (int i = 0; i < 8; ++i) EXPECT_EQ(img.flat[0x2000 + i], i + 1);
}

TEST_F(ImageTest, SegmentOrderInFileDoesNotMatter) {
    TestElf e = valid_elf();
    std::swap(e.segments[0], e.segments[1]);
    const Image img = oshrun_test::load(file(e), virt);
    EXPECT_EQ(img.flat[0], 0x6f);
    EXPECT_EQ(img.flat[0x2000], 1);
}

TEST_F(ImageTest, DefaultStackSizeWithoutSymbol) {
    TestElf e = valid_elf();
    e.stack_size.reset();
    EXPECT_EQ(oshrun_test::load(file(e), virt).stack_size, 64 * KiB);
    e.section_headers = false;  // stripped
    const Image img = oshrun_test::load(file(e), virt);
    EXPECT_EQ(img.stack_size, 64 * KiB);
    EXPECT_FALSE(img.stack_size_from_symbol);
}

TEST_F(ImageTest, MissingFile) {
    const std::string msg = refusal(dir.path() + "/nothing.elf");
    EXPECT_HAS(msg, "cannot open");
    EXPECT_HAS(msg, "No such file");
}

TEST_F(ImageTest, NotElf) {
    const std::string text = "#!/bin/sh\necho hello\n";
    EXPECT_HAS(refusal(write_file(dir.path(), "script", {text.begin(), text.end()})), "not an ELF file");
    EXPECT_HAS(refusal(write_file(dir.path(), "empty", {})), "not an ELF file");
}

TEST_F(ImageTest, Directory) { EXPECT_HAS(refusal(dir.path()), "not a regular file"); }

TEST_F(ImageTest, WrongMachine) {
    TestElf e = valid_elf();
    e.machine = EM_X86_64;
    EXPECT_HAS(refusal(e), "ELF machine is x86-64 (62); target virt-rv64 needs RISC-V (243)");
    e.machine = EM_AARCH64;
    EXPECT_HAS(refusal(e), "AArch64 (183)");
}

TEST_F(ImageTest, WrongClass) {
    TestElf e = valid_elf();
    e.elf_class = ELFCLASS32;
    const std::string msg = refusal(e);
    EXPECT_HAS(msg, "ELF class is ELFCLASS32 (32-bit)");
    EXPECT_HAS(msg, "needs ELFCLASS64");
}

TEST_F(ImageTest, BigEndian) {
    TestElf e = valid_elf();
    e.encoding = ELFDATA2MSB;
    const std::string msg = refusal(e);
    EXPECT_HAS(msg, "big-endian");
    EXPECT_HAS(msg, "needs little-endian");
}

TEST_F(ImageTest, FixedAddressExecutable) {
    TestElf e = valid_elf();
    e.type = ET_EXEC;
    const std::string msg = refusal(e);
    EXPECT_HAS(msg, "ET_EXEC");
    EXPECT_HAS(msg, "not a position-independent libshmem image; build it with add_shmem_executable");
    e.type = ET_REL;
    EXPECT_HAS(refusal(e), "ET_REL");
}

TEST_F(ImageTest, TruncatedInHalf) {
    std::vector<uint8_t> bytes = valid_elf().bytes();
    bytes.resize(bytes.size() / 2);
    const std::string msg = refusal(write_file(dir.path(), "half.elf", bytes));
    EXPECT_HAS(msg, "truncated");
    EXPECT_HAS(msg, "section headers");
}

TEST_F(ImageTest, TruncatedSegment) {
    TestElf e = valid_elf();
    e.section_headers = false;
    std::vector<uint8_t> bytes = e.bytes();
    bytes.resize(bytes.size() - 4);
    const std::string msg = refusal(write_file(dir.path(), "cut.elf", bytes));
    EXPECT_HAS(msg, "truncated: PT_LOAD segment at 0x2000");
}

TEST_F(ImageTest, TruncatedHeader) {
    std::vector<uint8_t> bytes = valid_elf().bytes();
    bytes.resize(40);
    EXPECT_HAS(refusal(write_file(dir.path(), "short.elf", bytes)), "truncated");
}

TEST_F(ImageTest, EntryOutsideExecutableSegment) {
    TestElf e = valid_elf();
    e.entry = 0x2000;  // the data segment
    EXPECT_HAS(refusal(e), "entry point 0x2000 is not inside an executable PT_LOAD segment");
    e.entry = 0x9000;  // nothing there
    EXPECT_HAS(refusal(e), "entry point 0x9000 is not inside an executable PT_LOAD segment");
}

TEST_F(ImageTest, EntryNotAtImageStart) {
    TestElf e = valid_elf();
    e.entry = 4;
    EXPECT_HAS(refusal(e), "not the first byte of the image");
}

TEST_F(ImageTest, OversizedBss) {
    TestElf e = valid_elf();
    e.segments[1].memsz = 2 * GiB;
    const std::string msg = refusal(e);
    EXPECT_HAS(msg, "image too large");
    EXPECT_HAS(msg, "at most 1 GiB");
}

TEST_F(ImageTest, OversizedStack) {
    TestElf e = valid_elf();
    e.stack_size = 1 * GiB;
    EXPECT_HAS(refusal(e), "image too large");
}

TEST_F(ImageTest, WrongLinkAddress) {
    // start.S relocates by the runtime address: only an image linked at 0 comes out right.
    EXPECT_HAS(refusal(valid_elf(0x1000)), "lowest PT_LOAD address is 0x1000; a virt-rv64 image is linked at 0x0");
    EXPECT_HAS(refusal(valid_elf(0x80001000)), "lowest PT_LOAD address is 0x80001000");
}

TEST_F(ImageTest, NoLoadSegments) {
    TestElf e = valid_elf();
    for (auto& s : e.segments) s.type = PT_NOTE;
    EXPECT_HAS(refusal(e), "no PT_LOAD segments");
}

TEST_F(ImageTest, OverlappingSegments) {
    TestElf e = valid_elf();
    e.segments[0].memsz = 0x2100;  // runs into the data segment
    EXPECT_HAS(refusal(e), "PT_LOAD segments overlap");
}

TEST_F(ImageTest, Interpreter) {
    TestElf e = valid_elf();
    TestSegment interp;
    interp.type = PT_INTERP;
    const std::string ld = "/lib/ld-linux-riscv64-lp64d.so.1";
    interp.data.assign(ld.begin(), ld.end());
    e.segments.insert(e.segments.begin(), interp);
    EXPECT_HAS(refusal(e), "PT_INTERP");
}

TEST_F(ImageTest, SegmentsSharingFileBytesAmplify) {
    // 2,048 segments, each the same 64 KiB of the file at its own address: 128 MiB of segment data from a file of
    // 64 KiB. Refused before anything is copied (it used to be copied segment by segment, then refused as too big).
    TestElf e = valid_elf();
    e.segments.resize(1);
    e.segments[0].data.resize(64 * KiB);
    for (int i = 1; i < 2048; ++i) {
        TestSegment s = e.segments[0];
        s.vaddr = uint64_t(i) * 64 * KiB;
        s.shared_offset = 0;
        e.segments.push_back(s);
    }
    EXPECT_HAS(refusal(e), "PT_LOAD segments share file bytes");
    e.segments.resize(40);  // few enough, but still the same bytes over and over
    EXPECT_HAS(refusal(e), "PT_LOAD segments share file bytes");
    for (auto& s : e.segments) s.data.resize(16);  // small ones, but too many of them
    e.segments.resize(65, e.segments.back());
    for (size_t i = 0; i < e.segments.size(); ++i) e.segments[i].vaddr = i * 64 * KiB;
    EXPECT_HAS(refusal(e), "more than 64 PT_LOAD segments");
}

TEST_F(ImageTest, SparseSegmentsAmplify) {
    // A few bytes far above the first segment: a flat image of 512 MiB from a file of a few KiB.
    TestElf e = valid_elf();
    e.segments[1].vaddr = 512 * MiB;
    e.segments[1].memsz = 0;
    const std::string msg = refusal(e);
    EXPECT_HAS(msg, "times the file's size");
}

TEST_F(ImageTest, StackTooSmall) {
    // A __stack_size of 0 was accepted: the heap then ran into the startup code's frames.
    TestElf e = valid_elf();
    e.stack_size = 0;
    std::string msg = refusal(e);
    EXPECT_HAS(msg, "its stack (__stack_size = 0 bytes) is smaller than the 4 KiB a virt-rv64 PE needs");
    EXPECT_HAS(msg, "-Wl,--defsym=__stack_size=65536");
    e.stack_size = 4095;
    EXPECT_HAS(refusal(e), "__stack_size = 4095 bytes");
    e.stack_size = 4096;
    EXPECT_EQ(oshrun_test::load(file(e), virt).stack_size, 4096u);
}

TEST_F(ImageTest, Fifo) {
    // A FIFO never opened by a writer: refused at once instead of blocking in open().
    const std::string path = dir.path() + "/fifo.elf";
    ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
    EXPECT_HAS(refusal(path), "not a regular file");
}

TEST_F(ImageTest, FileSizeLargerThanMemorySize) {
    TestElf e = valid_elf();
    e.segments[0].memsz = 4;
    EXPECT_HAS(refusal(e), "malformed");
}

TEST(ElfMachineName, Common) {
    EXPECT_STREQ(elf_machine_name(EM_X86_64), "x86-64");
    EXPECT_STREQ(elf_machine_name(EM_RISCV), "RISC-V");
    EXPECT_STREQ(elf_machine_name(0x1223), "Adapteva Epiphany");
    EXPECT_STREQ(elf_machine_name(0x7777), "unknown");
}

}  // namespace

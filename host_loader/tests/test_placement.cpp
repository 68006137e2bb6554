// Partitions, boot blocks, RAM size and the QEMU command line for virt-rv64.
#include <boot_block.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "backends/registry.hpp"
#include "backends/virt-rv64/placement.hpp"
#include "backends/virt-rv64/qemu_virt.hpp"
#include "core/common.hpp"
#include "core/process.hpp"
#include "core/request.hpp"

using namespace oshrun;

namespace {

#define EXPECT_HAS(haystack, needle) EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

const Target& virt() { return *find_target("virt-rv64"); }

// An image as load_image would return it: link base 0, memory bytes in all, loaded bytes in the file.
Image image(uint64_t memory, uint64_t loaded, uint64_t stack = 64 * KiB) {
    Image img;
    img.path = "prog.elf";
    img.mem_end = memory;
    img.file_end = loaded;
    img.stack_size = stack;
    img.flat.assign(loaded, 0xab);
    return img;
}

// A request of npes PEs; partition 0: none forced.
Request request(unsigned npes, uint64_t symmetric = MiB, uint64_t partition = 0) {
    Request r;
    r.gdb_pe = 0;  // each PE its own copy, as with --gdb; SharedCode tests the other way
    r.npes = npes;
    r.symmetric_size = symmetric;
    if (partition) r.partition_size = partition;
    r.argv = {"prog.elf"};
    return r;
}

VirtPlan place(const Image& img, const Request& req) { return plan_virt(virt(), img, req); }

std::string refusal(const Image& img, const Request& req) {
    try {
        place(img, req);
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
        return f.what();
    }
    ADD_FAILURE() << "placement accepted";
    return "";
}

shmem_boot_block boot_block(const std::vector<uint8_t>& bytes) {
    shmem_boot_block b;
    EXPECT_EQ(bytes.size(), sizeof b);
    std::memcpy(&b, bytes.data(), sizeof b);
    return b;
}

// What the placement reserves for the stack guard below the stack (crt/virt-rv64/boot_block.h).
constexpr uint64_t kGuards = 2 * SHMEM_STACK_GUARD;

TEST(Partition, MinimumIsOneMiB) {
    const VirtPlan lay = place(image(0x3000, 0x2000), request(1, 0));
    EXPECT_EQ(lay.partition_size, MiB);
    EXPECT_EQ(lay.log2_partition, 20u);
}

TEST(Partition, RoundsUpToPowerOfTwo) {
    // 0x1000 boot block + 0x5000 image = 0x6000, + 64 KiB stack (+ its guard, counted twice for alignment) + 1 MiB
    // heap: just over 1 MiB.
    VirtPlan lay = place(image(0x5000, 0x2000), request(2));
    EXPECT_EQ(lay.partition_size, 2 * MiB);
    EXPECT_EQ(lay.log2_partition, 21u);
    EXPECT_EQ(lay.heap_room, 2 * MiB - 0x6000 - 64 * KiB - kGuards);
    // Exactly 1 MiB fits in 1 MiB; one byte more needs 2 MiB.
    const uint64_t exact = MiB - 0x6000 - 64 * KiB - kGuards;
    EXPECT_EQ(place(image(0x5000, 0x2000), request(2, exact)).partition_size, MiB);
    EXPECT_EQ(place(image(0x5000, 0x2000), request(2, exact + 1)).partition_size, 2 * MiB);
}

TEST(Partition, ImageEndRoundedToPage) {
    // 0x1000 + 0x5001 rounds to 0x7000.
    const uint64_t exact = MiB - 0x7000 - 64 * KiB - kGuards;
    EXPECT_EQ(place(image(0x5001, 0x2000), request(1, exact)).partition_size, MiB);
    EXPECT_EQ(place(image(0x5001, 0x2000), request(1, exact + 1)).partition_size, 2 * MiB);
}

TEST(Partition, StackAndSymmetricSizeHonoured) {
    EXPECT_EQ(place(image(0x5000, 0x2000, 3 * MiB), request(1, 0)).partition_size, 4 * MiB);
    EXPECT_EQ(place(image(0x5000, 0x2000), request(1, 64 * MiB)).partition_size, 128 * MiB);
    EXPECT_EQ(place(image(0x5000, 0x2000), request(1, 63 * MiB)).partition_size, 64 * MiB);
}

Request default_heap(unsigned npes) {
    Request r = request(npes);
    r.symmetric_size.reset();
    return r;
}

TEST(Partition, DefaultHeapWithinRamBudget) {
    // 64 MiB partitions up to 16 PEs (1 GiB of RAM), then half as much each time the PE count doubles.
    for (unsigned n : {1u, 2u, 3u, 5u, 7u, 12u, 16u})
        EXPECT_EQ(place(image(0x5000, 0x2000), default_heap(n)).partition_size, 64 * MiB) << n;
    EXPECT_EQ(place(image(0x5000, 0x2000), default_heap(17)).partition_size, 32 * MiB);
    EXPECT_EQ(place(image(0x5000, 0x2000), default_heap(32)).partition_size, 32 * MiB);
    EXPECT_EQ(place(image(0x5000, 0x2000), default_heap(64)).partition_size, 16 * MiB);
    EXPECT_EQ(place(image(0x5000, 0x2000), default_heap(256)).partition_size, 4 * MiB);
    // 512 x 2 MiB would put QEMU's device tree on PE 511's boot block: 4 MiB, as with any other size.
    EXPECT_EQ(place(image(0x5000, 0x2000), default_heap(512)).partition_size, 4 * MiB);
    for (unsigned n : {1u, 16u, 64u})
        EXPECT_LE(uint64_t(n) * place(image(0x5000, 0x2000), default_heap(n)).partition_size, GiB) << n;
    // Never less than the image, its stack and 1 MiB of heap.
    EXPECT_EQ(place(image(0x5000, 0x2000, 100 * MiB), default_heap(2)).partition_size, 128 * MiB);
    EXPECT_EQ(place(image(0x5000, 0x2000, 3 * MiB), default_heap(256)).partition_size, 8 * MiB);
    EXPECT_HAS(refusal(image(0x5000, 0x2000, GiB), default_heap(1)), "image too large");
}

TEST(Partition, TooLarge) {
    const std::string msg = refusal(image(0x5000, 0x2000), request(1, GiB));
    EXPECT_HAS(msg, "prog.elf: image too large");
    EXPECT_HAS(msg, "1 GiB of symmetric heap");
    EXPECT_HAS(refusal(image(0x5000, 0x2000), request(1, UINT64_MAX)), "image too large");
}

TEST(Partition, Forced) {
    EXPECT_EQ(place(image(0x5000, 0x2000), request(2, 64 * MiB, 256 * KiB)).partition_size, 256 * KiB);
    EXPECT_HAS(refusal(image(0x5000, 0x2000), request(2, MiB, 3 * MiB)), "not a power of two");
    EXPECT_HAS(refusal(image(0x5000, 0x2000), request(2, MiB, 2 * GiB)), "larger than the maximum");
    const std::string msg = refusal(image(0x5000, 0x2000, 128 * KiB), request(2, MiB, 128 * KiB));
    EXPECT_HAS(msg, "prog.elf: does not fit in a partition of 128 KiB");
}

TEST(Partition, NumberOfPes) {
    EXPECT_HAS(refusal(image(0x3000, 0x2000), request(0)), "between 1 and 512");
    EXPECT_HAS(refusal(image(0x3000, 0x2000), request(513)), "between 1 and 512");
}

TEST(Partition, RamLimit) {
    const VirtPlan lay = place(image(0x3000, 0x2000), request(64, 0, GiB));
    EXPECT_EQ(lay.ram_size, 64 * GiB);
    EXPECT_HAS(refusal(image(0x3000, 0x2000), request(65, 0, GiB)), "do not fit in the 64 GiB");
}

TEST(Placement, BasesAlignedAndLaidOut) {
    const VirtPlan lay = place(image(0x5000, 0x2000), request(5, 8 * MiB));
    ASSERT_EQ(lay.pes.size(), 5u);
    EXPECT_EQ(lay.partition_size, 16 * MiB);
    for (unsigned k = 0; k < 5; ++k) {
        const VirtPe& pe = lay.pes[k];
        EXPECT_EQ(pe.pe, k);
        EXPECT_EQ(pe.base, 0x80000000 + k * 16 * MiB);
        EXPECT_EQ(pe.base % lay.partition_size, 0u);
        EXPECT_EQ(pe.boot_block, pe.base);
        EXPECT_EQ(pe.image, pe.base + 0x1000);
    }
    EXPECT_EQ(lay.image_bytes, 0x2000u);
}

TEST(Placement, BootBlocks) {
    Request req = request(3);
    req.argv = {"build/prog.elf", "-x", "", "last arg"};
    const VirtPlan lay = place(image(0x5000, 0x2000), req);
    ASSERT_EQ(lay.boot_blocks.size(), 3u);
    const char expected[] = "build/prog.elf\0-x\0\0last arg";  // and the final NUL
    for (unsigned k = 0; k < 3; ++k) {
        const shmem_boot_block b = boot_block(lay.boot_blocks[k]);
        EXPECT_EQ(b.magic, SHMEM_BOOT_MAGIC);
        EXPECT_EQ(b.version, SHMEM_BOOT_VERSION);
        EXPECT_EQ(b.pe, k);
        EXPECT_EQ(b.npes, 3u);
        EXPECT_EQ(b.log2_partition, 21u);
        EXPECT_EQ(b.ram_base, 0x80000000u);
        EXPECT_EQ(b.argc, 4u);
        EXPECT_EQ(b.args_len, sizeof expected);
        EXPECT_EQ(std::memcmp(b.args, expected, sizeof expected), 0);
        for (size_t i = sizeof expected; i < sizeof b.args; ++i) ASSERT_EQ(b.args[i], 0);
        EXPECT_EQ(b.envc, 0u);  // no environment asked for
        EXPECT_EQ(b.env_len, 0u);
        // Everything else (started, reserved) is zero.
        for (size_t i = offsetof(shmem_boot_block, args_len) + 4; i < offsetof(shmem_boot_block, args); ++i)
            ASSERT_EQ(lay.boot_blocks[k][i], 0) << i;
    }
    EXPECT_EQ(std::memcmp("SSHMMBB1", lay.boot_blocks[0].data(), 8), 0);  // the magic, little-endian
}

TEST(Placement, BootBlockVersion3Layout) {
    // The contract with crt/virt-rv64 (version 3): where each field is, byte for byte.
    EXPECT_EQ(SHMEM_BOOT_VERSION, 3);
    EXPECT_EQ(offsetof(shmem_boot_block, ram_base), 24u);
    EXPECT_EQ(offsetof(shmem_boot_block, phys_base), 56u);
    EXPECT_EQ(offsetof(shmem_boot_block, argc), 32u);
    EXPECT_EQ(offsetof(shmem_boot_block, args_len), 36u);
    EXPECT_EQ(offsetof(shmem_boot_block, started), 40u);
    EXPECT_EQ(offsetof(shmem_boot_block, envc), 44u);
    EXPECT_EQ(offsetof(shmem_boot_block, env_len), 48u);
    EXPECT_EQ(offsetof(shmem_boot_block, args), 64u);
}

TEST(Placement, BootBlocksWithEnvironment) {
    // The environment's "NAME=VALUE" strings follow argv's in args[], counted by envc and env_len.
    Request req = request(2);
    req.argv = {"p.elf", "a"};
    req.env = {"SHMEM_DEBUG=1", "X=", "Y=a=b"};
    const VirtPlan lay = place(image(0x5000, 0x2000), req);
    const char expected[] = "p.elf\0a\0SHMEM_DEBUG=1\0X=\0Y=a=b";  // and the final NUL
    for (unsigned k = 0; k < 2; ++k) {
        const std::vector<uint8_t>& bytes = lay.boot_blocks[k];
        const shmem_boot_block b = boot_block(bytes);
        EXPECT_EQ(b.version, 3u);
        EXPECT_EQ(b.argc, 2u);
        EXPECT_EQ(b.args_len, 8u);  // "p.elf\0a\0"
        EXPECT_EQ(b.envc, 3u);
        EXPECT_EQ(b.env_len, sizeof expected - 8);
        EXPECT_EQ(std::memcmp(b.args, expected, sizeof expected), 0);
        for (size_t i = sizeof expected; i < sizeof b.args; ++i) ASSERT_EQ(b.args[i], 0);
        // Little-endian words at their offsets, as the startup code reads them.
        EXPECT_EQ(bytes[44], 3);
        EXPECT_EQ(bytes[48], sizeof expected - 8);
        EXPECT_EQ(bytes[52] | bytes[53] | bytes[54] | bytes[55], 0);  // reserved0
        for (size_t i = 56; i < 64; ++i) ASSERT_EQ(bytes[i], 0) << i;  // reserved1
    }
}

TEST(Placement, ArgumentsAndEnvironmentTooLong) {
    const size_t room = sizeof(shmem_boot_block::args);
    // Exactly full: argv "prog" (5 bytes) and one variable of room - 5 bytes with its NUL.
    EXPECT_NO_THROW(make_virt_boot_block(0, 1, 20, {"prog"}, {"V=" + std::string(room - 5 - 3, 'v')}));
    try {
        make_virt_boot_block(0, 1, 20, {"prog", "arg"}, {"A=1", "V=" + std::string(room, 'v')});
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
        EXPECT_HAS(f.what(), "program arguments and environment too long for the boot block: the arguments need 9 "
                             "bytes with their NULs (argv[0] included), the environment (2 variables: SHMEM_* and "
                             "-x) " + std::to_string(4 + room + 3) + ", together " + std::to_string(9 + 4 + room + 3) +
                             "; the boot block holds " + std::to_string(room));
    }
}

TEST(Placement, TooManyArguments) {
    std::vector<std::string> argv(SHMEM_MAX_ARGS, "a");
    EXPECT_NO_THROW(make_virt_boot_block(0, 1, 20, argv));
    argv.push_back("one too many");
    try {
        make_virt_boot_block(0, 1, 20, argv);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "too many program arguments: 33");
    }
}

TEST(Placement, ArgumentsTooLong) {
    const size_t room = sizeof(shmem_boot_block::args);
    EXPECT_NO_THROW(make_virt_boot_block(0, 1, 20, {std::string(room - 1, 'x')}));
    try {
        make_virt_boot_block(0, 1, 20, {"prog", std::string(room, 'x')});
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_HAS(f.what(), "program arguments too long");
    }
}

TEST(Ram, TailForDeviceTree) {
    // The partitions, rounded to 2 MiB, then 2 MiB that QEMU fills with its device tree.
    VirtPlan lay = place(image(0x3000, 0x2000), request(3, 0));
    EXPECT_EQ(lay.ram_size, 6 * MiB);
    EXPECT_EQ(lay.fdt_low, 0x80400000u);
    EXPECT_EQ(lay.fdt_high, 0x80600000u);
    lay = place(image(0x3000, 0x2000), request(4, MiB));
    EXPECT_EQ(lay.ram_size, 4 * 2 * MiB + 2 * MiB);
    lay = place(image(0x3000, 0x2000), request(512, 0));
    EXPECT_EQ(lay.ram_size, 514 * MiB);
    EXPECT_EQ(lay.fdt_low, 0xA0000000u);
}

TEST(Ram, DeviceTreeInsidePartitionsAboveOneGiB) {
    // 512 x 2 MiB ends at 3 GiB: the tree would go to 0xBFE00000, PE 511's boot block. 4 MiB partitions put it at
    // offset 2 MiB of PE 255, in its heap.
    VirtPlan lay = place(image(0x3000, 0x2000), request(512, MiB));
    EXPECT_EQ(lay.partition_size, 4 * MiB);
    EXPECT_EQ(lay.ram_size, 2 * GiB);
    EXPECT_EQ(lay.fdt_low, 0xBFE00000u);
    EXPECT_EQ(lay.fdt_low, lay.pes[255].base + 2 * MiB);
    // Larger partitions: the tree lies in the top 2 MiB of some partition.
    lay = place(image(0x3000, 0x2000), request(16, 100 * MiB));
    EXPECT_EQ(lay.partition_size, 128 * MiB);
    EXPECT_EQ(lay.ram_size, 2 * GiB);
    EXPECT_EQ(lay.fdt_high, 0xC0000000u);
    // Forced to collide: refused with the size that works.
    const std::string msg = refusal(image(0x3000, 0x2000), request(512, 0, 2 * MiB));
    EXPECT_HAS(msg, "device tree");
    EXPECT_HAS(msg, "PE 511");
    EXPECT_HAS(msg, "at least 4 MiB");
}

TEST(Ram, DeviceTreeNeverOnLoadedBytes) {
    // A large image with 4 MiB partitions and 512 PEs: the tree at offset 2 MiB would hit the image, so 8 MiB.
    const VirtPlan lay = place(image(3 * MiB, 3 * MiB, 4 * KiB), request(512, 0));
    EXPECT_EQ(lay.partition_size, 8 * MiB);
    for (const VirtPe& pe : lay.pes)
        EXPECT_TRUE(pe.base + 0x1000 + lay.image_bytes <= lay.fdt_low || pe.base >= lay.fdt_high) << pe.pe;
}

TEST(SizeText, Units) {
    EXPECT_EQ(size_text(64 * KiB), "64 KiB");
    EXPECT_EQ(size_text(3 * MiB), "3 MiB");
    EXPECT_EQ(size_text(GiB), "1 GiB");
    EXPECT_EQ(size_text(1000), "1000 bytes");
    EXPECT_EQ(size_text(1234), "1234 bytes (1.2 KiB)");
    EXPECT_EQ(size_text(1610621232), "1610621232 bytes (1.5 GiB)");
    EXPECT_EQ(size_text(0), "0 bytes");
}

TEST(SymmetricSize, Parse) {
    uint64_t v = 0;
    const auto size_of = [](const char* text) {
        uint64_t bytes = 0;
        EXPECT_TRUE(parse_size(text, bytes)) << text;
        return bytes;
    };
    EXPECT_EQ(size_of("1024"), 1024u);
    EXPECT_EQ(size_of("0"), 0u);
    EXPECT_EQ(size_of("64K"), 64 * KiB);
    EXPECT_EQ(size_of("64k"), 64 * KiB);
    EXPECT_EQ(size_of("64M"), 64 * MiB);
    EXPECT_EQ(size_of("20m"), 20971520u);
    EXPECT_EQ(size_of("2G"), 2 * GiB);
    EXPECT_EQ(size_of("1T"), 1024 * GiB);
    EXPECT_EQ(size_of("3.1M"), 3250586u);  // the OpenSHMEM spec's example: the ceiling
    EXPECT_EQ(size_of("0.5K"), 512u);
    for (const char* bad : {"", "abc", "M", "12Q", "-1", "+1", " 12", "12 ", "1KB", "1.5.5", "1.", ".5", "0x100",
                            "99999999999999999999", "16777216T"})
        EXPECT_FALSE(parse_size(bad, v)) << bad;
}

TEST(SymmetricSize, FromEnvironment) {
    Request req;
    EXPECT_FALSE(symmetric_size(req).has_value());  // the default: the placement's budget
    req.env = {"SHMEM_SYMMETRIC_SIZE=64M"};
    EXPECT_EQ(symmetric_size(req), 64 * MiB);
    req.env = {"SHMEM_A=1", "SHMEM_SYMMETRIC_SIZE=4096"};
    EXPECT_EQ(symmetric_size(req), 4096u);
    req.env = {"SHMEM_SYMMETRIC_SIZE=lots"};
    try {
        symmetric_size(req);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
        EXPECT_HAS(f.what(), "SHMEM_SYMMETRIC_SIZE=lots");
    }
    req.symmetric_size = 5 * MiB;  // the option wins
    EXPECT_EQ(symmetric_size(req), 5 * MiB);
}

TEST(QemuCommand, ThreePes) {
    const VirtPlan lay = place(image(0x3000, 0x2000), request(3, 0));
    Request req;
    const std::string qemu = "/opt/qemu/bin/qemu-system-riscv64";
    std::vector<std::string> cmd = virt_command(lay, req, qemu, 0, "/tmp/d");
    const std::vector<std::string> head = {"/opt/qemu/bin/qemu-system-riscv64", "-machine",
                                           "virt,aclint=on,memory-backend=shmem.ram,dtb=/tmp/d/machine.dtb", "-bios", "none",
                                           "-smp", "3", "-m", "6M",
                                           "-object", "memory-backend-memfd,id=shmem.ram,size=6M", "-display", "none",
                                           "-monitor", "none", "-serial", "stdio"};
    ASSERT_GE(cmd.size(), head.size());
    EXPECT_EQ(std::vector<std::string>(cmd.begin(), cmd.begin() + long(head.size())), head);
    const std::vector<std::string> devices(cmd.begin() + long(head.size()), cmd.end());
    const std::vector<std::string> expected = {
        "-device", "loader,file=/tmp/d/boot0.bin,addr=0x80000000,force-raw=on",
        "-device", "loader,file=/tmp/d/image.bin,addr=0x80001000,force-raw=on,cpu-num=0",
        "-device", "loader,file=/tmp/d/boot1.bin,addr=0x80100000,force-raw=on",
        "-device", "loader,file=/tmp/d/image.bin,addr=0x80101000,force-raw=on,cpu-num=1",
        "-device", "loader,file=/tmp/d/boot2.bin,addr=0x80200000,force-raw=on",
        "-device", "loader,file=/tmp/d/image.bin,addr=0x80201000,force-raw=on,cpu-num=2"};
    EXPECT_EQ(devices, expected);
    EXPECT_EQ(std::count(cmd.begin(), cmd.end(), "-icount"), 0);

    req.icount = true;
    req.extra_qemu_args = {"-s", "-S"};
    cmd = virt_command(lay, req, qemu, 0, "/tmp/d");
    const auto icount = std::find(cmd.begin(), cmd.end(), "-icount");
    ASSERT_NE(icount, cmd.end());
    EXPECT_EQ(*(icount + 1), "shift=0,sleep=off");
    EXPECT_EQ(cmd[cmd.size() - 2], "-s");
    EXPECT_EQ(cmd.back(), "-S");

    // --gdb: the server on the loopback interface, every hart stopped until gdb continues.
    req.extra_qemu_args = {};
    cmd = virt_command(lay, req, qemu, 4242, "/tmp/d");
    const auto gdb = std::find(cmd.begin(), cmd.end(), "-gdb");
    ASSERT_NE(gdb, cmd.end());
    EXPECT_EQ(*(gdb + 1), "tcp:127.0.0.1:4242");
    EXPECT_EQ(*(gdb + 2), "-S");
}

TEST(QemuCommand, FilesWritten) {
    Image img = image(0x3000, 0x10);
    img.flat = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const VirtPlan lay = place(img, request(2, 0));
    const TempDir dir;
    write_virt_files(lay, img, dir.path());
    const auto read = [](const std::string& path) {
        std::ifstream f(path, std::ios::binary);
        return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
    };
    EXPECT_EQ(read(dir.path() + "/image.bin"), img.flat);
    EXPECT_EQ(read(dir.path() + "/boot0.bin"), lay.boot_blocks[0]);
    EXPECT_EQ(read(dir.path() + "/boot1.bin"), lay.boot_blocks[1]);
    EXPECT_EQ(boot_block(read(dir.path() + "/boot1.bin")).pe, 1u);
}

}  // namespace

// ---- the shared code (crt/virt-rv64/boot_block.h) ------------------------------------------------------------

namespace {

Request shared_request(unsigned npes, uint64_t symmetric = MiB) {
    Request r = request(npes, symmetric);
    r.gdb_pe.reset();
    return r;
}

// What hart `pe`'s tables (loaded at `root`) map virtual address va to: a physical address, or ~0 (unmapped).
uint64_t translate(const std::vector<uint64_t>& words, uint64_t root, uint64_t va) {
    const auto leaf_pa = [](uint64_t pte, uint64_t va_bits, uint64_t mask) {
        EXPECT_EQ(pte & 0xff, uint64_t(SHMEM_PTE_V | SHMEM_PTE_RW | SHMEM_PTE_AD)) << std::hex << pte;
        return ((pte >> 10) << 12 & ~mask) | (va_bits & mask);
    };
    const uint64_t top = words.at(va >> 30 & 511);
    if (!(top & SHMEM_PTE_V)) return ~uint64_t(0);
    if (top & SHMEM_PTE_RW) return leaf_pa(top, va, GiB - 1);
    const uint64_t table = ((top >> 10) << 12) - root;  // a pointer: into this hart's own pages
    EXPECT_EQ(table % 4096, 0u);
    const uint64_t mid = words.at(table / 8 + (va >> 21 & 511));
    if (!(mid & SHMEM_PTE_V)) return ~uint64_t(0);
    return leaf_pa(mid, va, kVirtMegapage - 1);
}

}  // namespace

TEST(SharedCode, PageTablesPutEveryPartitionWhereThePeExpectsIt) {
    // 5 PEs x 4 MiB partitions, shared code after them: PE k sees its own partition at `shared`, PE j's at
    // shared + (j - k) * 4 MiB, the devices at themselves; nothing else.
    const uint64_t part = 4 * MiB, shared = SHMEM_RAM_BASE + 5 * part, root = shared + 0x100000;
    for (unsigned k = 0; k < 5; ++k) {
        const std::vector<uint64_t> w = make_virt_page_tables(root, shared, k, 5, part, SHMEM_RAM_BASE);
        EXPECT_EQ(w.size(), virt_table_pages(5, part) * 512);
        for (unsigned j = 0; j < 5; ++j) {
            const uint64_t va = shared + (uint64_t(j) - k) * part;
            EXPECT_EQ(translate(w, root, va), SHMEM_RAM_BASE + j * part) << k << " " << j;
            EXPECT_EQ(translate(w, root, va + part - 8), SHMEM_RAM_BASE + j * part + part - 8) << k << " " << j;
        }
        EXPECT_EQ(translate(w, root, shared - (k + 1) * part), ~uint64_t(0)) << k;  // below PE 0's
        EXPECT_EQ(translate(w, root, shared + (5 - k) * part), ~uint64_t(0)) << k;  // above PE 4's
        EXPECT_EQ(translate(w, root, 0x2f00004), 0x2f00004u);                      // the SSWI
        EXPECT_EQ(translate(w, root, 0x10000000), 0x10000000u);                    // the UART
        EXPECT_EQ(translate(w, root, GiB + 4096), ~uint64_t(0));                   // PCIe: not mapped
    }
}

TEST(SharedCode, PageTablesAcrossGigabytesAndGigapages) {
    // 512 PEs x 4 MiB: a window of 2 GiB, crossing GiB boundaries at odd places for most harts.
    const uint64_t part = 4 * MiB, shared = SHMEM_RAM_BASE + 512 * part, root = 0x200000000;
    for (unsigned k : {0u, 1u, 255u, 256u, 511u}) {
        const std::vector<uint64_t> w = make_virt_page_tables(root, shared, k, 512, part, SHMEM_RAM_BASE);
        for (unsigned j : {0u, 1u, 127u, 128u, 300u, 511u})
            EXPECT_EQ(translate(w, root, shared + (uint64_t(j) - k) * part + 12345),
                      SHMEM_RAM_BASE + j * part + 12345) << k << " " << j;
    }
    // Partitions of 1 GiB: gigapages in the root, one page of tables.
    EXPECT_EQ(virt_table_pages(4, GiB), 1u);
    const std::vector<uint64_t> w = make_virt_page_tables(root, SHMEM_RAM_BASE + 4 * GiB, 2, 4, GiB, SHMEM_RAM_BASE);
    EXPECT_EQ(w.size(), 512u);
    EXPECT_EQ(translate(w, root, SHMEM_RAM_BASE + 4 * GiB - 2 * GiB + 5), SHMEM_RAM_BASE + 5);
    EXPECT_EQ(translate(w, root, SHMEM_RAM_BASE + 4 * GiB + GiB + 5), SHMEM_RAM_BASE + 3 * GiB + 5);
    // Not 2 MiB pages: refused (the placement never asks).
    EXPECT_THROW(make_virt_page_tables(root, SHMEM_RAM_BASE + 3 * MiB, 0, 3, MiB, SHMEM_RAM_BASE), Failure);
}

TEST(SharedCode, Layout) {
    // 3 PEs of 2 MiB: the shared copy after PE 2's partition, its tables after its image and .bss, the boot
    // blocks after them; the boot blocks tell each PE where PE 0's partition looks to be, and where its own is.
    VirtPlan lay = place(image(0x3000, 0x2000), shared_request(3));
    ASSERT_EQ(lay.partition_size, 2 * MiB);
    EXPECT_EQ(lay.shared, SHMEM_RAM_BASE + 6 * MiB);
    EXPECT_EQ(lay.tables, lay.shared + 0x4000);  // boot-block page + 0x3000 of image, page aligned
    const uint64_t stride = virt_table_pages(3, 2 * MiB) * 4096;
    EXPECT_EQ(lay.table_bytes.size(), 3 * stride);
    EXPECT_EQ(lay.boot_blocks_at, lay.tables + 3 * stride);
    EXPECT_EQ(run_address(lay, 2), lay.shared + 0x1000);
    shmem_shared_block head;
    ASSERT_EQ(lay.shared_block.size(), 4096u);
    std::memcpy(&head, lay.shared_block.data(), sizeof head);
    EXPECT_EQ(head.magic, SHMEM_SHARED_MAGIC);
    EXPECT_EQ(head.tables, lay.tables);
    EXPECT_EQ(head.table_stride, stride);
    EXPECT_EQ(head.npes, 3u);
    EXPECT_EQ(head.log2_partition, 21u);
    EXPECT_EQ(head.ram_base, SHMEM_RAM_BASE);
    EXPECT_EQ(head.boot_blocks, lay.boot_blocks_at);
    EXPECT_EQ(head.image_bytes, 0x2000u);
    for (unsigned k = 0; k < 3; ++k) {
        const shmem_boot_block b = boot_block(lay.boot_blocks[k]);
        EXPECT_EQ(b.ram_base, lay.shared - k * 2 * MiB);
        EXPECT_EQ(b.phys_base, SHMEM_RAM_BASE + k * 2 * MiB);
        std::vector<uint64_t> w(stride / 8);
        std::memcpy(w.data(), lay.table_bytes.data() + k * stride, stride);
        EXPECT_EQ(translate(w, lay.tables + k * stride, b.ram_base + 2 * 2 * MiB + 64), SHMEM_RAM_BASE + 4 * MiB + 64);
    }
    EXPECT_LE(lay.boot_blocks_at + 3 * 4096, SHMEM_RAM_BASE + lay.ram_size);
    // 1 MiB partitions, or --gdb: a copy each.
    EXPECT_EQ(place(image(0x3000, 0x2000), shared_request(3, 0)).shared, 0u);
    EXPECT_EQ(place(image(0x3000, 0x2000), request(3, MiB)).shared, 0u);
}

TEST(SharedCode, QemuCommand) {
    const VirtPlan lay = place(image(0x3000, 0x2000), shared_request(2, MiB));
    ASSERT_NE(lay.shared, 0u);
    const std::vector<std::string> cmd = virt_command(lay, Request(), "qemu", 0, "/tmp/d");
    EXPECT_EQ(cmd[2], "virt,aclint=on,memory-backend=shmem.ram,dtb=/tmp/d/machine.dtb");
    const auto at = std::find(cmd.begin(), cmd.end(), "-device");
    const std::vector<std::string> devices(at, cmd.end());
    const std::vector<std::string> expected = {
        "-device", "loader,file=/tmp/d/shared.bin,addr=" + hex(lay.shared) + ",force-raw=on",
        "-device", "loader,file=/tmp/d/image.bin,addr=" + hex(lay.shared + 0x1000) + ",force-raw=on",
        "-device", "loader,file=/tmp/d/tables.bin,addr=" + hex(lay.tables) + ",force-raw=on",
        "-device", "loader,file=/tmp/d/boot.bin,addr=" + hex(lay.boot_blocks_at) + ",force-raw=on",
        "-device", "loader,addr=" + hex(lay.shared + 0x1000) + ",cpu-num=0",
        "-device", "loader,addr=" + hex(lay.shared + 0x1000) + ",cpu-num=1"};
    EXPECT_EQ(devices, expected);
}

TEST(SharedCode, MinimalDeviceTree) {
    const std::vector<uint8_t> b = minimal_device_tree();
    const auto word = [&b](size_t at) {
        return uint32_t(b.at(at)) << 24 | uint32_t(b.at(at + 1)) << 16 | uint32_t(b.at(at + 2)) << 8 | b.at(at + 3);
    };
    EXPECT_EQ(word(0), 0xd00dfeedu);       // magic
    EXPECT_EQ(word(4), b.size());          // totalsize
    EXPECT_EQ(word(20), 17u);              // version
    EXPECT_EQ(word(word(8)), 1u);          // the structure block starts with the root node
    EXPECT_EQ(word(word(8) + 8), 1u);      // then /chosen
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(b.data()) + word(8) + 12), "chosen");
    EXPECT_EQ(word(b.size() - 4), 9u);     // FDT_END
    EXPECT_EQ(word(8) + word(36), b.size());  // the structure block's size
}

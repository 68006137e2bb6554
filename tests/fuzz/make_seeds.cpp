// Writes fuzz_image's seed corpus into the directory given: valid images of both targets as the tests' ELF builder
// makes them (tests/elf_builder), and near misses of each (stripped, 32-bit, big-endian, an extra segment, a large
// .bss), so that the fuzzer starts from inputs that get deep into the checks.
#include <cstdio>
#include <string>

#include "elf_builder.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    int n = 0;
    const auto seed = [&](const TestElf& e) { write_file(dir, "seed-" + std::to_string(n++) + ".elf", e.bytes()); };

    seed(valid_elf());
    TestElf stripped = valid_elf();
    stripped.section_headers = false;
    seed(stripped);
    TestElf no_stack = valid_elf();
    no_stack.stack_size.reset();
    seed(no_stack);
    TestElf big_bss = valid_elf();
    big_bss.segments[1].memsz = 1 << 20;
    seed(big_bss);
    TestElf three = valid_elf();
    TestSegment extra = three.segments[1];
    extra.vaddr = 0x8000;
    three.segments.push_back(extra);
    seed(three);
    TestElf elf32 = valid_elf();
    elf32.elf_class = ELFCLASS32;
    seed(elf32);

    seed(epiphany_elf());
    TestElf ep_stripped = epiphany_elf();
    ep_stripped.section_headers = false;
    seed(ep_stripped);
    TestElf ep_dram = epiphany_elf();
    TestSegment dram;
    dram.vaddr = 0x8e000000;
    dram.data.assign(64, 0x5a);
    dram.flags = PF_R | PF_W;
    ep_dram.segments.push_back(dram);
    seed(ep_dram);
    // TILE: a PIE with relative relocations, 64- and 32-bit
    seed(tile_elf(ELFCLASS64));
    seed(tile_elf(ELFCLASS32));
    std::printf("%d seeds in %s\n", n, dir.c_str());
    return 0;
}

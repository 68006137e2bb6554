// Test ELF files built in memory from <elf.h> structures, in the 32- or 64-bit layout that elf_class names (the
// encoding only changes e_ident: the bytes stay host-endian, enough for the checks that refuse them).
#pragma once

#include <elf.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct TestSegment {
    uint32_t type = PT_LOAD;
    uint64_t vaddr = 0;
    std::vector<uint8_t> data;  // p_filesz bytes
    uint64_t memsz = 0;         // 0: same as data.size()
    uint32_t flags = PF_R | PF_X;
    // Set: p_offset is this and the segment's bytes are not written again (a segment that shares the file bytes
    // of another, as a crafted image may); p_filesz is still data.size().
    std::optional<uint64_t> shared_offset;
};

// A section header (no contents of its own: a PROGBITS section's sh_offset points into the segment holding its
// address, if any).
struct TestSection {
    std::string name;
    uint64_t addr = 0, size = 0;
    uint32_t type = SHT_PROGBITS;
    uint64_t flags = SHF_ALLOC;
};

struct TestElf {
    unsigned char elf_class = ELFCLASS64, encoding = ELFDATA2LSB;
    uint16_t type = ET_DYN, machine = EM_RISCV;
    uint64_t entry = 0;
    std::vector<TestSegment> segments;
    std::vector<TestSection> sections;   // between the null section and .symtab
    std::optional<uint64_t> stack_size;  // an absolute __stack_size symbol in .symtab
    bool section_headers = true;         // sections, .symtab, .strtab, .shstrtab at the end of the file

    std::vector<uint8_t> bytes() const;
};

// A valid libshmem-style image linked at base (0 for virt-rv64): code at base (R+X, entry), data at base + 0x2000 with .bss after
// it, __stack_size = 0x4000.
TestElf valid_elf(uint64_t base = 0);

// A valid Epiphany image (ELF32, EM_ADAPTEVA_EPIPHANY, ET_EXEC, linked at 0), laid out as linker/epiphany does:
// one RWX segment from 0 with the vector table (.ivt 0..0x28), the boot block hole 0x40..0x100 (zero in the
// file, no section), .text 0x100..0x300, .data 0x300..0x310, then .bss (NOBITS) 0x310..0x1000; __stack_size 0x400.
TestElf epiphany_elf();

// Writes bytes to dir/name and returns the path.
std::string write_file(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes);

// Test ELF files built in memory from <elf.h> structures (64-bit layout; class and encoding only change e_ident,
// enough for the checks that refuse them).
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
};

struct TestElf {
    unsigned char elf_class = ELFCLASS64, encoding = ELFDATA2LSB;
    uint16_t type = ET_DYN, machine = EM_RISCV;
    uint64_t entry = 0;
    std::vector<TestSegment> segments;
    std::optional<uint64_t> stack_size;  // an absolute __stack_size symbol in .symtab
    bool section_headers = true;         // .symtab, .strtab, .shstrtab at the end of the file

    std::vector<uint8_t> bytes() const;
};

// A valid libshmem-style image linked at base (0 for virt-rv64): code at base (R+X, entry), data at base + 0x2000 with .bss after
// it, __stack_size = 0x4000.
TestElf valid_elf(uint64_t base = 0);

// Writes bytes to dir/name and returns the path.
std::string write_file(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes);

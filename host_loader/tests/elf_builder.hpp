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

// A section header; TestElf::sections[k] is section k + 1 of the file. Without contents of its own, a section
// other than NOBITS has its sh_offset point into the segment holding its address, if any (a .rela.dyn whose
// entries lie in a segment's data, as ld lays it out).
struct TestSection {
    std::string name;
    uint64_t addr = 0, size = 0;
    uint32_t type = SHT_PROGBITS;
    uint64_t flags = SHF_ALLOC;
    uint64_t entsize = 0;
    std::vector<uint8_t> contents = {};  // not empty: written to the file on their own, sh_offset and sh_size theirs
    // sh_link: this if set; else, for an SHT_RELA or SHT_REL section of a TestElf with a dynsym, .dynsym's index
    // (as ld links .rela.dyn); else 0.
    std::optional<uint32_t> link = {};
};

// A symbol of TestElf::dynsym. shndx: the section it is defined in (a file section index: TestElf::sections[k] is
// k + 1), SHN_ABS, or SHN_UNDEF (undefined; with bind STB_WEAK, an undefined weak symbol).
struct TestSymbol {
    std::string name;
    uint64_t value = 0;
    uint16_t shndx = SHN_UNDEF;
    unsigned char bind = STB_GLOBAL, type = STT_NOTYPE;
};

// One relocation entry, and a table of them as an SHT_RELA section holds it in the given class (Elf32_Rela or
// Elf64_Rela, host-endian).
struct TestRela {
    uint64_t offset = 0;
    uint32_t type = 0, sym = 0;
    int64_t addend = 0;
};
std::vector<uint8_t> rela_bytes(unsigned char elf_class, const std::vector<TestRela>& entries);

struct TestElf {
    unsigned char elf_class = ELFCLASS64, encoding = ELFDATA2LSB;
    uint16_t type = ET_DYN, machine = EM_RISCV;
    uint64_t entry = 0;
    std::vector<TestSegment> segments;
    std::vector<TestSection> sections;   // between the null section and .symtab
    std::optional<uint64_t> stack_size;  // an absolute __stack_size symbol in .symtab
    bool section_headers = true;         // sections, .symtab, .strtab, .shstrtab at the end of the file
    // Not empty: a .dynsym (SHT_DYNSYM, its null symbol 0 then these: dynsym[i] is symbol i + 1) and its .dynstr,
    // sections n + 1 and n + 2 after the n of `sections`, SHF_ALLOC at address 0 but with their bytes on their own
    // near the end of the file, in no segment (ld puts them in the image; the loader finds them through the
    // section headers alone).
    std::vector<TestSymbol> dynsym;

    std::vector<uint8_t> bytes() const;
};

// A valid libshmem-style image linked at base (0 for virt-rv64): code at base (R+X, entry), data at base + 0x2000 with .bss after
// it, __stack_size = 0x4000.
TestElf valid_elf(uint64_t base = 0);

// A valid Epiphany image (ELF32, EM_ADAPTEVA_EPIPHANY, ET_EXEC, linked at 0), laid out as linker/epiphany does:
// one RWX segment from 0 with the vector table (.ivt 0..0x28), the boot block hole 0x40..0x100 (zero in the
// file, no section), .text 0x100..0x300, .data 0x300..0x310, then .bss (NOBITS) 0x310..0x1000; __stack_size 0x400.
TestElf epiphany_elf();

// A TILE image as ld makes one with -pie for linker/tile (ELFCLASS64 EM_TILEGX or ELFCLASS32 EM_TILEPRO, ET_DYN,
// linked at 0), field = the pointer size (8 or 4): a code segment (R+X) 0..0x1000 with .text 0..0x800, whose
// bytes are i & 0xff, and .rela.dyn at 0x800; a data segment (R+W) at 0x2000 with .data 0x2000..0x2100 (bytes
// 0xd0 + i % 16, except the relocated fields), then .bss to 0x5000; entry (_start) at 0x100; __stack_size 0x4000.
// The relocations, all RELATIVE (tilegx 19, tilepro 13), set the fields at 0x2000 + k * field for k = 0..3 to
// addends 0x100 (_start), 0x2010 (in .data), 0x4ff8 (in .bss) and 0 (the image's start).
TestElf tile_elf(unsigned char elf_class = ELFCLASS64);
// Byte i of tile_elf's .text (0x800 bytes at 0): TILE-Gx nop bundles, a ramp for TILEPro.
uint8_t tile_code_byte(unsigned char elf_class, size_t i);
// The relocations of tile_elf, to change and put back with set_tile_relocations.
std::vector<TestRela> tile_relocations(unsigned char elf_class = ELFCLASS64);
// Replaces e's .rela.dyn entries (in its code segment at 0x800; at most 0x800 bytes of them).
void set_tile_relocations(TestElf& e, const std::vector<TestRela>& entries);
// The file section indices of tile_elf's sections, for TestSymbol::shndx, and of the .dynsym a dynsym adds.
constexpr uint16_t kTileText = 1, kTileRelaDyn = 2, kTileData = 3, kTileBss = 4, kTileDynsym = 5;

// Writes bytes to dir/name and returns the path.
std::string write_file(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes);

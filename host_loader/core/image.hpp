// Reading and checking a program image: an ELF file as a target needs it, reduced to the bytes the loader places.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace oshrun {

struct Target;

struct Segment {  // one PT_LOAD segment
    uint64_t vaddr, offset, filesz, memsz;
    uint32_t flags;
    std::vector<uint8_t> data;  // its filesz bytes from the file
};

struct Section {  // one SHF_ALLOC section with a size, for messages that name what does not fit
    std::string name;
    uint64_t addr, size;
    uint32_t type;              // SHT_PROGBITS, SHT_NOBITS, ...
    bool exec = false;          // SHF_EXECINSTR: instructions
};

// One entry of a dynamic relocation section (SHF_ALLOC, SHT_RELA: .rela.dyn, .rela.plt), as read for a target whose
// loader relocates the image (Target::loader_relocates); which types it may have is its backend's rule.
struct Relocation {
    uint64_t offset;   // r_offset: the image address of the field to relocate
    int64_t addend;    // r_addend
    uint32_t type;     // ELF{32,64}_R_TYPE(r_info)
    uint32_t sym;      // ELF{32,64}_R_SYM(r_info)
    uint32_t section;  // index into Image::relocation_sections, for messages
    // The symbol it names (sym != 0), from the relocation section's symbol table (.dynsym):
    std::string sym_name;
    uint64_t sym_value = 0;     // st_value: its image address, if defined (its value, if absolute)
    bool sym_defined = false;   // st_shndx != SHN_UNDEF
    bool sym_absolute = false;  // st_shndx == SHN_ABS: a value, not an address; relocating the image leaves it be
    bool sym_weak = false;      // STB_WEAK (an undefined weak symbol is 0)
};

struct Image {
    std::string path;            // as given on the command line
    uint64_t link_base = 0;      // lowest PT_LOAD p_vaddr (the target's link address); the flat image starts here
    uint64_t entry = 0;          // e_entry (== link_base: harts start at the image's first byte; TILE: anywhere
                                 // in an executable segment's file bytes)
    uint64_t file_end = 0;       // highest p_vaddr + p_filesz
    uint64_t mem_end = 0;        // highest p_vaddr + p_memsz (.bss included)
    uint64_t stack_size = 0;     // value of __stack_size, or the target's default
    uint64_t file_size = 0;      // bytes of the file
    bool stack_size_from_symbol = false;
    std::vector<Segment> segments;  // sorted by vaddr
    std::vector<Section> sections;  // SHF_ALLOC sections of non-zero size, sorted by addr (none if stripped)
    std::vector<uint8_t> flat;      // partitioned targets: bytes link_base .. file_end, gaps zero-filled
    std::vector<std::string> launcher;  // linux: what runs a program of another machine (qemu-user), else empty
    // Target::loader_relocates only: the dynamic relocations, in file order, and the names of their sections.
    std::vector<Relocation> relocations;
    std::vector<std::string> relocation_sections;

    uint64_t memory_size() const { return mem_end - link_base; }
};

// What an image may ask oshrun to hold, so that no file makes it use more than a small multiple of its own size:
// at most this many PT_LOAD segments, whose file bytes may not overlap (their sum is at most the file's size), and
// a flat image (partitioned targets) at most kMaxFlatFactor times the file's size plus kFlatSlack.
constexpr size_t kMaxLoadSegments = 64;
constexpr uint64_t kMaxFlatFactor = 2;
constexpr uint64_t kFlatSlack = 1ull << 20;

// Reads path and checks it against t's facts (core/target.hpp): its ELF class, encoding, machine and type, its
// segments, entry point and stack size, and with t.loader_relocates its dynamic relocations. Throws
// Failure("<path>: <what is wrong>", status 2) if it cannot be loaded. What else a target requires of an image is
// its backend's to check (Backend::load).
Image load_image(const std::string& path, const Target& t);
// load_image, then check: what a backend's rules add for t's images (check_partitioned_image, ...), which throws
// Failure as load_image does.
Image load_image(const std::string& path, const Target& t, void (*check)(const Target& t, Image& img));

// The check of a target that loads one flat copy of the image into a partition per PE (virt-rv64, TILE): the
// image, its .bss and its stack must fit in the largest partition (t.max_partition); fills Image::flat.
void check_partitioned_image(const Target& t, Image& img);

// "x86-64", "RISC-V", ... or "unknown" for an e_machine value.
const char* elf_machine_name(unsigned machine);

}  // namespace oshrun

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
};

struct Image {
    std::string path;            // as given on the command line
    uint64_t link_base = 0;      // lowest PT_LOAD p_vaddr (the target's link address); the flat image starts here
    uint64_t entry = 0;          // e_entry (== link_base: harts start at the image's first byte)
    uint64_t file_end = 0;       // highest p_vaddr + p_filesz
    uint64_t mem_end = 0;        // highest p_vaddr + p_memsz (.bss included)
    uint64_t stack_size = 0;     // value of __stack_size, or the target's default
    bool stack_size_from_symbol = false;
    std::vector<Segment> segments;  // sorted by vaddr
    std::vector<uint8_t> flat;      // bytes link_base .. file_end, gaps between segments zero-filled

    uint64_t memory_size() const { return mem_end - link_base; }
};

// Reads and validates path for target t. Throws Failure("<path>: <what is wrong>") if it cannot be loaded.
Image load_image(const std::string& path, const Target& t);

// "x86-64", "RISC-V", ... or "unknown" for an e_machine value.
const char* elf_machine_name(unsigned machine);

}  // namespace oshrun

// A target's facts: what oshrun knows of a machine it runs on (--target NAME) without running anything. Each
// backend (core/backend.hpp) states its targets' facts; load_image (core/image.hpp) checks an image against them.
#pragma once

#include <cstdint>

namespace oshrun {

// A grid of cores: rows x cols whose first (north-west) core is at first_row, first_col (an Epiphany chip; a TILE
// chip's tiles, row = y, col = x).
struct Chip {
    unsigned rows = 0, cols = 0, first_row = 0, first_col = 0;
};

struct Target {
    const char* name;                  // --target NAME; unique among every backend's targets
    const char* summary;               // one line, for people (--help)
    unsigned max_pes;                  // -np runs 1 to max_pes PEs
    // What an image must be (load_image); a backend that reads its programs itself (linux) leaves these 0.
    unsigned elf_machine;
    unsigned char elf_class, elf_data;
    uint16_t elf_type;                 // ET_DYN (virt: self-relocating; TILE: relocated by oshrun) or ET_EXEC
                                       // (Epiphany: linked at 0)
    uint64_t link_address;             // the lowest PT_LOAD address an image must have
    uint64_t image_offset;             // where the image goes inside a partition
    uint64_t default_stack_size;       // when the image has no __stack_size symbol
    uint64_t min_stack_size;           // a smaller __stack_size is refused (the startup code's own frames)
    uint64_t max_partition;            // the largest memory a PE may have: the image, its stack and its heaps
    // The loader, not the image, relocates it (TILE): load_image keeps the image's dynamic relocations
    // (Image::relocations) for the backend's check and plan, and the cores start at e_entry, wherever it is in the
    // image (elsewhere they start at its first byte, which e_entry must then be).
    bool loader_relocates;
    Chip chip;                         // Epiphany and TILE: the chip's cores; empty elsewhere
};

}  // namespace oshrun

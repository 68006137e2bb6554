// The targets oshrun can run on. Each is a description (what its images must look like, its limits) plus the
// backend functions that place an image on it and build the emulator's command line. virt-rv64 is the only one
// today; another (e.g. Epiphany) is one more table entry with its own placement and command functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image.hpp"

namespace oshrun {

struct PlaceRequest {
    unsigned npes = 1;
    uint64_t symmetric_size = 0;     // bytes of symmetric heap wanted per PE
    uint64_t partition_size = 0;     // forced partition size, 0 = compute it
    std::vector<std::string> argv;   // argv[0] is the program path as given, then the program's arguments
};

struct PeSlot {
    unsigned pe;
    uint64_t base, boot_block, image;  // partition base, where its boot block and its copy of the image go
};

struct Layout {
    unsigned npes = 0;
    uint64_t partition_size = 0;
    unsigned log2_partition = 0;
    uint64_t ram_base = 0, ram_size = 0;
    uint64_t image_bytes = 0;        // size of the flat image loaded into every partition
    uint64_t heap_room = 0;          // bytes per partition between the image's end and its stack
    uint64_t fdt_low = 0, fdt_high = 0;  // the emulator's device tree lies somewhere in [fdt_low, fdt_high)
    std::vector<PeSlot> pes;
    std::vector<std::vector<uint8_t>> boot_blocks;  // one per PE
};

struct EmulatorOptions {
    std::string emulator;             // binary to run
    bool icount = false;              // deterministic instruction counting
    std::vector<std::string> extra;   // passed through verbatim
};

struct Target {
    const char* name;
    const char* summary;
    // What an image must be.
    unsigned elf_machine;
    unsigned char elf_class, elf_data;
    uint64_t link_address;             // the lowest PT_LOAD address an image must have
    uint64_t image_offset;             // where the image goes inside a partition
    uint64_t default_stack_size;       // when the image has no __stack_size symbol
    uint64_t max_partition;
    unsigned max_pes;
    const char* emulator;              // default emulator binary, looked up on PATH
    // Backend.
    Layout (*place)(const Target&, const Image&, const PlaceRequest&);
    void (*write_files)(const Layout&, const Image&, const std::string& dir);
    std::vector<std::string> (*command)(const Layout&, const EmulatorOptions&, const std::string& dir);
};

const std::vector<Target>& targets();
const Target* find_target(const std::string& name);  // nullptr if unknown
std::string target_names();                          // "virt-rv64, ..."

}  // namespace oshrun

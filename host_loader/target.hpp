// The targets oshrun can run on. Each is a description (what its images must look like, its limits) plus its
// backend, of one of two kinds:
//   - an emulator process (virt-rv64): place, write_files and command give the files and the command line of one
//     emulator run that does everything; main runs it, relays its console and returns the status of the program's
//     exit record (125 when the emulator ended without one);
//   - a loader that drives the cores itself (the Epiphany targets): run does the whole run (placement, loading,
//     starting the cores, console, exit status) and returns oshrun's exit status. The TILE targets (tilegx,
//     tilepro) are of this kind too, with nothing that can start their tiles: run plans, writes the boot files
//     (--boot-dir) and stops (tile.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "console.hpp"
#include "image.hpp"

namespace oshrun {

struct PlaceRequest {
    unsigned npes = 1;
    std::optional<uint64_t> symmetric_size;  // bytes of symmetric heap wanted per PE; none: the default
    uint64_t partition_size = 0;     // forced partition size, 0 = compute it
    std::vector<std::string> argv;   // argv[0] is the program path as given, then the program's arguments
    std::vector<std::string> env;    // the PEs' environment, "NAME=VALUE" strings
    // virt-rv64: every PE runs its own copy of the image, never the shared code (for gdb, whose reads through
    // QEMU's gdb server do not see the shared code's data translation: it would show the shared copy's data).
    bool own_copies = false;
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
    // virt-rv64's shared code (crt/virt-rv64/boot_block.h), where shared != 0: the copy of the image that every
    // hart runs at shared + image offset, its first page (shared_block), the harts' page tables at `tables` and the
    // boot blocks, one after the other, at boot_blocks_at (the harts copy theirs and the image themselves).
    uint64_t shared = 0, tables = 0, boot_blocks_at = 0;
    std::vector<uint8_t> shared_block, table_bytes;
};
// Where PE `pe` runs its image (its first byte): the shared copy, or the PE's own.
inline uint64_t run_address(const Layout& lay, unsigned pe) {
    const PeSlot& slot = lay.pes.at(pe);
    return lay.shared != 0 ? lay.shared + (slot.image - slot.base) : slot.image;
}

struct EmulatorOptions {
    std::string emulator;             // binary to run
    bool icount = false;              // deterministic instruction counting
    std::vector<std::string> extra;   // passed through verbatim
    unsigned gdb_port = 0;            // not 0: start stopped, with the gdb server on 127.0.0.1:gdb_port
};

// What a run hook is given: the command line, digested.
struct RunRequest {
    unsigned npes = 1;
    std::vector<std::string> argv;   // argv[0] is the program path as given, then the program's arguments
    double timeout = 0;              // seconds; <= 0: no limit
    bool dry_run = false, verbose = false;
    std::string backend;             // --backend, "" = the target's default
    std::string emulator;            // --emulator, "" = the backend's default simulator from PATH
    ConsoleOptions console;          // --tag-output, --output-filename
    // The hosted targets' (linux) too:
    std::vector<std::string> env;    // the PEs' own variables (SHMEM_* and -x), "NAME=VALUE"
    std::optional<uint64_t> symmetric_size;  // bytes of symmetric heap per PE; none: the target's default
    std::optional<unsigned> gdb_pe;  // --gdb PE: that PE runs under gdb
    // The TILE targets' (env and symmetric_size above too):
    uint64_t partition_size = 0;     // --partition-size, 0 = compute it
    std::string boot_dir;            // --boot-dir: where the boot files go, "" = nowhere
};

// An Epiphany chip: a rows x cols mesh of cores whose first (north-west) core is at first_row, first_col. (TILE: the
// chip's tiles, row = y, col = x.)
struct Chip {
    unsigned rows, cols, first_row, first_col;
};

struct Target {
    const char* name;
    const char* summary;
    // What an image must be.
    unsigned elf_machine;
    unsigned char elf_class, elf_data;
    uint16_t elf_type;                 // ET_DYN (virt: self-relocating; TILE: relocated by oshrun) or ET_EXEC
                                       // (Epiphany: linked at 0)
    uint64_t link_address;             // the lowest PT_LOAD address an image must have
    uint64_t image_offset;             // where the image goes inside a partition
    uint64_t default_stack_size;       // when the image has no __stack_size symbol
    uint64_t min_stack_size;           // a smaller __stack_size is refused (the startup code's own frames)
    uint64_t max_partition;
    unsigned max_pes;
    const char* emulator;              // default emulator binary, looked up on PATH
    // The target's rules on where an image's bytes may lie, after load_image's common checks; throws Failure.
    // It also derives what the backend needs from the segments (virt: the flat image).
    void (*check_image)(const Target&, Image&);
    // Backend of the emulator-process kind (nullptr otherwise).
    Layout (*place)(const Target&, const Image&, const PlaceRequest&);
    void (*write_files)(const Layout&, const Image&, const std::string& dir);
    std::vector<std::string> (*command)(const Layout&, const EmulatorOptions&, const std::string& dir);
    // Backend of the self-driven kind (nullptr otherwise): returns oshrun's exit status.
    int (*run)(const Target&, const Image&, const RunRequest&);
    Chip chip;                         // Epiphany and TILE targets only
    // A hosted target (linux): PEs are the host's processes; its own image check instead of load_image's (which is
    // for images placed into a core's memory), and the options of a hosted run (environment, heap size, --gdb).
    Image (*load)(const std::string& path, const Target&) = nullptr;
    // The loader, not the image, relocates it (TILE): load_image keeps the image's dynamic relocations
    // (Image::relocations) for the target's check and plan, and the cores start at e_entry, wherever it is in the
    // image (elsewhere they start at its first byte, which e_entry must then be).
    bool loader_relocates = false;
};

const std::vector<Target>& targets();
const Target* find_target(const std::string& name);  // nullptr if unknown
std::string target_names();                          // "virt-rv64, ..."

}  // namespace oshrun

// The TILE backend (tilegx: a TILE-Gx36, 6x6 tiles; tilepro: a TILEPro64, 8x8 tiles): what an image must look
// like, the placement plan (partitions, boot blocks, the relocated image of every PE, mailboxes), its dry-run text,
// the boot files a board's boot loader needs, and the run.
//
// Memory as the loader sees it (crt/tile/boot_block.h is the contract with the startup code): one physical memory,
// mapped one to one for every tile; from ram_base, one power-of-two partition per PE, each aligned to its size,
// holding the PE's boot block at offset 0 and its own copy of the image at SHMEM_TILE_IMAGE_OFFSET, relocated by
// the loader for that address (the image is a PIE linked at 0 whose dynamic relocations are RELATIVE ones and
// word-sized ones against symbols it defines);
// then the console mailboxes, one per PE, right after the last partition.
//
// TILE-Gx runs on the project's simulator (sim/tilegx); nothing can start TILEPro tiles here (no board, no
// simulator yet): such a run plans, writes the boot files (--boot-dir) and stops with status 125. --dry-run prints
// the plan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/image.hpp"
#include "core/request.hpp"
#include "core/target.hpp"

namespace oshrun {

// The default ram_base, 256 MiB: clear of what boot firmware keeps in low memory. Raised to the partition size
// when a partition is larger (partitions are aligned to their size).
constexpr uint64_t kTileRamBase = 0x10000000;

// What differs between the two chips beyond their targets' facts.
struct TileVariant {
    unsigned machine;          // EM_TILEGX, EM_TILEPRO
    unsigned relative_type;    // R_TILEGX_RELATIVE (19), R_TILEPRO_RELATIVE (13): applied without a symbol
    const char* relative_name; // "R_TILEGX_RELATIVE", ...
    unsigned field_bytes;      // 8, 4: a relocated field is a pointer
    uint64_t physical_limit;   // 64 GiB, 4 GiB: every byte of a plan (partitions, mailboxes) lies below it
};

const TileVariant& tile_variant(const Target& t);  // std::logic_error if t is not a TILE target

// The TILE check of an image, after load_image's: the partitioned check (check_partitioned_image: fits in a partition,
// fills Image::flat), a stack size that keeps the guard word at its bottom aligned (a multiple of 8), and the
// dynamic relocations: each R_*_NONE (skipped), of the variant's RELATIVE type without a symbol, or a word-sized
// one (GLOB_DAT, JMP_SLOT, R_TILEGX_64 / R_TILEPRO_32) against a symbol the image defines or an undefined weak one;
// its field inside the file bytes of a PT_LOAD segment (so inside Image::flat). The messages name the relocation
// (type, offset, section) and, for an undefined symbol, the symbol.
void check_tile_image(const Target& t, Image& img);

struct TilePe {
    unsigned pe, x, y;          // PE number and its tile: x = first_x + pe % cols, y = first_y + pe / cols
    uint64_t base;              // partition base, ram_base + (pe << log2_partition); the boot block is here
    uint64_t image;             // base + SHMEM_TILE_IMAGE_OFFSET: where its relocated image goes
    uint64_t entry;             // image + e_entry: where the tile starts, with r0 = base
    uint64_t mailbox;           // its struct shmem_tile_mailbox
    size_t relocations = 0;     // applied to its image (all of the image's: the same count for every PE)
    std::vector<uint8_t> boot;  // its boot block, SHMEM_TILE_BOOT_BLOCK_SIZE bytes
    uint64_t boot_block() const { return base; }
};

struct TilePlan {
    unsigned npes = 0;
    unsigned first_x = 0, first_y = 0, cols = 0, rows = 0;  // the rectangle: PEs fill it row by row
    uint64_t partition_size = 0;
    unsigned log2_partition = 0;
    uint64_t ram_base = 0;        // PE 0's partition
    uint64_t mailbox = 0;         // PE 0's mailbox: ram_base + (npes << log2_partition)
    uint64_t end = 0;             // the end of the last mailbox: the plan uses [ram_base, end)
    uint64_t image_bytes = 0;     // the image in memory (.bss included), from offset SHMEM_TILE_IMAGE_OFFSET
    uint64_t image_end = 0;       // partition offset where the image ends, rounded up to 64 KiB
    uint64_t stack_size = 0;      // at the top of each partition
    uint64_t heap_room = 0;       // between image_end and the stack: malloc's heap and the symmetric heap
    std::vector<TilePe> pes;
};

// The placement plan, a pure function of its inputs (req.npes, argv, env, the symmetric heap and partition sizes
// asked for; argv[0] is the program as given). The partition is the smallest power of two that holds the image
// offset, the image (rounded up to 64 KiB), the symmetric heap and the stack, with the default heap when none is
// asked for (core/partition.hpp: choose_partition); ram_base, when given, must be aligned to it. Throws Failure
// (status 2) if npes is not 1..max_pes, the partition is too large or cannot hold the image, the arguments and
// environment do not fit in the boot block, or the partitions and mailboxes do not fit in the variant's physical
// memory.
TilePlan plan_tile(const Target& t, const Image& img, const Request& req,
                   std::optional<uint64_t> ram_base = std::nullopt);

// The boot block of one PE (struct shmem_tile_boot_block, SHMEM_TILE_BOOT_BLOCK_SIZE bytes): argv's strings, then
// env's ("NAME=VALUE"), each ended by a NUL. Throws Failure if they do not fit in its SHMEM_TILE_ARGS_SIZE bytes.
std::vector<uint8_t> make_tile_boot_block(const TilePlan& plan, unsigned pe, const std::vector<std::string>& argv,
                                          const std::vector<std::string>& env = {});

// The image as it must lie at load_address (SHMEM_TILE_IMAGE_OFFSET into a partition): Image::flat (the segments'
// file bytes at their addresses, gaps zero-filled) with every relocation applied, written little-endian in the
// variant's field size at r_offset: RELATIVE, addend + load_address; against a symbol of one of the image's
// sections, its value + addend + load_address; against an absolute symbol (SHN_ABS), its value + addend; against an
// undefined weak symbol (0), the addend. The rest of the image, up to Image::memory_size(), is zeros (.bss),
// which the caller writes as such. One copy per call: a plan does not hold npes of them.
std::vector<uint8_t> relocate_tile_image(const Target& t, const Image& img, uint64_t load_address);

// What --dry-run prints: the chip and the rectangle, the partitions, the image, one line per PE, the mailboxes.
std::string tile_plan_text(const Target& t, const TilePlan& plan, const Image& img);

// Writes into dir (created if needed) what a board's boot loader needs: per PE peK.boot (its boot block) and
// peK.image (its relocated image, .bss included: Image::memory_size() bytes), and plan.txt (tile_plan_text,
// then where each file goes and how the tiles start). Throws Failure (status 1) if it cannot write them.
void write_tile_boot_dir(const Target& t, const TilePlan& plan, const Image& img, const std::string& dir);

// Runs the plan on the project's TILE-Gx simulator (tile_sim.cpp; tilegx only): every PE's boot block and image
// written, the tiles started one after another (OSHRUN_SIM_START_GAP, _SEED, _TRACE, _TRACE_PES, _STATS as for
// Epiphany's simulator), the mailboxes drained. Returns the run's status as run_mesh does; 139 when a tile faults
// (an access outside memory or misaligned, an instruction or SPR the simulator does not model, a trap), with the
// PE, tile, pc and cause on stderr; 124 with every waiting tile's pc when no tile can go on (a deadlock) or on
// timeout.
int run_tile_sim(const Target& t, const TilePlan& plan, const Image& img, const Request& req);
// "" if the simulator executes every instruction of the image's executable sections; else what it lacks (each
// mnemonic, how often and where first), for a warning: a run faults only if it reaches one.
std::string tilegx_unexecuted(const Image& img);

class TileBackend final : public Backend {
public:
    const std::vector<Target>& targets() const override;
    bool takes(Option o) const override;  // --symmetric-size, --partition-size, --boot-dir
    std::string help() const override;
    // load_image (which keeps the relocations: loader_relocates), then check_tile_image.
    Image load(const Target& t, const Request& req) const override;
    // The plan; --boot-dir's files (with a warning about files of PEs this run does not have); --dry-run prints the
    // plan and returns 0; else tilegx runs on the simulator (run_tile_sim), tilepro fails with status 125.
    int run(const Target& t, const Image& img, const Request& req) const override;
};

}  // namespace oshrun

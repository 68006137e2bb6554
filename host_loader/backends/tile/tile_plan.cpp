// The placement plan for the TILE targets: the rectangle of tiles, the partitions, every PE's boot block and where
// its relocated image goes, the mailboxes. Pure: the dry run prints it, --boot-dir writes it out, the tests read it.
#include <tile/boot_block.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/common.hpp"
#include "core/partition.hpp"
#include "tile.hpp"

namespace oshrun {

namespace {

constexpr uint64_t kImageAlign = 64 * KiB;  // the image's end in a partition is rounded up to a 64 KiB page

std::string span(uint64_t lo, uint64_t hi) { return hex(lo) + ".." + hex(hi); }

size_t applied_relocations(const Image& img) {
    return size_t(std::count_if(img.relocations.begin(), img.relocations.end(),
                                [](const Relocation& r) { return r.type != 0; }));  // R_TILE*_NONE: skipped
}

}  // namespace

std::vector<uint8_t> make_tile_boot_block(const TilePlan& plan, unsigned pe, const std::vector<std::string>& argv,
                                          const std::vector<std::string>& env) {
    shmem_tile_boot_block b;
    std::memset(&b, 0, sizeof b);  // reserved, and the unused rest of args[]
    b.magic = SHMEM_TILE_BOOT_MAGIC;
    b.version = SHMEM_TILE_BOOT_VERSION;
    b.pe = pe;
    b.npes = plan.npes;
    b.log2_partition = plan.log2_partition;
    b.ram_base = plan.ram_base;
    b.mailbox = plan.mailbox;
    b.first_x = plan.first_x;
    b.first_y = plan.first_y;
    b.cols = plan.cols;
    b.rows = plan.rows;
    b.stack_size = plan.stack_size;
    if (argv.size() > SHMEM_TILE_MAX_ARGS)
        throw Failure("too many program arguments for a TILE PE: " + std::to_string(argv.size()) +
                      " with argv[0]; the startup code takes " + std::to_string(SHMEM_TILE_MAX_ARGS));
    if (env.size() > SHMEM_TILE_MAX_ENV)
        throw Failure("too many environment variables for a TILE PE: " + std::to_string(env.size()) +
                      " (SHMEM_* and -x); the startup code takes " + std::to_string(SHMEM_TILE_MAX_ENV));
    put_boot_strings(b, argv, env, "the TILE boot block");
    std::vector<uint8_t> bytes(sizeof b);
    std::memcpy(bytes.data(), &b, sizeof b);
    return bytes;
}

TilePlan plan_tile(const Target& t, const Image& img, const Request& req, std::optional<uint64_t> ram_base) {
    const TileVariant& v = tile_variant(t);
    const Chip& chip = t.chip;
    const unsigned max_pes = std::min(t.max_pes, chip.rows * chip.cols);
    if (req.npes < 1 || req.npes > max_pes)
        throw Failure("-np must be between 1 and " + std::to_string(max_pes) + " on " + t.name + " (" +
                      std::to_string(chip.rows) + "x" + std::to_string(chip.cols) + " tiles), got " +
                      std::to_string(req.npes));
    const std::string& path = img.path;

    // Offsets inside a partition: the boot block at 0, the image at SHMEM_TILE_IMAGE_OFFSET up to image_end, then
    // the heaps, and the stack at the top (its guard word is its own lowest 8 bytes: no room beyond it).
    // check_partitioned_image bounded the image and the stack by 1 GiB each: nothing below overflows.
    const uint64_t image_end = SHMEM_TILE_IMAGE_OFFSET + align_up(img.memory_size(), kImageAlign);
    const uint64_t fixed = image_end + img.stack_size;
    const std::string needs = "image needs " + size_text(image_end) + " (boot block, image and .bss, to a 64 KiB "
                              "boundary) + " + size_text(img.stack_size) + " of stack";
    const uint64_t partition = choose_partition(t, path, req, fixed, needs, 0);

    TilePlan plan;
    plan.npes = req.npes;
    plan.partition_size = partition;
    while ((uint64_t(1) << plan.log2_partition) < partition) ++plan.log2_partition;
    // Partitions aligned to their size (boot_block.h): a symmetric address's offset is one mask away.
    if (ram_base && *ram_base % partition != 0)
        throw Failure("ram_base " + hex(*ram_base) + " is not aligned to the partition size, " + size_text(partition) +
                      " (" + hex(partition) + "): every partition must be aligned to its size");
    plan.ram_base = ram_base ? *ram_base : align_up(kTileRamBase, partition);
    // Partitions, then a mailbox per PE, all below the variant's physical limit (128-bit sums: a given ram_base
    // may be anywhere).
    const unsigned __int128 partitions_end = (unsigned __int128)plan.ram_base + (unsigned __int128)req.npes * partition;
    const unsigned __int128 end = partitions_end + (unsigned __int128)req.npes * SHMEM_TILE_MAILBOX_STRIDE;
    if (end > v.physical_limit)
        throw Failure(std::to_string(req.npes) + " PEs x " + size_text(partition) + " partitions from ram_base " +
                      hex(plan.ram_base) + ", then their console mailboxes (" + std::to_string(req.npes) + " x " +
                      std::to_string(SHMEM_TILE_MAILBOX_STRIDE) + " bytes), end at " +
                      (end > UINT64_MAX ? std::string("more than 2^64") : hex(uint64_t(end))) + ", beyond the " +
                      size_text(v.physical_limit) + " of physical memory of " + t.name +
                      "; ask for a smaller symmetric heap (--symmetric-size, SHMEM_SYMMETRIC_SIZE)" +
                      (ram_base ? " or a lower ram_base" : ""));
    plan.mailbox = uint64_t(partitions_end);
    plan.end = uint64_t(end);
    plan.first_x = req.tile_origin ? req.tile_origin->first : chip.first_col;
    plan.first_y = req.tile_origin ? req.tile_origin->second : chip.first_row;
    // Both chips' TILE_COORD and UDN headers hold a coordinate in 11 bits.
    if (plan.first_x + chip.cols - 1 > 0x7ff || plan.first_y + chip.rows - 1 > 0x7ff)
        throw Failure("--tile-origin " + std::to_string(plan.first_x) + "," + std::to_string(plan.first_y) + ": the " +
                      std::to_string(chip.cols) + "x" + std::to_string(chip.rows) + " tiles of " + t.name +
                      " from there have coordinates beyond 2047, which TILE_COORD cannot hold", 2);
    plan.cols = std::min(req.npes, chip.cols);
    plan.rows = (req.npes + plan.cols - 1) / plan.cols;
    plan.image_bytes = img.memory_size();
    plan.image_end = image_end;
    plan.stack_size = img.stack_size;
    plan.heap_room = partition - fixed;

    const size_t relocations = applied_relocations(img);
    for (unsigned k = 0; k < req.npes; ++k) {
        TilePe pe;
        pe.pe = k;
        pe.x = plan.first_x + k % plan.cols;
        pe.y = plan.first_y + k / plan.cols;
        pe.base = plan.ram_base + (uint64_t(k) << plan.log2_partition);
        pe.image = pe.base + SHMEM_TILE_IMAGE_OFFSET;
        pe.entry = pe.image + (img.entry - img.link_base);
        pe.mailbox = plan.mailbox + uint64_t(k) * SHMEM_TILE_MAILBOX_STRIDE;
        pe.relocations = relocations;
        plan.pes.push_back(std::move(pe));
    }
    // After the plan's fields are set: the boot blocks carry them.
    for (TilePe& pe : plan.pes) pe.boot = make_tile_boot_block(plan, pe.pe, req.argv, req.env);
    return plan;
}

std::string tile_plan_text(const Target& t, const TilePlan& plan, const Image& img) {
    const TileVariant& v = tile_variant(t);
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line,
                  "target %s: %u PEs on a %ux%u rectangle (rows x cols) of the %ux%u tiles from tile x %u y %u; "
                  "PE k at x = %u + k %% %u, y = %u + k / %u\n",
                  t.name, plan.npes, plan.rows, plan.cols, t.chip.rows, t.chip.cols, plan.first_x, plan.first_y,
                  plan.first_x, plan.cols, plan.first_y, plan.cols);
    out += line;
    std::snprintf(line, sizeof line,
                  "partition %s (log2 %u) per PE from ram_base %s: boot block at +0x0, image at %s, stack %s%s at "
                  "the top, room for the heaps %s\n",
                  size_text(plan.partition_size).c_str(), plan.log2_partition, hex(plan.ram_base).c_str(),
                  ("+" + hex(SHMEM_TILE_IMAGE_OFFSET)).c_str(), size_text(plan.stack_size).c_str(),
                  img.stack_size_from_symbol ? "" : " (default)", size_text(plan.heap_room).c_str());
    out += line;
    std::snprintf(line, sizeof line,
                  "image %s: %llu bytes in memory (%llu from the file, then zeros), entry +%s, %zu relocations "
                  "(%s, GOT entries) applied per PE\n",
                  img.path.c_str(), static_cast<unsigned long long>(plan.image_bytes),
                  static_cast<unsigned long long>(img.flat.size()), hex(img.entry - img.link_base).c_str(),
                  plan.pes.empty() ? size_t(0) : plan.pes[0].relocations, v.relative_name);
    out += line;
    for (const TilePe& pe : plan.pes) {
        std::snprintf(line, sizeof line,
                      "pe %u: x %u y %u partition %s boot-block %s image %s entry %s relocations %zu\n", pe.pe, pe.x,
                      pe.y, hex(pe.base).c_str(), hex(pe.boot_block()).c_str(), hex(pe.image).c_str(),
                      hex(pe.entry).c_str(), pe.relocations);
        out += line;
    }
    std::snprintf(line, sizeof line,
                  "mailboxes: %s, %u x %u bytes, zeroed (state RUNNING) before the tiles start\n",
                  span(plan.mailbox, plan.end).c_str(), plan.npes, SHMEM_TILE_MAILBOX_STRIDE);
    out += line;
    std::snprintf(line, sizeof line, "physical memory used: %s of %s's %s\n", span(plan.ram_base, plan.end).c_str(),
                  t.name, size_text(v.physical_limit).c_str());
    out += line;
    return out;
}

}  // namespace oshrun

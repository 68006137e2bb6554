// The TILE backend (tile.hpp): its targets, its options, the boot files, and the run: TILE-Gx on the project's
// simulator (tile_sim.cpp); no TILEPro board or simulator exists for this loader, so a TILEPro run ends once it has
// printed its plan (--dry-run) or written what a board's boot loader would load (--boot-dir).
#include <elf.h>
#include <tile/boot_block.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <regex>

#include "core/common.hpp"
#include "tile.hpp"

namespace oshrun {

namespace {

std::string boot_name(unsigned pe) { return "pe" + std::to_string(pe) + ".boot"; }
std::string image_name(unsigned pe) { return "pe" + std::to_string(pe) + ".image"; }

// Writes bytes to path, then zeros up to size bytes in all (ftruncate: a sparse tail, however large the .bss).
void write_file(const std::string& path, const std::vector<uint8_t>& bytes, uint64_t size) {
    FILE* f = std::fopen(path.c_str(), "wb");
    bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
    if (ok && size > bytes.size()) ok = ftruncate(fileno(f), off_t(size)) == 0;
    const int err = errno;
    if (!(f && std::fclose(f) == 0 && ok))
        throw Failure("--boot-dir: cannot write " + path + ": " + std::strerror(err), 1);
}

// What plan.txt adds to the dry-run text: every file with the physical address it goes to, the mailboxes to zero,
// and how the tiles start.
std::string files_text(const TilePlan& plan) {
    std::string out = "\nboot files: write each at its physical address and zero the mailboxes; then start every "
                      "tile of the rectangle at its entry with r0 = its boot block\n";
    char line[512];
    for (const TilePe& pe : plan.pes) {
        std::snprintf(line, sizeof line, "%s: %u bytes to %s (tile x %u y %u)\n", boot_name(pe.pe).c_str(),
                      SHMEM_TILE_BOOT_BLOCK_SIZE, hex(pe.boot_block()).c_str(), pe.x, pe.y);
        out += line;
        std::snprintf(line, sizeof line,
                      "%s: %llu bytes to %s (tile x %u y %u: start at %s with r0 = %s)\n", image_name(pe.pe).c_str(),
                      static_cast<unsigned long long>(plan.image_bytes), hex(pe.image).c_str(), pe.x, pe.y,
                      hex(pe.entry).c_str(), hex(pe.boot_block()).c_str());
        out += line;
    }
    std::snprintf(line, sizeof line, "mailboxes: zero %llu bytes at %s before any tile starts\n",
                  static_cast<unsigned long long>(plan.end - plan.mailbox),
                  (hex(plan.mailbox) + ".." + hex(plan.end)).c_str());
    out += line;
    return out;
}

// peK.boot and peK.image files in dir for PEs that this plan does not have (a larger run's, written earlier).
std::vector<std::string> stale_files(const std::string& dir, unsigned npes) {
    std::vector<std::string> stale;
    static const std::regex name("pe([0-9]+)\\.(boot|image)");
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string file = entry.path().filename().string();
        std::smatch m;
        if (std::regex_match(file, m, name) && (m[1].length() > 9 || std::stoul(m[1].str()) >= npes))
            stale.push_back(file);
    }
    std::sort(stale.begin(), stale.end());
    return stale;
}

}  // namespace

void write_tile_boot_dir(const Target& t, const TilePlan& plan, const Image& img, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Failure("--boot-dir " + dir + ": cannot create the directory: " + ec.message(), 1);
    // One relocated image at a time: npes copies of an image of up to a partition each need not fit in memory.
    for (const TilePe& pe : plan.pes) {
        write_file(dir + "/" + boot_name(pe.pe), pe.boot, pe.boot.size());
        write_file(dir + "/" + image_name(pe.pe), relocate_tile_image(t, img, pe.image), plan.image_bytes);
    }
    const std::string text = tile_plan_text(t, plan, img) + files_text(plan);
    write_file(dir + "/plan.txt", std::vector<uint8_t>(text.begin(), text.end()), text.size());
}

const std::vector<Target>& TileBackend::targets() const {
    // A PIE linked at 0, one copy per tile in the tile's partition of the shared physical memory, which oshrun
    // relocates for that partition (crt/tile/boot_block.h). The whole chip's tiles, from its top-left tile's
    // coordinates: (1, 1) on TILE-Gx, whose tiles come out of reset with valid coordinates and the top left at (1, 1)
    // (Linux's arch/tile chip_tilegx.h, CHIP_HAS_VALID_TILE_COORD_RESET); (0, 0) on TILEPro, whose coordinates the
    // boot firmware sets (chip_tilepro.h says they are not valid at reset). --tile-origin overrides both.
    static const std::vector<Target> list = {
        {"tilegx", "Tilera TILE-Gx36 (6x6 tiles), one tile per PE; runs on oshrun's TILE-Gx simulator", 36, EM_TILEGX,
         ELFCLASS64, ELFDATA2LSB, ET_DYN, 0, SHMEM_TILE_IMAGE_OFFSET, 64 * KiB, SHMEM_TILE_MIN_STACK, GiB, true,
         {6, 6, 1, 1}},
        {"tilepro", "Tilera TILEPro64 (8x8 tiles), one tile per PE; plan and boot files only", 64, EM_TILEPRO,
         ELFCLASS32, ELFDATA2LSB, ET_DYN, 0, SHMEM_TILE_IMAGE_OFFSET, 64 * KiB, SHMEM_TILE_MIN_STACK, GiB, true,
         {8, 8, 0, 0}},
    };
    return list;
}

bool TileBackend::takes(Option o) const {
    return o == Option::symmetric_size || o == Option::partition_size || o == Option::boot_dir ||
           o == Option::tile_origin;
}

std::string TileBackend::help() const {
    return "TILE (tilegx: TILE-Gx36, 6x6 tiles; tilepro: TILEPro64, 8x8 tiles):\n"
           "  --symmetric-size SIZE  symmetric heap per PE, as on virt-rv64\n"
           "  --partition-size SIZE  force the memory per PE (a power of two), as on virt-rv64\n"
           "  --boot-dir DIR         write into DIR (created if needed) what a board's boot loader needs:\n"
           "                         DIR/pe<k>.boot (PE k's boot block), DIR/pe<k>.image (its copy of the image,\n"
           "                         .bss included, relocated for its partition) and DIR/plan.txt (the placement,\n"
           "                         the physical address each file goes to, the tile each PE starts on); with\n"
           "                         --dry-run too\n"
           "  --tile-origin X,Y      the coordinates (SPR_TILE_COORD) of the chip's top-left tile, where the PEs'\n"
           "                         rectangle starts: tilegx 1,1 (its reset values), tilepro 0,0; a board whose\n"
           "                         firmware numbers its tiles otherwise needs it (docs/tile.md)\n"
           "  tilegx runs on oshrun's own TILE-Gx simulator (OSHRUN_SIM_SEED, _TRACE, _TRACE_PES, _START_GAP,\n"
           "  _STATS: docs/tile.md). No TILEPro board or simulator exists for oshrun: --dry-run prints the\n"
           "  placement and exits 0; without it oshrun stops with 125 once --boot-dir's files are written.\n"
           "  PEs fill a rectangle of\n"
           "  min(N, chip columns) columns row by row from the top-left tile; -x and SHMEM_* go into their boot\n"
           "  blocks.\n"
           "\n";
}

Image TileBackend::load(const Target& t, const Request& req) const {
    return load_image(req.program, t, check_tile_image);
}

int TileBackend::run(const Target& t, const Image& img, const Request& req) const {
    const std::string none = " (there is no TILEPro board or simulator for this loader; see docs/tile.md)";
    const TilePlan plan = plan_tile(t, img, req);
    if (tile_variant(t).machine == EM_TILEGX)
        if (const std::string lacks = tilegx_unexecuted(img); !lacks.empty())
            std::fprintf(stderr, "oshrun: warning: %s\n", lacks.c_str());
    if (!req.boot_dir.empty()) {
        write_tile_boot_dir(t, plan, img, req.boot_dir);
        const std::vector<std::string> stale = stale_files(req.boot_dir, plan.npes);
        if (!stale.empty())
            std::fprintf(stderr, "oshrun: warning: --boot-dir %s also holds %s (and %zu file(s) in all) of PEs this "
                                 "%u-PE run does not have, from an earlier run; plan.txt lists this run's files\n",
                         req.boot_dir.c_str(), stale.front().c_str(), stale.size(), plan.npes);
    }
    if (req.dry_run) {
        std::fputs(tile_plan_text(t, plan, img).c_str(), stdout);
        if (!req.boot_dir.empty())
            std::printf("boot files: written to %s (plan.txt says where each goes)\n", req.boot_dir.c_str());
        return 0;
    }
    if (req.verbose) std::fprintf(stderr, "%s", tile_plan_text(t, plan, img).c_str());
    if (tile_variant(t).machine == EM_TILEGX) return run_tile_sim(t, plan, img, req);
    throw Failure(std::string(t.name) + ": no backend can start TILEPro tiles" + none + "; " +
                      (req.boot_dir.empty()
                           ? "--boot-dir DIR writes the files a board's boot loader needs, --dry-run prints the plan"
                           : "the boot files are in " + req.boot_dir + " (plan.txt says where each goes)"),
                  125);
}

}  // namespace oshrun

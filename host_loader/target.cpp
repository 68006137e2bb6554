#include "target.hpp"

#include <boot_block.h>
#include <epiphany/boot_block.h>
#include <gelf.h>
#include <tile/boot_block.h>

#include "common.hpp"
#include "epiphany.hpp"
#include "linux.hpp"
#include "placement.hpp"
#include "qemu_virt.hpp"
#include "tile.hpp"

namespace oshrun {

const std::vector<Target>& targets() {
    static const std::vector<Target> table = {
        {"virt-rv64", "QEMU virt machine, RISC-V 64, one hart per PE", EM_RISCV, ELFCLASS64, ELFDATA2LSB, ET_DYN,
         // Linked at 0 (GNU ld marks a PIE linked anywhere else ET_EXEC), loaded at partition offset
         // SHMEM_IMAGE_OFFSET; start.S relocates by the image's runtime address, which assumes link address 0.
         0, SHMEM_IMAGE_OFFSET, 64 * KiB, SHMEM_MIN_STACK, GiB, 512, "qemu-system-riscv64", check_partitioned_image,
         place_virt, write_virt_files, virt_command, nullptr, {}},
        // Epiphany: one copy of the image in every core's 32 KB of SRAM, linked at 0 (every core sees its own
        // SRAM at 0), the vector table at 0; both chips' first core is 0x808 (row 32, col 8) on the Parallella.
        {"epiphany-e16", "Epiphany-III (E16G301, 4x4 cores, Parallella), one core per PE", kEmAdaptevaEpiphany,
         ELFCLASS32, ELFDATA2LSB, ET_EXEC, 0, 0, 1 * KiB, 256, SHMEM_EP_LOCAL_SIZE, 16, "epiphany-elf-run",
         check_epiphany_image, nullptr, nullptr, nullptr, run_epiphany, {4, 4, 32, 8}},
        {"epiphany-e64", "Epiphany-IV (E64G401, 8x8 cores), one core per PE", kEmAdaptevaEpiphany,
         ELFCLASS32, ELFDATA2LSB, ET_EXEC, 0, 0, 1 * KiB, 256, SHMEM_EP_LOCAL_SIZE, 64, "epiphany-elf-run",
         check_epiphany_image, nullptr, nullptr, nullptr, run_epiphany, {8, 8, 32, 8}},
        // TILE: a PIE linked at 0, one copy per tile in the tile's partition of the shared physical memory, which
        // oshrun relocates for that partition (crt/tile/boot_block.h); nothing can start the tiles here (tile.hpp).
        // The whole chip's tiles, from tile (0, 0).
        {"tilegx", "Tilera TILE-Gx36 (6x6 tiles), one tile per PE; plan and boot files only", EM_TILEGX, ELFCLASS64,
         ELFDATA2LSB, ET_DYN, 0, SHMEM_TILE_IMAGE_OFFSET, 64 * KiB, SHMEM_TILE_MIN_STACK, GiB, 36, "",
         check_tile_image, nullptr, nullptr, nullptr, run_tile, {6, 6, 0, 0}, nullptr, true},
        {"tilepro", "Tilera TILEPro64 (8x8 tiles), one tile per PE; plan and boot files only", EM_TILEPRO, ELFCLASS32,
         ELFDATA2LSB, ET_DYN, 0, SHMEM_TILE_IMAGE_OFFSET, 64 * KiB, SHMEM_TILE_MIN_STACK, GiB, 64, "",
         check_tile_image, nullptr, nullptr, nullptr, run_tile, {8, 8, 0, 0}, nullptr, true},
        // linux: the host's own programs (host_loader/linux.cpp checks them: load_linux_image).
        {"linux", "this host's Linux, one process per PE", 0, 0, 0, 0, 0, 0, 0, 0, 0, 512, "", nullptr, nullptr,
         nullptr, nullptr, run_linux, {}, load_linux_image},
    };
    return table;
}

const Target* find_target(const std::string& name) {
    for (const Target& t : targets())
        if (name == t.name) return &t;
    return nullptr;
}

std::string target_names() {
    std::string names;
    for (const Target& t : targets()) names += (names.empty() ? "" : ", ") + std::string(t.name);
    return names;
}

}  // namespace oshrun

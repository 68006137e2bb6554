#include "target.hpp"

#include <boot_block.h>
#include <gelf.h>

#include "common.hpp"
#include "placement.hpp"
#include "qemu_virt.hpp"

namespace oshrun {

const std::vector<Target>& targets() {
    static const std::vector<Target> table = {
        {"virt-rv64", "QEMU virt machine, RISC-V 64, one hart per PE", EM_RISCV, ELFCLASS64, ELFDATA2LSB,
         // Linked at 0 (GNU ld marks a PIE linked anywhere else ET_EXEC), loaded at partition offset
         // SHMEM_IMAGE_OFFSET; start.S relocates by the image's runtime address, which assumes link address 0.
         0, SHMEM_IMAGE_OFFSET, 64 * KiB, GiB, 512, "qemu-system-riscv64",
         place_virt, write_virt_files, virt_command},
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

// Placement on QEMU virt (RISC-V 64): one partition per PE (core/partition.hpp), boot blocks, RAM size, the shared
// code and its page tables.
#pragma once

#include <boot_block.h>

#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/partition.hpp"
#include "core/request.hpp"
#include "core/target.hpp"

namespace oshrun {

// QEMU virt puts its device tree blob (1 MiB in QEMU 7.2, at most 2 MiB by this rule) at
// align_down(min(RAM end, 3 GiB) - blob size, 2 MiB); with a 2 MiB aligned window end W it lies inside [W - 2 MiB, W).
constexpr uint64_t kVirtFdtWindowLimit = 0xC0000000;
constexpr uint64_t kVirtFdtAlign = 2 * 1024 * 1024;
constexpr uint64_t kVirtRamLimit = 64ull << 30;  // bytes of RAM above SHMEM_RAM_BASE we allow
// One PE's partition: its base, where its boot block and its copy of the image go.
struct VirtPe {
    unsigned pe;
    uint64_t base, boot_block, image;
};

// The placement plan: the partitions, the RAM QEMU is given and where its device tree may go, every PE's boot
// block, and with the shared code its copy of the image and the harts' page tables.
struct VirtPlan {
    unsigned npes = 0;
    uint64_t partition_size = 0;
    unsigned log2_partition = 0;
    uint64_t ram_base = 0, ram_size = 0;
    uint64_t image_bytes = 0;        // size of the flat image loaded into every partition
    uint64_t heap_room = 0;          // bytes per partition between the image's end and its stack
    uint64_t fdt_low = 0, fdt_high = 0;  // the emulator's device tree lies somewhere in [fdt_low, fdt_high)
    std::vector<VirtPe> pes;
    std::vector<std::vector<uint8_t>> boot_blocks;  // one per PE
    // The shared code (crt/virt-rv64/boot_block.h), where shared != 0: the copy of the image that every hart runs
    // at shared + image offset, its first page (shared_block), the harts' page tables at `tables` and the boot
    // blocks, one after the other, at boot_blocks_at (the harts copy theirs and the image themselves).
    uint64_t shared = 0, tables = 0, boot_blocks_at = 0;
    std::vector<uint8_t> shared_block, table_bytes;
};
// Where PE `pe` runs its image (its first byte): the shared copy, or the PE's own.
inline uint64_t run_address(const VirtPlan& plan, unsigned pe) {
    const VirtPe& slot = plan.pes.at(pe);
    return plan.shared != 0 ? plan.shared + (slot.image - slot.base) : slot.image;
}

// The placement plan, a pure function of its inputs (req.npes, argv, env, the symmetric heap and partition sizes
// asked for: choose_partition). With --gdb (req.gdb_pe) every PE runs its own copy of the image, never the shared
// code: gdb's reads through QEMU's gdb server do not see the shared code's data translation (it would show the
// shared copy's data). Throws Failure (status 2) if npes is not 1..t.max_pes, the image does not fit, the
// arguments and environment do not fit in a boot block, or the partitions do not fit in the RAM allowed.
VirtPlan plan_virt(const Target& t, const Image& img, const Request& req);

// What --dry-run prints before the emulator's command line: the target and the partitions, the image, one line per
// PE, the shared code, where the device tree goes.
std::string virt_plan_text(const Target& t, const VirtPlan& plan, const Image& img);

// The boot block for one PE, SHMEM_BOOT_BLOCK_SIZE bytes: argv's strings, then env's ("NAME=VALUE"), each ended
// by a NUL. Throws Failure if argv has more than SHMEM_MAX_ARGS strings or the strings do not fit (the message says
// how many bytes each part needs and what the boot block holds).
std::vector<uint8_t> make_virt_boot_block(unsigned pe, unsigned npes, unsigned log2_partition,
                                          const std::vector<std::string>& argv,
                                          const std::vector<std::string>& env = {},
                                          uint64_t ram_base = SHMEM_RAM_BASE, uint64_t phys_base = 0);

// The shared code's page tables (crt/virt-rv64/boot_block.h). Pages of them per hart: a root, and where the
// partition size is not a multiple of 1 GiB an L1 table for every GiB that the window of all partitions can meet.
constexpr uint64_t kVirtMegapage = 2 * 1024 * 1024;
uint64_t virt_table_pages(unsigned npes, uint64_t partition);
// Hart `pe`'s tables, to be loaded at physical `root` (the root first, virt_table_pages of them): GiB 0 (the
// devices) at itself, and the npes partitions from ram_base at the virtual addresses that put PE pe's at `shared`,
// PE k's (k - pe) partitions away; read and write, not execute, accessed and dirty. Nothing else is mapped.
std::vector<uint64_t> make_virt_page_tables(uint64_t root, uint64_t shared, unsigned pe, unsigned npes,
                                            uint64_t partition, uint64_t ram_base);

}  // namespace oshrun

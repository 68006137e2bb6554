// Placement on QEMU virt (RISC-V 64): partition size, one partition per PE, boot blocks, RAM size.
#pragma once

#include <boot_block.h>

#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "target.hpp"

namespace oshrun {

// QEMU virt puts its device tree blob (1 MiB in QEMU 7.2, at most 2 MiB by this rule) at
// align_down(min(RAM end, 3 GiB) - blob size, 2 MiB); with a 2 MiB aligned window end W it lies inside [W - 2 MiB, W).
constexpr uint64_t kVirtFdtWindowLimit = 0xC0000000;
constexpr uint64_t kVirtFdtAlign = 2 * 1024 * 1024;
constexpr uint64_t kVirtRamLimit = 64ull << 30;  // bytes of RAM above SHMEM_RAM_BASE we allow
// Without SHMEM_SYMMETRIC_SIZE (or --symmetric-size), a PE's partition is 64 MiB (a heap of almost that) while the
// run's partitions fit in 1 GiB of guest RAM, that is up to 16 PEs, then halves as the PE count doubles, down to
// 2 MiB (512 PEs); it is never smaller than the image and its stack plus 1 MiB of heap. QEMU maps guest RAM
// lazily: what a PE never touches costs the host nothing.
constexpr uint64_t kVirtDefaultPartition = 64ull << 20;
constexpr uint64_t kVirtDefaultRamBudget = 1ull << 30;
constexpr uint64_t kVirtMinDefaultHeap = 1ull << 20;
// The default partition for npes PEs (before the image's own needs).
uint64_t default_partition(unsigned npes);

// The partition size of a partitioned target (virt-rv64, TILE) for an image that needs `fixed` bytes of a
// partition besides its symmetric heap (`needs` says what, for the messages): --partition-size if given (a power of
// two, at most t.max_partition, at least `fixed`), else the smallest power of two with room for
// SHMEM_SYMMETRIC_SIZE (--symmetric-size), else the default (default_partition, at least 1 MiB of heap); never
// below min_partition. Throws Failure naming the image (path) when it cannot fit.
uint64_t choose_partition(const Target& t, const std::string& path, const PlaceRequest& req, uint64_t fixed,
                          const std::string& needs, uint64_t min_partition);

Layout place_virt(const Target& t, const Image& img, const PlaceRequest& req);

// argv's strings, then env's, each ended by a NUL, into a boot block's args[] (virt-rv64's, TILE's: fields argc,
// args_len, envc, env_len, args), which must be zeroed. Throws Failure if they do not fit; the message says how many
// bytes each part needs and what `block` ("the boot block") holds.
template <class BootBlock>
void put_boot_strings(BootBlock& b, const std::vector<std::string>& argv, const std::vector<std::string>& env,
                      const std::string& block) {
    const auto bytes_of = [](const std::vector<std::string>& strings) {
        size_t total = 0;
        for (const std::string& s : strings) total += s.size() + 1;
        return total;
    };
    const size_t args_len = bytes_of(argv), env_len = bytes_of(env);
    if (args_len + env_len > sizeof b.args) {
        if (env.empty())
            throw Failure("program arguments too long: they need " + std::to_string(args_len) +
                          " bytes with their NULs (argv[0] included), " + block + " holds " +
                          std::to_string(sizeof b.args));
        throw Failure("program arguments and environment too long for " + block + ": the arguments need " +
                      std::to_string(args_len) + " bytes with their NULs (argv[0] included), the environment (" +
                      std::to_string(env.size()) + " variables: SHMEM_* and -x) " + std::to_string(env_len) +
                      ", together " + std::to_string(args_len + env_len) + "; " + block + " holds " +
                      std::to_string(sizeof b.args));
    }
    size_t used = 0;
    for (const std::vector<std::string>* strings : {&argv, &env})
        for (const std::string& s : *strings) {
            std::memcpy(b.args + used, s.c_str(), s.size() + 1);
            used += s.size() + 1;
        }
    b.argc = uint32_t(argv.size());
    b.args_len = uint32_t(args_len);
    b.envc = uint32_t(env.size());
    b.env_len = uint32_t(env_len);
}

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

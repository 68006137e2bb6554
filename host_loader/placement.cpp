#include "placement.hpp"

#include <boot_block.h>

#include <cstring>

#include "common.hpp"

namespace oshrun {

std::vector<uint8_t> make_virt_boot_block(unsigned pe, unsigned npes, unsigned log2_partition,
                                          const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    shmem_boot_block b;
    std::memset(&b, 0, sizeof b);
    b.magic = SHMEM_BOOT_MAGIC;
    b.version = SHMEM_BOOT_VERSION;
    b.pe = pe;
    b.npes = npes;
    b.log2_partition = log2_partition;
    b.ram_base = SHMEM_RAM_BASE;
    if (argv.size() > size_t(SHMEM_MAX_ARGS))
        throw Failure("too many program arguments: " + std::to_string(argv.size()) + " strings with argv[0], at most " +
                      std::to_string(SHMEM_MAX_ARGS) + " fit in the boot block");
    put_boot_strings(b, argv, env, "the boot block");
    std::vector<uint8_t> bytes(sizeof b);
    std::memcpy(bytes.data(), &b, sizeof b);
    return bytes;
}

namespace {

uint64_t next_power_of_two(uint64_t v) {
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

// RAM for npes partitions. While the partitions end low enough, a 2 MiB tail above them takes QEMU's device tree;
// beyond that the tree goes to [3 GiB - 2 MiB, 3 GiB) whatever the RAM size, which is inside some partition.
uint64_t ram_size_for(uint64_t partitions_bytes) {
    const uint64_t with_tail = align_up(partitions_bytes, kVirtFdtAlign) + kVirtFdtAlign;
    return SHMEM_RAM_BASE + with_tail <= kVirtFdtWindowLimit ? with_tail : align_up(partitions_bytes, kVirtFdtAlign);
}

// The first PE whose loaded bytes (boot block and image) meet [lo, hi), or -1.
long fdt_victim(uint64_t lo, uint64_t hi, unsigned npes, uint64_t partition, uint64_t loaded_bytes) {
    if (lo < SHMEM_RAM_BASE) return -1;
    for (uint64_t k = (lo - SHMEM_RAM_BASE) / partition; k < npes; ++k) {
        const uint64_t base = SHMEM_RAM_BASE + k * partition;
        if (base >= hi) break;
        if (base + loaded_bytes > lo) return long(k);
    }
    return -1;
}

}  // namespace

uint64_t default_partition(unsigned npes) {
    uint64_t p = kVirtDefaultPartition;
    while (p > 2 * MiB && uint64_t(npes) * p > kVirtDefaultRamBudget) p /= 2;
    return p;
}

uint64_t choose_partition(const Target& t, const std::string& path, const PlaceRequest& req, uint64_t fixed,
                          const std::string& needs, uint64_t min_partition) {
    uint64_t partition;
    if (req.partition_size) {
        partition = req.partition_size;
        if (!is_power_of_two(partition))
            throw Failure("--partition-size " + std::to_string(partition) + " is not a power of two");
        if (partition > t.max_partition)
            throw Failure("--partition-size " + size_text(partition) + " is larger than the maximum, " +
                          size_text(t.max_partition));
        if (fixed > partition)
            throw Failure(path + ": does not fit in a partition of " + size_text(partition) + ": the " + needs);
        return partition;
    }
    if (req.symmetric_size) {
        const uint64_t heap = *req.symmetric_size;
        if (heap > t.max_partition || fixed + heap > t.max_partition)
            throw Failure(path + ": image too large: the " + needs + " + " + size_text(heap) +
                          " of symmetric heap, more than the largest partition, " + size_text(t.max_partition));
        partition = next_power_of_two(fixed + heap);
    } else {
        // No size asked for: a generous heap within a RAM budget (docs/internals.md, "The symmetric heap").
        if (fixed + kVirtMinDefaultHeap > t.max_partition)
            throw Failure(path + ": image too large: the " + needs + ", more than the largest partition, " +
                          size_text(t.max_partition));
        partition = std::max(next_power_of_two(fixed + kVirtMinDefaultHeap),
                             std::min(default_partition(req.npes), t.max_partition));
    }
    return std::max(partition, min_partition);
}

Layout place_virt(const Target& t, const Image& img, const PlaceRequest& req) {
    if (req.npes < 1 || req.npes > t.max_pes)
        throw Failure("-np must be between 1 and " + std::to_string(t.max_pes) + " on " + t.name + ", got " +
                      std::to_string(req.npes));
    const std::string& path = img.path;
    // Offsets inside a partition: [0, 0x1000) boot block, then the image, .bss, heap, and the stack at the top.
    const uint64_t image_end = align_up(t.image_offset + img.memory_size(), 4 * KiB);
    const uint64_t loaded = t.image_offset + img.flat.size();  // bytes the emulator writes into each partition
    // The stack and, below it, its guard (SHMEM_STACK_GUARD, aligned: up to twice that with an odd stack size).
    const uint64_t fixed = image_end + img.stack_size + 2 * SHMEM_STACK_GUARD;  // load_image bounded both by 1 GiB
    const std::string needs = "image needs " + size_text(image_end) + " (boot block, image and .bss) + " +
                              size_text(img.stack_size) + " of stack";

    uint64_t partition = choose_partition(t, path, req, fixed, needs, MiB);

    // QEMU does not notice when its device tree overlaps a -device loader file (different address spaces): the
    // later writer silently wins. Keep the tree off every boot block and image; a larger partition moves it into
    // some partition's heap or stack, whose initial contents do not matter.
    uint64_t ram, fdt_hi;
    for (;;) {
        ram = ram_size_for(req.npes * partition);
        fdt_hi = std::min(SHMEM_RAM_BASE + ram, kVirtFdtWindowLimit);
        const long victim = fdt_victim(fdt_hi - kVirtFdtAlign, fdt_hi, req.npes, partition, loaded);
        if (victim < 0) break;
        if (req.partition_size || partition >= t.max_partition)
            throw Failure("partition size " + size_text(partition) + " on " + std::to_string(req.npes) +
                          " PEs puts QEMU's device tree " + hex(fdt_hi - kVirtFdtAlign) + ".." + hex(fdt_hi) +
                          " over PE " + std::to_string(victim) + "'s boot block or image; use a partition of at least " +
                          size_text(std::max(4 * MiB, next_power_of_two(loaded + kVirtFdtAlign))));
        partition *= 2;
    }
    if (req.npes * partition > kVirtRamLimit)
        throw Failure(std::to_string(req.npes) + " PEs x " + size_text(partition) + " partitions = " +
                      size_text(req.npes * partition) + " do not fit in the " + size_text(kVirtRamLimit) +
                      " of RAM " + t.name + " allows");

    Layout lay;
    lay.npes = req.npes;
    lay.partition_size = partition;
    while ((uint64_t(1) << lay.log2_partition) < partition) ++lay.log2_partition;
    lay.ram_base = SHMEM_RAM_BASE;
    lay.ram_size = ram;
    lay.image_bytes = img.flat.size();
    lay.heap_room = partition - fixed;
    lay.fdt_low = fdt_hi - kVirtFdtAlign;
    lay.fdt_high = fdt_hi;
    for (unsigned k = 0; k < req.npes; ++k) {
        const uint64_t base = SHMEM_RAM_BASE + uint64_t(k) * partition;
        lay.pes.push_back({k, base, base, base + t.image_offset});
        lay.boot_blocks.push_back(make_virt_boot_block(k, req.npes, lay.log2_partition, req.argv, req.env));
    }
    return lay;
}

}  // namespace oshrun

#include "placement.hpp"

#include <boot_block.h>

#include <cstdio>
#include <cstring>

#include "core/common.hpp"

namespace oshrun {

std::vector<uint8_t> make_virt_boot_block(unsigned pe, unsigned npes, unsigned log2_partition,
                                          const std::vector<std::string>& argv, const std::vector<std::string>& env,
                                          uint64_t ram_base, uint64_t phys_base) {
    shmem_boot_block b;
    std::memset(&b, 0, sizeof b);
    b.magic = SHMEM_BOOT_MAGIC;
    b.version = SHMEM_BOOT_VERSION;
    b.pe = pe;
    b.npes = npes;
    b.log2_partition = log2_partition;
    b.ram_base = ram_base;
    b.phys_base = phys_base;
    if (argv.size() > size_t(SHMEM_MAX_ARGS))
        throw Failure("too many program arguments: " + std::to_string(argv.size()) + " strings with argv[0], at most " +
                      std::to_string(SHMEM_MAX_ARGS) + " fit in the boot block");
    put_boot_strings(b, argv, env, "the boot block");
    std::vector<uint8_t> bytes(sizeof b);
    std::memcpy(bytes.data(), &b, sizeof b);
    return bytes;
}

uint64_t virt_table_pages(unsigned npes, uint64_t partition) {
    if (partition % GiB == 0) return 1;
    return 2 + (uint64_t(npes) * partition + GiB - 1) / GiB;  // the root, and an L1 table per GiB the window meets
}

std::vector<uint64_t> make_virt_page_tables(uint64_t root, uint64_t shared, unsigned pe, unsigned npes,
                                            uint64_t partition, uint64_t ram_base) {
    if (partition % kVirtMegapage != 0 || shared % partition != 0 || ram_base % kVirtMegapage != 0)
        throw Failure("page tables: partition " + size_text(partition) + " or address " + hex(shared) +
                      " not aligned to 2 MiB");
    constexpr uint64_t leaf = SHMEM_PTE_V | SHMEM_PTE_RW | SHMEM_PTE_AD;  // data only: the code is fetched physically
    const auto pte = [](uint64_t pa, uint64_t flags) { return (pa >> 12) << 10 | flags; };
    std::vector<uint64_t> words(virt_table_pages(npes, partition) * 512, 0);
    words[0] = pte(0, leaf);  // GiB 0: the devices, where they are
    const uint64_t lo = shared - uint64_t(pe) * partition, hi = lo + uint64_t(npes) * partition;  // the window
    if (hi > (uint64_t(1) << 38)) throw Failure("page tables: window end " + hex(hi) + " beyond Sv39's 256 GiB");
    if (partition % GiB == 0) {
        for (uint64_t va = lo; va < hi; va += GiB) words[va >> 30] = pte(va - lo + ram_base, leaf);
        return words;
    }
    size_t next = 1;  // the next free page: an L1 table per GiB the window meets
    for (uint64_t slot = lo >> 30; slot <= (hi - 1) >> 30; ++slot) {
        const size_t table = next++;
        words[slot] = pte(root + table * 4096, SHMEM_PTE_V);
        for (uint64_t e = 0; e < 512; ++e) {
            const uint64_t va = slot << 30 | e << 21;
            if (va >= lo && va < hi) words[table * 512 + e] = pte(va - lo + ram_base, leaf);
        }
    }
    return words;
}

namespace {

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

VirtPlan plan_virt(const Target& t, const Image& img, const Request& req) {
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
    // The shared code (crt/virt-rv64/boot_block.h) needs partitions of whole 2 MiB pages: its first page, its copy
    // of the image (with room for .bss: it is not cleared, but nothing else may go there) and every hart's tables.
    // Where those do not fit in the RAM allowed, each PE runs its own copy.
    const auto shared_bytes = [&](uint64_t part) -> uint64_t {
        if (req.gdb_pe || part % kVirtMegapage != 0) return 0;
        const uint64_t bytes =
            image_end + req.npes * (virt_table_pages(req.npes, part) * 4 * KiB + SHMEM_BOOT_BLOCK_SIZE);
        return req.npes * part + bytes > kVirtRamLimit ? 0 : bytes;
    };

    // QEMU does not notice when its device tree overlaps a -device loader file (different address spaces): the
    // later writer silently wins. Keep the tree off every boot block and image; a larger partition moves it into
    // some partition's heap or stack, whose initial contents do not matter.
    uint64_t ram, fdt_hi, shared_used;
    for (;;) {
        shared_used = shared_bytes(partition);
        ram = ram_size_for(req.npes * partition + shared_used);
        fdt_hi = std::min(SHMEM_RAM_BASE + ram, kVirtFdtWindowLimit);
        const uint64_t fdt_lo = fdt_hi - kVirtFdtAlign, shared = SHMEM_RAM_BASE + req.npes * partition;
        // Under the shared code the loader writes nothing into the partitions (each hart copies its part).
        const long victim = shared_used != 0 ? -1 : fdt_victim(fdt_lo, fdt_hi, req.npes, partition, loaded);
        const bool over_shared = shared_used != 0 && fdt_lo < shared + shared_used && shared < fdt_hi;
        if (victim < 0 && !over_shared) break;
        if (req.partition_size || partition >= t.max_partition)
            throw Failure("partition size " + size_text(partition) + " on " + std::to_string(req.npes) +
                          " PEs puts QEMU's device tree " + hex(fdt_lo) + ".." + hex(fdt_hi) + " over " +
                          (victim >= 0 ? "PE " + std::to_string(victim) + "'s boot block or image"
                                       : std::string("the shared code or its page tables")) +
                          "; use a partition of at least " +
                          size_text(std::max(4 * MiB, next_power_of_two(loaded + kVirtFdtAlign))));
        partition *= 2;
    }
    if (req.npes * partition + shared_used > kVirtRamLimit)
        throw Failure(std::to_string(req.npes) + " PEs x " + size_text(partition) + " partitions = " +
                      size_text(req.npes * partition) +
                      (shared_used != 0 ? " and " + size_text(shared_used) + " of shared code and page tables" : "") +
                      " do not fit in the " + size_text(kVirtRamLimit) + " of RAM " + t.name + " allows");

    VirtPlan plan;
    plan.npes = req.npes;
    plan.partition_size = partition;
    while ((uint64_t(1) << plan.log2_partition) < partition) ++plan.log2_partition;
    plan.ram_base = SHMEM_RAM_BASE;
    plan.ram_size = ram;
    plan.image_bytes = img.flat.size();
    plan.heap_room = partition - fixed;
    plan.fdt_low = fdt_hi - kVirtFdtAlign;
    plan.fdt_high = fdt_hi;
    if (shared_used != 0) {
        plan.shared = SHMEM_RAM_BASE + req.npes * partition;
        plan.tables = plan.shared + image_end;
        const uint64_t stride = virt_table_pages(req.npes, partition) * 4 * KiB;
        shmem_shared_block head;
        std::memset(&head, 0, sizeof head);
        head.magic = SHMEM_SHARED_MAGIC;
        head.tables = plan.tables;
        head.table_stride = stride;
        head.npes = req.npes;
        head.log2_partition = plan.log2_partition;
        head.ram_base = SHMEM_RAM_BASE;
        head.boot_blocks = plan.boot_blocks_at = plan.tables + req.npes * stride;
        head.image_bytes = align_up(img.flat.size(), 8);
        plan.shared_block.assign(t.image_offset, 0);
        std::memcpy(plan.shared_block.data(), &head, sizeof head);
        plan.table_bytes.reserve(req.npes * stride);
        for (unsigned k = 0; k < req.npes; ++k) {
            const std::vector<uint64_t> words =
                make_virt_page_tables(plan.tables + k * stride, plan.shared, k, req.npes, partition, SHMEM_RAM_BASE);
            const size_t at = plan.table_bytes.size();
            plan.table_bytes.resize(at + stride);
            std::memcpy(plan.table_bytes.data() + at, words.data(), stride);  // little-endian host and guest
        }
    }
    for (unsigned k = 0; k < req.npes; ++k) {
        const uint64_t base = SHMEM_RAM_BASE + uint64_t(k) * partition;
        plan.pes.push_back({k, base, base, base + t.image_offset});
        // Under the shared code a PE sees its own partition at the shared copy's address, PE 0's that many
        // partitions below.
        const uint64_t seen = plan.shared != 0 ? plan.shared - uint64_t(k) * partition : SHMEM_RAM_BASE;
        plan.boot_blocks.push_back(make_virt_boot_block(k, req.npes, plan.log2_partition, req.argv, req.env, seen,
                                                       plan.shared != 0 ? base : 0));
    }
    return plan;
}

std::string virt_plan_text(const Target& t, const VirtPlan& plan, const Image& img) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "target %s: %u PEs, partition %s (log2 %u), RAM %s at %s\n", t.name,
                  plan.npes, size_text(plan.partition_size).c_str(), plan.log2_partition,
                  size_text(plan.ram_size).c_str(), hex(plan.ram_base).c_str());
    out += line;
    out += "image " + img.path + ": " + size_text(img.flat.size()) + " loaded, " + size_text(img.memory_size()) +
           " in memory, stack " + size_text(img.stack_size) + (img.stack_size_from_symbol ? "" : " (default)") +
           ", room for symmetric heap " + size_text(plan.heap_room) + "\n";
    for (const VirtPe& pe : plan.pes) {
        std::snprintf(line, sizeof line, "pe %u: partition %s boot-block %s image %s bytes %zu\n", pe.pe,
                      hex(pe.base).c_str(), hex(pe.boot_block).c_str(), hex(pe.image).c_str(), img.flat.size());
        out += line;
    }
    if (plan.shared != 0) {
        std::snprintf(line, sizeof line,
                      "shared code: %s (every PE runs the image at %s), page tables at %s, %zu bytes\n",
                      hex(plan.shared).c_str(), hex(run_address(plan, 0)).c_str(), hex(plan.tables).c_str(),
                      plan.table_bytes.size());
        out += line;
    }
    std::snprintf(line, sizeof line, "device tree: within [%s, %s)\n", hex(plan.fdt_low).c_str(),
                  hex(plan.fdt_high).c_str());
    out += line;
    return out;
}

}  // namespace oshrun

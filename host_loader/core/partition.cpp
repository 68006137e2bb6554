#include "partition.hpp"

#include <algorithm>

namespace oshrun {

uint64_t default_partition(unsigned npes) {
    uint64_t p = kDefaultPartition;
    while (p > 2 * MiB && uint64_t(npes) * p > kDefaultRamBudget) p /= 2;
    return p;
}

uint64_t next_power_of_two(uint64_t v) {
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

uint64_t choose_partition(const Target& t, const std::string& path, const Request& req, uint64_t fixed,
                          const std::string& needs, uint64_t min_partition) {
    uint64_t partition;
    if (req.partition_size) {
        partition = *req.partition_size;
        if (partition == 0) throw Failure("--partition-size must not be 0");
        if (!is_power_of_two(partition))
            throw Failure("--partition-size " + std::to_string(partition) + " is not a power of two");
        if (partition > t.max_partition)
            throw Failure("--partition-size " + size_text(partition) + " is larger than the maximum, " +
                          size_text(t.max_partition));
        if (fixed > partition)
            throw Failure(path + ": does not fit in a partition of " + size_text(partition) + ": the " + needs);
        return partition;
    }
    if (const std::optional<uint64_t> heap = symmetric_size(req)) {
        if (*heap > t.max_partition || fixed + *heap > t.max_partition)
            throw Failure(path + ": image too large: the " + needs + " + " + size_text(*heap) +
                          " of symmetric heap, more than the largest partition, " + size_text(t.max_partition));
        partition = next_power_of_two(fixed + *heap);
    } else {
        // No size asked for: a generous heap within a RAM budget (docs/internals.md, "The symmetric heap").
        if (fixed + kMinDefaultHeap > t.max_partition)
            throw Failure(path + ": image too large: the " + needs + ", more than the largest partition, " +
                          size_text(t.max_partition));
        partition = std::max(next_power_of_two(fixed + kMinDefaultHeap),
                             std::min(default_partition(req.npes), t.max_partition));
    }
    return std::max(partition, min_partition);
}

}  // namespace oshrun

// Partitioned memory, as the targets that give every PE a power-of-two partition of one memory have it (virt-rv64,
// TILE): the partition's size, and the argument and environment strings of a PE's boot block.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "request.hpp"
#include "target.hpp"

namespace oshrun {

// Without SHMEM_SYMMETRIC_SIZE (or --symmetric-size), a PE's partition is 64 MiB (a heap of almost that) while the
// run's partitions fit in 1 GiB, that is up to 16 PEs, then halves as the PE count doubles, down to 2 MiB (512
// PEs); it is never smaller than the image and its stack plus 1 MiB of heap. (QEMU maps guest RAM lazily: what a
// PE never touches costs the host nothing.)
constexpr uint64_t kDefaultPartition = 64ull << 20;
constexpr uint64_t kDefaultRamBudget = 1ull << 30;
constexpr uint64_t kMinDefaultHeap = 1ull << 20;
// The default partition for npes PEs (before the image's own needs).
uint64_t default_partition(unsigned npes);

// The smallest power of two >= v (1 for 0).
uint64_t next_power_of_two(uint64_t v);

// The partition size for an image that needs `fixed` bytes of a partition besides its symmetric heap (`needs` says
// what, for the messages): --partition-size if given (not 0, a power of two, at most t.max_partition, at least
// `fixed`), else the smallest power of two with room for the symmetric heap asked for (symmetric_size(req)), else
// the default (default_partition, at least kMinDefaultHeap of heap); never below min_partition. Throws Failure
// (status 2) naming the image (path) when it cannot fit.
uint64_t choose_partition(const Target& t, const std::string& path, const Request& req, uint64_t fixed,
                          const std::string& needs, uint64_t min_partition);

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

}  // namespace oshrun

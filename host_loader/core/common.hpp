// Shared helpers of the host loader: the error type every refusal uses and number formatting.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace oshrun {

constexpr uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

// A refusal or failure that ends oshrun: main prints "oshrun: <what()>" and exits with status.
struct Failure : std::runtime_error {
    int status;
    explicit Failure(const std::string& message, int exit_status = 2)
        : std::runtime_error(message), status(exit_status) {}
};

std::string hex(uint64_t value);
// "64 KiB", "3 MiB", "1 GiB" for exact multiples, otherwise "1234 bytes" or "1610621232 bytes (1.5 GiB)".
std::string size_text(uint64_t bytes);
uint64_t align_up(uint64_t value, uint64_t alignment);  // alignment is a power of two
bool is_power_of_two(uint64_t value);
// Bytes with an optional K/M/G/T suffix (powers of 1024, either case) and an optional fraction, as the OpenSHMEM
// spec defines SHMEM_SYMMETRIC_SIZE ("20m", "3.1M": the ceiling of the product). Nothing else is accepted.
bool parse_size(const std::string& text, uint64_t& bytes);

}  // namespace oshrun

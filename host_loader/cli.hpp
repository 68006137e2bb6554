// The command line: oshrun [options] -np N program.elf [program args...]
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace oshrun {

struct Cli {
    std::string target = "virt-rv64";
    unsigned npes = 1;
    std::optional<uint64_t> symmetric_size, partition_size;
    std::optional<double> timeout;
    bool icount = false, dry_run = false, verbose = false, help = false;
    std::string emulator;                 // --emulator / --qemu; empty: the target's emulator, found on PATH
    std::vector<std::string> extra_qemu_args;
    std::string backend;                  // Epiphany: parallella or esim; empty: the target's default
    std::string program;                  // as given
    std::vector<std::string> program_args;
};

// Throws Failure (status 2) on a usage error. The program is required unless --help is given.
Cli parse_cli(const std::vector<std::string>& args);  // args without argv[0]
std::string usage();

// Non-negative seconds, e.g. "30" or "1.5".
bool parse_seconds(const std::string& text, double& seconds);

// The symmetric heap size: the option, else $SHMEM_SYMMETRIC_SIZE (env_value, nullptr if unset), else 1 MiB.
uint64_t symmetric_size(const Cli& cli, const char* env_value);
// The time limit: the option, else $OSHRUN_TIMEOUT, else 0 (none).
double timeout_seconds(const Cli& cli, const char* env_value);

}  // namespace oshrun

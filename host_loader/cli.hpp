// The command line: oshrun [options] -np N program.elf [program args...]
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace oshrun {

// -x NAME=VALUE, or -x NAME (the value oshrun has).
struct EnvExport {
    std::string name;
    std::optional<std::string> value;
};

struct Cli {
    std::string target = "virt-rv64";
    bool target_given = false;            // --target was given (else a program of the host's machine runs on linux)
    unsigned npes = 1;
    std::optional<uint64_t> symmetric_size, partition_size;
    std::optional<double> timeout;
    bool icount = false, dry_run = false, verbose = false, help = false, version = false;
    bool tag_output = false;              // --tag-output
    std::string output_dir;               // --output-filename DIR
    std::vector<EnvExport> exports;       // -x, in order
    std::optional<unsigned> gdb_pe;       // --gdb PE
    std::optional<unsigned> gdb_port;     // --gdb-port N
    std::string emulator;                 // --emulator / --qemu; empty: the target's emulator, found on PATH
    std::vector<std::string> extra_qemu_args;
    std::string backend;                  // Epiphany: parallella or esim; empty: the target's default
    std::string boot_dir;                 // TILE: --boot-dir DIR, where the boot files go; empty: none
    std::string program;                  // as given
    std::vector<std::string> program_args;
};

// Throws Failure (status 2) on a usage error, an unknown option with the closest known names ("did you mean").
// The program is required unless --help or --version is given.
Cli parse_cli(const std::vector<std::string>& args);  // args without argv[0]
std::string usage();
// What --version prints: "oshrun (libshmem) <SHMEM_VERSION>" and the targets.
std::string version_text();

// The known options an unknown one is likely a misspelling of: those within edit distance 2 (insertions,
// deletions, substitutions, transpositions; at most a third of the name's length), the closest first, else the
// one whose name it begins (a unique prefix); empty when nothing is close.
std::vector<std::string> close_options(const std::string& unknown);

// The environment the PEs get, "NAME=VALUE" strings: every SHMEM_* variable of host_env (oshrun's environment,
// "NAME=VALUE" strings), then the -x variables, which win over them; sorted by name. Throws Failure (status 2)
// for -x NAME when NAME is not in host_env.
std::vector<std::string> program_environment(const Cli& cli, const std::vector<std::string>& host_env);
std::vector<std::string> host_environment();  // oshrun's own (environ)
// The value of NAME in a list of "NAME=VALUE" strings, or nullptr.
const char* env_value(const std::vector<std::string>& env, const std::string& name);

// SHMEM_DEBUG in oshrun's environment (value: nullptr if unset) asks for what -v prints, and the placement: set
// and neither empty nor "0".
bool debug_requested(const char* value);

// Non-negative seconds, e.g. "30" or "1.5".
bool parse_seconds(const std::string& text, double& seconds);

// The symmetric heap size asked for: the option, else $SHMEM_SYMMETRIC_SIZE (env_value, nullptr if unset), else
// nothing (the target's default: place_virt's RAM budget).
std::optional<uint64_t> symmetric_size(const Cli& cli, const char* env_value);
// The time limit: the option, else $OSHRUN_TIMEOUT, else 0 (none).
double timeout_seconds(const Cli& cli, const char* env_value);

}  // namespace oshrun

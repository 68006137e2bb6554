// One run of oshrun as asked for: oshrun [options] -np N program.elf [program args...], then what oshrun's
// environment adds. parse_cli reads the command line, complete_request the environment; after that the request is
// only read (by main's checks and by the backend that runs it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "console.hpp"

namespace oshrun {

// The options of the command line that some targets take and the others refuse (Backend::takes). Every target
// takes every option not listed here.
enum class Option {
    symmetric_size, partition_size, icount, extra_qemu_arg, gdb, mesh, emulator, boot_dir, tile_origin, nodes,
    node_prefix, launcher, hosts, hostfile
};
// Every Option, in the order check_request checks them.
constexpr Option kTargetOptions[] = {Option::symmetric_size, Option::partition_size, Option::icount,
                                     Option::extra_qemu_arg, Option::gdb,            Option::mesh,
                                     Option::emulator,       Option::boot_dir,       Option::tile_origin,
                                     Option::nodes,          Option::node_prefix,    Option::launcher,
                                     Option::hosts,          Option::hostfile};
// Its spelling on the command line: "--symmetric-size", ...; Option::mesh, an Epiphany target's mesh, is "--backend".
const char* option_name(Option o);

class Backend;

// -x NAME=VALUE, or -x NAME (the value oshrun has).
struct EnvExport {
    std::string name;
    std::optional<std::string> value;
};

struct Request {
    // The command line (parse_cli).
    std::optional<std::string> target;    // --target NAME; none: the registry's default_target decides
    unsigned npes = 1;                    // -np N
    std::optional<uint64_t> symmetric_size;  // --symmetric-size (symmetric_size() adds $SHMEM_SYMMETRIC_SIZE)
    std::optional<uint64_t> partition_size;  // --partition-size
    std::optional<double> timeout;        // --timeout; complete_request: else $OSHRUN_TIMEOUT, else 0; 0 or none:
                                          // no limit
    bool icount = false, dry_run = false, verbose = false, help = false, version = false;
    ConsoleOptions console;               // --tag-output, --output-filename DIR
    std::vector<EnvExport> exports;       // -x, in order
    std::optional<unsigned> gdb_pe;       // --gdb PE
    std::optional<unsigned> gdb_port;     // --gdb-port N
    std::string emulator;                 // --emulator / --qemu PATH; "" = the target's own, from PATH
    std::vector<std::string> extra_qemu_args;  // --extra-qemu-arg, in order
    std::string mesh;                     // --backend NAME: the mesh of an Epiphany target; "" = its default
    std::string boot_dir;                 // --boot-dir DIR, where a TILE target's boot files go; "" = nowhere
    std::optional<std::pair<unsigned, unsigned>> tile_origin;  // --tile-origin X,Y: a TILE chip's top-left tile's
                                                               // coordinates; none: the target's
    std::optional<unsigned> nodes;        // --nodes K: the PEs split into K emulated nodes (1 <= K <= npes)
    std::vector<std::string> node_prefix;  // --node-prefix "CMD ARG...": words each emulated node's PEs run under
                                           // ({node} in a word: the node's number); needs --nodes
    std::string launcher;                 // --launcher NAME: "mpirun" or "srun" starts the PEs; "" = not given
    std::vector<std::string> hosts;       // --hosts a,b,...: the hosts' names, in order (a name may be a:N)
    std::string hostfile;                 // --hostfile FILE; "" = not given
    std::string program;                  // as given
    std::vector<std::string> program_args;
    // What complete_request adds.
    std::vector<std::string> argv;        // the PEs' argv: program, then program_args
    std::vector<std::string> env;         // the PEs' environment, "NAME=VALUE" strings (program_environment)
    bool debug = false;                   // $SHMEM_DEBUG: what -v prints and the plan, on stderr (verbose is set too)

    // Whether the command line gives option o.
    bool gives(Option o) const;
};

// The command line (args without argv[0]). Throws Failure (status 2) on a usage error, an unknown option with the
// closest known names ("did you mean"). The program is required unless --help or --version is given.
Request parse_cli(const std::vector<std::string>& args);

// Adds to req what oshrun's environment (host_env, "NAME=VALUE" strings) says: argv; env (program_environment);
// the time limit ($OSHRUN_TIMEOUT); debug ($SHMEM_DEBUG). Throws Failure (status 2) on a malformed value or a -x
// NAME that host_env does not have.
void complete_request(Request& req, const std::vector<std::string>& host_env);

// The known options an unknown one is likely a misspelling of: those within edit distance 2 (insertions,
// deletions, substitutions, transpositions; at most a third of the name's length), the closest first, else the
// one whose name it begins (a unique prefix); empty when nothing is close.
std::vector<std::string> close_options(const std::string& unknown);

// The environment the PEs get, "NAME=VALUE" strings: every SHMEM_* variable of host_env (oshrun's environment,
// "NAME=VALUE" strings), then the -x variables, which win over them; sorted by name. Throws Failure (status 2)
// for -x NAME when NAME is not in host_env.
std::vector<std::string> program_environment(const Request& req, const std::vector<std::string>& host_env);
std::vector<std::string> host_environment();  // oshrun's own (environ)
// The value of NAME in a list of "NAME=VALUE" strings, or nullptr.
const char* env_value(const std::vector<std::string>& env, const std::string& name);

// SHMEM_DEBUG in oshrun's environment (value: nullptr if unset) asks for what -v prints, and the placement: set
// and neither empty nor "0".
bool debug_requested(const char* value);

// What --help prints: the targets (name, PEs, summary), the options every target takes, then each backend's
// help(). default_target: what it says is the target when --target is not given.
std::string usage(const std::vector<const Backend*>& backends, const std::string& default_target);
// What --version prints: "oshrun (libshmem) <SHMEM_VERSION>" and the targets' names.
std::string version_text(const std::vector<const Backend*>& backends);

// Non-negative seconds, e.g. "30" or "1.5".
bool parse_seconds(const std::string& text, double& seconds);

// The symmetric heap size asked for: --symmetric-size, else SHMEM_SYMMETRIC_SIZE of the PEs' environment
// (req.env: -x may set it), else nothing (the target's default). Throws Failure (status 2) if that value is not a
// size. Read by the backends whose targets take --symmetric-size; the others ignore the variable.
std::optional<uint64_t> symmetric_size(const Request& req);
// The time limit: --timeout, else env_value ($OSHRUN_TIMEOUT, nullptr if unset), else 0 (none).
double timeout_seconds(const Request& req, const char* env_value);

}  // namespace oshrun

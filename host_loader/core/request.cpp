#include "request.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "backend.hpp"
#include "common.hpp"

extern char** environ;  // POSIX: oshrun's environment

namespace oshrun {

#ifndef SHMEM_VERSION
#define SHMEM_VERSION "unknown"  // host_loader/CMakeLists.txt defines it (cache variable SHMEM_VERSION)
#endif

const char* option_name(Option o) {
    switch (o) {
    case Option::symmetric_size: return "--symmetric-size";
    case Option::partition_size: return "--partition-size";
    case Option::icount: return "--icount";
    case Option::extra_qemu_arg: return "--extra-qemu-arg";
    case Option::gdb: return "--gdb";
    case Option::mesh: return "--backend";
    case Option::emulator: return "--emulator";
    case Option::boot_dir: return "--boot-dir";
    case Option::tile_origin: return "--tile-origin";
    case Option::nodes: return "--nodes";
    case Option::node_prefix: return "--node-prefix";
    case Option::launcher: return "--launcher";
    case Option::hosts: return "--hosts";
    case Option::hostfile: return "--hostfile";
    }
    return "?";
}

bool Request::gives(Option o) const {
    switch (o) {
    case Option::symmetric_size: return symmetric_size.has_value();
    case Option::partition_size: return partition_size.has_value();
    case Option::icount: return icount;
    case Option::extra_qemu_arg: return !extra_qemu_args.empty();
    case Option::gdb: return gdb_pe.has_value();
    case Option::mesh: return !mesh.empty();
    case Option::emulator: return !emulator.empty();
    case Option::boot_dir: return !boot_dir.empty();
    case Option::tile_origin: return tile_origin.has_value();
    case Option::nodes: return nodes.has_value();
    case Option::node_prefix: return !node_prefix.empty();
    case Option::launcher: return !launcher.empty();
    case Option::hosts: return !hosts.empty();
    case Option::hostfile: return !hostfile.empty();
    }
    return false;
}

std::string version_text(const std::vector<const Backend*>& backends) {
    return std::string("oshrun (libshmem) ") + SHMEM_VERSION + "\ntargets: " + target_names(backends) + "\n";
}

std::string usage(const std::vector<const Backend*>& backends, const std::string& default_target) {
    std::string targets;
    for (const Backend* b : backends)
        for (const Target& t : b->targets()) {
            char line[256];
            const std::string pes = "1.." + std::to_string(t.max_pes) + " PEs";
            std::snprintf(line, sizeof line, "  %-13s %-11s %s\n", t.name, pes.c_str(), t.summary);
            targets += line;
        }
    std::string sections;
    for (const Backend* b : backends) sections += b->help();
    return "usage: oshrun [options] -np N program.elf [program arguments...]\n"
           "\n"
           "Runs a libshmem program image on N PEs, one copy per PE, of one of these targets:\n" +
           targets +
           "Every target takes the options below. A target's section further down lists the options it takes\n"
           "besides; it refuses the others, with a message that names the targets that take them.\n"
           "\n"
           "  -np N, -n N, --np N, --npes N\n"
           "                         number of PEs (default 1; at most the target's limit, above)\n"
           "  --target NAME          machine to run on, one of the targets above\n"
           "                         (default: " + default_target + ")\n"
           "  --timeout SECONDS      stop the run after this long and exit 124\n"
           "                         (default: $OSHRUN_TIMEOUT, else 0 = no limit)\n"
           "  -x NAME=VALUE, -x NAME\n"
           "                         set NAME in every PE's environment (-x NAME: to the value it has here; an\n"
           "                         error if it has none); repeatable. Every SHMEM_* variable of oshrun's\n"
           "                         environment is passed on as well; -x wins over it.\n"
           "  --tag-output           prefix every line of the PEs, stdout and stderr, with \"[PE n] \"\n"
           "  --output-filename DIR  write PE n's lines, stdout and stderr in the order they came, to DIR/pe.<n>\n"
           "                         (DIR is created if needed) and nothing of the PEs to the terminal\n"
           "  --dry-run              print the placement (and the emulator command); run nothing\n"
           "  -v, --verbose          print the emulator command, or the placement, before running\n"
           "  --version              print oshrun's version and the targets it knows\n"
           "  -h, --help             print this help\n"
           "\n" +
           sections +
           "Arguments after the program belong to the program. The PEs' output is relayed line by line: a PE's\n"
           "stdout to oshrun's stdout, its stderr to oshrun's stderr, and lines of different PEs never interleave,\n"
           "whatever their length. SHMEM_DEBUG set in the environment (not empty, not 0) prints what -v prints and\n"
           "the placement, on stderr.\n"
           "\n"
           "Exit status:\n"
           "  0        every PE finished normally\n"
           "  1..255   the program's own status (exit, return from main, shmem_global_exit), and:\n"
           "  134      the library reported a misuse, an assert failed, or a PE called abort()\n"
           "  139      a PE trapped (illegal instruction, access fault, ...; the message says where)\n"
           "  124      timeout (--timeout, $OSHRUN_TIMEOUT): oshrun stopped the run (under a launcher, mpirun\n"
           "           stops it with 110)\n"
           "  125      the emulator failed (a bad option, could not start, crashed) before the program ended,\n"
           "           or nothing here can start the target's cores (the run was planned)\n"
           "  127      the emulator, simulator, device or launcher (mpirun, srun) is missing, or the image was not\n"
           "           started by oshrun\n"
           "  2        oshrun refused its command line or the image\n"
           "  128+n    oshrun was interrupted by signal n and stopped the run\n";
}

bool parse_seconds(const std::string& text, double& seconds) {
    if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return false;
    char* end = nullptr;
    seconds = std::strtod(text.c_str(), &end);
    return *end == '\0' && std::isfinite(seconds) && seconds >= 0;
}

namespace {

// Every option name parse_cli knows, for "did you mean".
const char* const kOptions[] = {"-np", "-n", "--np", "--npes", "--target", "--symmetric-size", "--partition-size",
                                "--timeout", "--emulator", "--qemu", "--backend", "--extra-qemu-arg", "--icount",
                                "--dry-run", "-v", "--verbose", "-h", "--help", "--version", "-x", "--tag-output",
                                "--output-filename", "--gdb", "--gdb-port", "--boot-dir",
                                "--tile-origin", "--nodes", "--node-prefix", "--launcher", "--hosts", "--hostfile"};

// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of neighbours.
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

std::string without_dashes(const std::string& s) { return s.substr(std::min(s.find_first_not_of('-'), s.size())); }

unsigned parse_number(const std::string& opt, const std::string& v, unsigned long max, const std::string& what) {
    char* end = nullptr;
    const unsigned long n = std::strtoul(v.c_str(), &end, 10);
    if (v.empty() || v[0] < '0' || v[0] > '9' || *end || n > max)
        throw Failure(opt + " " + v + ": not " + what + "\n(oshrun --help shows the usage)");
    return unsigned(n);
}

}  // namespace

std::vector<std::string> close_options(const std::string& unknown) {
    std::vector<std::string> closest;
    size_t best = 3;  // within distance 2
    for (const char* name : kOptions) {
        const size_t d = edit_distance(unknown, name);
        if (d > best || 3 * d > std::strlen(name)) continue;  // "-y" is not a misspelling of "-x"
        if (d < best) closest.clear(), best = d;
        closest.push_back(name);
    }
    if (!closest.empty()) return closest;
    const std::string stem = without_dashes(unknown);  // "--tag", "-tag" begin "--tag-output"
    if (stem.size() < 2) return {};
    for (const char* name : kOptions)
        if (without_dashes(name).rfind(stem, 0) == 0) closest.push_back(name);
    if (closest.size() != 1) closest.clear();
    return closest;
}

Request parse_cli(const std::vector<std::string>& args) {
    Request req;
    const auto usage_error = [](const std::string& msg) { return Failure(msg + "\n(oshrun --help shows the usage)"); };
    size_t i = 0;
    for (; i < args.size(); ++i) {
        std::string opt = args[i];
        if (opt == "--") {
            ++i;
            break;
        }
        if (opt.size() < 2 || opt[0] != '-') break;  // the program
        std::optional<std::string> inline_value;     // --name=value
        if (opt.rfind("--", 0) == 0 && opt.find('=') != std::string::npos) {
            inline_value = opt.substr(opt.find('=') + 1);
            opt.erase(opt.find('='));
        }
        const auto value = [&]() -> std::string {
            if (inline_value) return *inline_value;
            if (i + 1 >= args.size()) throw usage_error(opt + " needs a value");
            return args[++i];
        };
        const auto size_value = [&]() {
            const std::string v = value();
            uint64_t bytes;
            if (!parse_size(v, bytes)) throw usage_error(opt + " " + v + ": not a size (bytes, or with a K, M or G suffix)");
            return bytes;
        };
        const auto flag = [&]() {  // an option without a value
            if (inline_value) throw usage_error("unknown option " + args[i] + ": " + opt + " takes no value");
            return true;
        };
        if (opt == "-np" || opt == "-n" || opt == "--np" || opt == "--npes") {
            const std::string v = value();
            req.npes = parse_number(opt, v, 1000000, "a number of PEs");
        } else if (opt == "--target") {
            req.target = value();
        } else if (opt == "--symmetric-size") {
            req.symmetric_size = size_value();
        } else if (opt == "--partition-size") {
            req.partition_size = size_value();
        } else if (opt == "--timeout") {
            const std::string v = value();
            double s;
            if (!parse_seconds(v, s)) throw usage_error("--timeout " + v + ": not a number of seconds");
            req.timeout = s;
        } else if (opt == "--emulator" || opt == "--qemu") {
            req.emulator = value();
        } else if (opt == "--backend") {
            req.mesh = value();
        } else if (opt == "--extra-qemu-arg") {
            req.extra_qemu_args.push_back(value());
        } else if (opt == "-x") {
            const std::string v = value();
            const size_t eq = v.find('=');
            EnvExport e{v.substr(0, eq), std::nullopt};
            if (eq != std::string::npos) e.value = v.substr(eq + 1);
            if (e.name.empty()) throw usage_error("-x " + v + ": expected NAME=VALUE or NAME");
            req.exports.push_back(e);
        } else if (opt == "--tag-output" && flag()) {
            req.console.tag_output = true;
        } else if (opt == "--output-filename") {
            req.console.output_dir = value();
            if (req.console.output_dir.empty()) throw usage_error("--output-filename needs a directory");
        } else if (opt == "--boot-dir") {
            req.boot_dir = value();
            if (req.boot_dir.empty()) throw usage_error("--boot-dir needs a directory");
        } else if (opt == "--tile-origin") {
            const std::string v = value();
            const size_t comma = v.find(',');
            if (comma == std::string::npos) throw usage_error("--tile-origin " + v + ": expected X,Y");
            req.tile_origin = std::make_pair(parse_number(opt, v.substr(0, comma), 2047, "a tile coordinate (0..2047)"),
                                             parse_number(opt, v.substr(comma + 1), 2047, "a tile coordinate (0..2047)"));
        } else if (opt == "--nodes") {
            const std::string v = value();
            req.nodes = parse_number(opt, v, 1000000, "a number of nodes (1 to the number of PEs)");
        } else if (opt == "--node-prefix") {
            const std::string v = value();
            req.node_prefix.clear();
            for (size_t start = v.find_first_not_of(" \t"); start != std::string::npos;) {
                const size_t end = v.find_first_of(" \t", start);
                req.node_prefix.push_back(v.substr(start, end == std::string::npos ? std::string::npos : end - start));
                start = end == std::string::npos ? end : v.find_first_not_of(" \t", end);
            }
            if (req.node_prefix.empty()) throw usage_error("--node-prefix needs a command (words separated by spaces)");
        } else if (opt == "--launcher") {
            req.launcher = value();
            if (req.launcher != "mpirun" && req.launcher != "srun")
                throw usage_error("--launcher " + req.launcher + ": not a launcher oshrun knows; expected mpirun or srun");
        } else if (opt == "--hosts") {
            const std::string v = value();
            req.hosts.clear();
            for (size_t start = 0;;) {
                const size_t comma = v.find(',', start);
                const std::string host = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                if (host.empty() || host.find_first_of(" \t\n") != std::string::npos)
                    throw usage_error("--hosts " + v + ": expected host names separated by commas (a,b,...)");
                req.hosts.push_back(host);
                if (comma == std::string::npos) break;
                start = comma + 1;
            }
        } else if (opt == "--hostfile") {
            req.hostfile = value();
            if (req.hostfile.empty()) throw usage_error("--hostfile needs a file");
        } else if (opt == "--gdb") {
            const std::string v = value();
            req.gdb_pe = parse_number(opt, v, 1000000, "a PE number");
        } else if (opt == "--gdb-port") {
            const std::string v = value();
            req.gdb_port = parse_number(opt, v, 65535, "a TCP port (1..65535)");
            if (*req.gdb_port == 0) throw usage_error("--gdb-port 0: not a TCP port (1..65535)");
        } else if (opt == "--icount" && flag()) {
            req.icount = true;
        } else if (opt == "--dry-run" && flag()) {
            req.dry_run = true;
        } else if ((opt == "-v" || opt == "--verbose") && flag()) {
            req.verbose = true;
        } else if ((opt == "-h" || opt == "--help") && flag()) {
            req.help = true;
        } else if (opt == "--version" && flag()) {
            req.version = true;
        } else {
            std::string msg = "unknown option " + args[i];
            const std::vector<std::string> close = close_options(opt);
            for (size_t k = 0; k < close.size(); ++k)
                msg += (k == 0 ? "; did you mean " : k + 1 == close.size() ? " or " : ", ") + close[k];
            if (!close.empty()) msg += "?";
            throw usage_error(msg);
        }
    }
    if (i < args.size()) {
        req.program = args[i];
        req.program_args.assign(args.begin() + long(i) + 1, args.end());
    } else if (!req.help && !req.version) {
        throw usage_error("no program given");
    }
    if (req.gdb_pe && *req.gdb_pe >= req.npes)
        throw usage_error("--gdb " + std::to_string(*req.gdb_pe) + ": not a PE of this run; expected 0 <= PE < " +
                          std::to_string(req.npes) + " (-np " + std::to_string(req.npes) + ")");
    if (req.gdb_port && !req.gdb_pe) throw usage_error("--gdb-port needs --gdb PE");
    if (req.nodes && (*req.nodes < 1 || *req.nodes > req.npes))
        throw usage_error("--nodes " + std::to_string(*req.nodes) + ": expected a number of nodes from 1 to " +
                          std::to_string(req.npes) + " (-np " + std::to_string(req.npes) +
                          ": every node has a PE at least)");
    if (!req.node_prefix.empty() && !req.nodes)
        throw usage_error("--node-prefix needs --nodes K: it is what each emulated node's PEs run under");
    if (!req.node_prefix.empty() && (!req.launcher.empty() || !req.hosts.empty() || !req.hostfile.empty()))
        throw usage_error("--node-prefix: oshrun starts no PE when a launcher does (--launcher, --hosts, --hostfile)");
    if (!req.hosts.empty() && !req.hostfile.empty())
        throw usage_error("--hosts and --hostfile: give the hosts one way, not both");
    return req;
}

const char* env_value(const std::vector<std::string>& env, const std::string& name) {
    for (const std::string& e : env)
        if (e.size() > name.size() && e[name.size()] == '=' && e.compare(0, name.size(), name) == 0)
            return e.c_str() + name.size() + 1;
    return nullptr;
}

std::vector<std::string> program_environment(const Request& req, const std::vector<std::string>& host_env) {
    std::map<std::string, std::string> vars;
    for (const std::string& e : host_env) {
        const size_t eq = e.find('=');
        if (e.rfind("SHMEM_", 0) == 0 && eq != std::string::npos) vars.emplace(e.substr(0, eq), e.substr(eq + 1));
    }
    for (const EnvExport& x : req.exports) {
        if (x.value) {
            vars[x.name] = *x.value;
            continue;
        }
        const char* v = env_value(host_env, x.name);
        if (!v) throw Failure("-x " + x.name + ": " + x.name + " is not set in oshrun's environment; give its value " +
                              "with -x " + x.name + "=VALUE");
        vars[x.name] = v;
    }
    std::vector<std::string> env;
    for (const auto& [name, v] : vars) env.push_back(name + "=" + v);
    return env;
}

std::vector<std::string> host_environment() {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) env.emplace_back(*e);
    return env;
}

bool debug_requested(const char* value) { return value && *value && std::strcmp(value, "0") != 0; }

std::optional<uint64_t> symmetric_size(const Request& req) {
    if (req.symmetric_size) return *req.symmetric_size;
    const char* value = env_value(req.env, "SHMEM_SYMMETRIC_SIZE");
    if (!value) return std::nullopt;
    uint64_t bytes;
    if (!parse_size(value, bytes))
        throw Failure(std::string("SHMEM_SYMMETRIC_SIZE=") + value +
                      ": not a size (bytes, or with a K, M or G suffix, e.g. 64M)");
    return bytes;
}

double timeout_seconds(const Request& req, const char* env_value) {
    if (req.timeout) return *req.timeout;
    if (!env_value || !*env_value) return 0;
    double s;
    if (!parse_seconds(env_value, s)) throw Failure(std::string("OSHRUN_TIMEOUT=") + env_value + ": not a number of seconds");
    return s;
}

void complete_request(Request& req, const std::vector<std::string>& host_env) {
    req.argv = {req.program};
    req.argv.insert(req.argv.end(), req.program_args.begin(), req.program_args.end());
    req.env = program_environment(req, host_env);
    req.timeout = timeout_seconds(req, env_value(host_env, "OSHRUN_TIMEOUT"));
    req.debug = debug_requested(env_value(host_env, "SHMEM_DEBUG"));
    req.verbose = req.verbose || req.debug;
}

}  // namespace oshrun

#include "cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

#include "common.hpp"
#include "target.hpp"

extern char** environ;  // POSIX: oshrun's environment

namespace oshrun {

#ifndef SHMEM_VERSION
#define SHMEM_VERSION "unknown"  // host_loader/CMakeLists.txt defines it (cache variable SHMEM_VERSION)
#endif

std::string version_text() {
    return std::string("oshrun (libshmem) ") + SHMEM_VERSION + "\ntargets: " + target_names() + "\n";
}

std::string usage() {
    return "usage: oshrun [options] -np N program.elf [program arguments...]\n"
           "\n"
           "Runs a libshmem program image on N PEs, one copy per PE: on an emulated machine (virt-rv64, QEMU), on\n"
           "the cores of an Epiphany chip (a Parallella's, or the Epiphany simulator's), or as processes of this\n"
           "host (linux; --symmetric-size, -x and --gdb PE apply there too). For a TILE chip (tilegx, tilepro) it\n"
           "plans the run and writes the files a board's boot loader needs: nothing here can start TILE tiles.\n"
           "\n"
           "  -np N, -n N, --np N, --npes N\n"
           "                         number of PEs (default 1; virt-rv64 has 1..512, epiphany-e16 1..16,\n"
           "                         epiphany-e64 1..64, tilegx 1..36, tilepro 1..64, linux 1..512)\n"
           "  --target NAME          machine to run on (default: linux for a program of this host's machine, else\n"
           "                         virt-rv64; known: " + target_names() + ")\n"
           "  --timeout SECONDS      stop the run after this long and exit 124\n"
           "                         (default: $OSHRUN_TIMEOUT, else 0 = no limit)\n"
           "  -x NAME=VALUE, -x NAME\n"
           "                         set NAME in every PE's environment (-x NAME: to the value it has here; an\n"
           "                         error if it has none); repeatable. Every SHMEM_* variable of oshrun's\n"
           "                         environment is passed on as well; -x wins over it. (Epiphany PEs have no\n"
           "                         environment: there, -x is ignored with a warning.)\n"
           "  --tag-output           prefix every line of the PEs, stdout and stderr, with \"[PE n] \"\n"
           "  --output-filename DIR  write PE n's lines, stdout and stderr in the order they came, to DIR/pe.<n>\n"
           "                         (DIR is created if needed) and nothing of the PEs to the terminal\n"
           "  --emulator PATH        emulator binary (virt-rv64: qemu-system-riscv64 from PATH; Epiphany with\n"
           "                         --backend esim: epiphany-elf-run from PATH); --qemu PATH is the same\n"
           "  --dry-run              print the placement (and the emulator command); run nothing\n"
           "  -v, --verbose          print the emulator command, or the placement, before running\n"
           "  --version              print oshrun's version and the targets it knows\n"
           "  -h, --help             print this help\n"
           "\n"
           "virt-rv64 only (--symmetric-size and --partition-size: the TILE targets too):\n"
           "  --symmetric-size SIZE  symmetric heap per PE: bytes, or with a K, M, G suffix\n"
           "                         (default: $SHMEM_SYMMETRIC_SIZE, else about 64M per PE up to 16 PEs,\n"
           "                         then less, within 1 GiB of RAM for the run)\n"
           "  --partition-size SIZE  force the memory per PE (a power of two) instead of computing it\n"
           "  --icount               deterministic instruction counting (-icount shift=0,sleep=off)\n"
           "  --extra-qemu-arg ARG   pass ARG on to the emulator; repeatable\n"
           "  --gdb PE               debug PE with gdb: QEMU starts stopped with its gdb server on 127.0.0.1 (a\n"
           "                         free port) and oshrun prints the gdb-multiarch command that attaches to that\n"
           "                         PE's hart with the program's symbols at its copy's address; the run starts\n"
           "                         when gdb continues; no time limit\n"
           "  --gdb-port N           the TCP port of --gdb's server (default: a free one)\n"
           "\n"
           "Epiphany (epiphany-e16, epiphany-e64) only:\n"
           "  --backend NAME         parallella: the board's chip through /dev/epiphany/mesh0;\n"
           "                         sim: oshrun's own Epiphany simulator (OSHRUN_SIM_SEED, _TRACE, _TRACE_PES,\n"
           "                         _START_GAP, _STATS: docs/epiphany-sim.md);\n"
           "                         esim: Adapteva's simulator, one epiphany-elf-run per core\n"
           "                         (default: $OSHRUN_EPIPHANY_BACKEND, else parallella where\n"
           "                         /dev/epiphany/mesh0 exists, else sim)\n"
           "  An Epiphany image lives in each core's 32 KB (its symmetric heap is what the image and its stack\n"
           "  leave of them); PEs fill a workgroup of min(N, chip columns) columns row by row from core 0x808.\n"
           "\n"
           "TILE (tilegx: TILE-Gx36, 6x6 tiles; tilepro: TILEPro64, 8x8 tiles) only:\n"
           "  --boot-dir DIR         write into DIR (created if needed) what a board's boot loader needs:\n"
           "                         DIR/pe<k>.boot (PE k's boot block), DIR/pe<k>.image (its copy of the image,\n"
           "                         .bss included, relocated for its partition) and DIR/plan.txt (the placement,\n"
           "                         the physical address each file goes to, the tile each PE starts on); with\n"
           "                         --dry-run too\n"
           "  No TILE board or emulator exists for oshrun (docs/tile.md): --dry-run prints the placement and exits\n"
           "  0; without it oshrun stops with 125 once --boot-dir's files are written. PEs fill a rectangle of\n"
           "  min(N, chip columns) columns row by row from tile (0, 0); -x and SHMEM_* go into their boot blocks.\n"
           "\n"
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
           "  124      timeout (--timeout, $OSHRUN_TIMEOUT): oshrun stopped the run\n"
           "  125      the emulator failed (a bad option, could not start, crashed) before the program ended;\n"
           "           TILE: the run was planned (and --boot-dir written), but nothing here can start the tiles\n"
           "  127      the emulator, simulator or device is missing, or the image was not started by oshrun\n"
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
                                "--output-filename", "--gdb", "--gdb-port", "--boot-dir"};

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

Cli parse_cli(const std::vector<std::string>& args) {
    Cli cli;
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
            cli.npes = parse_number(opt, v, 1000000, "a number of PEs");
        } else if (opt == "--target") {
            cli.target = value();
            cli.target_given = true;
        } else if (opt == "--symmetric-size") {
            cli.symmetric_size = size_value();
        } else if (opt == "--partition-size") {
            cli.partition_size = size_value();
        } else if (opt == "--timeout") {
            const std::string v = value();
            double s;
            if (!parse_seconds(v, s)) throw usage_error("--timeout " + v + ": not a number of seconds");
            cli.timeout = s;
        } else if (opt == "--emulator" || opt == "--qemu") {
            cli.emulator = value();
        } else if (opt == "--backend") {
            cli.backend = value();
        } else if (opt == "--extra-qemu-arg") {
            cli.extra_qemu_args.push_back(value());
        } else if (opt == "-x") {
            const std::string v = value();
            const size_t eq = v.find('=');
            EnvExport e{v.substr(0, eq), std::nullopt};
            if (eq != std::string::npos) e.value = v.substr(eq + 1);
            if (e.name.empty()) throw usage_error("-x " + v + ": expected NAME=VALUE or NAME");
            cli.exports.push_back(e);
        } else if (opt == "--tag-output" && flag()) {
            cli.tag_output = true;
        } else if (opt == "--output-filename") {
            cli.output_dir = value();
            if (cli.output_dir.empty()) throw usage_error("--output-filename needs a directory");
        } else if (opt == "--boot-dir") {
            cli.boot_dir = value();
            if (cli.boot_dir.empty()) throw usage_error("--boot-dir needs a directory");
        } else if (opt == "--gdb") {
            const std::string v = value();
            cli.gdb_pe = parse_number(opt, v, 1000000, "a PE number");
        } else if (opt == "--gdb-port") {
            const std::string v = value();
            cli.gdb_port = parse_number(opt, v, 65535, "a TCP port (1..65535)");
            if (*cli.gdb_port == 0) throw usage_error("--gdb-port 0: not a TCP port (1..65535)");
        } else if (opt == "--icount" && flag()) {
            cli.icount = true;
        } else if (opt == "--dry-run" && flag()) {
            cli.dry_run = true;
        } else if ((opt == "-v" || opt == "--verbose") && flag()) {
            cli.verbose = true;
        } else if ((opt == "-h" || opt == "--help") && flag()) {
            cli.help = true;
        } else if (opt == "--version" && flag()) {
            cli.version = true;
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
        cli.program = args[i];
        cli.program_args.assign(args.begin() + long(i) + 1, args.end());
    } else if (!cli.help && !cli.version) {
        throw usage_error("no program given");
    }
    if (cli.gdb_pe && *cli.gdb_pe >= cli.npes)
        throw usage_error("--gdb " + std::to_string(*cli.gdb_pe) + ": not a PE of this run; expected 0 <= PE < " +
                          std::to_string(cli.npes) + " (-np " + std::to_string(cli.npes) + ")");
    if (cli.gdb_port && !cli.gdb_pe) throw usage_error("--gdb-port needs --gdb PE");
    return cli;
}

const char* env_value(const std::vector<std::string>& env, const std::string& name) {
    for (const std::string& e : env)
        if (e.size() > name.size() && e[name.size()] == '=' && e.compare(0, name.size(), name) == 0)
            return e.c_str() + name.size() + 1;
    return nullptr;
}

std::vector<std::string> program_environment(const Cli& cli, const std::vector<std::string>& host_env) {
    std::map<std::string, std::string> vars;
    for (const std::string& e : host_env) {
        const size_t eq = e.find('=');
        if (e.rfind("SHMEM_", 0) == 0 && eq != std::string::npos) vars.emplace(e.substr(0, eq), e.substr(eq + 1));
    }
    for (const EnvExport& x : cli.exports) {
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

std::optional<uint64_t> symmetric_size(const Cli& cli, const char* env_value) {
    if (cli.symmetric_size) return *cli.symmetric_size;
    if (!env_value) return std::nullopt;
    uint64_t bytes;
    if (!parse_size(env_value, bytes))
        throw Failure(std::string("SHMEM_SYMMETRIC_SIZE=") + env_value +
                      ": not a size (bytes, or with a K, M or G suffix, e.g. 64M)");
    return bytes;
}

double timeout_seconds(const Cli& cli, const char* env_value) {
    if (cli.timeout) return *cli.timeout;
    if (!env_value || !*env_value) return 0;
    double s;
    if (!parse_seconds(env_value, s)) throw Failure(std::string("OSHRUN_TIMEOUT=") + env_value + ": not a number of seconds");
    return s;
}

}  // namespace oshrun

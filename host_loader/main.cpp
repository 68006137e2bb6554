// oshrun: run a libshmem program image on N PEs of an emulated machine or of an Epiphany chip.
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "common.hpp"
#include "console.hpp"
#include "run.hpp"
#include "linux.hpp"
#include "target.hpp"
#include "tile.hpp"

using namespace oshrun;

namespace {

void print_placement(FILE* to, const Target& t, const Image& img, const Layout& lay) {
    std::fprintf(to, "target %s: %u PEs, partition %s (log2 %u), RAM %s at %s\n", t.name, lay.npes,
                 size_text(lay.partition_size).c_str(), lay.log2_partition, size_text(lay.ram_size).c_str(),
                 hex(lay.ram_base).c_str());
    std::fprintf(to, "image %s: %s loaded, %s in memory, stack %s%s, room for symmetric heap %s\n", img.path.c_str(),
                 size_text(img.flat.size()).c_str(), size_text(img.memory_size()).c_str(),
                 size_text(img.stack_size).c_str(), img.stack_size_from_symbol ? "" : " (default)",
                 size_text(lay.heap_room).c_str());
    for (const PeSlot& pe : lay.pes)
        std::fprintf(to, "pe %u: partition %s boot-block %s image %s bytes %zu\n", pe.pe, hex(pe.base).c_str(),
                     hex(pe.boot_block).c_str(), hex(pe.image).c_str(), img.flat.size());
    if (lay.shared != 0)
        std::fprintf(to, "shared code: %s (every PE runs the image at %s), page tables at %s, %zu bytes\n",
                     hex(lay.shared).c_str(), hex(run_address(lay, 0)).c_str(), hex(lay.tables).c_str(),
                     lay.table_bytes.size());
    std::fprintf(to, "device tree: within [%s, %s)\n", hex(lay.fdt_low).c_str(), hex(lay.fdt_high).c_str());
}

// The options that only an emulator-process target (virt-rv64) understands, refused elsewhere rather than ignored.
// (The TILE targets size their partitions as virt-rv64 does: --symmetric-size and --partition-size are theirs too.)
void refuse_emulator_options(const Cli& cli, const Target& t) {
    const auto refuse = [&](const char* option) {
        throw Failure(std::string(option) + " is an option of virt-rv64 (QEMU); " + t.name + " does not take it");
    };
    if (cli.symmetric_size && !is_tile_target(t)) refuse("--symmetric-size");
    if (cli.partition_size && !is_tile_target(t)) refuse("--partition-size");
    if (cli.icount) refuse("--icount");
    if (!cli.extra_qemu_args.empty()) refuse("--extra-qemu-arg");
    if (cli.gdb_pe) refuse("--gdb");
}

// What --gdb prints before QEMU starts: how to attach gdb to the PE's hart, with the symbols where its copy is.
void print_gdb_help(const Cli& cli, const Layout& lay, unsigned port) {
    const unsigned pe = *cli.gdb_pe;
    const std::string address = hex(run_address(lay, pe));
    std::error_code ec;
    std::string program = std::filesystem::absolute(cli.program, ec).lexically_normal().string();
    if (ec) program = cli.program;
    const std::string remote = "127.0.0.1:" + std::to_string(port);
    const std::string command = shell_join({"gdb-multiarch", "-q", "-ex", "target remote " + remote, "-ex",
                                            "symbol-file -o " + address + " " + program, "-ex",
                                            "thread " + std::to_string(pe + 1)});
    std::fprintf(stderr,
                 "oshrun: --gdb %u: QEMU waits for gdb on %s; to debug PE %u (its image at %s), run:\n"
                 "  %s\n"
                 "oshrun: QEMU shows each hart as a thread (hart k = thread k+1; PE k runs on hart k); the run starts "
                 "when gdb continues, with no time limit.\n",
                 pe, remote.c_str(), pe, address.c_str(), command.c_str());
    std::fflush(stderr);
}

std::string describe_status(const RunResult& r) {
    if (r.term_signal)
        return "killed by signal " + std::to_string(r.term_signal) + " (" + strsignal(r.term_signal) + ")";
    return "exit status " + std::to_string(r.exit_status);
}

int run(const std::vector<std::string>& args) {
    const Cli cli = parse_cli(args);
    if (cli.help) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    if (cli.version) {
        std::fputs(version_text().c_str(), stdout);
        return 0;
    }
    // Without --target, a program of this host's machine is a linux program: the default follows the image.
    const Target* target = find_target(cli.target_given ? cli.target : default_target(cli.program, cli.target));
    if (!target) throw Failure("unknown target '" + cli.target + "'; valid targets: " + target_names());
    if (cli.npes < 1 || cli.npes > target->max_pes)
        throw Failure("-np " + std::to_string(cli.npes) + ": " + target->name + " runs 1 to " +
                      std::to_string(target->max_pes) + " PEs");
    if (!cli.boot_dir.empty() && !is_tile_target(*target))
        throw Failure(std::string("--boot-dir is an option of the TILE targets (tilegx, tilepro), whose boot files it "
                                  "writes; ") + target->name + " does not take it");
    if (target->load) {  // hosted (linux): the heap size and --gdb are its options too
        if (cli.partition_size) throw Failure(std::string("--partition-size is an option of virt-rv64 (QEMU); ") + target->name + " does not take it");
        if (cli.icount) throw Failure(std::string("--icount is an option of virt-rv64 (QEMU); ") + target->name + " does not take it");
        if (!cli.extra_qemu_args.empty()) throw Failure(std::string("--extra-qemu-arg is an option of virt-rv64 (QEMU); ") + target->name + " does not take it");
        if (!cli.backend.empty()) throw Failure(std::string("--backend is an option of the Epiphany targets; ") + target->name + " has one backend, processes");
        if (!cli.emulator.empty()) throw Failure(std::string("--emulator: ") + target->name + " runs the program itself, no emulator");
    } else if (target->run) {
        refuse_emulator_options(cli, *target);
    } else if (!cli.backend.empty()) {
        throw Failure(std::string("--backend is an option of the Epiphany targets; ") + target->name +
                      " has one backend, its emulator");
    }
    std::vector<std::string> argv{cli.program};
    argv.insert(argv.end(), cli.program_args.begin(), cli.program_args.end());
    const bool debug = debug_requested(std::getenv("SHMEM_DEBUG"));
    // The PEs' environment: SHMEM_* and -x (-x NAME must be set here: checked on every target).
    const std::vector<std::string> env = program_environment(cli, host_environment());
    double timeout = timeout_seconds(cli, std::getenv("OSHRUN_TIMEOUT"));
    const ConsoleOptions console_options{cli.tag_output, cli.output_dir};

    if (target->load) {
        const Image img = target->load(cli.program, *target);
        RunRequest req;
        req.npes = cli.npes;
        req.argv = argv;
        req.timeout = timeout;
        req.dry_run = cli.dry_run;
        req.verbose = cli.verbose || debug;
        req.console = console_options;
        req.env = env;
        req.symmetric_size = symmetric_size(cli, env_value(env, "SHMEM_SYMMETRIC_SIZE"));
        req.gdb_pe = cli.gdb_pe;
        return target->run(*target, img, req);
    }
    if (target->run) {
        const bool tile = is_tile_target(*target);  // its boot blocks carry an environment
        if (!cli.exports.empty() && !tile)
            std::fprintf(stderr, "oshrun: warning: -x ignored: Epiphany PEs have no environment (no room for one in "
                                 "their boot block)\n");
        const Image img = load_image(cli.program, *target);
        RunRequest req;
        req.npes = cli.npes;
        req.argv = argv;
        req.timeout = timeout;
        req.dry_run = cli.dry_run;
        req.verbose = cli.verbose || debug;
        req.backend = cli.backend;
        req.emulator = cli.emulator;
        req.console = console_options;
        if (tile) {
            if (cli.partition_size && *cli.partition_size == 0) throw Failure("--partition-size must not be 0");
            req.env = env;
            req.symmetric_size = symmetric_size(cli, env_value(env, "SHMEM_SYMMETRIC_SIZE"));
            req.partition_size = cli.partition_size.value_or(0);
            req.boot_dir = cli.boot_dir;
        }
        return target->run(*target, img, req);
    }

    PlaceRequest req;
    req.npes = cli.npes;
    // The heap the PEs are given is the one their SHMEM_SYMMETRIC_SIZE says (-x may set it), unless the option does.
    req.symmetric_size = symmetric_size(cli, env_value(env, "SHMEM_SYMMETRIC_SIZE"));  // none: the default
    req.partition_size = cli.partition_size.value_or(0);
    if (cli.partition_size && *cli.partition_size == 0) throw Failure("--partition-size must not be 0");
    req.argv = argv;
    req.env = env;
    req.own_copies = cli.gdb_pe.has_value();

    const Image img = load_image(cli.program, *target);
    const Layout lay = target->place(*target, img, req);
    EmulatorOptions emu{cli.emulator.empty() ? target->emulator : cli.emulator, cli.icount, cli.extra_qemu_args};
    if (cli.gdb_pe) {
        emu.gdb_port = cli.gdb_port ? *cli.gdb_port : free_tcp_port();
        timeout = 0;  // the user is stepping through the program
    }

    if (cli.dry_run) {
        print_placement(stdout, *target, img, lay);
        std::printf("%s\n", shell_join(target->command(lay, emu, TempDir::pattern())).c_str());
        return 0;
    }
    if (cli.emulator.empty()) {
        emu.emulator = find_on_path(target->emulator);
        if (emu.emulator.empty())
            throw Failure(std::string(target->emulator) + " not found on PATH; install it (Debian: qemu-system-misc) "
                          "or name it with --emulator PATH", 127);
    }
    Console console(cli.npes, std::cout, std::cerr, console_options);
    const TempDir dir;
    target->write_files(lay, img, dir.path());
    const std::vector<std::string> cmd = target->command(lay, emu, dir.path());
    if (debug) print_placement(stderr, *target, img, lay);
    if (cli.verbose || debug) std::fprintf(stderr, "oshrun: %s\n", shell_join(cmd).c_str());
    if (cli.gdb_pe) print_gdb_help(cli, lay, emu.gdb_port);

    // QEMU's stdout (the UART) comes through the console relay; its stderr is oshrun's.
    const RunResult r = run_child(cmd, timeout, [&](const char* bytes, size_t n) { console.feed(bytes, n); });
    console.finish();
    std::cout.flush();
    if (r.timed_out) {
        std::fprintf(stderr, "oshrun: timeout: %s did not finish within %g s on %u PEs; emulator killed\n",
                     cli.program.c_str(), timeout, cli.npes);
        return 124;
    }
    if (r.interrupted) {
        std::fprintf(stderr, "oshrun: interrupted by %s; emulator stopped\n", strsignal(r.interrupted));
        return 128 + r.interrupted;
    }
    // The program's status is what its exit record says: the last thing the PE that ended the run wrote. Should
    // two PEs have ended it at once, the emulator's own status (from the finisher, written after the record)
    // tells which one won.
    const std::vector<int>& exits = console.exit_statuses();
    if (!exits.empty()) {
        if (!r.term_signal && std::find(exits.begin(), exits.end(), r.exit_status) != exits.end()) return r.exit_status;
        return exits.front();
    }
    // No exit record: the program never ended; the emulator did (a bad option, could not start, crashed).
    std::fprintf(stderr, "oshrun: the emulator (%s) failed (%s) before the program ended\n", emu.emulator.c_str(),
                 describe_status(r).c_str());
    return 125;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const Failure& f) {
        std::fprintf(stderr, "oshrun: %s\n", f.what());
        return f.status;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "oshrun: %s\n", e.what());
        return 1;
    }
}

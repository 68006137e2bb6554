// oshrun: run a libshmem program image on N PEs of an emulated machine or of an Epiphany chip.
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli.hpp"
#include "common.hpp"
#include "run.hpp"
#include "target.hpp"

using namespace oshrun;

namespace {

void print_placement(const Target& t, const Image& img, const Layout& lay) {
    std::printf("target %s: %u PEs, partition %s (log2 %u), RAM %s at %s\n", t.name, lay.npes,
                size_text(lay.partition_size).c_str(), lay.log2_partition, size_text(lay.ram_size).c_str(),
                hex(lay.ram_base).c_str());
    std::printf("image %s: %s loaded, %s in memory, stack %s%s, room for symmetric heap %s\n", img.path.c_str(),
                size_text(img.flat.size()).c_str(), size_text(img.memory_size()).c_str(),
                size_text(img.stack_size).c_str(), img.stack_size_from_symbol ? "" : " (default)",
                size_text(lay.heap_room).c_str());
    for (const PeSlot& pe : lay.pes)
        std::printf("pe %u: partition %s boot-block %s image %s bytes %zu\n", pe.pe, hex(pe.base).c_str(),
                    hex(pe.boot_block).c_str(), hex(pe.image).c_str(), img.flat.size());
    std::printf("device tree: within [%s, %s)\n", hex(lay.fdt_low).c_str(), hex(lay.fdt_high).c_str());
}

// The options that only an emulator-process target (virt-rv64) understands, refused elsewhere rather than ignored.
void refuse_emulator_options(const Cli& cli, const Target& t) {
    const auto refuse = [&](const char* option) {
        throw Failure(std::string(option) + " is an option of virt-rv64 (QEMU); " + t.name + " does not take it");
    };
    if (cli.symmetric_size) refuse("--symmetric-size");
    if (cli.partition_size) refuse("--partition-size");
    if (cli.icount) refuse("--icount");
    if (!cli.extra_qemu_args.empty()) refuse("--extra-qemu-arg");
}

int run(const std::vector<std::string>& args) {
    const Cli cli = parse_cli(args);
    if (cli.help) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    const Target* target = find_target(cli.target);
    if (!target) throw Failure("unknown target '" + cli.target + "'; valid targets: " + target_names());
    if (cli.npes < 1 || cli.npes > target->max_pes)
        throw Failure("-np " + std::to_string(cli.npes) + ": " + target->name + " runs 1 to " +
                      std::to_string(target->max_pes) + " PEs");
    if (target->run) {
        refuse_emulator_options(cli, *target);
    } else if (!cli.backend.empty()) {
        throw Failure(std::string("--backend is an option of the Epiphany targets; ") + target->name +
                      " has one backend, its emulator");
    }
    std::vector<std::string> argv{cli.program};
    argv.insert(argv.end(), cli.program_args.begin(), cli.program_args.end());
    const double timeout = timeout_seconds(cli, std::getenv("OSHRUN_TIMEOUT"));

    if (target->run) {
        const Image img = load_image(cli.program, *target);
        RunRequest req;
        req.npes = cli.npes;
        req.argv = argv;
        req.timeout = timeout;
        req.dry_run = cli.dry_run;
        req.verbose = cli.verbose;
        req.backend = cli.backend;
        req.emulator = cli.emulator;
        return target->run(*target, img, req);
    }

    PlaceRequest req;
    req.npes = cli.npes;
    req.symmetric_size = symmetric_size(cli, std::getenv("SHMEM_SYMMETRIC_SIZE"));
    req.partition_size = cli.partition_size.value_or(0);
    if (cli.partition_size && *cli.partition_size == 0) throw Failure("--partition-size must not be 0");
    req.argv = argv;

    const Image img = load_image(cli.program, *target);
    const Layout lay = target->place(*target, img, req);
    EmulatorOptions emu{cli.emulator.empty() ? target->emulator : cli.emulator, cli.icount, cli.extra_qemu_args};

    if (cli.dry_run) {
        print_placement(*target, img, lay);
        std::printf("%s\n", shell_join(target->command(lay, emu, TempDir::pattern())).c_str());
        return 0;
    }
    if (cli.emulator.empty()) {
        emu.emulator = find_on_path(target->emulator);
        if (emu.emulator.empty())
            throw Failure(std::string(target->emulator) + " not found on PATH; install it (Debian: qemu-system-misc) "
                          "or name it with --emulator PATH", 127);
    }
    const TempDir dir;
    target->write_files(lay, img, dir.path());
    const std::vector<std::string> cmd = target->command(lay, emu, dir.path());
    if (cli.verbose) std::fprintf(stderr, "oshrun: %s\n", shell_join(cmd).c_str());

    const RunResult r = run_child(cmd, timeout);
    if (r.timed_out) {
        std::fprintf(stderr, "oshrun: timeout: %s did not finish within %g s on %u PEs; emulator killed\n",
                     cli.program.c_str(), timeout, cli.npes);
        return 124;
    }
    if (r.interrupted) {
        std::fprintf(stderr, "oshrun: interrupted by %s; emulator stopped\n", strsignal(r.interrupted));
        return 128 + r.interrupted;
    }
    if (r.term_signal) {
        std::fprintf(stderr, "oshrun: the emulator was killed by signal %d (%s)\n", r.term_signal,
                     strsignal(r.term_signal));
        return std::min(128 + r.term_signal, 255);
    }
    return r.exit_status;
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

// The virt-rv64 backend (virt.hpp): its target, its options, and a run of QEMU.
#include <elf.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/common.hpp"
#include "core/console.hpp"
#include "core/process.hpp"
#include "placement.hpp"
#include "qemu_virt.hpp"
#include "virt.hpp"

namespace oshrun {

namespace {

// What --gdb prints before QEMU starts: how to attach gdb to the PE's hart, with the symbols where its copy is.
void print_gdb_help(const Request& req, const VirtPlan& plan, unsigned port) {
    const unsigned pe = *req.gdb_pe;
    const std::string address = hex(run_address(plan, pe));
    std::error_code ec;
    std::string program = std::filesystem::absolute(req.program, ec).lexically_normal().string();
    if (ec) program = req.program;
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

}  // namespace

const std::vector<Target>& VirtBackend::targets() const {
    // Linked at 0 (GNU ld marks a PIE linked anywhere else ET_EXEC), loaded at partition offset SHMEM_IMAGE_OFFSET;
    // start.S relocates by the image's runtime address, which assumes link address 0.
    static const std::vector<Target> list = {
        {"virt-rv64", "QEMU virt machine, RISC-V 64, one hart per PE", 512, EM_RISCV, ELFCLASS64, ELFDATA2LSB, ET_DYN,
         0, SHMEM_IMAGE_OFFSET, 64 * KiB, SHMEM_MIN_STACK, GiB, false, {}},
    };
    return list;
}

bool VirtBackend::takes(Option o) const {
    return o == Option::symmetric_size || o == Option::partition_size || o == Option::icount ||
           o == Option::extra_qemu_arg || o == Option::gdb || o == Option::emulator;
}

std::string VirtBackend::help() const {
    return "virt-rv64:\n"
           "  --symmetric-size SIZE  symmetric heap per PE: bytes, or with a K, M, G suffix\n"
           "                         (default: $SHMEM_SYMMETRIC_SIZE, else about 64M per PE up to 16 PEs,\n"
           "                         then less, within 1 GiB of RAM for the run)\n"
           "  --partition-size SIZE  force the memory per PE (a power of two) instead of computing it\n"
           "  --emulator PATH        the emulator binary (default: " + std::string(kVirtEmulator) + " from PATH);\n"
           "                         --qemu PATH is the same\n"
           "  --icount               deterministic instruction counting (-icount shift=0,sleep=off)\n"
           "  --extra-qemu-arg ARG   pass ARG on to the emulator; repeatable\n"
           "  --gdb PE               debug PE with gdb: QEMU starts stopped with its gdb server on 127.0.0.1 (a\n"
           "                         free port) and oshrun prints the gdb-multiarch command that attaches to that\n"
           "                         PE's hart with the program's symbols at its copy's address; the run starts\n"
           "                         when gdb continues; no time limit\n"
           "  --gdb-port N           the TCP port of --gdb's server (default: a free one)\n"
           "\n";
}

Image VirtBackend::load(const Target& t, const Request& req) const {
    return load_image(req.program, t, check_partitioned_image);
}

int VirtBackend::run(const Target& t, const Image& img, const Request& req) const {
    const VirtPlan plan = plan_virt(t, img, req);
    double timeout = req.timeout.value_or(0);
    unsigned gdb_port = 0;
    if (req.gdb_pe) {
        gdb_port = req.gdb_port ? *req.gdb_port : free_tcp_port();
        timeout = 0;  // the user is stepping through the program
    }
    std::string emulator = req.emulator.empty() ? kVirtEmulator : req.emulator;
    if (req.dry_run) {
        std::fputs(virt_plan_text(t, plan, img).c_str(), stdout);
        std::printf("%s\n", shell_join(virt_command(plan, req, emulator, gdb_port, TempDir::pattern())).c_str());
        return 0;
    }
    if (req.emulator.empty()) {
        emulator = find_on_path(kVirtEmulator);
        if (emulator.empty())
            throw Failure(std::string(kVirtEmulator) + " not found on PATH; install it (Debian: qemu-system-misc) "
                          "or name it with --emulator PATH", 127);
    }
    Console console(req.npes, std::cout, std::cerr, req.console);
    const TempDir dir;
    write_virt_files(plan, img, dir.path());
    const std::vector<std::string> cmd = virt_command(plan, req, emulator, gdb_port, dir.path());
    if (req.debug) std::fputs(virt_plan_text(t, plan, img).c_str(), stderr);
    if (req.verbose) std::fprintf(stderr, "oshrun: %s\n", shell_join(cmd).c_str());
    if (req.gdb_pe) print_gdb_help(req, plan, gdb_port);

    // QEMU's stdout (the UART) comes through the console relay; its stderr is oshrun's.
    const RunResult r = run_child(cmd, timeout, [&](const char* bytes, size_t n) { console.feed(bytes, n); });
    console.finish();
    std::cout.flush();
    return emulator_status(r, console.exit_statuses(), emulator, req.program, timeout, req.npes);
}

}  // namespace oshrun

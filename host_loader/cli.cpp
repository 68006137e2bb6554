#include "cli.hpp"

#include <cmath>
#include <cstdlib>

#include "common.hpp"
#include "target.hpp"

namespace oshrun {

std::string usage() {
    return "usage: oshrun [options] -np N program.elf [program arguments...]\n"
           "\n"
           "Runs a libshmem program image on N PEs, one copy per PE: on an emulated machine (virt-rv64, QEMU), or\n"
           "on the cores of an Epiphany chip (a Parallella's, or the Epiphany simulator's).\n"
           "\n"
           "  -np N, -n N, --np N, --npes N\n"
           "                         number of PEs (default 1; virt-rv64 has 1..512, epiphany-e16 1..16,\n"
           "                         epiphany-e64 1..64)\n"
           "  --target NAME          machine to run on (default virt-rv64; known: " + target_names() + ")\n"
           "  --timeout SECONDS      stop the run after this long and exit 124\n"
           "                         (default: $OSHRUN_TIMEOUT, else 0 = no limit)\n"
           "  --emulator PATH        emulator binary (virt-rv64: qemu-system-riscv64 from PATH; Epiphany with\n"
           "                         --backend esim: epiphany-elf-run from PATH); --qemu PATH is the same\n"
           "  --dry-run              print the placement (and the emulator command); run nothing\n"
           "  -v, --verbose          print the emulator command, or the placement, before running\n"
           "  -h, --help             print this help\n"
           "\n"
           "virt-rv64 only:\n"
           "  --symmetric-size SIZE  symmetric heap per PE: bytes, or with a K, M, G suffix\n"
           "                         (default: $SHMEM_SYMMETRIC_SIZE, else 1M)\n"
           "  --partition-size SIZE  force the memory per PE (a power of two) instead of computing it\n"
           "  --icount               deterministic instruction counting (-icount shift=0,sleep=off)\n"
           "  --extra-qemu-arg ARG   pass ARG on to the emulator; repeatable (e.g. -s, -S for gdb)\n"
           "\n"
           "Epiphany (epiphany-e16, epiphany-e64) only:\n"
           "  --backend NAME         parallella: the board's chip through /dev/epiphany/mesh0;\n"
           "                         esim: the Epiphany simulator, one epiphany-elf-run per core\n"
           "                         (default: parallella where /dev/epiphany/mesh0 exists, else esim)\n"
           "  An Epiphany image lives in each core's 32 KB (its symmetric heap is what the image and its stack\n"
           "  leave of them); PEs fill a workgroup of min(N, chip columns) columns row by row from core 0x808.\n"
           "\n"
           "Arguments after the program belong to the program. Exit status: the program's (0 when every PE\n"
           "finished normally), 124 on timeout, 2 for usage and image errors, 127 if the emulator, simulator or\n"
           "device is missing.\n";
}

bool parse_seconds(const std::string& text, double& seconds) {
    if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return false;
    char* end = nullptr;
    seconds = std::strtod(text.c_str(), &end);
    return *end == '\0' && std::isfinite(seconds) && seconds >= 0;
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
        if (opt == "-np" || opt == "-n" || opt == "--np" || opt == "--npes") {
            const std::string v = value();
            char* end = nullptr;
            const unsigned long n = std::strtoul(v.c_str(), &end, 10);
            if (v.empty() || v[0] == '-' || *end || n > 1000000)
                throw usage_error(opt + " " + v + ": not a number of PEs");
            cli.npes = unsigned(n);
        } else if (opt == "--target") {
            cli.target = value();
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
        } else if (opt == "--icount" && !inline_value) {
            cli.icount = true;
        } else if (opt == "--dry-run" && !inline_value) {
            cli.dry_run = true;
        } else if ((opt == "-v" || opt == "--verbose") && !inline_value) {
            cli.verbose = true;
        } else if ((opt == "-h" || opt == "--help") && !inline_value) {
            cli.help = true;
        } else {
            throw usage_error("unknown option " + args[i]);
        }
    }
    if (i < args.size()) {
        cli.program = args[i];
        cli.program_args.assign(args.begin() + long(i) + 1, args.end());
    } else if (!cli.help) {
        throw usage_error("no program given");
    }
    return cli;
}

uint64_t symmetric_size(const Cli& cli, const char* env_value) {
    if (cli.symmetric_size) return *cli.symmetric_size;
    if (!env_value) return MiB;
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

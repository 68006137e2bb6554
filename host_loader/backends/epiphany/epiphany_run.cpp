// The Epiphany backend (epiphany.hpp): its targets, its options, the mesh a run goes to, and the run.
#include <epiphany/boot_block.h>
#include <gelf.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "core/common.hpp"
#include "core/process.hpp"
#include "epiphany.hpp"
#include "epiphany_sim.hpp"
#include "esim.hpp"
#include "mesh.hpp"
#include "parallella.hpp"

namespace oshrun {

const std::vector<Target>& EpiphanyBackend::targets() const {
    // One copy of the image in every core's 32 KB of SRAM, linked at 0 (every core sees its own SRAM at 0), the
    // vector table at 0; both chips' first core is 0x808 (row 32, col 8) on the Parallella.
    static const std::vector<Target> list = {
        {"epiphany-e16", "Epiphany-III (E16G301, 4x4 cores, Parallella), one core per PE", 16, kEmAdaptevaEpiphany,
         ELFCLASS32, ELFDATA2LSB, ET_EXEC, 0, 0, 1 * KiB, 256, SHMEM_EP_LOCAL_SIZE, false, {4, 4, 32, 8}},
        {"epiphany-e64", "Epiphany-IV (E64G401, 8x8 cores), one core per PE", 64, kEmAdaptevaEpiphany, ELFCLASS32,
         ELFDATA2LSB, ET_EXEC, 0, 0, 1 * KiB, 256, SHMEM_EP_LOCAL_SIZE, false, {8, 8, 32, 8}},
    };
    return list;
}

bool EpiphanyBackend::takes(Option o) const { return o == Option::mesh || o == Option::emulator; }

std::string EpiphanyBackend::help() const {
    return "Epiphany (epiphany-e16, epiphany-e64):\n"
           "  --backend NAME         the mesh the cores run on: parallella: the board's chip through\n"
           "                         /dev/epiphany/mesh0;\n"
           "                         sim: oshrun's own Epiphany simulator (OSHRUN_SIM_SEED, _TRACE, _TRACE_PES,\n"
           "                         _START_GAP, _STATS: docs/epiphany-sim.md);\n"
           "                         esim: Adapteva's simulator, one epiphany-elf-run per core\n"
           "                         (default: $OSHRUN_EPIPHANY_BACKEND, else parallella where\n"
           "                         /dev/epiphany/mesh0 exists, else sim)\n"
           "  --emulator PATH        with --backend esim: the simulator binary (default: " +
           std::string(kEsimSimulator) + "\n"
           "                         from PATH); --qemu PATH is the same\n"
           "  An Epiphany image lives in each core's 32 KB (its symmetric heap is what the image and its stack\n"
           "  leave of them); PEs fill a workgroup of min(N, chip columns) columns row by row from core 0x808.\n"
           "  Epiphany PEs have no environment (no room for one in their boot block): -x is ignored with a\n"
           "  warning.\n"
           "\n";
}

Image EpiphanyBackend::load(const Target& t, const Request& req) const {
    return load_image(req.program, t, check_epiphany_image);
}

MeshChoice choose_mesh(const Target& t, const Request& req) {
    // --backend, else OSHRUN_EPIPHANY_BACKEND (a test suite run against another mesh), else the board's chip where
    // there is one, else oshrun's own simulator.
    const bool chosen = !req.mesh.empty();
    const char* env = std::getenv("OSHRUN_EPIPHANY_BACKEND");
    const bool from_env = !chosen && env != nullptr && *env != '\0';
    MeshChoice c;
    c.name = chosen ? req.mesh : from_env ? env : parallella_present() ? "parallella" : "sim";
    if (c.name != "parallella" && c.name != "sim" && c.name != "esim")
        throw Failure(std::string(from_env ? "OSHRUN_EPIPHANY_BACKEND=" : "--backend ") + c.name + ": unknown; " +
                      t.name + " runs on 'parallella' (the board's chip), 'sim' (libshmem's Epiphany simulator, in "
                      "oshrun) or 'esim' (Adapteva's simulator, epiphany-elf-run)");
    c.why = chosen                   ? ""
            : from_env               ? " (OSHRUN_EPIPHANY_BACKEND)"
            : c.name == "parallella" ? std::string(" (default: ") + kParallellaDevice + " exists)"
                                     : std::string(" (default: no ") + kParallellaDevice + ")";
    return c;
}

int EpiphanyBackend::run(const Target& t, const Image& img, const Request& req) const {
    if (!req.exports.empty())
        std::fprintf(stderr, "oshrun: warning: -x ignored: Epiphany PEs have no environment (no room for one in "
                             "their boot block)\n");
    const EpiphanyPlan plan = plan_epiphany(t, img, req);
    const MeshChoice choice = choose_mesh(t, req);
    if (choice.name != "esim" && !req.emulator.empty())
        throw Failure("--emulator names the simulator of the esim backend; the " + choice.name +
                      " backend needs none");
    SimOptions sim;
    if (choice.name == "sim") {
        sim = sim_options_from_env();
        sim.verbose = req.verbose;
    }

    if (req.dry_run) {
        std::fputs(epiphany_plan_text(t, plan, img).c_str(), stdout);
        std::printf("backend: %s%s\n", choice.name.c_str(), choice.why.c_str());
        return 0;
    }
    if (req.verbose)
        std::fprintf(stderr, "oshrun: backend %s\n%s", choice.name.c_str(), epiphany_plan_text(t, plan, img).c_str());
    const double timeout = req.timeout.value_or(0);
    const std::unique_ptr<Mesh> mesh = choice.name == "parallella" ? open_parallella(t)
                                       : choice.name == "sim"
                                           ? open_sim(t, plan, sim)
                                           : open_esim(t, plan, req.emulator, req.verbose, timeout);

    // A signal stops the cores rather than oshrun alone: on a board they would run on without it.
    const SignalCatcher signals;
    MeshRunOptions opt;
    opt.timeout = timeout;
    opt.program = req.argv.empty() ? img.path : req.argv[0];
    opt.interrupted = [] { return SignalCatcher::received(); };
    opt.console = req.console;
    return run_mesh(*mesh, plan, opt);
}

}  // namespace oshrun

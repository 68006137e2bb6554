// Target::run of the Epiphany targets: plan, pick the backend, run the loop.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "common.hpp"
#include "epiphany.hpp"
#include "epiphany_sim.hpp"
#include "esim.hpp"
#include "mesh.hpp"
#include "parallella.hpp"
#include "run.hpp"

namespace oshrun {

int run_epiphany(const Target& t, const Image& img, const RunRequest& req) {
    const EpPlan plan = plan_epiphany(t, img, req.npes, req.argv);
    // The board's chip where there is one, else the simulator.
    const bool chosen = !req.backend.empty();
    // --backend, else OSHRUN_EPIPHANY_BACKEND (a test suite run against another backend), else the board's chip
    // where there is one, else oshrun's own simulator.
    const char* env = std::getenv("OSHRUN_EPIPHANY_BACKEND");
    const bool from_env = !chosen && env != nullptr && *env != '\0';
    const std::string backend = chosen ? req.backend : from_env ? env : parallella_present() ? "parallella" : "sim";
    if (backend != "parallella" && backend != "sim" && backend != "esim")
        throw Failure(std::string(from_env ? "OSHRUN_EPIPHANY_BACKEND=" : "--backend ") + backend + ": unknown; " + t.name +
                      " runs on 'parallella' (the board's chip), 'sim' (libshmem's Epiphany simulator, in oshrun) "
                      "or 'esim' (Adapteva's simulator, epiphany-elf-run)");
    if (backend != "esim" && !req.emulator.empty())
        throw Failure("--emulator names the simulator of the esim backend; the " + backend +
                      " backend needs none");
    const SimOptions sim = backend == "sim" ? sim_options_from_env() : SimOptions();

    if (req.dry_run) {
        std::fputs(format_plan(t, plan, img).c_str(), stdout);
        const std::string why = chosen                   ? ""
                                : from_env                ? " (OSHRUN_EPIPHANY_BACKEND)"
                                : backend == "parallella" ? std::string(" (default: ") + kParallellaDevice + " exists)"
                                                          : std::string(" (default: no ") + kParallellaDevice + ")";
        std::printf("backend: %s%s\n", backend.c_str(), why.c_str());
        return 0;
    }
    if (req.verbose) std::fprintf(stderr, "oshrun: backend %s\n%s", backend.c_str(), format_plan(t, plan, img).c_str());
    const std::unique_ptr<Mesh> mesh =
        backend == "parallella" ? open_parallella(t)
        : backend == "sim"      ? open_sim(t, plan, [&] {
                                      SimOptions o = sim;
                                      o.verbose = req.verbose;
                                      return o;
                                  }())
                                : open_esim(t, plan, req.emulator, req.verbose, req.timeout);

    // A signal stops the cores rather than oshrun alone: on a board they would run on without it.
    const SignalCatcher signals;
    MeshRunOptions opt;
    opt.timeout = req.timeout;
    opt.program = req.argv.empty() ? img.path : req.argv[0];
    opt.interrupted = [] { return SignalCatcher::received(); };
    opt.console = req.console;
    return run_mesh(*mesh, plan, opt);
}

}  // namespace oshrun

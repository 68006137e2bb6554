// The sim mesh (--backend sim): the project's own Epiphany simulator (sim/epiphany, epsim::Chip), in oshrun's
// process. The default for the Epiphany targets where there is no board. One thread runs the chip in slices of
// simulated time; the run loop (mesh.hpp) reads and writes the chip's memory between slices.
//
// Environment (docs/epiphany-sim.md):
//   OSHRUN_SIM_SEED=n         vary the interleaving of the cores (deterministically; 0, the default, is fixed)
//   OSHRUN_SIM_START_GAP=n    cycles between one core's start and the next's (default 100: a host's write)
//   OSHRUN_SIM_TRACE=file     an instruction trace ("-": stderr), one line per instruction:
//                             cycle, coreid, pc, instruction
//   OSHRUN_SIM_TRACE_PES=list the PEs traced ("0,3", "0-3"; default: all)
//   OSHRUN_SIM_STATS=1        at the end, the simulated cycles and instructions on stderr
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "epiphany.hpp"
#include "mesh.hpp"

namespace oshrun {

struct SimOptions {
    uint64_t seed = 0;
    uint64_t start_gap = 100;  // cycles between two cores' SYNC: one host write through the eLink (an estimate)
    std::string trace;        // "" none, "-" stderr, else a file
    std::string trace_pes;    // "" all
    bool stats = false;
    bool verbose = false;
};

// The options from the environment (OSHRUN_SIM_*); throws Failure on a malformed value.
SimOptions sim_options_from_env();
// The PEs below npes that OSHRUN_SIM_TRACE_PES's list names ("0,3", "0-3"); throws Failure (status 2) if it is
// malformed. Shared by the Epiphany and TILE-Gx simulators' backends.
std::vector<unsigned> trace_pe_list(const std::string& list, unsigned npes);

// A chip of the target's shape (epiphany-e16: 4 x 4 at 0x808; -e64: 8 x 8) with the Parallella's 32 MB of
// external DRAM. A core that faults (an access where nothing is mapped, a TESTSET on a local address, ...)
// ends the run: oshrun names the PE, the core, the pc and the cause, and the run's status is 139.
std::unique_ptr<Mesh> open_sim(const Target& t, const EpiphanyPlan& plan, const SimOptions& opt);

}  // namespace oshrun

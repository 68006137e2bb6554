// The esim backend: the Adapteva Epiphany multicore simulator, one epiphany-elf-run process per core, the
// processes sharing the mesh's memory (SRAM of every core, external DRAM) through an esim session.
//
// NOT YET WRITTEN. open_esim finds the simulator, then EsimMesh refuses: "esim backend not yet written". The
// backend is this file and esim.cpp only: implement EsimMesh's five Mesh operations (mesh.hpp states what each
// must do); run_epiphany (epiphany_run.cpp) and the run loop need no change.
#pragma once

#include <memory>
#include <string>

#include "mesh.hpp"

namespace oshrun {

constexpr const char* kEsimSimulator = "epiphany-elf-run";

// simulator: --emulator as given ("" = kEsimSimulator from PATH). Throws Failure (status 127) when it cannot be
// found. plan gives the workgroup (first core, rows x cols) and the external DRAM the session must provide.
std::unique_ptr<Mesh> open_esim(const Target& t, const EpPlan& plan, const std::string& simulator, bool verbose);

}  // namespace oshrun

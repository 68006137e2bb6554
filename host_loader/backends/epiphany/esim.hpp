// The esim mesh (--backend esim): the Adapteva Epiphany multicore simulator (epiphany-elf-run built with
// --enable-emesh-sim, from adapteva/epiphany-binutils-gdb), one process per core of the workgroup, the processes
// sharing the mesh's memory (every core's SRAM, external DRAM) through a POSIX shared-memory file, the esim session.
//
// How a run goes, and what it relies on in the simulator (read from its sim/epiphany sources, checked by running):
//   - Each process loads its own ELF file's loadable sections, then waits at the session's start barrier until
//     every core's process has loaded: so the loader's bytes are written by handing each core an ELF file of its
//     own (its image, boot block; the first core's also carries the external DRAM bytes), and nothing runs before
//     all of them are in place. Cores of the workgroup without a PE (5 PEs on a 2x4 workgroup) get an ELF that
//     sleeps in IDLE: esim starts only when every core of the mesh has a process.
//   - --environment virtual: the core starts as after reset (the SYNC interrupt latched) at its vector table, 0,
//     and interrupts, IDLE and WAND behave as on the chip.
//   - The session file, /dev/shm/esim.u.<uid>-<session>: 1 MiB of header (the count of processes at the barrier at
//     byte 8), then per core (row-major in the workgroup) 1 MiB of simulator state and the core's 1 MiB window,
//     then external DRAM. oshrun maps it to read the console mailboxes once every process is at the barrier.
//   - At the end every process waits for all the others; oshrun ends them with SIGKILL and removes the file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "epiphany.hpp"
#include "mesh.hpp"

namespace oshrun {

constexpr const char* kEsimSimulator = "epiphany-elf-run";

// simulator: --emulator as given ("" = kEsimSimulator from PATH). Throws Failure (status 127) when it cannot be
// found. plan gives the workgroup (first core, rows x cols) the session simulates.
// timeout: oshrun's time limit (<= 0: none); the wait for the simulators to start honours it and oshrun's signals.
// The session file has a random name, must belong to oshrun's user, and is made private (0600) once found.
std::unique_ptr<Mesh> open_esim(const Target& t, const EpiphanyPlan& plan, const std::string& simulator, bool verbose,
                                double timeout = 0);

// What one core's simulator process loads: bytes at addresses (core-local, or external DRAM).
struct EsimLoad {
    uint32_t addr;
    std::vector<uint8_t> bytes;
};

// An Epiphany ELF executable (entry 0) with one allocated PROGBITS section and one PT_LOAD segment per load. Pure.
std::vector<uint8_t> make_esim_elf(const std::vector<EsimLoad>& loads);

// The byte offset of Epiphany global address [global, global + n) in the session file of a rows x cols workgroup
// whose first core is first_coreid; throws Failure if that range is not one core's SRAM (0..0x8000) of the
// workgroup or external DRAM. Pure.
uint64_t esim_session_offset(unsigned first_coreid, unsigned rows, unsigned cols, uint32_t global, uint64_t n);
uint64_t esim_session_size(unsigned rows, unsigned cols);

}  // namespace oshrun

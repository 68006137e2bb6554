// The Epiphany mesh as the loader drives it, and the run loop written against it.
//
// A Mesh is whatever gives access to the chip's global address space and starts and stops its cores: the real chip
// on a Parallella (parallella.hpp), the esim simulator (esim.hpp), or a fake in memory (the tests). The run loop
// applies a placement plan through it, starts the cores, and relays the console mailboxes until the run ends. Each
// PE's mailbox ring carries that PE's console records (crt/common/console_protocol.h), fed to a Console
// (console.hpp) as that PE's stream; the run's status comes from the mailboxes' states, not from exit records.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/console.hpp"
#include "epiphany.hpp"

namespace oshrun {

class Mesh {
public:
    virtual ~Mesh() = default;
    // Called once, before anything is written: leave these cores idle (executing nothing that could touch memory)
    // and ready to run from their reset vector, 0, when start() raises their SYNC interrupt.
    virtual void reset(const std::vector<unsigned>& coreids) = 0;
    // Bytes at an Epiphany global address: a core's SRAM or registers, (coreid << 20) | local, or external DRAM.
    // Accesses are in order: a write is visible to the cores before any later write or read is made.
    virtual void write(uint32_t global, const void* data, size_t n) = 0;
    virtual void read(uint32_t global, void* data, size_t n) = 0;
    // Start these cores at their reset vector (on the chip: SYNC through ILATST), after everything is written.
    virtual void start(const std::vector<unsigned>& coreids) = 0;
    // The run is over (every PE done, one ended it, timeout, signal or an error): halt every core started. Called
    // exactly once per run_mesh, even when reset or start threw part-way.
    virtual void stop() = 0;
};

struct MeshRunOptions {
    double timeout = 0;                  // seconds from the first write; <= 0: no limit
    std::string program;                 // for the timeout message
    std::ostream* out = nullptr;         // the PEs' stdout (nullptr: std::cout)
    std::ostream* err = nullptr;         // the PEs' stderr and oshrun's own messages (nullptr: std::cerr)
    ConsoleOptions console;              // --tag-output, --output-filename
    // Polling: after a round that found nothing the pause doubles from min_poll up to max_poll, so that a long
    // quiet computation costs the host next to nothing; any console byte brings it back to min_poll.
    std::chrono::microseconds min_poll{100}, max_poll{1000};
    std::function<int()> interrupted;    // a signal number once one arrived, else 0 (empty: never)
};

// Applies the plan (reset, every write, start), then polls every PE's mailbox until the run ends. Returns 0 when
// every PE is DONE; the status of the first PE found in state END at once (0..255 as is, any other value 255, so
// that no failure reads as success); 124 on timeout ("oshrun: timeout: ..." on err); 128 + signal when
// interrupted. The cores are stopped on every way out, exceptions included. Throws Failure (status 1) if a
// mailbox holds what no core could have written.
int run_mesh(Mesh& mesh, const EpiphanyPlan& plan, const MeshRunOptions& opt = {});

}  // namespace oshrun

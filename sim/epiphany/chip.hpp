// A simulated Epiphany-III (E16G301) or Epiphany-IV (E64G401) chip and its external DRAM, all cores in one
// process on one global clock (docs/epiphany-sim.md has the model and the reasons for each choice).
//
// What it models:
//   - every core: 64 registers, the flags, the special registers (CONFIG, STATUS and FSTATUS, LC/LS/LE, IRET,
//     IMASK, ILAT/ILATST/ILATCL, IPEND, CTIMER0/1, DMA channels in descriptor mode, COREID, ...), at the local
//     addresses 0xf0400.. and through movts/movfs, 32 KB of SRAM at local 0..0x7fff;
//   - the mesh address map: a core's memory and registers at (coreid << 20) | local for every core, external
//     DRAM at dram_base; anything else is a fault that ends the run with the core and the pc named;
//   - interrupts with priorities and nesting (IPEND), IDLE as on the E16/E64 (it waits for any ILAT bit, whether
//     interrupts are enabled or not), WAND as the chip's wired AND of every core's STATUS.WAND bit, raising the
//     WAND interrupt on every core when the last bit is set;
//   - time: every core issues at most one instruction per cycle, with the costs of the cycle model (stalls on
//     remote loads, taken branches, writes that arrive after the mesh's latency, DMA at its rate), so CTIMER0
//     counts cycles.
//
// Deterministic: the same image and the same seed give the same run, cycle for cycle. Not thread-safe: the
// caller serialises run() and the host accesses.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace epsim {

struct ChipConfig {
    std::string name = "epiphany-e16";
    unsigned first_row = 32, first_col = 8;  // the chip's first core (the Parallella's 0x808)
    unsigned rows = 4, cols = 4;             // E16: 4 x 4; E64: 8 x 8
    uint32_t dram_base = 0x8E000000u;        // external DRAM, Epiphany side
    uint32_t dram_size = 32u << 20;
    uint64_t seed = 0;                       // 0: the default interleaving; others vary it, deterministically
    std::ostream* trace = nullptr;           // an instruction trace: one line per instruction executed
    uint64_t trace_mask = ~uint64_t(0);      // of these cores (bit = core index, row-major)
};

// Why the run cannot go on: a core did something no chip would let it (an access where nothing is mapped, a
// TESTSET on a local address, register-mode DMA, ...). The core and the pc say where.
struct Fault {
    bool any = false;
    unsigned core = 0;    // index, row-major from the first core
    uint32_t coreid = 0;  // row << 6 | col
    uint32_t pc = 0;
    std::string what;
};

// The cycle model's constants (documented with their sources in docs/epiphany-sim.md).
struct Timing {
    bool dual_issue = true;           // an FPU and an integer/load-store instruction in one cycle
    unsigned branch_taken = 3;        // a taken branch or jump, rti: the pipeline refills
    unsigned write_base = 2;          // a remote write arrives write_base + hops * hop cycles after it issued
    unsigned hop = 1;
    unsigned read_base = 17;          // a remote load stalls its core read_base + 2 * hops * hop cycles
    unsigned dram_write = 40;         // a write to external DRAM arrives after this
    unsigned dram_read = 150;         // a load from external DRAM stalls its core this long
    unsigned dram_fetch = 4;          // an instruction fetched from external DRAM costs this much more
    unsigned irq_entry = 3;           // taking an interrupt
    unsigned wake = 2;                // leaving IDLE once an interrupt is latched
    unsigned wand_delay = 4;          // from the last core's WAND to the interrupt on every core
    unsigned dma_setup = 10;          // a DMA channel reads its descriptor
    unsigned dma_num = 32, dma_den = 13;  // cycles per 8 bytes moved, as a fraction (2.46: 1,950 MB/s at 600 MHz)
};

class Chip {
public:
    explicit Chip(const ChipConfig& cfg, const Timing& timing = Timing());
    ~Chip();
    Chip(const Chip&) = delete;
    Chip& operator=(const Chip&) = delete;

    // The host's access (the loader): bytes at an Epiphany global address, a core's SRAM or registers or
    // external DRAM, applied at once. A write of ILATST starts a core that is waiting (after reset every core
    // waits in IDLE for its SYNC interrupt). Throws std::out_of_range naming the address if nothing is there.
    void host_write(uint32_t global, const void* data, size_t n);
    void host_read(uint32_t global, void* data, size_t n);

    enum class Stop {
        Budget,     // `cycles` more cycles of simulated time have passed
        Quiescent,  // nothing can happen until the host writes: every core idle, no timer, write or DMA pending
                    // (the clock has moved on by `cycles` all the same)
        Fault,      // a core faulted (fault() says how); the chip stops there
    };
    Stop run(uint64_t cycles);

    uint64_t now() const;              // cycles since reset
    uint64_t instructions() const;     // executed, all cores
    const Fault& fault() const;
    unsigned cores() const;            // rows * cols
    uint32_t coreid(unsigned core) const;
    uint32_t pc(unsigned core) const;
    uint32_t reg(unsigned core, unsigned r) const;
    uint64_t core_instructions(unsigned core) const;
    // The lowest value SP (r13) had after any instruction of the core, 0 excepted (0xffffffff: none yet): the
    // deepest the stack went.
    uint32_t lowest_sp(unsigned core) const;
    bool running(unsigned core) const;  // false: in IDLE, or never started
    // A special register of a core by its offset in the core's register page (0xf0400 CONFIG .. 0xf0704 COREID).
    uint32_t special(unsigned core, uint32_t offset);
    // The TRAP services for programs written for the simulator (its own tests; the library never traps): what
    // trap 0 (write) wrote, and the status of the last trap 3 (exit r0), 4 (pass: 0) or 5 (fail: 1), else -1.
    const std::string& trap_output() const;
    int trap_status() const;

    struct Impl;

private:
    void host_access(uint32_t global, uint8_t* p, size_t n, bool write);
    std::unique_ptr<Impl> impl_;
};

}  // namespace epsim

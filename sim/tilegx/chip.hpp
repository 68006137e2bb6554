// A simulated TILE-Gx chip: a rectangle of tiles on one clock, one coherent physical memory, the user dynamic
// network (UDN). docs/tile-sim.md has the model, its sources and its estimates.
//
// What it models:
//   - every tile: 64 registers (r63 reads zero; udn0..udn3 are the UDN's demux queues as sources and its
//     injection port as destinations), the pc, the SPRs the port and the compiler use (TILE_COORD, CYCLE,
//     CMPEXCH_VALUE, UDN_DATA_AVAIL; any other SPR access faults);
//   - bundles: every slot reads its sources when the bundle issues and writes its results when it ends; a branch
//     takes effect after that; at most one memory operation (the X1 or Y2 pipe);
//   - memory: one physical range; an access outside it, or misaligned, faults. A tile's stores are posted: they
//     land in memory after a delay (the tile itself sees them at once), in no particular order except per address;
//     mf waits until every store of the tile has landed. Atomics act on memory when they issue;
//   - the UDN: a packet is a header word (destination x, y and length) then its words; the packet is delivered
//     whole to demux queue 0 of its destination after the route's hops; a read of udn0 with nothing there stalls
//     the tile; a queue that would hold more than its depth faults (the port's credit bound is checked, not
//     assumed);
//   - time: a bundle issues when its source registers are ready (result latencies: Timing), one a cycle.
//
// Deterministic: the same memory, starts and seed give the same run, cycle for cycle.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "isa.hpp"

namespace tgxsim {

// Whether the simulator executes op: a tile that reaches any other instruction faults, naming it.
bool executes(Op op);

struct ChipConfig {
    unsigned cols = 6, rows = 6;             // TILE-Gx36
    unsigned origin_x = 0, origin_y = 0;     // TILE_COORD of the tile at the rectangle's top left
    uint64_t mem_base = 0, mem_size = 0;     // the physical memory
    // The memory's homes, for the cost of a remote access: partition k (partition_base + k << log2_partition)
    // lives by tile partition_tile[k]; anything else by tile 0.
    uint64_t partition_base = 0;
    unsigned log2_partition = 0;
    std::vector<unsigned> partition_tile;
    // The depth of a demux queue, in words: not in any public source. The port keeps its channels' words within
    // SHMEM_CHIP_UDN_CHANNEL_WORDS (16); add one wake-up and two barrier rounds per round of 36 tiles' barrier.
    unsigned udn_queue_words = 32;
    uint64_t seed = 0;                       // 0: the default interleaving; others vary ties, deterministically
    std::ostream* trace = nullptr;           // one line per bundle: cycle, tile, pc, bundle
    uint64_t trace_mask = ~uint64_t(0);      // of these tiles (bit = tile index)
};

// The cycle model (estimates: docs/tile-sim.md).
struct Timing {
    unsigned load_local = 2;    // a load from the tile's own partition: an L1 hit (GCC's tilegx-generic.md: 2)
    unsigned load_remote = 50;  // from another tile's partition: a remote L2 (GCC's figure for a remote access)
    unsigned load_other = 80;   // from memory no tile's partition is: a miss to DRAM (GCC's figure)
    unsigned atomic = 50;       // an atomic's result (performed at the home tile)
    unsigned multiply = 2;
    unsigned store_base = 2;    // a store lands store_base + hops cycles after it issued
    unsigned udn_base = 1;      // a packet arrives udn_base + hops + words cycles after its last word was sent
};

struct Fault {
    bool any = false;
    unsigned tile = 0;
    uint64_t pc = 0;
    std::string what;
};

class Chip {
public:
    explicit Chip(const ChipConfig& cfg, const Timing& timing = Timing());
    ~Chip();
    Chip(const Chip&) = delete;
    Chip& operator=(const Chip&) = delete;

    // The host's access to memory, applied at once. Throws std::out_of_range naming the address if it is outside.
    void host_write(uint64_t addr, const void* data, size_t n);
    void host_read(uint64_t addr, void* data, size_t n) const;

    // Starts tile `tile` at `pc` with r0 = `r0`, at the current time.
    void start(unsigned tile, uint64_t pc, uint64_t r0);

    enum class Stop {
        Budget,     // `cycles` more cycles have passed
        Quiescent,  // no tile can issue and nothing is in flight: every tile off, napping or waiting on the UDN
        Fault,      // a tile faulted (fault() says how); the chip stops there
    };
    Stop run(uint64_t cycles);

    enum class TileState { Off, Running, Receiving, Napping };
    uint64_t now() const;
    uint64_t bundles() const;  // executed, all tiles
    const Fault& fault() const;
    unsigned tiles() const;
    TileState state(unsigned tile) const;
    uint64_t pc(unsigned tile) const;
    uint64_t reg(unsigned tile, unsigned r) const;
    uint64_t tile_bundles(unsigned tile) const;
    // "x 2 y 0, pc 0x..., waiting on udn0 (2 words queued, none arrived): { move r0, udn0 }": for reports.
    std::string describe(unsigned tile) const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace tgxsim

// The TILE-Gx run on the project's own simulator (sim/tilegx, tgxsim::Chip), in oshrun's process: the plan's
// memory written as a board's boot loader would (boot blocks, relocated images, zeroed mailboxes), the tiles
// started one after another, then the chip run in slices of simulated time with the mailboxes drained between
// them, as run_mesh does for Epiphany.
#include <tile/boot_block.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <map>
#include <iostream>
#include <memory>

#include "../epiphany/epiphany_sim.hpp"  // SimOptions: the OSHRUN_SIM_* settings, shared by both simulators
#include "tilegx/chip.hpp"
#include "core/common.hpp"
#include "core/console.hpp"
#include "core/process.hpp"
#include "tile.hpp"

namespace oshrun {

namespace {

constexpr uint64_t kSlice = 200000;  // cycles between two looks at the mailboxes
constexpr uint32_t kHead = offsetof(shmem_tile_mailbox, head), kTail = offsetof(shmem_tile_mailbox, tail);
constexpr uint32_t kState = offsetof(shmem_tile_mailbox, state), kRing = offsetof(shmem_tile_mailbox, ring);
static_assert(offsetof(shmem_tile_mailbox, status) == kState + 4, "state and status are read together");

// The simulator's index of a PE's tile: row-major over the chip, whose top-left tile is the plan's first.
unsigned tile_index(const TilePlan& plan, const TilePe& pe, unsigned chip_cols) {
    return (pe.y - plan.first_y) * chip_cols + (pe.x - plan.first_x);
}

uint64_t trace_mask(const std::string& list, const TilePlan& plan, unsigned chip_cols) {
    if (list.empty()) return ~uint64_t(0);
    uint64_t mask = 0;
    for (unsigned pe : trace_pe_list(list, plan.npes)) mask |= uint64_t(1) << tile_index(plan, plan.pes[pe], chip_cols);
    return mask;
}

int exit_status(uint32_t status) { return status <= 255 ? int(status) : 255; }

}  // namespace

std::string tilegx_unexecuted(const Image& img) {
    struct Seen {
        uint64_t first;
        size_t count;
    };
    std::map<std::string, Seen> missing;
    for (const Section& sec : img.sections) {
        if (!sec.exec || sec.type == SHT_NOBITS) continue;
        for (uint64_t a = sec.addr & ~uint64_t(7); a + 8 <= sec.addr + sec.size; a += 8) {
            if (a < img.link_base || a + 8 - img.link_base > img.flat.size()) break;
            uint64_t bits = 0;
            for (int i = 7; i >= 0; --i) bits = bits << 8 | img.flat[a - img.link_base + unsigned(i)];
            // A zero word is no TILE-Gx bundle, and GCC leaves zero words in .text as data: the address slots of its
            // trampoline template (a run that reaches one faults, as for any data).
            if (bits == 0) continue;
            const tgxsim::Bundle b = tgxsim::decode(bits, a);
            for (unsigned s = 0; s < b.n; ++s) {
                if (tgxsim::executes(b.slot[s].op)) continue;
                auto it = missing.emplace(tgxsim::op_name(b.slot[s].op), Seen{a, 0}).first;
                ++it->second.count;
            }
        }
    }
    if (missing.empty()) return "";
    std::string list;
    for (const auto& [name, seen] : missing)
        list += (list.empty() ? "" : ", ") + name + " (" + std::to_string(seen.count) + ", first at " +
                hex(seen.first) + ")";
    return img.path + " has instructions oshrun's TILE-Gx simulator does not execute: " + list +
           "; a run faults if it reaches one";
}

int run_tile_sim(const Target& t, const TilePlan& plan, const Image& img, const Request& req) {
    const SimOptions opt = sim_options_from_env();
    tgxsim::ChipConfig cfg;
    cfg.cols = t.chip.cols;
    cfg.rows = t.chip.rows;
    cfg.origin_x = plan.first_x;  // the plan's rectangle starts at the chip's top-left tile
    cfg.origin_y = plan.first_y;
    cfg.mem_base = plan.ram_base;
    cfg.mem_size = plan.end - plan.ram_base;
    cfg.partition_base = plan.ram_base;
    cfg.log2_partition = plan.log2_partition;
    for (const TilePe& pe : plan.pes) cfg.partition_tile.push_back(tile_index(plan, pe, cfg.cols));
    cfg.seed = opt.seed;
    std::ofstream trace_file;
    if (!opt.trace.empty()) {
        if (opt.trace == "-") {
            cfg.trace = &std::cerr;
        } else {
            trace_file.open(opt.trace);
            if (!trace_file) throw Failure("OSHRUN_SIM_TRACE=" + opt.trace + ": cannot write it", 2);
            cfg.trace = &trace_file;
        }
        cfg.trace_mask = trace_mask(opt.trace_pes, plan, cfg.cols);
    }
    tgxsim::Chip chip(cfg);
    for (const TilePe& pe : plan.pes) {
        chip.host_write(pe.boot_block(), pe.boot.data(), pe.boot.size());
        const std::vector<uint8_t> image = relocate_tile_image(t, img, pe.image);
        chip.host_write(pe.image, image.data(), image.size());  // the rest of .bss: the memory starts zeroed
    }

    std::ostream& out = std::cout;
    std::ostream& err = std::cerr;
    Console console(plan.npes, out, err, req.console);
    const SignalCatcher signals;
    using clock = std::chrono::steady_clock;
    const auto begin = clock::now();
    const double timeout = req.timeout.value_or(0);

    // One tile after another, as a host starts them: start_gap cycles apart (with a seed, up to twice that).
    uint64_t rng = opt.seed * 0x9e3779b97f4a7c15ull + 7;
    bool faulted = false;
    for (size_t i = 0; i < plan.pes.size() && !faulted; ++i) {
        const TilePe& pe = plan.pes[i];
        chip.start(tile_index(plan, pe, cfg.cols), pe.entry, pe.boot_block());
        if (i + 1 == plan.pes.size() || opt.start_gap == 0) continue;
        uint64_t gap = opt.start_gap;
        if (opt.seed != 0) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            gap += rng % (opt.start_gap + 1);
        }
        faulted = chip.run(gap) == tgxsim::Chip::Stop::Fault;
    }

    auto stats = [&] {
        if (!(opt.stats || req.verbose)) return;
        std::fprintf(stderr, "oshrun: tilegx simulator: %llu cycles, %llu bundles\n",
                     static_cast<unsigned long long>(chip.now()), static_cast<unsigned long long>(chip.bundles()));
        for (const TilePe& pe : plan.pes)
            std::fprintf(stderr, "oshrun:   PE %u: %llu bundles, %s\n", pe.pe,
                         static_cast<unsigned long long>(chip.tile_bundles(tile_index(plan, pe, cfg.cols))),
                         chip.describe(tile_index(plan, pe, cfg.cols)).c_str());
    };

    std::vector<uint32_t> tail(plan.npes, 0);
    std::vector<bool> done(plan.npes, false);
    char ring[SHMEM_TILE_MAILBOX_RING];
    for (;;) {
        const tgxsim::Chip::Stop stop = faulted ? tgxsim::Chip::Stop::Fault : chip.run(kSlice);
        // The mailboxes: console bytes, then the state (a tile writes its state after its last console byte).
        long ended = -1;
        uint32_t end_status = 0;
        for (const TilePe& pe : plan.pes) {
            const unsigned k = pe.pe;
            if (done[k]) continue;
            uint32_t state_status[2], head;
            chip.host_read(pe.mailbox + kState, state_status, sizeof state_status);
            chip.host_read(pe.mailbox + kHead, &head, sizeof head);
            const uint32_t pending = head - tail[k];
            if (pending > SHMEM_TILE_MAILBOX_RING)
                throw Failure("PE " + std::to_string(k) + "'s console mailbox at " + hex(pe.mailbox) +
                              " is corrupt: head " + std::to_string(head) + " is " + std::to_string(pending) +
                              " bytes past tail " + std::to_string(tail[k]), 1);
            if (pending) {
                const uint32_t at = tail[k] % SHMEM_TILE_MAILBOX_RING;
                const uint32_t first = std::min(pending, SHMEM_TILE_MAILBOX_RING - at);
                chip.host_read(pe.mailbox + kRing + at, ring, first);
                if (pending > first) chip.host_read(pe.mailbox + kRing, ring + first, pending - first);
                console.feed(k, ring, pending);
                tail[k] = head;
                chip.host_write(pe.mailbox + kTail, &tail[k], sizeof tail[k]);
            }
            switch (state_status[0]) {
            case SHMEM_TILE_STATE_RUNNING: break;
            case SHMEM_TILE_STATE_DONE: done[k] = true; break;
            case SHMEM_TILE_STATE_END:
                if (ended < 0) ended = long(k), end_status = state_status[1];
                break;
            default:
                throw Failure("PE " + std::to_string(k) + "'s console mailbox at " + hex(pe.mailbox) +
                              " is corrupt: state " + std::to_string(state_status[0]) + " (running 0, done 1, end 2)",
                              1);
            }
        }
        if (ended >= 0) {
            console.finish();
            stats();
            return exit_status(end_status);
        }
        if (std::all_of(done.begin(), done.end(), [](bool d) { return d; })) {
            console.finish();
            stats();
            return 0;
        }
        if (stop == tgxsim::Chip::Stop::Fault) {
            console.finish();
            const tgxsim::Fault& f = chip.fault();
            const TilePe* pe = nullptr;
            for (const TilePe& p : plan.pes)
                if (tile_index(plan, p, cfg.cols) == f.tile) pe = &p;
            char where[96];
            std::snprintf(where, sizeof where, "tile x %u y %u, pc 0x%llx", plan.first_x + f.tile % cfg.cols,
                          plan.first_y + f.tile / cfg.cols,
                          static_cast<unsigned long long>(f.pc));
            err << "oshrun: " << (pe ? "PE " + std::to_string(pe->pe) : std::string("a tile without a PE")) << " ("
                << where << ", tilegx simulator): " << f.what << "\n";
            err.flush();
            stats();
            return 139;
        }
        if (stop == tgxsim::Chip::Stop::Quiescent) {
            console.finish();
            err << "oshrun: deadlock: no tile of " << (req.argv.empty() ? img.path : req.argv[0])
                << " can go on (tilegx simulator, cycle " << chip.now() << "):\n";
            for (const TilePe& pe : plan.pes)
                if (!done[pe.pe])
                    err << "oshrun:   PE " << pe.pe << ": " << chip.describe(tile_index(plan, pe, cfg.cols)) << "\n";
            err.flush();
            stats();
            return 124;
        }
        if (const int sig = SignalCatcher::received()) {
            console.finish();
            err << "oshrun: interrupted by " << strsignal(sig) << "; tiles stopped\n";
            return 128 + sig;
        }
        if (timeout > 0 && clock::now() - begin >= std::chrono::duration<double>(timeout)) {
            console.finish();
            std::string running;
            for (unsigned k = 0; k < plan.npes; ++k)
                if (!done[k]) running += (running.empty() ? "" : ", ") + std::to_string(k);
            char limit[32];
            std::snprintf(limit, sizeof limit, "%g", timeout);
            err << "oshrun: timeout: " << (req.argv.empty() ? img.path : req.argv[0]) << " did not finish within "
                << limit << " s on " << plan.npes << " PEs (still running: PE " << running
                << "); tiles stopped\n";
            err.flush();
            stats();
            return 124;
        }
    }
}

}  // namespace oshrun

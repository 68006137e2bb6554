// The sim mesh (epiphany_sim.hpp).
#include "epiphany_sim.hpp"

#include <epiphany/boot_block.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "chip.hpp"
#include "core/common.hpp"

namespace oshrun {

namespace {

// Simulated cycles per slice: the run loop's reads wait for at most one slice (a few ms of host time).
constexpr uint64_t kSlice = 200000;

class SimMesh final : public Mesh {
public:
    SimMesh(const Target& t, const EpiphanyPlan& plan, const SimOptions& opt) : plan_(plan), opt_(opt) {
        epsim::ChipConfig cfg;
        cfg.name = t.name;
        cfg.rows = t.chip.rows;
        cfg.cols = t.chip.cols;
        cfg.first_row = first_row_ = t.chip.first_row;
        cfg.first_col = first_col_ = t.chip.first_col;
        chip_cols_ = cfg.cols;
        cfg.dram_base = uint32_t(kEpExternalBase);
        cfg.dram_size = uint32_t(kEpExternalSize);
        cfg.seed = opt.seed;
        if (!opt.trace.empty()) {
            if (opt.trace == "-") {
                cfg.trace = &std::cerr;
            } else {
                trace_file_.open(opt.trace);
                if (!trace_file_) throw Failure("OSHRUN_SIM_TRACE: cannot write " + opt.trace, 2);
                cfg.trace = &trace_file_;
            }
            cfg.trace_mask = trace_mask(opt.trace_pes);
        }
        chip_.reset(new epsim::Chip(cfg));
    }
    ~SimMesh() override { halt(); }

    void reset(const std::vector<unsigned>&) override {}  // a new chip: every core waits for SYNC
    void write(uint32_t global, const void* data, size_t n) override {
        std::lock_guard<std::mutex> lock(mu_);
        try {
            chip_->host_write(global, data, n);
        } catch (const std::out_of_range& e) {
            throw Failure(e.what(), 1);
        }
    }
    void read(uint32_t global, void* data, size_t n) override {
        std::lock_guard<std::mutex> lock(mu_);
        try {
            chip_->host_read(global, data, n);
        } catch (const std::out_of_range& e) {
            throw Failure(e.what(), 1);
        }
    }
    void start(const std::vector<unsigned>& coreids) override {
        {
            // One core after another, as a host starts them (each start is one write through the eLink): the
            // cores' starts are opt_.start_gap cycles apart (with a seed, up to twice that, varying), and a core
            // that starts early runs while the next one has not.
            std::lock_guard<std::mutex> lock(mu_);
            const uint32_t sync = 1;  // ILATST bit 0: SYNC, the reset interrupt
            uint64_t rng = opt_.seed * 0x9e3779b97f4a7c15ull + 7;
            for (size_t i = 0; i < coreids.size(); ++i) {
                chip_->host_write(uint32_t(coreids[i]) << 20 | 0xf042c, &sync, 4);
                if (i + 1 == coreids.size() || opt_.start_gap == 0) continue;
                uint64_t gap = opt_.start_gap;
                if (opt_.seed != 0) {
                    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                    gap += rng % (opt_.start_gap + 1);
                }
                if (chip_->run(gap) == epsim::Chip::Stop::Fault) break;  // the loop reports it
            }
        }
        thread_ = std::thread([this] { loop(); });
    }
    void stop() override {
        halt();
        if (opt_.stats || opt_.verbose) {
            std::fprintf(stderr, "oshrun: epiphany simulator: %llu cycles, %llu instructions\n",
                         static_cast<unsigned long long>(chip_->now()),
                         static_cast<unsigned long long>(chip_->instructions()));
            for (const EpiphanyPe& pe : plan_.pes)
                std::fprintf(stderr, "oshrun:   PE %u (core 0x%03x): %llu instructions, lowest sp 0x%04x, pc 0x%08x, "
                             "ILAT 0x%03x, IMASK 0x%03x, IPEND 0x%03x, STATUS 0x%08x\n", pe.pe, pe.coreid,
                             static_cast<unsigned long long>(chip_->core_instructions(core_index(pe.coreid))),
                             chip_->lowest_sp(core_index(pe.coreid)),
                             chip_->pc(core_index(pe.coreid)), chip_->special(core_index(pe.coreid), 0x428),
                             chip_->special(core_index(pe.coreid), 0x424), chip_->special(core_index(pe.coreid), 0x434),
                             chip_->special(core_index(pe.coreid), 0x404));
        }
    }

private:
    uint64_t trace_mask(const std::string& list) const {
        if (list.empty()) return ~uint64_t(0);
        uint64_t mask = 0;
        for (unsigned pe : trace_pe_list(list, unsigned(plan_.pes.size())))
            mask |= uint64_t(1) << core_index(plan_.pes[pe].coreid);
        return mask;
    }
    // The chip's core index of a coreid: row-major from its first core.
    unsigned core_index(unsigned coreid) const {
        return ((coreid >> 6) - first_row_) * chip_cols_ + ((coreid & 63) - first_col_);
    }

    void halt() {
        stopping_ = true;
        if (thread_.joinable()) thread_.join();
    }

    void loop() {
        while (!stopping_) {
            epsim::Chip::Stop s;
            {
                std::lock_guard<std::mutex> lock(mu_);
                s = chip_->run(kSlice);
                if (s == epsim::Chip::Stop::Fault) {
                    report(chip_->fault());
                    return;
                }
            }
            if (s == epsim::Chip::Stop::Quiescent) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    // The faulting core's PE (or PE 0) ends the run with 139, as the chip's fault handler would have.
    void report(const epsim::Fault& f) {
        const EpiphanyPe* pe = nullptr;
        for (const EpiphanyPe& p : plan_.pes)
            if (p.coreid == f.coreid) pe = &p;
        char where[64];
        std::snprintf(where, sizeof where, "core 0x%03x, pc 0x%08x", f.coreid, f.pc);
        std::fprintf(stderr, "oshrun: %s%s (%s, epiphany simulator): %s\n", pe ? "PE " : "",
                     pe ? std::to_string(pe->pe).c_str() : "a core without a PE", where, f.what.c_str());
        std::fflush(stderr);
        const EpiphanyPe& target = pe ? *pe : plan_.pes.at(0);
        const uint32_t status = 139, state = SHMEM_EP_STATE_END;
        chip_->host_write(target.mailbox + offsetof(shmem_ep_mailbox, status), &status, 4);
        chip_->host_write(target.mailbox + offsetof(shmem_ep_mailbox, state), &state, 4);
    }

    const EpiphanyPlan plan_;
    const SimOptions opt_;
    unsigned first_row_ = 0, first_col_ = 0, chip_cols_ = 0;  // the target's chip
    std::ofstream trace_file_;
    std::unique_ptr<epsim::Chip> chip_;
    std::mutex mu_;
    std::thread thread_;
    std::atomic<bool> stopping_{false};
};

}  // namespace

std::vector<unsigned> trace_pe_list(const std::string& list, unsigned npes) {
    std::vector<unsigned> pes;
    const Failure bad("OSHRUN_SIM_TRACE_PES=" + list + ": expected PE numbers such as 0,3-5", 2);
    size_t i = 0;
    while (i < list.size()) {
        char* end = nullptr;
        const unsigned long lo = std::strtoul(list.c_str() + i, &end, 10);
        unsigned long hi = lo;
        size_t j = size_t(end - list.c_str());
        if (j == i) throw bad;
        if (j < list.size() && list[j] == '-') {
            const size_t k = j + 1;
            hi = std::strtoul(list.c_str() + k, &end, 10);
            j = size_t(end - list.c_str());
            if (j == k) throw bad;
        }
        for (unsigned long pe = lo; pe <= hi && pe < npes; ++pe) pes.push_back(unsigned(pe));
        if (j < list.size() && list[j] != ',') throw bad;
        i = j + 1;
    }
    return pes;
}

SimOptions sim_options_from_env() {
    SimOptions o;
    if (const char* s = std::getenv("OSHRUN_SIM_SEED"); s && *s) {
        char* end = nullptr;
        o.seed = std::strtoull(s, &end, 0);
        if (*end != '\0') throw Failure(std::string("OSHRUN_SIM_SEED=") + s + ": expected a number", 2);
    }
    if (const char* s = std::getenv("OSHRUN_SIM_START_GAP"); s && *s) {
        char* end = nullptr;
        o.start_gap = std::strtoull(s, &end, 0);
        if (*end != '\0' || o.start_gap > 1000000000)
            throw Failure(std::string("OSHRUN_SIM_START_GAP=") + s + ": expected a number of cycles", 2);
    }
    if (const char* s = std::getenv("OSHRUN_SIM_TRACE")) o.trace = s;
    if (const char* s = std::getenv("OSHRUN_SIM_TRACE_PES")) o.trace_pes = s;
    if (const char* s = std::getenv("OSHRUN_SIM_STATS")) o.stats = *s && std::string(s) != "0";
    return o;
}

std::unique_ptr<Mesh> open_sim(const Target& t, const EpiphanyPlan& plan, const SimOptions& opt) {
    return std::unique_ptr<Mesh>(new SimMesh(t, plan, opt));
}

}  // namespace oshrun

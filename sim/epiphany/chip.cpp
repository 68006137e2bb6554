// The simulated chip (chip.hpp): cores, memory map, interrupts, timers, WAND, DMA, the mesh's timing.
#include "chip.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>
#include <queue>
#include <stdexcept>

#include "isa.hpp"

namespace epsim {

namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kSram = 0x8000;
constexpr uint32_t kMmrBase = 0xf0000, kMmrEnd = 0xf1000;

enum Irq : unsigned { SYNC = 0, SWEXC = 1, MEMFAULT = 2, TIMER0 = 3, TIMER1 = 4, MESSAGE = 5, DMA0 = 6, DMA1 = 7,
                      WAND = 8, USER = 9 };
// EXCAUSE (STATUS[18:16]) of the Epiphany-III: 1 swi, 2 unaligned, 3 FPU, 4 unimplemented, 5 illegal access
// (Adapteva's e-server lists these for the E-III; the Epiphany-IV's differ and use bit 19 too).
enum Cause : uint32_t { CAUSE_SWI = 1, CAUSE_UNALIGNED = 2, CAUSE_UNIMPLEMENTED = 4 };

// Special registers, by their offset in the core's register page (0xf0000 + offset).
enum Mmr : uint32_t {
    CONFIG = 0x400, STATUS = 0x404, PC = 0x408, DEBUGSTATUS = 0x40c, IAB = 0x410, LC = 0x414, LS = 0x418,
    LE = 0x41c, IRET = 0x420, IMASK = 0x424, ILAT = 0x428, ILATST = 0x42c, ILATCL = 0x430, IPEND = 0x434,
    CTIMER0 = 0x438, CTIMER1 = 0x43c, FSTATUS = 0x440, DEBUGCMD = 0x448,
    DMA_BASE = 0x500, DMA_END = 0x540,
    MEMCONFIG = 0x600, MEMSTATUS = 0x604, MEMPROTECT = 0x608, MEMRESERVE = 0x60c,
    MESHCONFIG = 0x700, COREID = 0x704, MULTICAST = 0x708, RESETCORE = 0x70c,
};

struct Dma {
    uint32_t reg[8] = {};  // config, stride, count, srcaddr, dstaddr, auto0, auto1, status
    uint64_t done_at = kNever;
};

struct Write {  // a write on its way through the mesh (or to external DRAM)
    uint64_t time, seq;
    uint32_t addr;
    uint8_t n;
    uint64_t data;
    bool operator>(const Write& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

struct Core {
    unsigned index = 0, row = 0, col = 0;
    uint32_t coreid = 0;
    uint32_t r[64] = {};
    uint32_t pc = 0;
    uint8_t az = 0, an = 0, ac = 0, av = 0, avs = 0;        // integer flags
    uint8_t bz = 0, bn = 0, bv = 0, bu = 0, bi = 0;          // floating-point flags
    uint8_t bvs = 0, bus = 0, bis = 0;                       // and their sticky forms
    uint8_t gid = 0, km = 0, wand = 0;
    uint32_t excause = 0;                                    // STATUS[19:16]
    uint32_t config = 0, lc = 0, ls = 0, le = 0, iret = 0, imask = 0, ilat = 0, ipend = 0;
    uint32_t debugstatus = 0, iab = 0;
    uint32_t lowest_sp = ~0u;                                // the lowest non-zero r13 (SP) after an instruction
    uint32_t timer[2] = {0, 0};                              // value at timer_at
    uint64_t timer_at[2] = {0, 0};
    uint64_t deadline = kNever;                              // the next time a timer reaches 0
    Dma dma[2];
    uint32_t mem[4] = {}, mesh[8] = {};
    bool running = false;                                    // false: in IDLE (or never started)
    uint64_t ready = 0;                                      // the cycle its next instruction issues
    uint64_t icount = 0;
    uint64_t writes_due = 0;                                 // when its last write in flight arrives
    uint64_t last_issue = ~uint64_t(0);                      // dual issue: the previous instruction's cycle,
    uint8_t last_class = 0, last_dst = 0;                    // its pipeline and destination register
    bool last_double = false, last_paired = false;
    std::vector<uint64_t> last_arrival;                      // per destination (cores, then DRAM)
    std::vector<uint8_t> sram;
    std::vector<Insn> icache;                                // per halfword of SRAM; size 0: not decoded

    unsigned timer_mode(unsigned t) const { return (config >> (4 + 4 * t)) & 0xf; }
    bool int_mode() const { return (config >> 19) & 1; }
};

uint32_t ctz(uint32_t v) { return uint32_t(__builtin_ctz(v)); }

}  // namespace

struct Chip::Impl {
    ChipConfig cfg;
    Timing tm;
    std::vector<Core> cores;
    std::vector<uint8_t> dram;
    std::vector<std::unique_ptr<Insn[]>> dram_icache;  // per 4 KiB page of DRAM, when code ran from it
    std::priority_queue<Write, std::vector<Write>, std::greater<Write>> writes;
    uint64_t seq = 0;
    uint64_t now = 0;
    uint64_t total = 0;
    unsigned wand_set = 0;  // cores whose STATUS.WAND is set
    Fault fault;
    uint64_t rng = 0;

    explicit Impl(const ChipConfig& c, const Timing& t) : cfg(c), tm(t) {
        if (cfg.rows == 0 || cfg.cols == 0 || cfg.rows * cfg.cols > 64 || cfg.first_row + cfg.rows > 64 ||
            cfg.first_col + cfg.cols > 64)
            throw std::invalid_argument("epsim: a chip of 1..64 cores within the 64 x 64 mesh");
        cores.resize(cfg.rows * cfg.cols);
        for (unsigned i = 0; i < cores.size(); ++i) {
            Core& k = cores[i];
            k.index = i;
            k.row = cfg.first_row + i / cfg.cols;
            k.col = cfg.first_col + i % cfg.cols;
            k.coreid = k.row << 6 | k.col;
            k.sram.assign(kSram, 0);
            k.icache.assign(kSram / 2, Insn{});
            for (auto& e : k.icache) e.size = 0;
            k.timer[0] = k.timer[1] = 0;
            k.mesh[1] = k.coreid;
            k.last_arrival.assign(cores.size() + 1, 0);
        }
        dram.assign(cfg.dram_size, 0);
        dram_icache.resize((cfg.dram_size + 4095) / 4096);
        rng = cfg.seed * 0x9e3779b97f4a7c15ull + 1;
    }

    // ---- the address map ------------------------------------------------------------------------------------

    Core* core_at(uint32_t id) {
        const unsigned row = id >> 6, col = id & 63;
        if (row < cfg.first_row || row >= cfg.first_row + cfg.rows || col < cfg.first_col ||
            col >= cfg.first_col + cfg.cols)
            return nullptr;
        return &cores[(row - cfg.first_row) * cfg.cols + (col - cfg.first_col)];
    }
    bool in_dram(uint32_t a, uint32_t n) const {
        return a >= cfg.dram_base && uint64_t(a) + n <= uint64_t(cfg.dram_base) + cfg.dram_size;
    }
    unsigned hops(const Core& a, const Core& b) const {
        return unsigned(std::abs(int(a.row) - int(b.row)) + std::abs(int(a.col) - int(b.col)));
    }

    // ---- special registers ----------------------------------------------------------------------------------

    uint32_t timer_value(Core& k, unsigned t) {
        if (k.timer_mode(t) != 1) return k.timer[t];
        const uint64_t elapsed = now - k.timer_at[t];
        return elapsed >= k.timer[t] ? 0 : k.timer[t] - uint32_t(elapsed);
    }
    // Timers count only in mode 1 (clock cycles); the count is computed when read, and `deadline` is when the
    // next one reaches 0 (its interrupt is latched once, then it stays at 0: the E16/E64 have no wrap mode).
    void settle_timers(Core& k) {
        for (unsigned t = 0; t < 2; ++t) {
            k.timer[t] = timer_value(k, t);
            k.timer_at[t] = now;
        }
        update_deadline(k);
    }
    void update_deadline(Core& k) {
        if (!k.running) members_changed = true;  // the idle cores' earliest deadline may move
        k.deadline = kNever;
        for (unsigned t = 0; t < 2; ++t)
            if (k.timer_mode(t) == 1 && k.timer[t] != 0) k.deadline = std::min(k.deadline, k.timer_at[t] + k.timer[t]);
    }
    void expire_timers(Core& k) {
        for (unsigned t = 0; t < 2; ++t)
            if (k.timer_mode(t) == 1 && k.timer[t] != 0 && k.timer_at[t] + k.timer[t] <= now) {
                k.timer[t] = 0;
                k.timer_at[t] = now;
                latch(k, t == 0 ? TIMER0 : TIMER1);
            }
        update_deadline(k);
    }

    uint32_t status(const Core& k) const {
        return uint32_t(k.running) | uint32_t(k.gid) << 1 | uint32_t(k.km) << 2 | uint32_t(k.wand) << 3 |
               uint32_t(k.az) << 4 | uint32_t(k.an) << 5 | uint32_t(k.ac) << 6 | uint32_t(k.av) << 7 |
               uint32_t(k.bz) << 8 | uint32_t(k.bn) << 9 | uint32_t(k.bv) << 10 | uint32_t(k.avs) << 12 |
               uint32_t(k.bis) << 13 | uint32_t(k.bvs) << 14 | uint32_t(k.bus) << 15 | k.excause << 16;
    }
    void set_flags(Core& k, uint32_t v) {
        k.az = (v >> 4) & 1; k.an = (v >> 5) & 1; k.ac = (v >> 6) & 1; k.av = (v >> 7) & 1;
        k.bz = (v >> 8) & 1; k.bn = (v >> 9) & 1; k.bv = (v >> 10) & 1; k.avs = (v >> 12) & 1;
        k.bis = (v >> 13) & 1; k.bvs = (v >> 14) & 1; k.bus = (v >> 15) & 1;
    }
    void set_wand(Core& k, bool on) {
        if (k.wand == on) return;
        k.wand = on;
        if (!on) {
            --wand_set;
            return;
        }
        // The wired AND: the WAND interrupt is latched on every core when the last core's bit is set.
        if (++wand_set == cores.size()) {
            for (Core& c : cores) deliver_later_irq(c, WAND, tm.wand_delay);
        }
    }

    uint32_t mmr_read(Core& k, uint32_t off) {
        switch (off) {
        case CONFIG: return k.config;
        case STATUS: case FSTATUS: return status(k);
        case PC: return k.pc;
        case DEBUGSTATUS: return k.debugstatus;
        case IAB: return k.iab;
        case LC: return k.lc;
        case LS: return k.ls;
        case LE: return k.le;
        case IRET: return k.iret;
        case IMASK: return k.imask;
        case ILAT: return k.ilat;
        case IPEND: return k.ipend;
        case CTIMER0: return timer_value(k, 0);
        case CTIMER1: return timer_value(k, 1);
        case ILATST: case ILATCL: case DEBUGCMD: return 0;
        default: break;
        }
        if (off >= DMA_BASE && off < DMA_END) {
            Dma& d = k.dma[(off - DMA_BASE) / 0x20];
            const unsigned i = (off - DMA_BASE) % 0x20 / 4;
            if (i == 7) return d.done_at != kNever && d.done_at > now ? 1u : 0u;
            return d.reg[i];
        }
        if (off >= MEMCONFIG && off <= MEMRESERVE) return k.mem[(off - MEMCONFIG) / 4];
        if (off >= MESHCONFIG && off < MESHCONFIG + 0x20) return off == COREID ? k.coreid : k.mesh[(off - MESHCONFIG) / 4];
        return 0;
    }

    void mmr_write(Core& k, uint32_t off, uint32_t v) {
        switch (off) {
        case CONFIG: {
            settle_timers(k);
            k.config = v;
            update_deadline(k);
            return;
        }
        case STATUS: set_flags(k, v); return;
        case FSTATUS:
            set_flags(k, v);
            k.gid = (v >> 1) & 1;
            k.km = (v >> 2) & 1;
            k.excause = (v >> 16) & 0xf;
            set_wand(k, (v >> 3) & 1);
            return;
        case PC: k.pc = v & ~1u; return;
        case DEBUGSTATUS: k.debugstatus = v; return;
        case IAB: k.iab = v; return;
        case LC: k.lc = v; return;
        case LS: k.ls = v & ~1u; return;
        case LE: k.le = v & ~1u; return;
        case IRET: k.iret = v & ~1u; return;
        case IMASK: k.imask = v & 0x3ff; return;
        case ILAT: k.ilat = v & 0x3ff; wake(k); return;
        case ILATST: k.ilat |= v & 0x3ff; wake(k); return;
        case ILATCL: k.ilat &= ~v; return;
        case IPEND: k.ipend = v & 0x3ff; return;
        case CTIMER0:
        case CTIMER1: {
            const unsigned t = off == CTIMER1;
            k.timer[t] = v;
            k.timer_at[t] = now;
            update_deadline(k);
            return;
        }
        case DEBUGCMD: return;
        default: break;
        }
        if (off >= DMA_BASE && off < DMA_END) {
            const unsigned ch = (off - DMA_BASE) / 0x20, i = (off - DMA_BASE) % 0x20 / 4;
            dma_write(k, ch, i, v);
            return;
        }
        if (off >= MEMCONFIG && off <= MEMRESERVE) {
            k.mem[(off - MEMCONFIG) / 4] = v;
            return;
        }
        if (off >= MESHCONFIG && off < MESHCONFIG + 0x20) {
            if (off != COREID) k.mesh[(off - MESHCONFIG) / 4] = v;
            return;
        }
    }

    // movts/movfs: group 0 is the core's page from 0x400, 1 the DMA registers, 2 memory, 3 mesh.
    static uint32_t special_offset(unsigned group, unsigned index) { return 0x400 + group * 0x100 + index * 4; }

    // ---- interrupts -----------------------------------------------------------------------------------------

    void latch(Core& k, unsigned irq) {
        k.ilat |= 1u << irq;
        wake(k);
    }
    // IDLE ends on any latched interrupt, enabled or not (the E16/E64 reference's IDLE).
    void wake(Core& k) {
        if (!k.running && k.ilat != 0 && fault.any == false) {
            k.running = true;
            members_changed = true;
            k.ready = std::max(k.ready, now + tm.wake);
            schedule(k);
        }
    }
    void deliver_later_irq(Core& k, unsigned irq, unsigned delay) {
        // An ILATST write from nowhere: it goes through the queue so that it lands at its time.
        Write w{now + delay, seq++, k.coreid << 20 | kMmrBase | ILATST, 4, uint64_t(1) << irq};
        writes.push(w);
    }
    // Takes the highest-priority enabled interrupt if it may preempt what runs: at an instruction boundary.
    bool take_interrupt(Core& k) {
        const uint32_t pending = k.ilat & ~k.imask;
        if (pending == 0 || k.gid) return false;
        const uint32_t n = ctz(pending);
        if (k.ipend != 0 && ctz(k.ipend) <= n) return false;
        k.iret = k.pc;
        k.ipend |= 1u << n;
        k.ilat &= ~(1u << n);
        k.gid = 1;
        k.km = 1;
        k.pc = 4 * n;
        k.ready = now + tm.irq_entry;
        return true;
    }
    void exception(Core& k, uint32_t pc_next, unsigned irq, uint32_t cause) {
        k.excause = cause;
        k.ilat |= 1u << irq;
        k.pc = pc_next;
    }

    // ---- faults ---------------------------------------------------------------------------------------------

    void stop_with(Core& k, uint32_t pc, const std::string& what) {
        if (fault.any) return;
        fault.any = true;
        fault.core = k.index;
        fault.coreid = k.coreid;
        fault.pc = pc;
        fault.what = what;
    }
    static std::string hex(uint32_t v) {
        char b[16];
        std::snprintf(b, sizeof b, "0x%08x", v);
        return b;
    }

    // ---- memory ---------------------------------------------------------------------------------------------

    void invalidate_code(Core& k, uint32_t off, uint32_t n) {
        for (uint32_t h = off / 2; h <= (off + n - 1) / 2 && h < k.icache.size(); ++h) k.icache[h].size = 0;
        if (off >= 2) k.icache[off / 2 - 1].size = 0;  // a 32-bit instruction starting in the halfword before
    }
    void invalidate_dram_code(uint32_t off, uint32_t n) {
        for (uint32_t a = off; a < off + n; a = (a | 4095) + 1) {
            auto& page = dram_icache[a / 4096];
            if (page) page.reset();
        }
        if (off >= 2) {
            auto& page = dram_icache[(off - 2) / 4096];
            if (page) page.reset();
        }
    }

    // Applies a write at its destination, now (the host's writes, and the mesh's when they arrive).
    // Returns false if nothing is there.
    bool apply(uint32_t addr, const void* data, uint32_t n) {
        if (in_dram(addr, n)) {
            const uint32_t off = addr - cfg.dram_base;
            std::memcpy(&dram[off], data, n);
            invalidate_dram_code(off, n);
            return true;
        }
        Core* k = core_at(addr >> 20);
        if (k == nullptr) return false;
        const uint32_t off = addr & 0xfffff;
        if (off + n <= kSram) {
            std::memcpy(&k->sram[off], data, n);
            invalidate_code(*k, off, n);
            return true;
        }
        if (off >= kMmrBase && off + n <= kMmrEnd && n == 4 && (off & 3) == 0) {
            uint32_t v;
            std::memcpy(&v, data, 4);
            mmr_write(*k, off - kMmrBase, v);
            return true;
        }
        if (off >= kMmrBase && off + n <= kMmrEnd && n == 8 && (off & 7) == 0) {
            uint32_t v[2];
            std::memcpy(v, data, 8);
            mmr_write(*k, off - kMmrBase, v[0]);
            mmr_write(*k, off - kMmrBase + 4, v[1]);
            return true;
        }
        return false;
    }
    bool fetch(uint32_t addr, void* data, uint32_t n) {
        if (in_dram(addr, n)) {
            std::memcpy(data, &dram[addr - cfg.dram_base], n);
            return true;
        }
        Core* k = core_at(addr >> 20);
        if (k == nullptr) return false;
        const uint32_t off = addr & 0xfffff;
        if (off + n <= kSram) {
            std::memcpy(data, &k->sram[off], n);
            return true;
        }
        if (off >= kMmrBase && off + n <= kMmrEnd && (off & 3) == 0 && (n == 4 || n == 8)) {
            uint32_t v[2] = {mmr_read(*k, off - kMmrBase), n == 8 ? mmr_read(*k, off - kMmrBase + 4) : 0};
            std::memcpy(data, v, n);
            return true;
        }
        return false;
    }

    void deliver_due() {
        while (!writes.empty() && writes.top().time <= now) {
            const Write w = writes.top();
            writes.pop();
            apply(w.addr, &w.data, w.n);  // checked when it was issued
        }
    }

    // ---- DMA (descriptor mode) -------------------------------------------------------------------------------

    void dma_write(Core& k, unsigned ch, unsigned i, uint32_t v) {
        Dma& d = k.dma[ch];
        if (i == 7) {  // STATUS: writing 0 stops nothing here; the transfer is already committed
            return;
        }
        d.reg[i] = v;
        if (i != 0) return;
        if ((v & 0x8) == 0) {
            if (v & 0x1)
                stop_with(k, k.pc, "DMA" + std::to_string(ch) +
                                       " started in register mode (DMAnCONFIG without STARTUP): the simulator models "
                                       "descriptor mode only");
            return;
        }
        dma_start(k, ch, v >> 16);
    }
    // Loads the descriptor at local `ptr` and moves the whole transfer now; the channel reads busy until the
    // transfer's time is up (setup + its bytes at the DMA rate), and then raises its interrupt if asked.
    void dma_start(Core& k, unsigned ch, uint32_t ptr) {
        Dma& d = k.dma[ch];
        uint64_t at = std::max(now, d.done_at == kNever ? now : d.done_at);
        for (unsigned chain = 0;; ++chain) {
            if (ptr + 24 > kSram || (ptr & 7) != 0) {
                stop_with(k, k.pc, "DMA" + std::to_string(ch) + " descriptor at " + hex(ptr) +
                                       ": not an 8-byte aligned address in the core's SRAM");
                return;
            }
            uint32_t desc[6];
            std::memcpy(desc, &k.sram[ptr], 24);
            const uint32_t config = desc[0];
            const unsigned log2 = (config >> 5) & 3, size = 1u << log2;
            const uint32_t inner = desc[2] & 0xffff, outer = desc[2] >> 16;
            const int32_t src_in = int16_t(desc[1] & 0xffff), dst_in = int16_t(desc[1] >> 16);
            const int32_t src_out = int16_t(desc[3] & 0xffff), dst_out = int16_t(desc[3] >> 16);
            uint32_t src = desc[4], dst = desc[5];
            for (unsigned i = 0; i < 6; ++i) d.reg[i == 0 ? 0 : i] = desc[i];
            uint64_t bytes = 0;
            for (uint32_t o = 0; o < outer; ++o) {
                for (uint32_t e = 0; e < inner; ++e) {
                    uint8_t buf[8];
                    const uint32_t s = src >> 20 == 0 ? k.coreid << 20 | src : src;
                    const uint32_t t = dst >> 20 == 0 ? k.coreid << 20 | dst : dst;
                    if ((s | t) & (size - 1)) {
                        stop_with(k, k.pc, "DMA" + std::to_string(ch) + ": " + std::to_string(size) +
                                               "-byte element at a misaligned address (source " + hex(s) +
                                               ", destination " + hex(t) + ")");
                        return;
                    }
                    if (!fetch(s, buf, size)) {
                        stop_with(k, k.pc, "DMA" + std::to_string(ch) + " reads " + hex(s) + ": no memory there");
                        return;
                    }
                    if (!apply(t, buf, size)) {
                        stop_with(k, k.pc, "DMA" + std::to_string(ch) + " writes " + hex(t) + ": no memory there");
                        return;
                    }
                    bytes += size;
                    const bool last = e + 1 == inner;
                    src += uint32_t(last ? src_out : src_in);
                    dst += uint32_t(last ? dst_out : dst_in);
                }
            }
            at += tm.dma_setup + (bytes * tm.dma_num + 8 * tm.dma_den - 1) / (8 * tm.dma_den);
            if ((config & 0x4) == 0 || chain > 4096) {  // no CHAIN: done
                d.done_at = at;
                if (config & 0x10) deliver_later_irq(k, ch == 0 ? DMA0 : DMA1, unsigned(at - now));
                return;
            }
            ptr = config >> 16;
        }
    }

    // ---- the core's instructions -----------------------------------------------------------------------------

    const Insn& fetch_insn(Core& k, uint32_t pc, bool& ok, unsigned& extra) {
        static const Insn bad{};
        ok = true;
        const uint32_t hi = pc >> 20;
        if (hi == 0 || hi == k.coreid) {
            const uint32_t off = pc & 0xfffff;
            if (off + 2 <= kSram) {
                Insn& e = k.icache[off / 2];
                if (e.size == 0) {
                    uint32_t w = uint32_t(k.sram[off]) | uint32_t(k.sram[off + 1]) << 8;
                    if (off + 4 <= kSram) w |= uint32_t(k.sram[off + 2]) << 16 | uint32_t(k.sram[off + 3]) << 24;
                    e = decode(w);
                }
                return e;
            }
        } else if (in_dram(pc, 2)) {
            const uint32_t off = pc - cfg.dram_base;
            auto& page = dram_icache[off / 4096];
            if (!page) {
                page.reset(new Insn[2048]);
                for (unsigned i = 0; i < 2048; ++i) page[i].size = 0;
            }
            Insn& e = page[(off % 4096) / 2];
            if (e.size == 0) {
                uint32_t w = uint32_t(dram[off]) | uint32_t(dram[off + 1]) << 8;
                if (off + 4 <= cfg.dram_size) w |= uint32_t(dram[off + 2]) << 16 | uint32_t(dram[off + 3]) << 24;
                e = decode(w);
            }
            extra += tm.dram_fetch;
            return e;
        }
        ok = false;
        return bad;
    }

    // The global form of an address the core uses: its own memory appears at 0 and at its coreid.
    // Returns the kind: 0 own SRAM (off set), 1 own registers, 2 another core, 3 DRAM, 4 nothing.
    enum Where { OWN_SRAM, OWN_MMR, REMOTE, EXTERNAL, NOWHERE };
    Where where(const Core& k, uint32_t a, uint32_t n, uint32_t& off, Core*& other) {
        const uint32_t hi = a >> 20;
        if (hi == 0 || hi == k.coreid) {
            off = a & 0xfffff;
            if (off + n <= kSram) return OWN_SRAM;
            if (off >= kMmrBase && off + n <= kMmrEnd) return OWN_MMR;
            return NOWHERE;
        }
        if (in_dram(a, n)) return EXTERNAL;
        other = core_at(hi);
        if (other == nullptr) return NOWHERE;
        off = a & 0xfffff;
        if (off + n <= kSram || (off >= kMmrBase && off + n <= kMmrEnd)) return REMOTE;
        return NOWHERE;
    }

    // A load: returns false if the instruction must wait (its core's writes are still on their way: a load
    // goes out behind them, as they share the path) or faulted.
    bool load(Core& k, uint32_t pc, uint32_t a, unsigned n, uint64_t& v, unsigned& stall) {
        uint32_t off = 0;
        Core* other = nullptr;
        v = 0;
        switch (where(k, a, n, off, other)) {
        case OWN_SRAM:
            std::memcpy(&v, &k.sram[off], n);
            return true;
        case OWN_MMR:
            if ((off & 3) != 0 || n < 4) break;
            v = mmr_read(k, off - kMmrBase);
            if (n == 8) v |= uint64_t(mmr_read(k, off - kMmrBase + 4)) << 32;
            return true;
        case REMOTE:
        case EXTERNAL: {
            if (k.writes_due > now) {
                k.ready = k.writes_due;
                return false;
            }
            uint8_t buf[8];
            if (!fetch(a, buf, n)) break;
            std::memcpy(&v, buf, n);
            stall += other ? tm.read_base + 2 * hops(k, *other) * tm.hop : tm.dram_read;
            return true;
        }
        case NOWHERE:
            break;
        }
        stop_with(k, pc, "load of " + std::to_string(n) + " bytes from " + hex(a) + ": no memory there");
        return false;
    }
    bool store(Core& k, uint32_t pc, uint32_t a, unsigned n, uint64_t v) {
        uint32_t off = 0;
        Core* other = nullptr;
        switch (where(k, a, n, off, other)) {
        case OWN_SRAM:
            std::memcpy(&k.sram[off], &v, n);
            invalidate_code(k, off, n);
            return true;
        case OWN_MMR:
            if ((off & 3) != 0 || n < 4) break;
            mmr_write(k, off - kMmrBase, uint32_t(v));
            if (n == 8) mmr_write(k, off - kMmrBase + 4, uint32_t(v >> 32));
            return true;
        case REMOTE:
        case EXTERNAL: {
            const uint64_t delay = other ? tm.write_base + hops(k, *other) * tm.hop : tm.dram_write;
            // The mesh keeps one source's writes to one destination in order, and only those: a write to a near
            // core can arrive before an earlier one to a far core or to DRAM.
            uint64_t at = now + delay;
            if (cfg.seed != 0) at += next_random() & 1;
            uint64_t& last = k.last_arrival[other ? other->index : cores.size()];
            at = std::max(at, last);
            last = at;
            k.writes_due = std::max(k.writes_due, at);
            writes.push(Write{at, seq++, a, uint8_t(n), v});
            return true;
        }
        case NOWHERE:
            break;
        }
        stop_with(k, pc, "store of " + std::to_string(n) + " bytes to " + hex(a) + ": no memory there");
        return false;
    }

    uint64_t next_random() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    }

    bool cond(const Core& k, unsigned c) const {
        switch (c) {
        case 0: return k.az;
        case 1: return !k.az;
        case 2: return k.ac && !k.az;
        case 3: return k.ac;
        case 4: return !k.ac || k.az;
        case 5: return !k.ac;
        case 6: return !k.az && k.av == k.an;
        case 7: return k.av == k.an;
        case 8: return k.av != k.an;
        case 9: return k.az || k.av != k.an;
        case 10: return k.bz;
        case 11: return !k.bz;
        case 12: return k.bn && !k.bz;
        case 13: return k.bn || k.bz;
        default: return true;
        }
    }

    static float as_float(uint32_t v) {
        float f;
        std::memcpy(&f, &v, 4);
        return f;
    }
    static uint32_t as_bits(float f) {
        uint32_t v;
        std::memcpy(&v, &f, 4);
        return v;
    }
    // Denormals are zero on the Epiphany FPU, in and out.
    static float flush(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

    void fpu(Core& k, const Insn& in) {
        uint32_t& rd = k.r[in.rd];
        const uint32_t a = k.r[in.rn], b = k.r[in.rm];
        if (k.int_mode()) {  // IALU2: the FPU's integer mode
            uint32_t res = 0;
            switch (in.op) {
            case Op::Fadd: res = a + b; break;
            case Op::Fsub: res = a - b; break;
            case Op::Fmul: res = a * b; break;
            case Op::Fmadd: res = rd + a * b; break;
            case Op::Fmsub: res = rd - a * b; break;
            default: res = rd; break;  // float/fix/fabs have no integer form
            }
            rd = res;
            k.bz = res == 0;
            k.bn = res >> 31;
            return;
        }
        const bool trunc = k.config & 1;
        const int saved = std::fegetround();
        if (trunc) std::fesetround(FE_TOWARDZERO);
        // Volatile operands and result: the compiler may not move the arithmetic out from between the two
        // fesetround calls (it did, and truncate mode had no effect).
        volatile float fa = flush(as_float(a)), fb = flush(as_float(b)), fd = flush(as_float(rd));
        volatile float res = 0;
        bool integer = false;
        uint32_t ires = 0;
        switch (in.op) {
        case Op::Fadd: res = fa + fb; break;
        case Op::Fsub: res = fa - fb; break;
        case Op::Fmul: res = fa * fb; break;
        case Op::Fmadd: res = std::fmaf(fa, fb, fd); break;
        case Op::Fmsub: res = std::fmaf(-fa, fb, fd); break;
        case Op::Float: res = float(int32_t(a)); break;
        case Op::Fix: {
            integer = true;
            if (std::isnan(fa)) ires = 0x7fffffff;
            else if (fa >= 2147483648.0f) ires = 0x7fffffff;
            else if (fa < -2147483648.0f) ires = 0x80000000u;
            else ires = uint32_t(int32_t(trunc ? std::trunc(fa) : std::nearbyint(fa)));
            break;
        }
        case Op::Fabs: res = std::fabs(fa); break;
        default: break;
        }
        if (trunc) std::fesetround(saved);
        if (integer) {
            rd = ires;
            k.bz = ires == 0;
            k.bn = ires >> 31;
            k.bi = std::isnan(fa);
            k.bis |= k.bi;
            return;
        }
        const bool sub = std::fpclassify(res) == FP_SUBNORMAL;
        k.bu = sub;
        res = flush(res);
        const bool fused = in.op == Op::Fmadd || in.op == Op::Fmsub;
        float out = res;
        k.bv = std::isinf(out) && !std::isinf(fa) && !std::isinf(fb) && !(fused && std::isinf(fd));
        k.bi = std::isnan(out);
        if (k.bi) out = as_float(0x7fc00000u);  // one NaN whatever the host's FPU makes of it
        k.bz = out == 0;
        k.bn = as_bits(out) >> 31;  // RD[31]: -0 is negative
        k.bvs |= k.bv;
        k.bus |= k.bu;
        k.bis |= k.bi;
        rd = as_bits(out);
    }

    void trace(const Core& k, uint32_t pc, const Insn& in) {
        if (!cfg.trace || !((cfg.trace_mask >> k.index) & 1)) return;
        char b[64];
        std::snprintf(b, sizeof b, "%10llu %03x %08x  ", static_cast<unsigned long long>(now), k.coreid, pc);
        *cfg.trace << b << format(in, pc) << '\n';
    }

    // Executes one instruction (or takes an interrupt) on a running core whose time has come.
    void step(Core& k) {
        if (k.deadline <= now) expire_timers(k);
        if (k.ilat != 0 && take_interrupt(k)) return;
        const uint32_t pc = k.pc;
        bool ok;
        unsigned cost = 1;
        const Insn& in = fetch_insn(k, pc, ok, cost);
        if (!ok) {
            stop_with(k, pc, "instruction fetch from " + hex(pc) + ": no memory there");
            return;
        }
        trace(k, pc, in);
        uint32_t next = pc + in.size;
        uint32_t* r = k.r;
        switch (in.op) {
        case Op::Invalid:
            exception(k, next, SWEXC, CAUSE_UNIMPLEMENTED);
            break;
        case Op::Bcc:
            if (cond(k, in.cond)) {
                next = pc + uint32_t(in.imm);
                cost += tm.branch_taken - 1;
            }
            break;
        case Op::Bl:
            r[14] = next;
            next = pc + uint32_t(in.imm);
            cost += tm.branch_taken - 1;
            break;
        case Op::Jr:
            next = r[in.rn] & ~1u;
            cost += tm.branch_taken - 1;
            break;
        case Op::Jalr: {
            const uint32_t t = r[in.rn] & ~1u;
            r[14] = next;
            next = t;
            cost += tm.branch_taken - 1;
            break;
        }
        case Op::Rti:
            if (k.ipend) k.ipend &= k.ipend - 1;  // the active interrupt of highest priority ends
            k.gid = 0;
            k.km = 0;
            next = k.iret;
            cost += tm.branch_taken - 1;
            break;
        case Op::Load:
        case Op::Store:
        case Op::Testset: {
            const unsigned n = 1u << in.width;
            const uint32_t base = r[in.rn];
            const uint32_t index = (in.mode == Mode::Index || in.mode == Mode::PostIndex) ? r[in.rm] : uint32_t(in.imm);
            const uint32_t moved = in.sub ? base - index : base + index;
            const bool post = in.mode == Mode::PostIndex || in.mode == Mode::PostDisp;
            const uint32_t a = post ? base : moved;
            if (a & (n - 1)) {
                exception(k, next, SWEXC, CAUSE_UNALIGNED);
                break;
            }
            if (in.op == Op::Testset) {
                uint32_t off = 0;
                Core* other = nullptr;
                const Where w = where(k, a, n, off, other);
                if (w != REMOTE || off + n > kSram) {
                    // The chip needs a global address of a core's SRAM; a local one or external DRAM fails.
                    if (!(w == OWN_SRAM && (a >> 20) == k.coreid)) {
                        stop_with(k, pc, "testset on " + hex(a) + ": TESTSET needs the global address of a core's "
                                             "SRAM (not a local address, not external DRAM)");
                        return;
                    }
                }
                if (k.writes_due > now) {
                    k.ready = k.writes_due;
                    return;
                }
                Core& owner = other ? *other : k;
                uint32_t old = 0;
                std::memcpy(&old, &owner.sram[off], n);
                if (old == 0) {
                    const uint32_t v = r[in.rd];
                    std::memcpy(&owner.sram[off], &v, n);
                    invalidate_code(owner, off, n);
                }
                r[in.rd] = old;
                if (other) cost += tm.read_base + 2 * hops(k, *other) * tm.hop;
                break;
            }
            if (in.op == Op::Load) {
                uint64_t v;
                if (!load(k, pc, a, n, v, cost)) return;  // waits (or faulted): the instruction runs again
                if (n == 8) {
                    r[in.rd & ~1u] = uint32_t(v);
                    r[in.rd | 1u] = uint32_t(v >> 32);
                } else {
                    r[in.rd] = uint32_t(v);
                }
            } else {
                const uint64_t v = n == 8 ? uint64_t(r[in.rd & ~1u]) | uint64_t(r[in.rd | 1u]) << 32 : r[in.rd];
                if (!store(k, pc, a, n, v)) return;
            }
            if (post || in.mode == Mode::PostIndex) r[in.rn] = moved;
            break;
        }
        case Op::Movcc:
            if (cond(k, in.cond)) r[in.rd] = r[in.rn];
            break;
        case Op::MovI: r[in.rd] = uint32_t(in.imm); break;
        case Op::Movt: r[in.rd] = (r[in.rd] & 0xffff) | uint32_t(in.imm) << 16; break;
        case Op::Movts: {
            const uint32_t off = special_offset(in.group, unsigned(in.imm));
            k.pc = next;  // a write of PC or of LC/LS/LE applies after this instruction
            mmr_write(k, off, r[in.rd]);
            if (off == PC) {
                next = k.pc;
                cost += tm.branch_taken - 1;
            }
            break;
        }
        case Op::Movfs:
            r[in.rd] = in.group == 0 && in.imm == 2 ? pc : mmr_read(k, special_offset(in.group, unsigned(in.imm)));
            break;
        case Op::Add: case Op::AddI: {
            const uint32_t a = r[in.rn], b = in.op == Op::Add ? r[in.rm] : uint32_t(in.imm), res = a + b;
            k.ac = res < a;
            k.av = ((a ^ res) & (b ^ res)) >> 31;
            k.avs |= k.av;
            r[in.rd] = res;
            k.az = res == 0;
            k.an = res >> 31;
            break;
        }
        case Op::Sub: case Op::SubI: {
            const uint32_t a = r[in.rn], b = in.op == Op::Sub ? r[in.rm] : uint32_t(in.imm), res = a - b;
            k.ac = a >= b;
            k.av = ((a ^ b) & (a ^ res)) >> 31;
            k.avs |= k.av;
            r[in.rd] = res;
            k.az = res == 0;
            k.an = res >> 31;
            break;
        }
        case Op::And: case Op::Orr: case Op::Eor: case Op::Lsl: case Op::Lsr: case Op::Asr:
        case Op::LslI: case Op::LsrI: case Op::AsrI: case Op::Bitr: {
            const uint32_t a = r[in.rn];
            const uint32_t b = (in.op == Op::LslI || in.op == Op::LsrI || in.op == Op::AsrI) ? uint32_t(in.imm)
                                                                                           : r[in.rm];
            uint32_t res = 0;
            switch (in.op) {
            case Op::And: res = a & b; break;
            case Op::Orr: res = a | b; break;
            case Op::Eor: res = a ^ b; break;
            case Op::Lsl: case Op::LslI: res = a << (b & 31); break;
            case Op::Lsr: case Op::LsrI: res = a >> (b & 31); break;
            case Op::Asr: case Op::AsrI: res = uint32_t(int32_t(a) >> (b & 31)); break;
            default: {  // bitr
                uint32_t v = a;
                v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
                v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
                v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
                v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
                res = (v >> 16) | (v << 16);
            }
            }
            k.ac = 0;
            k.av = 0;
            r[in.rd] = res;
            k.az = res == 0;
            k.an = res >> 31;
            break;
        }
        case Op::Fadd: case Op::Fsub: case Op::Fmul: case Op::Fmadd: case Op::Fmsub: case Op::Float:
        case Op::Fix: case Op::Fabs:
            fpu(k, in);
            break;
        case Op::Nop: case Op::Sync: case Op::Mbkpt:
            break;
        case Op::Bkpt:
            stop_with(k, pc, "bkpt: a breakpoint with no debugger attached");
            return;
        case Op::Idle:
            k.pc = next;
            k.icount++;
            total++;
            if (k.ilat == 0) {  // sleep until an interrupt is latched
                k.running = false;
                members_changed = true;
                k.ready = now + 1;
                return;
            }
            k.ready = now + 1;
            return;
        case Op::Wand:
            set_wand(k, true);
            break;
        case Op::Gie: k.gid = 0; break;
        case Op::Gid: k.gid = 1; break;
        case Op::Swi:
            exception(k, next, SWEXC, CAUSE_SWI);
            break;
        case Op::Trap:
            trap(k, pc, in.imm);
            if (fault.any) return;
            break;
        }
        // The hardware loop: after the instruction at LE, back to LS while LC counts down to 0.
        if (pc == k.le && k.lc != 0 && next == pc + in.size) {
            if (--k.lc != 0) next = k.ls;
        }
        k.pc = next;
        k.icount++;
        total++;
        if (k.r[13] - 1 < k.lowest_sp - 1) k.lowest_sp = k.r[13];  // 0 (before the startup code sets SP) is not a depth
        k.ready = now + cost;
        // Dual issue: an FPU instruction and an integer or load/store instruction next to each other issue in the
        // same cycle when neither waited and the second does not use the first's result (nor writes it).
        const uint8_t cls = issue_class(in.op);
        if (tm.dual_issue && cost == 1 && cls != 0 && k.last_class != 0 && cls != k.last_class && !k.last_paired &&
            k.last_issue + 1 == now && !touches(in, k.last_dst, k.last_double)) {
            k.ready = now;
            k.last_paired = true;
        } else {
            k.last_paired = false;
            k.last_issue = now;
        }
        k.last_class = cls;
        k.last_dst = in.rd;
        k.last_double = in.width == 3 && (in.op == Op::Load || in.op == Op::Store);
    }

    // The pipelines an instruction issues to: 1 the integer unit (ALU, shifts, moves of immediates, loads and
    // stores), 2 the FPU, 0 neither or both (control flow, special registers, conditional moves, TESTSET).
    static uint8_t issue_class(Op op) {
        switch (op) {
        case Op::Add: case Op::Sub: case Op::And: case Op::Orr: case Op::Eor: case Op::Lsl: case Op::Lsr:
        case Op::Asr: case Op::AddI: case Op::SubI: case Op::LslI: case Op::LsrI: case Op::AsrI: case Op::Bitr:
        case Op::MovI: case Op::Movt: case Op::Load: case Op::Store:
            return 1;
        case Op::Fadd: case Op::Fsub: case Op::Fmul: case Op::Fmadd: case Op::Fmsub: case Op::Float: case Op::Fix:
        case Op::Fabs:
            return 2;
        default:
            return 0;
        }
    }
    // Whether `in` names register r (or, for a double access on either side, its pair) at all: conservative.
    static bool touches(const Insn& in, uint8_t r, bool r_double) {
        const bool dbl = r_double || (in.width == 3 && (in.op == Op::Load || in.op == Op::Store));
        auto same = [&](uint8_t x) { return dbl ? (x >> 1) == (r >> 1) : x == r; };
        return same(in.rd) || same(in.rn) || same(in.rm);
    }

    // TRAP: the simulator's services for programs written for it (the library never traps): 0 write(r0 fd,
    // r1 buf, r2 n) to the trace stream, 3 exit(r0), 4 pass, 5 fail. Anything else is a fault.
    std::string trap_output;
    int trap_exit = -1;
    void trap(Core& k, uint32_t pc, int32_t num) {
        switch (num) {
        case 0: {
            const uint32_t buf = k.r[1], n = k.r[2];
            for (uint32_t i = 0; i < n && i < 4096; ++i) {
                uint8_t c = 0;
                uint64_t v;
                unsigned stall = 0;
                if (!load(k, pc, buf + i, 1, v, stall)) return;
                c = uint8_t(v);
                trap_output.push_back(char(c));
            }
            k.r[0] = n;
            return;
        }
        case 3: trap_exit = int(k.r[0]); break;
        case 4: trap_exit = 0; break;
        case 5: trap_exit = 1; break;
        default:
            stop_with(k, pc, "trap " + std::to_string(num) + ": not a simulator service (0 write, 3 exit, 4 pass, 5 fail)");
            return;
        }
        k.running = false;
        members_changed = true;
        k.ilat = 0;
        k.imask = 0x3ff;
        k.config &= ~0xff0u;
        update_deadline(k);
    }

    // ---- the clock --------------------------------------------------------------------------------------------

    // The running cores by the cycle their next instruction issues: a calendar of kRing cycles (a core due
    // within kRing cycles sits in the bucket of its cycle; later ones wait in `far`), each running core in it
    // exactly once. Cores due in the same cycle run in index order (or, with a seed, in a random order fixed by
    // the seed). The idle cores' earliest timer deadline is recomputed when a core stops or starts running or
    // an idle core's timers change (rare next to instructions).
    static constexpr unsigned kRing = 256;
    using Entry = std::pair<uint64_t, Core*>;  // (order key, core)
    std::vector<Entry> bucket[kRing];
    std::vector<Entry> far, due;
    size_t near_count = 0;
    uint64_t idle_deadline = kNever;
    bool members_changed = true;
    void schedule(Core& k) {
        const Entry e{cfg.seed ? next_random() : k.index, &k};
        if (k.ready - now < kRing) {
            bucket[k.ready % kRing].push_back(e);
            ++near_count;
        } else {
            far.push_back(e);
        }
    }
    void recompute_idle_deadline() {
        idle_deadline = kNever;
        for (const Core& k : cores)
            if (!k.running) idle_deadline = std::min(idle_deadline, k.deadline);
        members_changed = false;
    }
    uint64_t next_ready() const {
        uint64_t t = kNever;
        if (near_count != 0)
            for (uint64_t c = now;; ++c)
                if (!bucket[c % kRing].empty()) {
                    t = c;
                    break;
                }
        for (const Entry& e : far) t = std::min(t, e.second->ready);
        return t;
    }

    Stop run(uint64_t cycles) {
        const uint64_t end = now + cycles;
        while (!fault.any) {
            if (members_changed) recompute_idle_deadline();
            uint64_t t = std::min(idle_deadline, next_ready());
            if (!writes.empty()) t = std::min(t, writes.top().time);
            if (t == kNever) {  // nothing can happen: the time passes all the same
                now = std::max(now, end);
                return Stop::Quiescent;
            }
            if (t > end) {
                now = std::max(now, end);
                return Stop::Budget;
            }
            now = std::max(now, t);
            deliver_due();
            if (idle_deadline <= now)
                for (Core& k : cores)
                    if (!k.running && k.deadline <= now) expire_timers(k);
            if (!far.empty()) {  // those now within reach of the calendar move into it
                std::vector<Entry> keep;
                for (const Entry& e : far) {
                    if (e.second->ready - now < kRing) {
                        bucket[e.second->ready % kRing].push_back(e);
                        ++near_count;
                    } else {
                        keep.push_back(e);
                    }
                }
                far.swap(keep);
            }
            due.clear();
            due.swap(bucket[now % kRing]);
            near_count -= due.size();
            if (due.size() > 1) std::sort(due.begin(), due.end(), [](const Entry& x, const Entry& y) { return x.first < y.first; });
            for (const Entry& e : due) {
                Core& k = *e.second;
                if (fault.any) break;
                step(k);
                if (k.running) schedule(k);
            }
        }
        return Stop::Fault;
    }
};

Chip::Chip(const ChipConfig& cfg, const Timing& timing) : impl_(new Impl(cfg, timing)) {}
Chip::~Chip() = default;

// The host's accesses: registers take whole words; memory any bytes, in pieces that stay within one core or DRAM.
void Chip::host_access(uint32_t global, uint8_t* p, size_t n, bool write) {
    const char* what = write ? "write" : "read";
    while (n != 0) {
        const uint32_t off = global & 0xfffff;
        const bool mmr = !impl_->in_dram(global, 1) && off >= kMmrBase && off < kMmrEnd;
        const uint32_t chunk = mmr ? 4 : uint32_t(std::min<size_t>(n, 4096 - (global & 4095)));
        if (mmr && (n < 4 || (global & 3)))
            throw std::out_of_range(std::string("epsim: host ") + what + " of a register at " + Impl::hex(global) +
                                    ": whole words only");
        if (!(write ? impl_->apply(global, p, chunk) : impl_->fetch(global, p, chunk)))
            throw std::out_of_range(std::string("epsim: host ") + what + " at " + Impl::hex(global) +
                                    ": no memory there");
        global += chunk;
        p += chunk;
        n -= chunk;
    }
}

void Chip::host_write(uint32_t global, const void* data, size_t n) {
    // apply() only reads the bytes: the cast serves the one loop for both directions
    host_access(global, const_cast<uint8_t*>(static_cast<const uint8_t*>(data)), n, true);
}

void Chip::host_read(uint32_t global, void* data, size_t n) { host_access(global, static_cast<uint8_t*>(data), n, false); }

Chip::Stop Chip::run(uint64_t cycles) { return impl_->run(cycles); }
uint64_t Chip::now() const { return impl_->now; }
uint64_t Chip::instructions() const { return impl_->total; }
const Fault& Chip::fault() const { return impl_->fault; }
unsigned Chip::cores() const { return unsigned(impl_->cores.size()); }
uint32_t Chip::coreid(unsigned core) const { return impl_->cores.at(core).coreid; }
uint32_t Chip::pc(unsigned core) const { return impl_->cores.at(core).pc; }
uint32_t Chip::reg(unsigned core, unsigned r) const { return impl_->cores.at(core).r[r & 63]; }
uint64_t Chip::core_instructions(unsigned core) const { return impl_->cores.at(core).icount; }
uint32_t Chip::lowest_sp(unsigned core) const { return impl_->cores.at(core).lowest_sp; }
bool Chip::running(unsigned core) const { return impl_->cores.at(core).running; }
uint32_t Chip::special(unsigned core, uint32_t offset) { return impl_->mmr_read(impl_->cores.at(core), offset & 0xffc); }
const std::string& Chip::trap_output() const { return impl_->trap_output; }
int Chip::trap_status() const { return impl_->trap_exit; }

}  // namespace epsim

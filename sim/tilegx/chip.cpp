#include "chip.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <ostream>
#include <queue>
#include <stdexcept>
#include <unordered_map>

#include "fp.hpp"
#include "isa.hpp"

namespace tgxsim {

namespace {

// SPR numbers (the names objdump gives them: isa_table.inc).
constexpr unsigned kSprTileCoord = 9995, kSprCycle = 10113, kSprCmpexchValue = 10112, kSprUdnDataAvail = 2944;
// TILE_COORD and the UDN header: x at bit 18, y at bit 7 (11 bits each), the header's length in its low 5 bits
// (the port's header: port/tile/tilegx/shmem_chip.h). Other header bits (the demux field, whose position is not
// public) must be zero: the port sends only to queue 0.
constexpr unsigned kCoordX = 18, kCoordY = 7, kCoordMask = 0x7ff, kLenMask = 0x1f;

uint64_t sext(uint64_t v, unsigned bits) { return uint64_t(int64_t(v << (64 - bits)) >> (64 - bits)); }
uint64_t sx32(uint64_t v) { return sext(v, 32); }
uint64_t rotl(uint64_t v, unsigned n) { n &= 63; return n ? v << n | v >> (64 - n) : v; }
uint64_t mask_of(unsigned len) { return len >= 64 ? ~uint64_t(0) : (uint64_t(1) << len) - 1; }

// A lane-wise operation on the 8, 4 or 2 lanes of `bits` bits of a and b (SIMD "v1", "v2", "v4" forms).
template <class F>
uint64_t lanes(unsigned bits, uint64_t a, uint64_t b, F f) {
    uint64_t r = 0;
    const uint64_t m = mask_of(bits);
    for (unsigned at = 0; at < 64; at += bits) r |= (f((a >> at) & m, (b >> at) & m) & m) << at;
    return r;
}

// What an instruction does with its register operands.
enum Mem : uint8_t { M_None, M_Load, M_Store, M_Atomic, M_Hint };
struct OpInfo {
    int8_t dest = 0;        // operand index written, -1 none
    int8_t dest2 = -1;      // a second one (the address of ld_add / st_add)
    uint8_t reads = 0;      // bit i: operand i is read (a register)
    Mem mem = M_None;
    uint8_t size = 0;       // memory access bytes
    bool sign = false;      // a load's sign extension
    bool known = false;     // the simulator executes it
    bool align_down = false;  // a load from the address with its low 3 bits cleared, never misaligned (ldna)
};

struct Decoded {
    uint64_t pc = ~uint64_t(0);
    uint64_t bits = 0;
    Bundle b;
};

struct Packet {
    unsigned from = 0;
    uint64_t arrive = 0;
    std::vector<uint64_t> words;
};

struct QueuedWord {
    uint64_t arrive;
    uint64_t value;
};

struct PendingStore {
    uint64_t addr;
    uint64_t value;
    uint64_t land;
    uint64_t seq;
    uint8_t size;
};

struct Tile {
    uint64_t r[64] = {};
    uint64_t ready[64] = {};
    uint64_t pc = 0;
    uint64_t time = 0;
    Chip::TileState state = Chip::TileState::Off;
    unsigned x = 0, y = 0;
    uint64_t cmpexch = 0;
    uint64_t bundles = 0;
    std::vector<PendingStore> stores;  // posted, not landed, in program order
    std::deque<QueuedWord> q[4];       // demux queues, by arrival
    // the packet being sent: its destination and the words still to come
    bool sending = false;
    unsigned dest = 0, remaining = 0;
    std::vector<uint64_t> out;
    std::string receiving_what;
};

struct Event {
    uint64_t time;
    uint64_t order;  // ties: tile priority (seeded) or store sequence
    unsigned tile;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : order > o.order; }
};

const std::vector<OpInfo>& op_infos();

}  // namespace

struct Chip::Impl {
    ChipConfig cfg;
    Timing timing;
    uint8_t* mem = nullptr;
    std::vector<Tile> tiles;
    std::vector<uint64_t> priority;  // tie order of the tiles
    uint64_t now = 0;
    uint64_t bundles = 0;
    uint64_t store_seq = 0;
    Fault fault;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> ready;   // tiles that can issue
    // Posted stores by landing time: a calendar of kRing cycles from landed_through (each bucket in order of
    // issue), and beyond it a heap (order = seq).
    static constexpr uint64_t kRing = 4096;
    std::vector<std::vector<Event>> ring = std::vector<std::vector<Event>>(kRing);
    uint64_t landed_through = 0;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> far;
    std::unordered_map<uint64_t, Decoded> decoded;
    // Per tile, direct-mapped in front of `decoded` (each tile runs its own copy of the code).
    static constexpr size_t kCache = 1 << 13;
    std::vector<std::vector<Decoded*>> cache;
    size_t ring_entries = 0;

    Impl(const ChipConfig& c, const Timing& t) : cfg(c), timing(t) {
        if (cfg.mem_size == 0) throw std::invalid_argument("tgxsim: no memory");
        void* p = mmap(nullptr, cfg.mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error("tgxsim: cannot map the chip's memory");
        mem = static_cast<uint8_t*>(p);
        tiles.resize(size_t(cfg.cols) * cfg.rows);
        priority.resize(tiles.size());
        cache.assign(tiles.size(), std::vector<Decoded*>(kCache, nullptr));
        uint64_t rng = cfg.seed * 0x9e3779b97f4a7c15ull + 1;
        for (size_t i = 0; i < tiles.size(); ++i) {
            tiles[i].x = cfg.origin_x + unsigned(i % cfg.cols);
            tiles[i].y = cfg.origin_y + unsigned(i / cfg.cols);
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            priority[i] = cfg.seed ? (rng << 8 | i) : i;
        }
    }
    ~Impl() { munmap(mem, cfg.mem_size); }

    bool in_memory(uint64_t addr, uint64_t n) const {
        return addr >= cfg.mem_base && n <= cfg.mem_size && addr - cfg.mem_base <= cfg.mem_size - n;
    }
    uint8_t* at(uint64_t addr) { return mem + (addr - cfg.mem_base); }

    // The tile whose partition holds addr, or -1 (the mailboxes, anything else).
    int partition_tile_of(uint64_t addr) const {
        if (addr < cfg.partition_base) return -1;
        const uint64_t k = (addr - cfg.partition_base) >> cfg.log2_partition;
        return k < cfg.partition_tile.size() ? int(cfg.partition_tile[k]) : -1;
    }
    unsigned home(uint64_t addr) const { return unsigned(std::max(partition_tile_of(addr), 0)); }
    unsigned hops(unsigned a, unsigned b) const {
        const Tile &p = tiles[a], &q = tiles[b];
        return unsigned(std::abs(int(p.x) - int(q.x)) + std::abs(int(p.y) - int(q.y)));
    }

    void fail(unsigned t, const std::string& what) {
        if (fault.any) return;
        fault.any = true;
        fault.tile = t;
        fault.pc = tiles[t].pc;
        fault.what = what;
    }

    const Decoded* fetch(unsigned t) {
        const uint64_t pc = tiles[t].pc;
        Decoded*& slot = cache[t][(pc >> 3) & (kCache - 1)];
        if (slot && slot->pc == pc) return slot;
        auto it = decoded.find(pc);
        if (it == decoded.end()) {
            if (pc % 8 != 0 || !in_memory(pc, 8)) {
                char b[96];
                std::snprintf(b, sizeof b, "instruction fetch at 0x%llx: %s", (unsigned long long)pc,
                              pc % 8 ? "not a bundle's address (8-aligned)" : "outside memory");
                fail(t, b);
                return nullptr;
            }
            Decoded d;
            d.pc = pc;
            std::memcpy(&d.bits, at(pc), 8);
            d.b = decode(d.bits, pc);
            it = decoded.emplace(pc, d).first;
        }
        slot = &it->second;
        return slot;
    }

    // Decodes again, from memory, the bundles of [line, line + 64) decoded before (icoh): in place, so that the
    // tiles' direct-mapped caches keep pointing at them.
    void redecode_line(uint64_t line) {
        for (uint64_t pc = line; pc < line + 64; pc += 8) {
            auto it = decoded.find(pc);
            if (it == decoded.end() || !in_memory(pc, 8)) continue;
            std::memcpy(&it->second.bits, at(pc), 8);
            it->second.b = decode(it->second.bits, pc);
        }
    }

    // ---- memory ----------------------------------------------------------------------------------------------

    void land(const Event& e) {
        auto& st = tiles[e.tile].stores;
        for (size_t i = 0; i < st.size(); ++i)
            if (st[i].seq == e.order) {
                std::memcpy(at(st[i].addr), &st[i].value, st[i].size);
                st.erase(st.begin() + long(i));
                return;
            }
    }
    void land_until(uint64_t t) {
        if (t <= landed_through) return;
        if (ring_entries == 0 && far.empty()) {
            landed_through = t;
            return;
        }
        const uint64_t last = std::min(t, landed_through + kRing);
        for (uint64_t x = landed_through + 1; x <= last; ++x) {
            auto& b = ring[x & (kRing - 1)];
            if (b.empty()) continue;
            for (const Event& e : b) land(e);
            ring_entries -= b.size();
            b.clear();
        }
        landed_through = t;
        while (!far.empty() && far.top().time <= t) {
            land(far.top());
            far.pop();
        }
    }
    // Every posted store lands; the calendar then starts at `t`.
    void land_all(uint64_t t) {
        land_until(landed_through + kRing);
        while (!far.empty()) {
            land(far.top());
            far.pop();
        }
        landed_through = std::max(landed_through, t);
    }
    void post_landing(uint64_t when, uint64_t seq, unsigned t) {
        when = std::max(when, landed_through + 1);  // (a tile behind the others: it lands at the next step)
        if (when - landed_through <= kRing) {
            ring[when & (kRing - 1)].push_back(Event{when, seq, t});
            ++ring_entries;
        } else
            far.push(Event{when, seq, t});
    }
    // Lands the tile's pending stores that overlap [addr, addr + n) now (an atomic acts on memory after them).
    void land_overlapping(unsigned t, uint64_t addr, unsigned n) {
        auto& st = tiles[t].stores;
        for (size_t i = 0; i < st.size();) {
            if (st[i].addr < addr + n && addr < st[i].addr + st[i].size) {
                std::memcpy(at(st[i].addr), &st[i].value, st[i].size);
                st.erase(st.begin() + long(i));  // its landing event finds nothing
            } else {
                ++i;
            }
        }
    }
    uint64_t load(unsigned t, uint64_t addr, unsigned n) {
        uint64_t v = 0;
        std::memcpy(&v, at(addr), n);
        for (const PendingStore& s : tiles[t].stores) {  // the tile's own posted stores, oldest first
            if (s.addr >= addr + n || addr >= s.addr + s.size) continue;
            for (unsigned i = 0; i < s.size; ++i) {
                const uint64_t a = s.addr + i;
                if (a < addr || a >= addr + n) continue;
                const unsigned sh = unsigned(a - addr) * 8;
                v = (v & ~(uint64_t(0xff) << sh)) | ((s.value >> (8 * i)) & 0xff) << sh;
            }
        }
        return v;
    }
    void store(unsigned t, uint64_t issue, uint64_t addr, unsigned n, uint64_t value) {
        Tile& T = tiles[t];
        uint64_t land = issue + timing.store_base + hops(t, home(addr));
        for (const PendingStore& s : T.stores)  // one address's stores land in order
            if (s.addr < addr + n && addr < s.addr + s.size) land = std::max(land, s.land);
        const uint64_t seq = ++store_seq;
        T.stores.push_back(PendingStore{addr, value, land, seq, uint8_t(n)});
        post_landing(land, seq, t);
    }
    bool check_access(unsigned t, const char* what, uint64_t addr, unsigned n) {
        char b[160];
        if (!in_memory(addr, n)) {
            std::snprintf(b, sizeof b, "%s of %u bytes at 0x%llx: outside memory (0x%llx..0x%llx)", what, n,
                          (unsigned long long)addr, (unsigned long long)cfg.mem_base,
                          (unsigned long long)(cfg.mem_base + cfg.mem_size));
            fail(t, b);
            return false;
        }
        if (addr % n != 0) {
            std::snprintf(b, sizeof b, "%s of %u bytes at 0x%llx: misaligned (TILE-Gx traps on it)", what, n,
                          (unsigned long long)addr);
            fail(t, b);
            return false;
        }
        return true;
    }

    // ---- the UDN ---------------------------------------------------------------------------------------------

    unsigned tile_at(unsigned x, unsigned y, bool& ok) const {
        ok = x >= cfg.origin_x && y >= cfg.origin_y && x - cfg.origin_x < cfg.cols && y - cfg.origin_y < cfg.rows;
        return ok ? (y - cfg.origin_y) * cfg.cols + (x - cfg.origin_x) : 0;
    }
    void send(unsigned t, uint64_t issue, uint64_t w) {
        Tile& T = tiles[t];
        char b[200];
        if (!T.sending) {
            const unsigned x = unsigned(w >> kCoordX) & kCoordMask, y = unsigned(w >> kCoordY) & kCoordMask;
            const unsigned len = unsigned(w) & kLenMask;
            const uint64_t known = uint64_t(kCoordMask) << kCoordX | uint64_t(kCoordMask) << kCoordY | kLenMask;
            bool ok = false;
            const unsigned dest = tile_at(x, y, ok);
            if ((w & ~known) != 0 || len == 0 || !ok) {
                std::snprintf(b, sizeof b, "UDN header 0x%llx: %s", (unsigned long long)w,
                              (w & ~known) ? "sets bits other than x (18), y (7) and the length (0-4): a demux "
                                             "field the simulator does not model (the port sends to queue 0)"
                              : len == 0 ? "a packet of no words"
                                         : "its destination is no tile of the chip");
                fail(t, b);
                return;
            }
            T.sending = true;
            T.dest = dest;
            T.remaining = len;
            T.out.clear();
            return;
        }
        T.out.push_back(w);
        if (--T.remaining != 0) return;
        T.sending = false;
        Tile& D = tiles[T.dest];
        auto& q = D.q[0];
        if (q.size() + T.out.size() > cfg.udn_queue_words) {
            std::snprintf(b, sizeof b, "UDN demux queue 0 of tile x %u y %u overflows: %zu words queued, a packet "
                                       "of %zu more (depth %u words: an assumption, docs/tile-sim.md)",
                          D.x, D.y, q.size(), T.out.size(), cfg.udn_queue_words);
            fail(t, b);
            return;
        }
        const uint64_t arrive = issue + timing.udn_base + hops(t, T.dest) + T.out.size();
        // Whole packets in order of arrival (a later packet from a nearer tile can arrive first).
        auto pos = q.end();
        while (pos != q.begin() && std::prev(pos)->arrive > arrive) --pos;
        for (uint64_t v : T.out) pos = std::next(q.insert(pos, QueuedWord{arrive, v}));
        if (D.state == TileState::Receiving) {
            D.state = TileState::Running;
            D.time = std::max(D.time, arrive);
            ready.push(Event{D.time, priority[T.dest], T.dest});
        }
    }

    // ---- one bundle ------------------------------------------------------------------------------------------

    enum class Step { Done, Requeue, Blocked, Halted, Fault };

    Step step(unsigned t);
    void fail_spr(unsigned t, const char* insn, unsigned spr) {
        const char* n = spr_name(spr);
        char msg[128];
        std::snprintf(msg, sizeof msg, "%s of SPR %u (%s): not one the simulator models", insn, spr, n ? n : "unnamed");
        fail(t, msg);
    }
    uint64_t spr_read(unsigned t, unsigned spr, bool& ok);
    void trace(unsigned t, const Decoded& d, uint64_t issue);
};

namespace {

const std::vector<OpInfo>& op_infos() {
    static const std::vector<OpInfo> infos = [] {
        std::vector<OpInfo> v(I_count);
        auto alu = [&](std::initializer_list<Op> ops, uint8_t reads) {
            for (Op o : ops) v[o] = OpInfo{0, -1, reads, M_None, 0, false, true};
        };
        // dest = operand 0, sources the rest (1, 2)
        alu({I_add, I_addx, I_addxsc, I_sub, I_subx, I_and, I_or, I_xor, I_nor, I_shl, I_shlx, I_shru, I_shrux,
             I_shrs, I_rotl, I_shl1add, I_shl2add, I_shl3add, I_shl1addx, I_shl2addx, I_shl3addx, I_cmpeq, I_cmpne,
             I_cmples, I_cmpleu, I_cmplts, I_cmpltu, I_mz, I_mnz, I_mul_hs_hs, I_mul_hs_hu, I_mul_hs_ls, I_mul_hs_lu,
             I_mul_hu_hu, I_mul_hu_ls, I_mul_hu_lu, I_mul_ls_ls, I_mul_ls_lu, I_mul_lu_lu, I_mulx, I_v4int_l,
             I_v4int_h, I_fsingle_add1, I_fsingle_sub1, I_fsingle_mul1, I_fsingle_mul2, I_fsingle_pack2,
             I_fdouble_unpack_max, I_fdouble_unpack_min, I_fdouble_add_flags, I_fdouble_sub_flags,
             I_fdouble_mul_flags, I_fdouble_pack1},
            0b110);
        // operand 1 and an immediate
        alu({I_addi, I_addli, I_addxi, I_addxli, I_andi, I_ori, I_xori, I_shli, I_shlxi, I_shrui, I_shruxi, I_shrsi,
             I_rotli, I_cmpeqi, I_cmpltsi, I_cmpltui, I_shl16insli, I_v1addi, I_bfextu, I_bfexts, I_move, I_clz,
             I_ctz, I_pcnt, I_revbytes, I_revbits, I_fsingle_pack1},
            0b010);
        alu({I_movei, I_moveli, I_lnk, I_mfspr}, 0);
        // lane-wise (SIMD) forms: register and immediate
        alu({I_v1add, I_v2add, I_v4add, I_v1sub, I_v2sub, I_v4sub, I_v1multu, I_v2mults, I_v1minu, I_v1maxu,
             I_v2mins, I_v2maxs, I_v1cmpeq, I_v2cmpeq, I_v1cmpne, I_v2cmpne, I_v1cmpltu, I_v2cmpltu, I_v1cmplts,
             I_v2cmplts, I_v1cmpleu, I_v2cmpleu, I_v1cmples, I_v2cmples, I_v1shl, I_v2shl, I_v4shl, I_v1shru, I_v2shru,
             I_v4shru, I_v1shrs, I_v2shrs, I_v4shrs, I_v1mz, I_v2mz, I_v1mnz, I_v2mnz, I_v1int_l, I_v1int_h, I_v2int_l,
             I_v2int_h},
            0b110);
        alu({I_v2addi, I_v1minui, I_v1maxui, I_v2minsi, I_v2maxsi, I_v1cmpeqi, I_v2cmpeqi, I_v1cmpltui,
             I_v2cmpltui, I_v1cmpltsi, I_v2cmpltsi, I_v1shli, I_v2shli, I_v1shrui, I_v2shrui, I_v1shrsi, I_v2shrsi},
            0b010);
        alu({I_dblalign}, 0b111);  // reads its destination (the low word)
        // read their destination too
        alu({I_mula_hs_hs, I_mula_hs_hu, I_mula_hs_ls, I_mula_hs_lu, I_mula_hu_hu, I_mula_hu_ls, I_mula_hu_lu,
             I_mula_ls_ls, I_mula_ls_lu, I_mula_lu_lu, I_mulax, I_cmoveqz, I_cmovnez, I_fsingle_addsub2,
             I_fdouble_addsub, I_fdouble_pack2},
            0b111);
        alu({I_bfins, I_mm}, 0b011);
        auto none = [&](std::initializer_list<Op> ops, uint8_t reads) {
            for (Op o : ops) v[o] = OpInfo{-1, -1, reads, M_None, 0, false, true};
        };
        none({I_beqz, I_beqzt, I_bnez, I_bnezt, I_bgez, I_bgezt, I_bgtz, I_bgtzt, I_blez, I_blezt, I_bltz, I_bltzt,
              I_blbc, I_blbct, I_blbs, I_blbst, I_jr, I_jrp, I_jalr, I_jalrp},
             0b1);
        none({I_j, I_jal, I_nop, I_fnop, I_info, I_infol, I_mf, I_nap, I_drain, I_ill, I_raise, I_bpt, I_swint0,
              I_swint1, I_swint2, I_swint3, I_iret},
             0);
        none({I_mtspr}, 0b10);
        none({I_flush, I_flushwb, I_finv, I_inv, I_icoh}, 0b1);
        for (Op o : {I_prefetch, I_prefetch_l1_fault, I_prefetch_l2, I_prefetch_l2_fault,
                     I_prefetch_l3, I_prefetch_l3_fault})
            v[o] = OpInfo{-1, -1, 0b1, M_Hint, 1, false, true};
        struct L {
            Op op, add;
            uint8_t size;
            bool sign;
        };
        for (const L& l : {L{I_ld, I_ld_add, 8, false}, L{I_ld4s, I_ld4s_add, 4, true}, L{I_ld4u, I_ld4u_add, 4, false},
                           L{I_ld2s, I_ld2s_add, 2, true}, L{I_ld2u, I_ld2u_add, 2, false},
                           L{I_ld1s, I_ld1s_add, 1, true}, L{I_ld1u, I_ld1u_add, 1, false},
                           L{I_ldnt, I_ldnt_add, 8, false}, L{I_ldnt4s, I_ldnt4s_add, 4, true},
                           L{I_ldnt4u, I_ldnt4u_add, 4, false}, L{I_ldnt2s, I_ldnt2s_add, 2, true},
                           L{I_ldnt2u, I_ldnt2u_add, 2, false}, L{I_ldnt1s, I_ldnt1s_add, 1, true},
                           L{I_ldnt1u, I_ldnt1u_add, 1, false}}) {
            v[l.op] = OpInfo{0, -1, 0b10, M_Load, l.size, l.sign, true};
            v[l.add] = OpInfo{0, 1, 0b10, M_Load, l.size, l.sign, true};
        }
        for (const L& s : {L{I_st, I_st_add, 8, false}, L{I_st4, I_st4_add, 4, false}, L{I_st2, I_st2_add, 2, false},
                           L{I_st1, I_st1_add, 1, false}, L{I_stnt, I_stnt_add, 8, false},
                           L{I_stnt4, I_stnt4_add, 4, false}, L{I_stnt2, I_stnt2_add, 2, false},
                           L{I_stnt1, I_stnt1_add, 1, false}}) {
            v[s.op] = OpInfo{-1, -1, 0b11, M_Store, s.size, false, true};
            v[s.add] = OpInfo{-1, 0, 0b11, M_Store, s.size, false, true};
        }
        v[I_ldna] = OpInfo{0, -1, 0b10, M_Load, 8, false, true, true};
        v[I_ldna_add] = OpInfo{0, 1, 0b10, M_Load, 8, false, true, true};
        for (Op o : {I_exch, I_cmpexch, I_fetchadd, I_fetchaddgez, I_fetchand, I_fetchor})
            v[o] = OpInfo{0, -1, 0b110, M_Atomic, 8, false, true};
        for (Op o : {I_exch4, I_cmpexch4, I_fetchadd4, I_fetchaddgez4, I_fetchand4, I_fetchor4})
            v[o] = OpInfo{0, -1, 0b110, M_Atomic, 4, true, true};
        return v;
    }();
    return infos;
}

}  // namespace

uint64_t Chip::Impl::spr_read(unsigned t, unsigned spr, bool& ok) {
    ok = true;
    Tile& T = tiles[t];
    switch (spr) {
    case kSprTileCoord: return uint64_t(T.x) << kCoordX | uint64_t(T.y) << kCoordY;
    case kSprCycle: return T.time;
    case kSprCmpexchValue: return T.cmpexch;
    case kSprUdnDataAvail: {
        uint64_t v = 0;
        for (unsigned q = 0; q < 4; ++q)
            if (!T.q[q].empty() && T.q[q].front().arrive <= T.time) v |= 1u << q;
        return v;
    }
    }
    ok = false;
    return 0;
}

void Chip::Impl::trace(unsigned t, const Decoded& d, uint64_t issue) {
    if (!cfg.trace || !(t < 64 ? cfg.trace_mask >> t & 1 : 1)) return;
    char b[64];
    std::snprintf(b, sizeof b, "%10llu x%u y%u %010llx  ", (unsigned long long)issue, tiles[t].x, tiles[t].y,
                  (unsigned long long)d.pc);
    *cfg.trace << b << format(d.b) << '\n';
}

Chip::Impl::Step Chip::Impl::step(unsigned t) {
    Tile& T = tiles[t];
    const Decoded* d = fetch(t);
    if (!d) return Step::Fault;
    const Bundle& b = d->b;
    const auto& infos = op_infos();
    char msg[256];

    // Issue: every source register ready, every UDN word it reads arrived.
    uint64_t issue = T.time;
    unsigned need[4] = {0, 0, 0, 0};
    for (unsigned s = 0; s < b.n; ++s) {
        const Insn& in = b.slot[s];
        const OpInfo& oi = infos[in.op];
        if (in.op == I_invalid || !oi.known) {
            std::snprintf(msg, sizeof msg, "%s in pipe %s: %s (bundle 0x%016llx: %s)",
                          in.op == I_invalid ? "no instruction" : op_name(in.op), pipe_name(in.pipe),
                          in.op == I_invalid ? "not a TILE-Gx encoding" : "an instruction the simulator does not model",
                          (unsigned long long)d->bits, format(b).c_str());
            fail(t, msg);
            return Step::Fault;
        }
        for (unsigned i = 0; i < in.nops; ++i) {
            if (in.kind[i] != K_Reg || !(oi.reads >> i & 1)) continue;
            const unsigned r = unsigned(in.opnd[i]);
            if (r >= R_UDN0 && r <= R_UDN3) {
                ++need[r - R_UDN0];
            } else if (r == R_SN || r == R_IDN0 || r == R_IDN1) {
                std::snprintf(msg, sizeof msg, "%s reads %s: the static and I/O networks are not modelled",
                              op_name(in.op), reg_name(r));
                fail(t, msg);
                return Step::Fault;
            } else {
                issue = std::max(issue, T.ready[r]);
            }
        }
    }
    for (unsigned q = 0; q < 4; ++q) {
        if (!need[q]) continue;
        if (T.q[q].size() < need[q]) {
            T.state = TileState::Receiving;
            std::snprintf(msg, sizeof msg, "udn%u", q);
            T.receiving_what = msg;
            if (q != 0) {  // only queue 0 ever gets words (the port's headers): nothing can end this wait
                std::snprintf(msg, sizeof msg, "reads udn%u: the port's packets all go to queue 0", q);
                fail(t, msg);
                return Step::Fault;
            }
            return Step::Blocked;
        }
        issue = std::max(issue, T.q[q][need[q] - 1].arrive);
    }
    if (issue > T.time) {
        T.time = issue;
        return Step::Requeue;
    }
    land_until(issue);
    trace(t, *d, issue);

    // Read every source, then compute every slot; results are written at the end.
    struct Result {
        int reg = -1;
        uint64_t value = 0;
        unsigned latency = 1;
        int reg2 = -1;
        uint64_t value2 = 0;
    } res[3];
    bool branch = false;
    uint64_t target = 0;
    uint64_t end = issue + 1;
    const uint64_t next = T.pc + 8;
    for (unsigned s = 0; s < b.n; ++s) {
        const Insn& in = b.slot[s];
        const OpInfo& oi = infos[in.op];
        uint64_t v[4] = {0, 0, 0, 0};
        for (unsigned i = 0; i < in.nops; ++i) {
            if (in.kind[i] != K_Reg) {
                v[i] = uint64_t(in.opnd[i]);
            } else if (oi.reads >> i & 1) {
                const unsigned r = unsigned(in.opnd[i]);
                if (r >= R_UDN0 && r <= R_UDN3) {
                    v[i] = T.q[r - R_UDN0].front().value;
                    T.q[r - R_UDN0].pop_front();
                } else {
                    v[i] = r == R_ZERO ? 0 : T.r[r];
                }
            }
        }
        Result& o = res[s];
        if (oi.dest >= 0) o.reg = int(in.opnd[oi.dest]);
        const uint64_t a = v[1];
        uint64_t c = v[2];
        // A lane-wise form's immediate applies to every lane (sign-extended to the lane's width).
        switch (in.op) {
        case I_v1minui: case I_v1maxui: case I_v1cmpeqi: case I_v1cmpltui: case I_v1cmpltsi:
            c = (c & 0xff) * 0x0101010101010101ull;
            break;
        case I_v2addi: case I_v2minsi: case I_v2maxsi: case I_v2cmpeqi: case I_v2cmpltui: case I_v2cmpltsi:
            c = (c & 0xffff) * 0x0001000100010001ull;
            break;
        default: break;
        }
        uint64_t& out = o.value;
        switch (in.op) {
        // ---- integer
        case I_add: out = a + c; break;
        case I_addi: case I_addli: out = a + c; break;
        case I_addx: case I_addxi: case I_addxli: out = sx32(a + c); break;
        case I_addxsc: {
            const int64_t r = int64_t(int32_t(a)) + int64_t(int32_t(c));
            out = uint64_t(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
            break;
        }
        case I_sub: out = a - c; break;
        case I_subx: out = sx32(a - c); break;
        case I_and: case I_andi: out = a & c; break;
        case I_or: case I_ori: out = a | c; break;
        case I_xor: case I_xori: out = a ^ c; break;
        case I_nor: out = ~(a | c); break;
        case I_move: out = a; break;
        case I_movei: case I_moveli: out = v[1]; break;
        case I_shl: case I_shli: out = a << (c & 63); break;
        case I_shlx: case I_shlxi: out = sx32(uint32_t(a) << (c & 31)); break;
        case I_shru: case I_shrui: out = a >> (c & 63); break;
        case I_shrux: case I_shruxi: out = sx32(uint32_t(a) >> (c & 31)); break;
        case I_shrs: case I_shrsi: out = uint64_t(int64_t(a) >> (c & 63)); break;
        case I_rotl: case I_rotli: out = rotl(a, unsigned(c)); break;
        case I_shl1add: out = (a << 1) + c; break;
        case I_shl2add: out = (a << 2) + c; break;
        case I_shl3add: out = (a << 3) + c; break;
        case I_shl1addx: out = sx32((a << 1) + c); break;
        case I_shl2addx: out = sx32((a << 2) + c); break;
        case I_shl3addx: out = sx32((a << 3) + c); break;
        case I_shl16insli: out = a << 16 | (c & 0xffff); break;
        case I_cmpeq: case I_cmpeqi: out = a == c; break;
        case I_cmpne: out = a != c; break;
        case I_cmples: out = int64_t(a) <= int64_t(c); break;
        case I_cmpleu: out = a <= c; break;
        case I_cmplts: case I_cmpltsi: out = int64_t(a) < int64_t(c); break;
        case I_cmpltu: case I_cmpltui: out = a < c; break;
        case I_mz: out = a == 0 ? c : 0; break;
        case I_mnz: out = a != 0 ? c : 0; break;
        case I_cmoveqz: out = a == 0 ? c : v[0]; break;
        case I_cmovnez: out = a != 0 ? c : v[0]; break;
        case I_clz: out = a ? unsigned(__builtin_clzll(a)) : 64; break;
        case I_ctz: out = a ? unsigned(__builtin_ctzll(a)) : 64; break;
        case I_pcnt: out = unsigned(__builtin_popcountll(a)); break;
        case I_revbytes: out = __builtin_bswap64(a); break;
        case I_revbits: {
            uint64_t r = 0;
            for (unsigned i = 0; i < 64; ++i) r |= (a >> i & 1) << (63 - i);
            out = r;
            break;
        }
        case I_bfextu: case I_bfexts: {
            // bits start..end of srcA, wrapping past bit 63 when end < start
            const unsigned start = unsigned(v[2]) & 63, len = ((unsigned(v[3]) - start) & 63) + 1;
            out = rotl(a, 64 - start) & mask_of(len);
            if (in.op == I_bfexts) out = sext(out, len);
            break;
        }
        case I_bfins: {
            const unsigned start = unsigned(v[2]) & 63, len = ((unsigned(v[3]) - start) & 63) + 1;
            const uint64_t m = rotl(mask_of(len), start);
            out = (v[0] & ~m) | (rotl(a, start) & m);
            break;
        }
        // masked merge: bits start..end (wrapping past bit 63) of the destination kept, the others srcA's (GCC's
        // *insv_mm: "mm dest, src, pos + len, pos - 1" stores src's field [pos, pos + len) into dest)
        case I_mm: {
            const unsigned start = unsigned(v[2]) & 63, len = ((unsigned(v[3]) - start) & 63) + 1;
            const uint64_t m = rotl(mask_of(len), start);
            out = (v[0] & m) | (a & ~m);
            break;
        }
        case I_v1addi: {
            uint64_t r = 0;
            for (unsigned i = 0; i < 8; ++i) r |= uint64_t(uint8_t((a >> (8 * i)) + c)) << (8 * i);
            out = r;
            break;
        }
        case I_v4int_l: out = a << 32 | (c & 0xffffffffu); break;
        // ---- lanes: v1 = 8 lanes of 8 bits, v2 = 4 of 16, v4 = 2 of 32; an immediate applies to every lane
#define TGX_LANES(name, bits, expr) \
        case I_##name: out = lanes(bits, a, c, [](uint64_t x, uint64_t y) { return uint64_t(expr); }); break;
#define TGX_SX(v, bits) int64_t(sext(v, bits))
        TGX_LANES(v1add, 8, x + y) TGX_LANES(v2add, 16, x + y) TGX_LANES(v4add, 32, x + y)
        TGX_LANES(v2addi, 16, x + y)
        TGX_LANES(v1sub, 8, x - y) TGX_LANES(v2sub, 16, x - y) TGX_LANES(v4sub, 32, x - y)
        TGX_LANES(v1multu, 8, x * y) TGX_LANES(v2mults, 16, x * y)
        TGX_LANES(v1minu, 8, x < y ? x : y) TGX_LANES(v1maxu, 8, x > y ? x : y)
        TGX_LANES(v1minui, 8, x < y ? x : y) TGX_LANES(v1maxui, 8, x > y ? x : y)
        TGX_LANES(v2mins, 16, TGX_SX(x, 16) < TGX_SX(y, 16) ? x : y)
        TGX_LANES(v2maxs, 16, TGX_SX(x, 16) > TGX_SX(y, 16) ? x : y)
        TGX_LANES(v2minsi, 16, TGX_SX(x, 16) < TGX_SX(y, 16) ? x : y)
        TGX_LANES(v2maxsi, 16, TGX_SX(x, 16) > TGX_SX(y, 16) ? x : y)
        TGX_LANES(v1cmpeq, 8, x == y) TGX_LANES(v2cmpeq, 16, x == y)
        TGX_LANES(v1cmpeqi, 8, x == y) TGX_LANES(v2cmpeqi, 16, x == y)
        TGX_LANES(v1cmpne, 8, x != y) TGX_LANES(v2cmpne, 16, x != y)
        TGX_LANES(v1cmpltu, 8, x < y) TGX_LANES(v2cmpltu, 16, x < y)
        TGX_LANES(v1cmpltui, 8, x < y) TGX_LANES(v2cmpltui, 16, x < y)
        TGX_LANES(v1cmpleu, 8, x <= y) TGX_LANES(v2cmpleu, 16, x <= y)
        TGX_LANES(v1cmplts, 8, TGX_SX(x, 8) < TGX_SX(y, 8)) TGX_LANES(v2cmplts, 16, TGX_SX(x, 16) < TGX_SX(y, 16))
        TGX_LANES(v1cmpltsi, 8, TGX_SX(x, 8) < TGX_SX(y, 8)) TGX_LANES(v2cmpltsi, 16, TGX_SX(x, 16) < TGX_SX(y, 16))
        TGX_LANES(v1cmples, 8, TGX_SX(x, 8) <= TGX_SX(y, 8)) TGX_LANES(v2cmples, 16, TGX_SX(x, 16) <= TGX_SX(y, 16))
        TGX_LANES(v1mz, 8, x == 0 ? y : 0) TGX_LANES(v2mz, 16, x == 0 ? y : 0)
        TGX_LANES(v1mnz, 8, x != 0 ? y : 0) TGX_LANES(v2mnz, 16, x != 0 ? y : 0)
#undef TGX_LANES
#undef TGX_SX
        // shifts: every lane by the same amount, the low bits of srcB (lane width - 1 of them)
        case I_v1shl: case I_v1shli: out = lanes(8, a, 0, [&](uint64_t x, uint64_t) { return x << (c & 7); }); break;
        case I_v2shl: case I_v2shli: out = lanes(16, a, 0, [&](uint64_t x, uint64_t) { return x << (c & 15); }); break;
        case I_v4shl: out = lanes(32, a, 0, [&](uint64_t x, uint64_t) { return x << (c & 31); }); break;
        case I_v1shru: case I_v1shrui: out = lanes(8, a, 0, [&](uint64_t x, uint64_t) { return x >> (c & 7); }); break;
        case I_v2shru: case I_v2shrui: out = lanes(16, a, 0, [&](uint64_t x, uint64_t) { return x >> (c & 15); }); break;
        case I_v4shru: out = lanes(32, a, 0, [&](uint64_t x, uint64_t) { return x >> (c & 31); }); break;
        case I_v1shrs: case I_v1shrsi:
            out = lanes(8, a, 0, [&](uint64_t x, uint64_t) { return uint64_t(int64_t(sext(x, 8)) >> (c & 7)); });
            break;
        case I_v2shrs: case I_v2shrsi:
            out = lanes(16, a, 0, [&](uint64_t x, uint64_t) { return uint64_t(int64_t(sext(x, 16)) >> (c & 15)); });
            break;
        case I_v4shrs:
            out = lanes(32, a, 0, [&](uint64_t x, uint64_t) { return uint64_t(int64_t(sext(x, 32)) >> (c & 31)); });
            break;
        // interleaves: the low (l) or high (h) halves' lanes of srcA and srcB alternate, srcB's in the even lanes
        case I_v1int_l: case I_v1int_h: case I_v2int_l: case I_v2int_h: {
            const unsigned w = in.op == I_v1int_l || in.op == I_v1int_h ? 8 : 16;
            const unsigned base = in.op == I_v1int_h || in.op == I_v2int_h ? 32 : 0;
            uint64_t r = 0;
            for (unsigned k = 0; k < 64 / (2 * w); ++k) {
                r |= ((c >> (base + k * w)) & mask_of(w)) << (2 * k * w);
                r |= ((a >> (base + k * w)) & mask_of(w)) << ((2 * k + 1) * w);
            }
            out = r;
            break;
        }
        // the 8 bytes at byte offset (srcB & 7) of the 16 bytes dest (low) : srcA (high): an unaligned load's two
        // aligned words put together (GCC's tilegx_expand_unaligned_load)
        case I_dblalign: {
            const unsigned k = 8 * unsigned(c & 7);
            out = k ? v[0] >> k | a << (64 - k) : v[0];
            break;
        }
        case I_v4int_h: out = (a & ~uint64_t(0xffffffffu)) | c >> 32; break;
        // ---- multiplies: h = the high 32 bits, l = the low, s/u signed or unsigned
#define TGX_MUL(name, x, y) \
        case I_mul_##name: out = uint64_t(x) * uint64_t(y); o.latency = timing.multiply; break; \
        case I_mula_##name: out = v[0] + uint64_t(x) * uint64_t(y); o.latency = timing.multiply; break;
        TGX_MUL(hs_hs, int64_t(int32_t(a >> 32)), int64_t(int32_t(c >> 32)))
        TGX_MUL(hs_hu, int64_t(int32_t(a >> 32)), c >> 32)
        TGX_MUL(hs_ls, int64_t(int32_t(a >> 32)), int64_t(int32_t(c)))
        TGX_MUL(hs_lu, int64_t(int32_t(a >> 32)), uint32_t(c))
        TGX_MUL(hu_hu, a >> 32, c >> 32)
        TGX_MUL(hu_ls, a >> 32, int64_t(int32_t(c)))
        TGX_MUL(hu_lu, a >> 32, uint32_t(c))
        TGX_MUL(ls_ls, int64_t(int32_t(a)), int64_t(int32_t(c)))
        TGX_MUL(ls_lu, int64_t(int32_t(a)), uint32_t(c))
        TGX_MUL(lu_lu, uint32_t(a), uint32_t(c))
#undef TGX_MUL
        case I_mulx: out = sx32(a * c); o.latency = timing.multiply; break;
        case I_mulax: out = sx32(v[0] + a * c); o.latency = timing.multiply; break;
        // ---- floating-point helpers
        case I_fsingle_add1: out = fp::fsingle_add1(v[0], a, c); break;
        case I_fsingle_sub1: out = fp::fsingle_sub1(v[0], a, c); break;
        case I_fsingle_addsub2: out = fp::fsingle_addsub2(v[0], a, c); break;
        case I_fsingle_mul1: out = fp::fsingle_mul1(v[0], a, c); break;
        case I_fsingle_mul2: out = fp::fsingle_mul2(v[0], a, c); break;
        case I_fsingle_pack1: out = fp::fsingle_pack1(v[0], a, 0); break;
        case I_fsingle_pack2: out = fp::fsingle_pack2(v[0], a, c); break;
        case I_fdouble_unpack_max: out = fp::fdouble_unpack_max(v[0], a, c); break;
        case I_fdouble_unpack_min: out = fp::fdouble_unpack_min(v[0], a, c); break;
        case I_fdouble_add_flags: out = fp::fdouble_add_flags(v[0], a, c); break;
        case I_fdouble_sub_flags: out = fp::fdouble_sub_flags(v[0], a, c); break;
        case I_fdouble_addsub: out = fp::fdouble_addsub(v[0], a, c); break;
        case I_fdouble_mul_flags: out = fp::fdouble_mul_flags(v[0], a, c); break;
        case I_fdouble_pack1: out = fp::fdouble_pack1(v[0], a, c); break;
        case I_fdouble_pack2: out = fp::fdouble_pack2(v[0], a, c); break;
        // ---- control
        case I_lnk: out = next; break;
        case I_j: branch = true, target = uint64_t(in.opnd[0]); break;
        case I_jal: branch = true, target = uint64_t(in.opnd[0]), o.reg = R_LR, out = next; break;
        case I_jr: case I_jrp: branch = true, target = v[0]; break;
        case I_jalr: case I_jalrp: branch = true, target = v[0], o.reg = R_LR, out = next; break;
#define TGX_BR(name, cond) \
        case I_##name: case I_##name##t: if (cond) branch = true, target = uint64_t(in.opnd[1]); break;
        TGX_BR(beqz, v[0] == 0)
        TGX_BR(bnez, v[0] != 0)
        TGX_BR(bgez, int64_t(v[0]) >= 0)
        TGX_BR(bgtz, int64_t(v[0]) > 0)
        TGX_BR(blez, int64_t(v[0]) <= 0)
        TGX_BR(bltz, int64_t(v[0]) < 0)
        TGX_BR(blbc, (v[0] & 1) == 0)
        TGX_BR(blbs, (v[0] & 1) != 0)
#undef TGX_BR
        case I_nop: case I_fnop: case I_info: case I_infol: break;
        case I_flush: case I_flushwb: case I_finv: case I_inv: break;  // caches: nothing to do in one memory
        // The instruction cache's 64-byte line of the address is made coherent with memory: the bundles of the line
        // decoded before are decoded again from memory as it is (libgcc's __clear_cache, which trampolines call,
        // does mf first, so the tile's stores have landed).
        case I_icoh: redecode_line(v[0] & ~uint64_t(63)); break;
        case I_mf: case I_drain:
            for (const PendingStore& p : T.stores) end = std::max(end, p.land);
            break;
        case I_nap: T.state = TileState::Napping; break;
        case I_mfspr: {
            bool ok;
            out = spr_read(t, unsigned(in.opnd[1]), ok);
            if (!ok) {
                fail_spr(t, "mfspr", unsigned(in.opnd[1]));
                return Step::Fault;
            }
            break;
        }
        case I_mtspr:
            if (in.opnd[0] == kSprCmpexchValue) {
                T.cmpexch = v[1];
            } else {
                fail_spr(t, "mtspr", unsigned(in.opnd[0]));
                return Step::Fault;
            }
            break;
        case I_ill: case I_bpt: case I_swint0: case I_swint1: case I_swint2: case I_swint3: case I_iret:
            std::snprintf(msg, sizeof msg, "%s: a trap (the program has no handler for it)", op_name(in.op));
            fail(t, msg);
            return Step::Fault;
        case I_raise:
            fail(t, "raise: a software exception (libgcc raises one for an integer division by zero)");
            return Step::Fault;
        default: break;
        }
        // ---- memory
        if (oi.mem == M_Load) {
            const uint64_t addr = oi.align_down ? v[1] & ~uint64_t(7) : v[1];
            if (!check_access(t, op_name(in.op), addr, oi.size)) return Step::Fault;
            out = load(t, addr, oi.size);
            if (oi.sign) out = sext(out, 8 * oi.size);
            const int owner = partition_tile_of(addr);
            o.latency = owner == int(t) ? timing.load_local : owner >= 0 ? timing.load_remote : timing.load_other;
            if (oi.dest2 >= 0) o.reg2 = int(in.opnd[oi.dest2]), o.value2 = v[1] + uint64_t(in.opnd[2]);
        } else if (oi.mem == M_Store) {
            const uint64_t addr = v[0];
            if (!check_access(t, op_name(in.op), addr, oi.size)) return Step::Fault;
            store(t, issue, addr, oi.size, v[1] & mask_of(8 * oi.size));
            if (oi.dest2 >= 0) o.reg2 = int(in.opnd[0]), o.value2 = addr + uint64_t(in.opnd[2]);
        } else if (oi.mem == M_Atomic) {
            const uint64_t addr = v[1];
            if (!check_access(t, op_name(in.op), addr, oi.size)) return Step::Fault;
            land_overlapping(t, addr, oi.size);
            uint64_t old = 0;
            std::memcpy(&old, at(addr), oi.size);
            uint64_t nv = old;
            const uint64_t m = mask_of(8 * oi.size);
            switch (in.op) {
            case I_exch: case I_exch4: nv = c; break;
            case I_cmpexch: nv = old == T.cmpexch ? c : old; break;
            case I_cmpexch4: nv = uint32_t(old) == uint32_t(T.cmpexch) ? c : old; break;
            case I_fetchadd: case I_fetchadd4: nv = old + c; break;
            case I_fetchaddgez: nv = int64_t(old + c) >= 0 ? old + c : old; break;
            case I_fetchaddgez4: nv = int32_t(uint32_t(old + c)) >= 0 ? old + c : old; break;
            case I_fetchand: case I_fetchand4: nv = old & c; break;
            case I_fetchor: case I_fetchor4: nv = old | c; break;
            default: break;
            }
            nv &= m;
            std::memcpy(at(addr), &nv, oi.size);
            out = oi.sign ? sext(old, 8 * oi.size) : old;
            o.latency = timing.atomic;
        } else if (oi.mem == M_Hint) {
            o.reg = -1;  // prefetches: no result, no fault
        }
    }
    // Write back: registers (a write to a UDN register sends the word), then the branch.
    for (unsigned s = 0; s < b.n; ++s) {
        const Result& o = res[s];
        for (int k = 0; k < 2; ++k) {
            const int r = k ? o.reg2 : o.reg;
            const uint64_t val = k ? o.value2 : o.value;
            if (r < 0 || r == R_ZERO) continue;
            if (r >= R_UDN0 && r <= R_UDN3) {
                send(t, issue, val);
                if (fault.any) return Step::Fault;
            } else if (r == R_SN || r == R_IDN0 || r == R_IDN1) {
                std::snprintf(msg, sizeof msg, "writes %s: the static and I/O networks are not modelled", reg_name(unsigned(r)));
                fail(t, msg);
                return Step::Fault;
            } else {
                T.r[r] = val;
                T.ready[r] = issue + (k ? 1 : o.latency);
            }
        }
    }
    ++T.bundles;
    ++bundles;
    T.pc = branch ? target : T.state == TileState::Napping ? T.pc : next;  // a napping tile's pc: its nap
    T.time = end;
    return T.state == TileState::Napping ? Step::Halted : Step::Done;
}

bool executes(Op op) { return op != I_invalid && op < I_count && op_infos()[op].known; }

Chip::Chip(const ChipConfig& cfg, const Timing& timing) : impl_(new Impl(cfg, timing)) {}
Chip::~Chip() = default;

void Chip::host_write(uint64_t addr, const void* data, size_t n) {
    if (!impl_->in_memory(addr, n)) {
        char b[96];
        std::snprintf(b, sizeof b, "tgxsim: host write of %zu bytes at 0x%llx: outside memory", n, (unsigned long long)addr);
        throw std::out_of_range(b);
    }
    std::memcpy(impl_->at(addr), data, n);
    // Decoded bundles of what was written are dropped (the loader writes code before any tile starts; the
    // host's later writes are to mailboxes).
    if (impl_->decoded.empty()) return;
    if (n > 4096) {
        impl_->decoded.clear();
        for (auto& c : impl_->cache) std::fill(c.begin(), c.end(), nullptr);
        return;
    }
    for (uint64_t pc = addr & ~uint64_t(7); pc < addr + n; pc += 8) {
        auto it = impl_->decoded.find(pc);
        if (it == impl_->decoded.end()) continue;
        for (auto& c : impl_->cache) {
            Decoded*& slot = c[(pc >> 3) & (Impl::kCache - 1)];
            if (slot == &it->second) slot = nullptr;
        }
        impl_->decoded.erase(it);
    }
}

void Chip::host_read(uint64_t addr, void* data, size_t n) const {
    if (!impl_->in_memory(addr, n)) {
        char b[96];
        std::snprintf(b, sizeof b, "tgxsim: host read of %zu bytes at 0x%llx: outside memory", n, (unsigned long long)addr);
        throw std::out_of_range(b);
    }
    std::memcpy(data, impl_->mem + (addr - impl_->cfg.mem_base), n);
}

void Chip::start(unsigned tile, uint64_t pc, uint64_t r0) {
    Tile& T = impl_->tiles.at(tile);
    T = Tile{};
    T.x = impl_->cfg.origin_x + tile % impl_->cfg.cols;
    T.y = impl_->cfg.origin_y + tile / impl_->cfg.cols;
    T.pc = pc;
    T.r[0] = r0;
    T.time = impl_->now;
    T.state = TileState::Running;
    impl_->ready.push(Event{T.time, impl_->priority[tile], tile});
}

namespace {
constexpr uint64_t kLookahead = 4;
}

Chip::Stop Chip::run(uint64_t cycles) {
    Impl& m = *impl_;
    if (m.fault.any) return Stop::Fault;
    const uint64_t until = m.now + cycles;
    while (!m.ready.empty() && m.ready.top().time < until) {
        const Event e = m.ready.top();
        m.ready.pop();
        Tile& T = m.tiles[e.tile];
        if (T.state != TileState::Running || T.time != e.time) continue;  // stale
        m.now = std::max(m.now, e.time);
        // Run this tile while it stays the earliest.
        for (;;) {
            const Impl::Step s = m.step(e.tile);
            if (s == Impl::Step::Fault) return Stop::Fault;
            if (s == Impl::Step::Blocked || s == Impl::Step::Halted) break;
            // (A tile runs up to kLookahead cycles past the next one before they switch: as if its loads saw
            // others' stores that much later, which the memory model allows; it saves a switch per bundle.)
            if (T.time >= until || (!m.ready.empty() && m.ready.top().time + kLookahead < T.time)) {
                m.ready.push(Event{T.time, m.priority[e.tile], e.tile});
                break;
            }
            m.now = std::max(m.now, T.time);
        }
    }
    if (m.ready.empty()) {
        m.now = std::max(m.now, until);
        m.land_all(m.now);
        return Stop::Quiescent;
    }
    m.land_until(until);
    m.now = until;
    return Stop::Budget;
}

uint64_t Chip::now() const { return impl_->now; }
uint64_t Chip::bundles() const { return impl_->bundles; }
const Fault& Chip::fault() const { return impl_->fault; }
unsigned Chip::tiles() const { return unsigned(impl_->tiles.size()); }
Chip::TileState Chip::state(unsigned tile) const { return impl_->tiles.at(tile).state; }
uint64_t Chip::pc(unsigned tile) const { return impl_->tiles.at(tile).pc; }
uint64_t Chip::reg(unsigned tile, unsigned r) const { return r == R_ZERO ? 0 : impl_->tiles.at(tile).r[r & 63]; }
uint64_t Chip::tile_bundles(unsigned tile) const { return impl_->tiles.at(tile).bundles; }

std::string Chip::describe(unsigned tile) const {
    const Tile& T = impl_->tiles.at(tile);
    char b[160];
    const char* st = T.state == TileState::Off         ? "off"
                     : T.state == TileState::Running   ? "running"
                     : T.state == TileState::Napping   ? "napping (nap: nothing wakes it)"
                                                       : "waiting on the UDN";
    std::snprintf(b, sizeof b, "x %u y %u, pc 0x%llx, %s", T.x, T.y, (unsigned long long)T.pc, st);
    std::string s = b;
    if (T.state == TileState::Receiving) {
        std::snprintf(b, sizeof b, " (%s: %zu words queued)", T.receiving_what.c_str(), T.q[0].size());
        s += b;
    }
    if (T.state != TileState::Off && impl_->in_memory(T.pc, 8)) {
        uint64_t bits;
        std::memcpy(&bits, impl_->mem + (T.pc - impl_->cfg.mem_base), 8);
        s += ": " + format(decode(bits, T.pc));
    }
    return s;
}

}  // namespace tgxsim

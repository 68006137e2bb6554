#include "isa.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

namespace tgxsim {

namespace {

struct Piece {
    uint8_t shift, width;
};
struct FieldDef {
    Piece piece[2];
    uint8_t npieces;
    uint8_t width;  // total
};

// The fields' bit positions (binutils' include/opcode/tilegx.h, get_*): pieces lowest first.
constexpr FieldDef kFields[F_count] = {
    {{{0, 6}}, 1, 6},   {{{6, 6}}, 1, 6},   {{{12, 6}}, 1, 6},  {{{12, 8}}, 1, 8},
    {{{12, 16}}, 1, 16}, {{{12, 6}}, 1, 6}, {{{12, 6}}, 1, 6},  {{{18, 6}}, 1, 6},
    {{{31, 6}}, 1, 6},  {{{37, 6}}, 1, 6},  {{{43, 6}}, 1, 6},  {{{43, 8}}, 1, 8},
    {{{43, 16}}, 1, 16}, {{{43, 6}}, 1, 6}, {{{37, 14}}, 1, 14}, {{{31, 6}, {43, 8}}, 2, 14},
    {{{31, 6}, {49, 2}}, 2, 8}, {{{31, 6}, {43, 11}}, 2, 17}, {{{31, 27}}, 1, 27},
    {{{0, 6}}, 1, 6},   {{{6, 6}}, 1, 6},   {{{12, 6}}, 1, 6},  {{{12, 8}}, 1, 8},  {{{12, 6}}, 1, 6},
    {{{31, 6}}, 1, 6},  {{{37, 6}}, 1, 6},  {{{43, 6}}, 1, 6},  {{{43, 8}}, 1, 8},  {{{43, 6}}, 1, 6},
    {{{20, 6}}, 1, 6},  {{{51, 6}}, 1, 6},
};

uint64_t extract(Field f, uint64_t bits) {
    const FieldDef& d = kFields[f];
    uint64_t v = 0;
    unsigned at = 0;
    for (unsigned i = 0; i < d.npieces; ++i) {
        v |= ((bits >> d.piece[i].shift) & ((uint64_t(1) << d.piece[i].width) - 1)) << at;
        at += d.piece[i].width;
    }
    return v;
}

struct Operand {
    Field field = F_count;  // F_count: no operand
    Kind kind = K_Reg;
};
struct Entry {
    Op op;
    Pipe pipe;
    uint64_t mask, match;
    Operand opnd[4];
};

constexpr Pipe P_X0 = Pipe::X0, P_X1 = Pipe::X1, P_Y0 = Pipe::Y0, P_Y1 = Pipe::Y1, P_Y2 = Pipe::Y2;

const Entry kEntries[] = {
#define TILEGX_INSN(name, pipe, mask, match, ...) {I_##name, P_##pipe, mask, match, {__VA_ARGS__}},
#include "isa_table.inc"
#undef TILEGX_INSN
};

const char* const kNames[] = {
    "<invalid>",
#define TILEGX_MNEMONIC(name, solo) #name,
#include "isa_table.inc"
#undef TILEGX_MNEMONIC
};
const bool kSolo[] = {
    false,
#define TILEGX_MNEMONIC(name, solo) solo != 0,
#include "isa_table.inc"
#undef TILEGX_MNEMONIC
};

struct Spr {
    unsigned number;
    const char* name;
};
const Spr kSprs[] = {
#define TILEGX_SPR(number, name) {number, #name},
#include "isa_table.inc"
#undef TILEGX_SPR
};

// Per pipe, the entries most specific first (most mask bits): an alias (move = or with zero, prefetch = a load
// into zero) wins over the instruction it is a form of. The table's tests check no two equally specific entries
// match one encoding.
struct Tables {
    std::array<std::vector<const Entry*>, 5> by_pipe;
    Tables() {
        for (const Entry& e : kEntries) by_pipe[size_t(e.pipe)].push_back(&e);
        for (auto& v : by_pipe)
            std::stable_sort(v.begin(), v.end(), [](const Entry* a, const Entry* b) {
                return __builtin_popcountll(a->mask) > __builtin_popcountll(b->mask);
            });
    }
};
const Tables& tables() {
    static const Tables t;
    return t;
}

Insn decode_pipe(Pipe pipe, uint64_t bits, uint64_t pc) {
    Insn in;
    in.pipe = pipe;
    for (const Entry* e : tables().by_pipe[size_t(pipe)]) {
        if ((bits & e->mask) != e->match) continue;
        in.op = e->op;
        for (unsigned i = 0; i < 4 && e->opnd[i].field != F_count; ++i) {
            in.nops = uint8_t(i + 1);
            const Field f = e->opnd[i].field;
            const Kind k = e->opnd[i].kind;
            uint64_t v = extract(f, bits);
            const unsigned w = kFields[f].width;
            if (k == K_Simm || k == K_Addr) v = uint64_t(int64_t(v << (64 - w)) >> (64 - w));
            if (k == K_Addr) v = pc + v * 8;
            in.kind[i] = k;
            in.opnd[i] = int64_t(v);
        }
        return in;
    }
    return in;
}

}  // namespace

const char* pipe_name(Pipe p) {
    static const char* const n[] = {"X0", "X1", "Y0", "Y1", "Y2"};
    return n[size_t(p)];
}

const char* op_name(Op op) { return op < I_count ? kNames[op] : "<invalid>"; }
bool op_solo(Op op) { return op < I_count && kSolo[op]; }

const char* reg_name(unsigned r) {
    static const char* const n[64] = {
        "r0",  "r1",  "r2",  "r3",  "r4",  "r5",  "r6",  "r7",  "r8",  "r9",  "r10", "r11", "r12",
        "r13", "r14", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25",
        "r26", "r27", "r28", "r29", "r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38",
        "r39", "r40", "r41", "r42", "r43", "r44", "r45", "r46", "r47", "r48", "r49", "r50", "r51",
        "r52", "tp",  "sp",  "lr",  "sn",  "idn0", "idn1", "udn0", "udn1", "udn2", "udn3", "zero"};
    return r < 64 ? n[r] : "?";
}

const char* spr_name(unsigned spr) {
    const auto* end = kSprs + sizeof kSprs / sizeof kSprs[0];
    const auto* it = std::lower_bound(kSprs, end, spr, [](const Spr& s, unsigned n) { return s.number < n; });
    return it != end && it->number == spr ? it->name : nullptr;
}

Bundle decode(uint64_t bits, uint64_t pc) {
    Bundle b;
    b.y = (bits >> 62) != 0;
    if (b.y) {
        b.n = 3;
        b.slot[0] = decode_pipe(Pipe::Y0, bits, pc);
        b.slot[1] = decode_pipe(Pipe::Y1, bits, pc);
        b.slot[2] = decode_pipe(Pipe::Y2, bits, pc);
    } else {
        b.n = 2;
        b.slot[0] = decode_pipe(Pipe::X0, bits, pc);
        b.slot[1] = decode_pipe(Pipe::X1, bits, pc);
    }
    return b;
}

std::string format(const Bundle& b) {
    Op padding = I_fnop;
    for (unsigned i = 0; i < b.n; ++i)
        if (op_solo(b.slot[i].op) || b.slot[i].op == I_invalid) padding = I_nop;  // as objdump: <invalid> is solo
    std::string s = "{ ";
    unsigned printed = 0;
    for (unsigned i = 0; i < b.n; ++i) {
        const Insn& in = b.slot[i];
        if (in.op == padding && (printed > 0 || i + 1 < b.n)) continue;
        if (printed++) s += " ; ";
        s += op_name(in.op);
        for (unsigned j = 0; j < in.nops; ++j) {
            s += j ? ", " : " ";
            char buf[32];
            switch (in.kind[j]) {
            case K_Reg: s += reg_name(unsigned(in.opnd[j])); continue;
            case K_Spr:
                if (const char* n = spr_name(unsigned(in.opnd[j]))) {
                    s += n;
                    continue;
                }
                std::snprintf(buf, sizeof buf, "%d", int(in.opnd[j]));
                break;
            case K_Addr: std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)in.opnd[j]); break;
            default: std::snprintf(buf, sizeof buf, "%d", int(in.opnd[j])); break;
            }
            s += buf;
        }
    }
    return s + " }";
}

size_t table_size() { return sizeof kEntries / sizeof kEntries[0]; }
void table_entry(size_t i, Op& op, Pipe& pipe, uint64_t& mask, uint64_t& match) {
    op = kEntries[i].op;
    pipe = kEntries[i].pipe;
    mask = kEntries[i].mask;
    match = kEntries[i].match;
}

}  // namespace tgxsim

// The placement plan for the Epiphany targets: the workgroup, and every byte the loader writes before the cores
// start. Pure: the run loop applies it through a Mesh, the dry run prints it, the tests read it.
#include <epiphany/boot_block.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/common.hpp"
#include "epiphany.hpp"

namespace oshrun {

namespace {

constexpr uint64_t kLocalSize = SHMEM_EP_LOCAL_SIZE;
constexpr uint64_t kHoleLow = SHMEM_EP_BOOT_BLOCK_ADDR, kHoleHigh = SHMEM_EP_BOOT_BLOCK_ADDR + SHMEM_EP_BOOT_BLOCK_SIZE;

std::string span(uint64_t lo, uint64_t hi) { return hex(lo) + ".." + hex(hi); }

// The write of a segment's part [lo, hi) at global address base + lo: its file bytes there, zeros for the rest.
// .bss is the loader's to clear, before any core starts (boot_block.h: the startup code clears nothing, so that
// no core's startup can wipe what a faster core already put into its memory).
MeshWrite segment_part(const Segment& s, uint64_t lo, uint64_t hi, uint64_t base, const std::string& what) {
    MeshWrite w;
    w.global = uint32_t(base + lo);
    const uint64_t file_end = std::min(hi, s.vaddr + s.filesz);
    if (file_end > lo) w.bytes.assign(s.data.begin() + long(lo - s.vaddr), s.data.begin() + long(file_end - s.vaddr));
    w.zeros = uint32_t(hi - std::max(lo, file_end));
    w.what = what + " " + span(lo, hi);
    return w;
}

// The part [lo, hi) of w (global addresses inside it).
MeshWrite part(const MeshWrite& w, uint64_t lo, uint64_t hi) {
    MeshWrite p;
    p.global = uint32_t(lo);
    const uint64_t a = lo - w.global, b = hi - w.global, n = w.bytes.size();
    if (a < n) p.bytes.assign(w.bytes.begin() + long(a), w.bytes.begin() + long(std::min(b, n)));
    p.zeros = uint32_t(b - std::max(a, std::min(b, n)));
    p.what = w.what;
    return p;
}

// w on top of writes: what of them w covers is cut out, so that no two writes of a core overlap (a backend may
// apply them in any order: esim makes each one a segment of the core's ELF) and a core's bytes add up.
void overlay(std::vector<MeshWrite>& writes, MeshWrite w) {
    std::vector<MeshWrite> out;
    const uint64_t lo = w.global, hi = lo + w.size();
    for (const MeshWrite& x : writes) {
        const uint64_t xlo = x.global, xhi = xlo + x.size();
        if (xhi <= lo || xlo >= hi) {
            out.push_back(x);
            continue;
        }
        if (xlo < lo) out.push_back(part(x, xlo, lo));
        if (xhi > hi) out.push_back(part(x, hi, xhi));
    }
    out.push_back(std::move(w));
    writes = std::move(out);
}

}  // namespace

uint64_t EpiphanyPe::bytes() const {
    uint64_t n = 0;
    for (const MeshWrite& w : writes) n += w.size();
    return n;
}

std::vector<unsigned> EpiphanyPlan::coreids() const {
    std::vector<unsigned> ids;
    for (const EpiphanyPe& pe : pes) ids.push_back(pe.coreid);
    return ids;
}

std::vector<uint8_t> make_epiphany_boot_block(const EpiphanyPlan& plan, unsigned pe,
                                              const std::vector<std::string>& argv) {
    shmem_ep_boot_block b;
    std::memset(&b, 0, sizeof b);  // started = 0 among the rest
    b.magic = SHMEM_EP_BOOT_MAGIC;
    b.version = SHMEM_EP_BOOT_VERSION;
    b.pe = pe;
    b.npes = plan.npes;
    b.first_row = plan.first_row;
    b.first_col = plan.first_col;
    b.rows = plan.rows;
    b.cols = plan.cols;
    b.mailbox = plan.mailbox;
    size_t total = 0;
    for (const std::string& a : argv) total += a.size() + 1;
    if (total > sizeof b.args)
        throw Failure("program arguments too long for the Epiphany boot block: they need " + std::to_string(total) +
                      " bytes with their NULs (argv[0], the program path as given, is " +
                      std::to_string(argv.empty() ? 0 : argv[0].size() + 1) + " of them); " +
                      std::to_string(sizeof b.args) + " fit");
    size_t used = 0;
    for (const std::string& a : argv) {
        std::memcpy(b.args + used, a.c_str(), a.size() + 1);
        used += a.size() + 1;
    }
    b.argc = uint32_t(argv.size());
    b.args_len = uint32_t(used);
    std::vector<uint8_t> bytes(sizeof b);
    std::memcpy(bytes.data(), &b, sizeof b);
    return bytes;
}

std::vector<uint8_t> make_epiphany_barrier_table(const EpiphanyPlan& plan, unsigned pe, uint64_t table_bytes) {
    std::vector<uint32_t> words;
    unsigned d = 1;
    do {  // rounds while d < npes, at least one
        const EpiphanyPe& to = plan.pes.at((pe + d) % plan.npes);
        words.push_back(to.base | SHMEM_EP_ILATST);
        words.push_back(to.base);
        d <<= 1;
    } while (d < plan.npes);
    words.push_back(0);
    words.push_back(0);
    if (words.size() * 4 > table_bytes)
        throw Failure("the image's barrier table (section " SHMEM_EP_BARRIER_SECTION ", " + std::to_string(table_bytes) +
                      " bytes) has room for " + std::to_string(table_bytes / 8 == 0 ? 0 : table_bytes / 8 - 1) +
                      " rounds; a run of " + std::to_string(plan.npes) + " PEs needs " +
                      std::to_string(words.size() / 2 - 1) + ": was it built for a smaller chip?");
    std::vector<uint8_t> bytes(words.size() * 4);
    for (size_t i = 0; i < words.size(); ++i)
        for (unsigned b = 0; b < 4; ++b) bytes[i * 4 + b] = uint8_t(words[i] >> (8 * b));  // little-endian
    return bytes;
}

EpiphanyPlan plan_epiphany(const Target& t, const Image& img, const Request& req, uint32_t mailbox) {
    const unsigned npes = req.npes;
    const std::vector<std::string>& argv = req.argv;
    const Chip& chip = t.chip;
    if (npes < 1 || npes > chip.rows * chip.cols)
        throw Failure("-np must be between 1 and " + std::to_string(chip.rows * chip.cols) + " on " + t.name +
                      ", got " + std::to_string(npes));
    EpiphanyPlan plan;
    plan.npes = npes;
    plan.first_row = chip.first_row;
    plan.first_col = chip.first_col;
    plan.cols = std::min(npes, chip.cols);
    plan.rows = (npes + plan.cols - 1) / plan.cols;
    plan.mailbox = mailbox;
    plan.local_end = epiphany_local_end(img);
    plan.stack_size = img.stack_size;

    // The mailboxes: in external DRAM, clear of the image's segments there (the cores write them while they run).
    const uint64_t mb_end = uint64_t(mailbox) + uint64_t(npes) * SHMEM_EP_MAILBOX_STRIDE;
    if (mailbox % 8 != 0 || mailbox < kEpExternalBase || mb_end > kEpExternalBase + kEpExternalSize)
        throw Failure("console mailboxes " + span(mailbox, mb_end) + " (" + std::to_string(npes) + " x " +
                      std::to_string(SHMEM_EP_MAILBOX_STRIDE) + " bytes) must lie in external DRAM " +
                      span(kEpExternalBase, kEpExternalBase + kEpExternalSize) + ", 8-byte aligned");
    for (const Segment& s : img.segments)
        if (s.vaddr >= kLocalSize && s.vaddr < mb_end && s.vaddr + s.memsz > mailbox)
            throw Failure(img.path + ": PT_LOAD segment " + span(s.vaddr, s.vaddr + s.memsz) +
                          " in external DRAM overlaps the console mailboxes " + span(mailbox, mb_end));

    // The barrier's partner table (boot_block.h): found by its section, which strip keeps; an image without
    // section headers could not say whether it has one.
    if (img.sections.empty())
        throw Failure(img.path + ": the image has no section headers; oshrun finds the barrier's partner table (section " +
                      SHMEM_EP_BARRIER_SECTION + ") by them: keep them (strip does)");
    const Section* barrier = nullptr;
    for (const Section& s : img.sections)
        if (s.name == SHMEM_EP_BARRIER_SECTION) barrier = &s;
    if (barrier != nullptr && (barrier->addr % 8 != 0 || barrier->addr < kHoleHigh || barrier->addr >= kLocalSize ||
                               barrier->size > kLocalSize - barrier->addr))
        throw Failure(img.path + ": section " SHMEM_EP_BARRIER_SECTION " (" + span(barrier->addr, barrier->addr + barrier->size) +
                      ") must be 8-byte aligned core-local memory after the boot block (" + span(kHoleHigh, kLocalSize) + ")");

    for (unsigned k = 0; k < npes; ++k) {
        EpiphanyPe pe;
        pe.pe = k;
        pe.row = plan.first_row + k / plan.cols;
        pe.col = plan.first_col + k % plan.cols;
        pe.coreid = pe.row << 6 | pe.col;
        pe.base = pe.coreid << 20;
        pe.boot_block = pe.base | SHMEM_EP_BOOT_BLOCK_ADDR;
        pe.mailbox = mailbox + k * SHMEM_EP_MAILBOX_STRIDE;
        // The image's core-local bytes, except the boot block's hole (a linked image's one segment spans it).
        for (const Segment& s : img.segments) {
            if (s.vaddr >= kLocalSize) continue;
            const uint64_t end = s.vaddr + s.memsz;
            if (s.vaddr < kHoleLow) pe.writes.push_back(segment_part(s, s.vaddr, std::min(end, kHoleLow), pe.base, "image"));
            if (end > kHoleHigh)
                pe.writes.push_back(segment_part(s, std::max(s.vaddr, kHoleHigh), end, pe.base, "image"));
        }
        plan.pes.push_back(std::move(pe));
    }
    // After every PE's place is known (a table names the others), before each boot block (the last write).
    for (EpiphanyPe& pe : plan.pes) {
        if (barrier != nullptr)
            overlay(pe.writes, {pe.base | uint32_t(barrier->addr), make_epiphany_barrier_table(plan, pe.pe, barrier->size),
                                0, "barrier partners"});
        pe.writes.push_back({pe.boot_block, make_epiphany_boot_block(plan, pe.pe, argv), 0, "boot block"});
    }
    for (const Segment& s : img.segments)
        if (s.vaddr >= kLocalSize)
            plan.shared.push_back(segment_part(s, s.vaddr, s.vaddr + s.memsz, 0, "external segment"));
    // Zero is head = tail = 0 and state RUNNING: what the startup code expects to find.
    static_assert(SHMEM_EP_STATE_RUNNING == 0, "a zeroed mailbox is a running one");
    for (const EpiphanyPe& pe : plan.pes)
        plan.shared.push_back({pe.mailbox, {}, SHMEM_EP_MAILBOX_STRIDE, "mailbox of PE " + std::to_string(pe.pe)});
    return plan;
}

std::string epiphany_plan_text(const Target& t, const EpiphanyPlan& plan, const Image& img) {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line,
                  "target %s: %u PEs on a %ux%u workgroup of %ux%u cores, first core %s (row %u, col %u)\n", t.name,
                  plan.npes, plan.rows, plan.cols, t.chip.rows, t.chip.cols,
                  hex(plan.first_row << 6 | plan.first_col).c_str(), plan.first_row, plan.first_col);
    out += line;
    uint64_t external = 0;
    for (const Segment& s : img.segments)
        if (s.vaddr >= kLocalSize) external += s.memsz;
    const uint64_t used = plan.local_end + plan.stack_size;  // check_epiphany_image: at most 32 KB
    std::snprintf(line, sizeof line,
                  "image %s: core-local %s (%llu bytes) + stack %llu bytes%s, %llu bytes of 32 KiB free; "
                  "external DRAM %llu bytes\n",
                  img.path.c_str(), span(0, plan.local_end).c_str(), static_cast<unsigned long long>(plan.local_end),
                  static_cast<unsigned long long>(plan.stack_size), img.stack_size_from_symbol ? "" : " (default)",
                  static_cast<unsigned long long>(kLocalSize - std::min(used, kLocalSize)),
                  static_cast<unsigned long long>(external));
    out += line;
    for (const EpiphanyPe& pe : plan.pes) {
        std::snprintf(line, sizeof line,
                      "pe %u: coreid %s row %u col %u base %s bytes %llu boot-block %s mailbox %s\n", pe.pe,
                      hex(pe.coreid).c_str(), pe.row, pe.col, hex(pe.base).c_str(),
                      static_cast<unsigned long long>(pe.bytes()), hex(pe.boot_block).c_str(), hex(pe.mailbox).c_str());
        out += line;
    }
    std::snprintf(line, sizeof line, "mailboxes: %s, %u x %u bytes, zeroed (state RUNNING) before the cores start\n",
                  span(plan.mailbox, plan.mailbox + uint64_t(plan.npes) * SHMEM_EP_MAILBOX_STRIDE).c_str(), plan.npes,
                  SHMEM_EP_MAILBOX_STRIDE);
    out += line;
    for (const MeshWrite& w : plan.shared) {
        if (w.what.rfind("mailbox", 0) == 0) continue;  // summed up above
        std::snprintf(line, sizeof line, "shared: %s bytes %llu (%s, once for all PEs)\n", hex(w.global).c_str(),
                      static_cast<unsigned long long>(w.size()), w.what.c_str());
        out += line;
    }
    return out;
}

}  // namespace oshrun

// What an Epiphany image must look like beyond the common checks: where its bytes may lie.
#include <epiphany/boot_block.h>

#include <algorithm>

#include "core/common.hpp"
#include "epiphany.hpp"

namespace oshrun {

namespace {

constexpr uint64_t kLocalSize = SHMEM_EP_LOCAL_SIZE;
constexpr uint64_t kHoleLow = SHMEM_EP_BOOT_BLOCK_ADDR, kHoleHigh = SHMEM_EP_BOOT_BLOCK_ADDR + SHMEM_EP_BOOT_BLOCK_SIZE;
static_assert(kHoleHigh == SHMEM_EP_CODE_ADDR, "the boot block ends where code begins");

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw Failure(path + ": " + what); }

std::string span(uint64_t lo, uint64_t hi) { return hex(lo) + ".." + hex(hi); }

bool external(uint64_t lo, uint64_t hi) { return lo >= kEpExternalBase && hi <= kEpExternalBase + kEpExternalSize; }

const std::string kNeither = "neither core-local (" + span(0, kLocalSize) + ") nor external DRAM (" +
                             span(kEpExternalBase, kEpExternalBase + kEpExternalSize) + ")";

// The core-local part and the stack above it share the 32 KB. The section named is the first core-local one that
// runs past the end, or into the stack if it is the last one; the excess is the whole image's (what it must shed).
// Core-local sections are those below the end of the core-local segments (which start below 0x8000), wherever
// they end.
void check_fit(const Image& img) {
    const uint64_t local_end = epiphany_local_end(img);
    const uint64_t stack = img.stack_size;
    if (stack <= kLocalSize && local_end + stack <= kLocalSize) return;
    const uint64_t over = local_end + stack - kLocalSize;  // __stack_size is a 32-bit value: no overflow
    const std::string room = "does not fit in the 32 KB of core-local memory (" + hex(kLocalSize) + " with " +
                             std::to_string(stack) + " B reserved for the stack" +
                             (img.stack_size_from_symbol ? "" : " by default: the image has no __stack_size symbol") +
                             "): " + hex(over) + " B over";
    std::vector<const Section*> local;
    for (const Section& sec : img.sections)
        if (sec.addr < local_end) local.push_back(&sec);  // sorted by address
    for (size_t i = 0; i < local.size(); ++i) {
        const uint64_t end = local[i]->addr + local[i]->size;
        if (end > kLocalSize || (i + 1 == local.size() && end + stack > kLocalSize))
            refuse(img.path, "section " + local[i]->name + " (" + span(local[i]->addr, end) + ") " + room);
    }
    for (const Segment& s : img.segments)  // no section headers to name it
        if (s.vaddr < kLocalSize && s.vaddr + s.memsz == local_end)
            refuse(img.path, "PT_LOAD segment " + span(s.vaddr, local_end) + " " + room);
    refuse(img.path, "the stack " + room);  // unreachable: a segment starts at 0
}

}  // namespace

uint64_t epiphany_local_end(const Image& img) {
    uint64_t end = 0;
    for (const Segment& s : img.segments)
        if (s.vaddr < kLocalSize) end = std::max(end, s.vaddr + s.memsz);
    return end;
}

void check_epiphany_image(const Target&, Image& img) {
    const std::string& path = img.path;
    for (const Section& s : img.sections)
        if (s.addr < kHoleHigh && s.addr + s.size > kHoleLow)
            refuse(path, "section " + s.name + " (" + span(s.addr, s.addr + s.size) + ") lies in the boot block's hole " +
                             span(kHoleLow, kHoleHigh) +
                             ", which the loader fills with the boot block; the linker script must leave it empty");
    check_fit(img);
    // What is left beyond 0x8000 must be in external DRAM. Sections first: they have names (a linked image's
    // segments are made of its sections); the segments are checked for images stripped of section headers.
    for (const Section& s : img.sections) {
        const uint64_t end = s.addr + s.size;
        if (s.addr >= kLocalSize && !external(s.addr, end))
            refuse(path, "section " + s.name + " (" + span(s.addr, end) + ") is " + kNeither);
    }
    for (const Segment& s : img.segments) {
        const uint64_t end = s.vaddr + s.memsz;
        if (s.vaddr >= kLocalSize && !external(s.vaddr, end))
            refuse(path, "PT_LOAD segment " + span(s.vaddr, end) + " is " + kNeither);
    }
}

}  // namespace oshrun

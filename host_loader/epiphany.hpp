// The Epiphany targets (epiphany-e16, epiphany-e64): what an image must look like, the placement plan (what goes
// where in the mesh's global address space), its dry-run text, and the run hook.
//
// Memory as the loader sees it (crt/epiphany/boot_block.h is the contract with the startup code):
//   - every core has 32 KB of SRAM at local 0x0000..0x8000, visible to all at (coreid << 20) | local, where
//     coreid = row << 6 | col; the image is linked at 0 (vector table at 0), one copy per core, with a hole at
//     0x40..0x100 for the boot block and code from 0x100; the stack sits at the top of the 32 KB;
//   - external DRAM, 32 MB at Epiphany global 0x8E000000 on the Parallella (ARM physical 0x3E000000), is shared:
//     image segments there are written once, and the console mailboxes live there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image.hpp"
#include "target.hpp"

namespace oshrun {

constexpr unsigned kEmAdaptevaEpiphany = 0x1223;  // EM_ADAPTEVA_EPIPHANY, missing from older <elf.h>
constexpr uint64_t kEpExternalBase = 0x8E000000;  // external DRAM, Epiphany side
constexpr uint64_t kEpExternalSize = 32 << 20;
constexpr uint32_t kEpDefaultMailbox = 0x8F000000; // PE 0's mailbox: the upper 16 MB of the Parallella's 32 MB

// Target::check_image of the Epiphany targets: every section and segment core-local or in external DRAM, nothing
// in the boot block's hole, and the core-local part plus the stack within 32 KB (the message names the section
// that overflows).
void check_epiphany_image(const Target& t, Image& img);

// A range the image's core-local part uses, [0, local_end): the highest end of a PT_LOAD segment below 0x8000.
uint64_t epiphany_local_end(const Image& img);

// One write into the mesh's global address space: bytes, then zeros more zero bytes.
struct MeshWrite {
    uint32_t global;
    std::vector<uint8_t> bytes;
    uint32_t zeros = 0;
    std::string what;  // for the dry run: "image", "boot block", ...
    uint64_t size() const { return bytes.size() + zeros; }
};

struct EpPe {
    unsigned pe, row, col, coreid;
    uint32_t base;        // coreid << 20: local address 0 of this core
    uint32_t boot_block;  // base | SHMEM_EP_BOOT_BLOCK_ADDR
    uint32_t mailbox;     // this PE's struct shmem_ep_mailbox in external DRAM
    std::vector<MeshWrite> writes;  // the image's core-local bytes (around the boot block hole), then the boot block
    uint64_t bytes() const;         // written into this core
};

struct EpPlan {
    unsigned npes = 0;
    unsigned first_row = 0, first_col = 0, rows = 0, cols = 0;  // the workgroup: PEs fill it row by row
    uint32_t mailbox = 0;            // PE 0's mailbox; PE k's is mailbox + k * SHMEM_EP_MAILBOX_STRIDE
    uint64_t local_end = 0;          // the image uses core-local [0, local_end), then its stack at the top
    uint64_t stack_size = 0;
    std::vector<EpPe> pes;
    std::vector<MeshWrite> shared;   // once for all: the image's external DRAM segments, every PE's mailbox zeroed
    std::vector<unsigned> coreids() const;
};

// The placement plan, a pure function of its inputs. Throws Failure (status 2) if npes is not 1..cores of the
// chip, the arguments do not fit in the boot block, or the mailboxes do not fit in external DRAM or overlap the
// image's segments there.
EpPlan plan_epiphany(const Target& t, const Image& img, unsigned npes, const std::vector<std::string>& argv,
                     uint32_t mailbox = kEpDefaultMailbox);

// The boot block of one PE (struct shmem_ep_boot_block, SHMEM_EP_BOOT_BLOCK_SIZE bytes). Throws Failure if
// argv does not fit in its SHMEM_EP_ARGS_SIZE bytes of strings.
std::vector<uint8_t> make_epiphany_boot_block(const EpPlan& plan, unsigned pe, const std::vector<std::string>& argv);

// What --dry-run prints: the workgroup, one line per PE, the mailboxes, the shared writes.
std::string format_plan(const Target& t, const EpPlan& plan, const Image& img);

// Target::run of the Epiphany targets: the plan, then the backend (--backend parallella|esim) and the run loop.
int run_epiphany(const Target& t, const Image& img, const RunRequest& req);

}  // namespace oshrun

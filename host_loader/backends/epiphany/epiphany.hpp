// The Epiphany backend (epiphany-e16, epiphany-e64): what an image must look like, the placement plan (what goes
// where in the mesh's global address space), its dry-run text, and the run: the plan applied to a mesh (mesh.hpp:
// the board's chip, oshrun's simulator, or Adapteva's esim; --backend chooses) by the run loop.
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

#include "core/backend.hpp"
#include "core/image.hpp"
#include "core/request.hpp"
#include "core/target.hpp"

namespace oshrun {

constexpr unsigned kEmAdaptevaEpiphany = 0x1223;  // EM_ADAPTEVA_EPIPHANY, missing from older <elf.h>
constexpr uint64_t kEpExternalBase = 0x8E000000;  // external DRAM, Epiphany side
constexpr uint64_t kEpExternalSize = 32 << 20;
constexpr uint32_t kEpDefaultMailbox = 0x8F000000; // PE 0's mailbox: the upper 16 MB of the Parallella's 32 MB

// The Epiphany check of an image, after load_image's: every section and segment core-local or in external DRAM, nothing
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

struct EpiphanyPe {
    unsigned pe, row, col, coreid;
    uint32_t base;        // coreid << 20: local address 0 of this core
    uint32_t boot_block;  // base | SHMEM_EP_BOOT_BLOCK_ADDR
    uint32_t mailbox;     // this PE's struct shmem_ep_mailbox in external DRAM
    std::vector<MeshWrite> writes;  // the image's core-local bytes (around the boot block hole), the barrier's
                                    // partner table where the image has one, then the boot block
    uint64_t bytes() const;         // written into this core
};

struct EpiphanyPlan {
    unsigned npes = 0;
    unsigned first_row = 0, first_col = 0, rows = 0, cols = 0;  // the workgroup: PEs fill it row by row
    uint32_t mailbox = 0;            // PE 0's mailbox; PE k's is mailbox + k * SHMEM_EP_MAILBOX_STRIDE
    uint64_t local_end = 0;          // the image uses core-local [0, local_end), then its stack at the top
    uint64_t stack_size = 0;
    std::vector<EpiphanyPe> pes;
    std::vector<MeshWrite> shared;   // once for all: the image's external DRAM segments, every PE's mailbox zeroed
    std::vector<unsigned> coreids() const;
};

// The placement plan, a pure function of its inputs (req.npes, req.argv; argv[0] is the program as given).
// Throws Failure (status 2) if npes is not 1..cores of the chip, the arguments do not fit in the boot block, the
// mailboxes do not fit in external DRAM or overlap the image's segments there, the image has no section headers
// (the barrier's table is found by its section), or its barrier table has no room for this run's rounds.
EpiphanyPlan plan_epiphany(const Target& t, const Image& img, const Request& req,
                           uint32_t mailbox = kEpDefaultMailbox);

// The boot block of one PE (struct shmem_ep_boot_block, SHMEM_EP_BOOT_BLOCK_SIZE bytes). Throws Failure if
// argv does not fit in its SHMEM_EP_ARGS_SIZE bytes of strings.
std::vector<uint8_t> make_epiphany_boot_block(const EpiphanyPlan& plan, unsigned pe,
                                              const std::vector<std::string>& argv);

// The barrier's partner table of one PE (boot_block.h, SHMEM_EP_BARRIER_SECTION): each round's pair, then a pair of
// zeros; table_bytes is the section's size. Throws Failure if the rounds and the zeros do not fit.
std::vector<uint8_t> make_epiphany_barrier_table(const EpiphanyPlan& plan, unsigned pe, uint64_t table_bytes);

// What --dry-run prints: the workgroup, one line per PE, the mailboxes, the shared writes.
std::string epiphany_plan_text(const Target& t, const EpiphanyPlan& plan, const Image& img);

// The mesh a run goes to: --backend (req.mesh), else $OSHRUN_EPIPHANY_BACKEND, else parallella where the board's
// device exists, else sim. Throws Failure (status 2) for a name that is none of parallella, sim, esim.
struct MeshChoice {
    std::string name;  // parallella, sim or esim
    std::string why;   // for the dry run: "" (--backend), " (OSHRUN_EPIPHANY_BACKEND)", " (default: ...)"
};
MeshChoice choose_mesh(const Target& t, const Request& req);

class EpiphanyBackend final : public Backend {
public:
    const std::vector<Target>& targets() const override;
    bool takes(Option o) const override;  // --backend (the mesh) and --emulator (esim's simulator)
    std::string help() const override;
    // load_image, then check_epiphany_image.
    Image load(const Target& t, const Request& req) const override;
    // The plan (--dry-run: its text and the mesh), the mesh (choose_mesh) opened and the run loop (run_mesh) until
    // the PEs end. -x is ignored with a warning: the PEs have no environment. 127 without the mesh's device or
    // simulator.
    int run(const Target& t, const Image& img, const Request& req) const override;
};

}  // namespace oshrun

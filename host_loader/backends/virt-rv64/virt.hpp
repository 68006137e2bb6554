// The virt-rv64 backend: a QEMU virt machine (RISC-V 64) with one hart per PE. Its plan is the placement
// (placement.hpp) and the files and command line QEMU is given (qemu_virt.hpp); a run is one QEMU process, whose
// UART carries every PE's console records to the relay, and whose status is the PEs' exit records'.
#pragma once

#include "core/backend.hpp"

namespace oshrun {

constexpr const char* kVirtEmulator = "qemu-system-riscv64";  // found on PATH unless --emulator names one

class VirtBackend final : public Backend {
public:
    const std::vector<Target>& targets() const override;
    bool takes(Option o) const override;  // every one but --backend and --boot-dir
    std::string help() const override;
    // load_image, then the image must fit in the largest partition (check_partitioned_image).
    Image load(const Target& t, const Request& req) const override;
    // The plan (--dry-run: its text and QEMU's command line), the files in a TempDir, QEMU run with its UART
    // relayed; with --gdb, QEMU waits for gdb and the run has no time limit. 127 without the emulator.
    int run(const Target& t, const Image& img, const Request& req) const override;
};

}  // namespace oshrun

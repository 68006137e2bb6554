// The QEMU side of the virt-rv64 target: the files QEMU loads and its command line.
#pragma once

#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/request.hpp"
#include "placement.hpp"

namespace oshrun {

// dir/machine.dtb, dir/image.bin and either, with the shared code, dir/shared.bin, dir/tables.bin and dir/boot.bin
// (every PE's boot block, one after the other) or dir/boot<k>.bin for every PE: the files virt_command refers to.
void write_virt_files(const VirtPlan& plan, const Image& img, const std::string& dir);

// The device tree QEMU is given instead of making its own: a root node and /chosen, nothing else.
std::vector<uint8_t> minimal_device_tree();

// emulator (qemu-system-riscv64) -machine virt,aclint=on,dtb=... -bios none ... With the shared code
// (plan.shared), four -device loader for it (its first page, its image, the page tables, the boot blocks) and one
// per PE that sets hart k's PC to the shared image's first byte (cpu-num=k); without, two per PE: its boot block,
// and its copy of the image, whose loader sets hart k's PC to the image's first byte. QEMU's stdout is the UART,
// which carries the PEs' console records (crt/common/console_protocol.h) to oshrun's console relay
// (core/console.hpp). With req.icount, deterministic instruction counting; req.extra_qemu_args at the end, as they
// are. With gdb_port (not 0), QEMU starts with every hart stopped and its gdb server on 127.0.0.1:gdb_port.
std::vector<std::string> virt_command(const VirtPlan& plan, const Request& req, const std::string& emulator,
                                      unsigned gdb_port, const std::string& dir);

}  // namespace oshrun

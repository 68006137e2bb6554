// The QEMU side of the virt-rv64 target: the files QEMU loads and its command line.
#pragma once

#include "target.hpp"

namespace oshrun {

// dir/boot<k>.bin for every PE and dir/image.bin, the files virt_command refers to.
void write_virt_files(const Layout& lay, const Image& img, const std::string& dir);

// qemu-system-riscv64 -machine virt -bios none ... with two -device loader per PE: the boot block, and the image,
// whose loader also sets hart k's PC to the image's first byte (cpu-num=k). QEMU's stdout is the UART, which carries
// the PEs' console records (crt/common/console_protocol.h) to oshrun's console relay (console.hpp). With
// opt.gdb_port, QEMU starts with every hart stopped and its gdb server on 127.0.0.1:gdb_port.
std::vector<std::string> virt_command(const Layout& lay, const EmulatorOptions& opt, const std::string& dir);

}  // namespace oshrun

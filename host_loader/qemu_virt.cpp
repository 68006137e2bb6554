#include "qemu_virt.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common.hpp"

namespace oshrun {

namespace {

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
    FILE* f = std::fopen(path.c_str(), "wb");
    const bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    const int err = errno;
    if (!(f && std::fclose(f) == 0 && ok)) throw Failure(path + ": cannot write: " + std::strerror(err), 1);
}

std::string boot_file(const std::string& dir, unsigned pe) { return dir + "/boot" + std::to_string(pe) + ".bin"; }
std::string image_file(const std::string& dir) { return dir + "/image.bin"; }

}  // namespace

void write_virt_files(const Layout& lay, const Image& img, const std::string& dir) {
    for (const PeSlot& pe : lay.pes) write_file(boot_file(dir, pe.pe), lay.boot_blocks[pe.pe]);
    write_file(image_file(dir), img.flat);
}

std::vector<std::string> virt_command(const Layout& lay, const EmulatorOptions& opt, const std::string& dir) {
    // -serial stdio rather than -nographic: no monitor multiplexed onto the guest's console (no Ctrl-A escapes).
    // The RAM is a memfd (shared memory) rather than QEMU's anonymous memory, which QEMU asks the kernel to back
    // with transparent huge pages: every PE touches the two ends of its partition (image, stack), so with huge
    // pages the kernel zeroed 2 GiB at 512 PEs, 29 % of the host time of a run's start; a memfd gets 4 KiB pages
    // unless the host's shmem_enabled says otherwise (its default, never), and the kernel zeroes only those touched.
    const std::string ram = std::to_string(lay.ram_size / (1024 * 1024)) + "M";  // a multiple of 2 MiB
    std::vector<std::string> cmd = {opt.emulator, "-machine", "virt,memory-backend=shmem.ram", "-bios", "none",
                                    "-smp", std::to_string(lay.npes),
                                    "-m", ram,
                                    "-object", "memory-backend-memfd,id=shmem.ram,size=" + ram,
                                    "-display", "none", "-monitor", "none", "-serial", "stdio"};
    if (opt.icount) cmd.insert(cmd.end(), {"-icount", "shift=0,sleep=off"});
    // gdb: the server on the loopback interface only, every hart stopped until gdb continues.
    if (opt.gdb_port) cmd.insert(cmd.end(), {"-gdb", "tcp:127.0.0.1:" + std::to_string(opt.gdb_port), "-S"});
    for (const PeSlot& pe : lay.pes) {
        cmd.insert(cmd.end(), {"-device", "loader,file=" + boot_file(dir, pe.pe) + ",addr=" + hex(pe.boot_block) +
                                              ",force-raw=on"});
        cmd.insert(cmd.end(), {"-device", "loader,file=" + image_file(dir) + ",addr=" + hex(pe.image) +
                                              ",force-raw=on,cpu-num=" + std::to_string(pe.pe)});
    }
    cmd.insert(cmd.end(), opt.extra.begin(), opt.extra.end());
    return cmd;
}

}  // namespace oshrun

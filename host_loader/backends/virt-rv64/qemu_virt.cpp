#include "qemu_virt.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/common.hpp"

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
std::string shared_file(const std::string& dir) { return dir + "/shared.bin"; }
std::string dtb_file(const std::string& dir) { return dir + "/machine.dtb"; }
std::string boots_file(const std::string& dir) { return dir + "/boot.bin"; }
std::string tables_file(const std::string& dir) { return dir + "/tables.bin"; }

}  // namespace

std::vector<uint8_t> minimal_device_tree() {
    // Header (ten big-endian words), an empty memory reservation map, then the structure block: the root node with
    // one child, /chosen (QEMU adds its rng-seed there), and no strings.
    const uint32_t header = 40, rsvmap = 16, structure = 32;
    const uint32_t words[] = {0xd00dfeed, header + rsvmap + structure, header + rsvmap, header + rsvmap + structure,
                              header, 17, 16, 0, 0, structure};
    std::vector<uint8_t> b;
    const auto put = [&b](uint32_t w) {
        for (int shift = 24; shift >= 0; shift -= 8) b.push_back(uint8_t(w >> shift));
    };
    for (uint32_t w : words) put(w);
    b.resize(header + rsvmap, 0);
    put(1);  // FDT_BEGIN_NODE "" (the root)
    put(0);
    put(1);  // FDT_BEGIN_NODE "chosen"
    for (char c : std::string("chosen\0\0", 8)) b.push_back(uint8_t(c));
    put(2);  // FDT_END_NODE
    put(2);
    put(9);  // FDT_END
    return b;
}

void write_virt_files(const VirtPlan& plan, const Image& img, const std::string& dir) {
    write_file(dtb_file(dir), minimal_device_tree());
    write_file(image_file(dir), img.flat);
    if (plan.shared != 0) {
        write_file(shared_file(dir), plan.shared_block);
        write_file(tables_file(dir), plan.table_bytes);
        std::vector<uint8_t> boots;
        for (const std::vector<uint8_t>& b : plan.boot_blocks) boots.insert(boots.end(), b.begin(), b.end());
        write_file(boots_file(dir), boots);
        return;
    }
    for (const VirtPe& pe : plan.pes) write_file(boot_file(dir, pe.pe), plan.boot_blocks[pe.pe]);
}

std::vector<std::string> virt_command(const VirtPlan& plan, const Request& req, const std::string& emulator,
                                      unsigned gdb_port, const std::string& dir) {
    // -serial stdio rather than -nographic: no monitor multiplexed onto the guest's console (no Ctrl-A escapes).
    // The RAM is a memfd (shared memory) rather than QEMU's anonymous memory, which QEMU asks the kernel to back
    // with transparent huge pages: every PE touches the two ends of its partition (image, stack), so with huge
    // pages the kernel zeroed 2 GiB at 512 PEs, 29 % of the host time of a run's start; a memfd gets 4 KiB pages
    // unless the host's shmem_enabled says otherwise (its default, never), and the kernel zeroes only those touched.
    const std::string ram = std::to_string(plan.ram_size / (1024 * 1024)) + "M";  // a multiple of 2 MiB
    // aclint=on: the ACLINT's SSWI device, through which a hart raises another's supervisor software interrupt,
    // the wake-up the port uses (port/virt-rv64/shmem_port.hpp); its timer and machine software interrupts are
    // where the SiFive CLINT has them.
    // dtb: a device tree of our own, nearly empty (no PE reads it): QEMU's own, with a node per hart, took it a
    // fifth of a 512-PE run's start (libfdt's lookups by path, each a walk of the tree so far).
    std::vector<std::string> cmd = {emulator, "-machine",
                                    "virt,aclint=on,memory-backend=shmem.ram,dtb=" + dtb_file(dir), "-bios", "none",
                                    "-smp", std::to_string(plan.npes),
                                    "-m", ram,
                                    "-object", "memory-backend-memfd,id=shmem.ram,size=" + ram,
                                    "-display", "none", "-monitor", "none", "-serial", "stdio"};
    if (req.icount) cmd.insert(cmd.end(), {"-icount", "shift=0,sleep=off"});
    // gdb: the server on the loopback interface only, every hart stopped until gdb continues.
    if (gdb_port) cmd.insert(cmd.end(), {"-gdb", "tcp:127.0.0.1:" + std::to_string(gdb_port), "-S"});
    // The shared code: its first page, its image, the page tables, the boot blocks, and every hart started in
    // that copy (a loader with an address and no file sets the hart's pc). Without it, each PE's boot block and
    // copy of the image, whose loader starts the hart there (cpu-num).
    const auto load = [&cmd](const std::string& file, uint64_t addr, const std::string& more = "") {
        cmd.insert(cmd.end(), {"-device", "loader,file=" + file + ",addr=" + hex(addr) + ",force-raw=on" + more});
    };
    if (plan.shared != 0) {
        load(shared_file(dir), plan.shared);
        load(image_file(dir), run_address(plan, 0));
        load(tables_file(dir), plan.tables);
        load(boots_file(dir), plan.boot_blocks_at);
        for (const VirtPe& pe : plan.pes)
            cmd.insert(cmd.end(), {"-device", "loader,addr=" + hex(run_address(plan, pe.pe)) +
                                                  ",cpu-num=" + std::to_string(pe.pe)});
    } else {
        for (const VirtPe& pe : plan.pes) {
            load(boot_file(dir, pe.pe), pe.boot_block);
            load(image_file(dir), pe.image, ",cpu-num=" + std::to_string(pe.pe));
        }
    }
    cmd.insert(cmd.end(), req.extra_qemu_args.begin(), req.extra_qemu_args.end());
    return cmd;
}

}  // namespace oshrun

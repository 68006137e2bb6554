// oshrun --dry-run, byte for byte: for every target, the plan it prints for a sample image (elf_builder's). What a
// plan says is a contract with scripts and people: any change to it shows here.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "core/process.hpp"
#include "elf_builder.hpp"

namespace {

struct Case {
    const char* args;      // in the directory of the images: the paths in the plan are these
    const char* expected;  // stdout; @CPUS@: the CPUs oshrun may run on (linux); @PINNING@: what linux says of them
    unsigned npes = 1;     // linux: PE k is pinned to CPU k when there are at least this many CPUs
    const char* env = "";  // oshrun's environment besides PATH and TMPDIR
};

const Case kVirt[] = {
    {"--dry-run -np 3 virt.elf a b",
     R"golden(target virt-rv64: 3 PEs, partition 64 MiB (log2 26), RAM 196 MiB at 0x80000000
image virt.elf: 8200 bytes (8.0 KiB) loaded, 20 KiB in memory, stack 16 KiB, room for symmetric heap 65368 KiB
pe 0: partition 0x80000000 boot-block 0x80000000 image 0x80001000 bytes 8200
pe 1: partition 0x84000000 boot-block 0x84000000 image 0x84001000 bytes 8200
pe 2: partition 0x88000000 boot-block 0x88000000 image 0x88001000 bytes 8200
shared code: 0x8c000000 (every PE runs the image at 0x8c001000), page tables at 0x8c006000, 36864 bytes
device tree: within [0x8c200000, 0x8c400000)
qemu-system-riscv64 -machine virt,aclint=on,memory-backend=shmem.ram,dtb=/tmp/oshrun.XXXXXX/machine.dtb -bios none -smp 3 -m 196M -object memory-backend-memfd,id=shmem.ram,size=196M -display none -monitor none -serial stdio -device loader,file=/tmp/oshrun.XXXXXX/shared.bin,addr=0x8c000000,force-raw=on -device loader,file=/tmp/oshrun.XXXXXX/image.bin,addr=0x8c001000,force-raw=on -device loader,file=/tmp/oshrun.XXXXXX/tables.bin,addr=0x8c006000,force-raw=on -device loader,file=/tmp/oshrun.XXXXXX/boot.bin,addr=0x8c00f000,force-raw=on -device loader,addr=0x8c001000,cpu-num=0 -device loader,addr=0x8c001000,cpu-num=1 -device loader,addr=0x8c001000,cpu-num=2
)golden"},
    {"--dry-run -np 2 --gdb 1 --gdb-port 4444 --icount --extra-qemu-arg -s --partition-size 4M virt.elf",
     R"golden(target virt-rv64: 2 PEs, partition 4 MiB (log2 22), RAM 10 MiB at 0x80000000
image virt.elf: 8200 bytes (8.0 KiB) loaded, 20 KiB in memory, stack 16 KiB, room for symmetric heap 3928 KiB
pe 0: partition 0x80000000 boot-block 0x80000000 image 0x80001000 bytes 8200
pe 1: partition 0x80400000 boot-block 0x80400000 image 0x80401000 bytes 8200
device tree: within [0x80800000, 0x80a00000)
qemu-system-riscv64 -machine virt,aclint=on,memory-backend=shmem.ram,dtb=/tmp/oshrun.XXXXXX/machine.dtb -bios none -smp 2 -m 10M -object memory-backend-memfd,id=shmem.ram,size=10M -display none -monitor none -serial stdio -icount shift=0,sleep=off -gdb tcp:127.0.0.1:4444 -S -device loader,file=/tmp/oshrun.XXXXXX/boot0.bin,addr=0x80000000,force-raw=on -device loader,file=/tmp/oshrun.XXXXXX/image.bin,addr=0x80001000,force-raw=on,cpu-num=0 -device loader,file=/tmp/oshrun.XXXXXX/boot1.bin,addr=0x80400000,force-raw=on -device loader,file=/tmp/oshrun.XXXXXX/image.bin,addr=0x80401000,force-raw=on,cpu-num=1 -s
)golden"},
};

const Case kEpiphany[] = {
    {"--target epiphany-e16 --dry-run -np 5 --backend sim ep.elf a b",
     R"golden(target epiphany-e16: 5 PEs on a 2x4 workgroup of 4x4 cores, first core 0x808 (row 32, col 8)
image ep.elf: core-local 0x0..0x1000 (4096 bytes) + stack 1024 bytes, 27648 bytes of 32 KiB free; external DRAM 0 bytes
pe 0: coreid 0x808 row 32 col 8 base 0x80800000 bytes 4096 boot-block 0x80800040 mailbox 0x8f000000
pe 1: coreid 0x809 row 32 col 9 base 0x80900000 bytes 4096 boot-block 0x80900040 mailbox 0x8f000410
pe 2: coreid 0x80a row 32 col 10 base 0x80a00000 bytes 4096 boot-block 0x80a00040 mailbox 0x8f000820
pe 3: coreid 0x80b row 32 col 11 base 0x80b00000 bytes 4096 boot-block 0x80b00040 mailbox 0x8f000c30
pe 4: coreid 0x848 row 33 col 8 base 0x84800000 bytes 4096 boot-block 0x84800040 mailbox 0x8f001040
mailboxes: 0x8f000000..0x8f001450, 5 x 1040 bytes, zeroed (state RUNNING) before the cores start
backend: sim
)golden"},
    {"--target epiphany-e64 --dry-run -np 9 --backend esim ep.elf",
     R"golden(target epiphany-e64: 9 PEs on a 2x8 workgroup of 8x8 cores, first core 0x808 (row 32, col 8)
image ep.elf: core-local 0x0..0x1000 (4096 bytes) + stack 1024 bytes, 27648 bytes of 32 KiB free; external DRAM 0 bytes
pe 0: coreid 0x808 row 32 col 8 base 0x80800000 bytes 4096 boot-block 0x80800040 mailbox 0x8f000000
pe 1: coreid 0x809 row 32 col 9 base 0x80900000 bytes 4096 boot-block 0x80900040 mailbox 0x8f000410
pe 2: coreid 0x80a row 32 col 10 base 0x80a00000 bytes 4096 boot-block 0x80a00040 mailbox 0x8f000820
pe 3: coreid 0x80b row 32 col 11 base 0x80b00000 bytes 4096 boot-block 0x80b00040 mailbox 0x8f000c30
pe 4: coreid 0x80c row 32 col 12 base 0x80c00000 bytes 4096 boot-block 0x80c00040 mailbox 0x8f001040
pe 5: coreid 0x80d row 32 col 13 base 0x80d00000 bytes 4096 boot-block 0x80d00040 mailbox 0x8f001450
pe 6: coreid 0x80e row 32 col 14 base 0x80e00000 bytes 4096 boot-block 0x80e00040 mailbox 0x8f001860
pe 7: coreid 0x80f row 32 col 15 base 0x80f00000 bytes 4096 boot-block 0x80f00040 mailbox 0x8f001c70
pe 8: coreid 0x848 row 33 col 8 base 0x84800000 bytes 4096 boot-block 0x84800040 mailbox 0x8f002080
mailboxes: 0x8f000000..0x8f002490, 9 x 1040 bytes, zeroed (state RUNNING) before the cores start
backend: esim
)golden"},
};

const Case kTile[] = {
    {"--target tilegx --dry-run -np 2 gx.elf",
     R"golden(target tilegx: 2 PEs on a 1x2 rectangle (rows x cols) of the 6x6 tiles from tile x 1 y 1; PE k at x = 1 + k % 2, y = 1 + k / 2
partition 64 MiB (log2 26) per PE from ram_base 0x10000000: boot block at +0x0, image at +0x10000, stack 16 KiB at the top, room for the heaps 65392 KiB
image gx.elf: 20480 bytes in memory (8448 from the file, then zeros), entry +0x100, 4 relocations (R_TILEGX_RELATIVE, GOT entries) applied per PE
pe 0: x 1 y 1 partition 0x10000000 boot-block 0x10000000 image 0x10010000 entry 0x10010100 relocations 4
pe 1: x 2 y 1 partition 0x14000000 boot-block 0x14000000 image 0x14010000 entry 0x14010100 relocations 4
mailboxes: 0x18000000..0x18002080, 2 x 4160 bytes, zeroed (state RUNNING) before the tiles start
physical memory used: 0x10000000..0x18002080 of tilegx's 64 GiB
)golden"},
    // TILE-Gx's tiles from (0, 0), as oshrun planned them before the origin became (1, 1).
    {"--target tilegx --dry-run -np 7 --symmetric-size 1M --tile-origin 0,0 gx.elf a",
     R"golden(target tilegx: 7 PEs on a 2x6 rectangle (rows x cols) of the 6x6 tiles from tile x 0 y 0; PE k at x = 0 + k % 6, y = 0 + k / 6
partition 2 MiB (log2 21) per PE from ram_base 0x10000000: boot block at +0x0, image at +0x10000, stack 16 KiB at the top, room for the heaps 1904 KiB
image gx.elf: 20480 bytes in memory (8448 from the file, then zeros), entry +0x100, 4 relocations (R_TILEGX_RELATIVE, GOT entries) applied per PE
pe 0: x 0 y 0 partition 0x10000000 boot-block 0x10000000 image 0x10010000 entry 0x10010100 relocations 4
pe 1: x 1 y 0 partition 0x10200000 boot-block 0x10200000 image 0x10210000 entry 0x10210100 relocations 4
pe 2: x 2 y 0 partition 0x10400000 boot-block 0x10400000 image 0x10410000 entry 0x10410100 relocations 4
pe 3: x 3 y 0 partition 0x10600000 boot-block 0x10600000 image 0x10610000 entry 0x10610100 relocations 4
pe 4: x 4 y 0 partition 0x10800000 boot-block 0x10800000 image 0x10810000 entry 0x10810100 relocations 4
pe 5: x 5 y 0 partition 0x10a00000 boot-block 0x10a00000 image 0x10a10000 entry 0x10a10100 relocations 4
pe 6: x 0 y 1 partition 0x10c00000 boot-block 0x10c00000 image 0x10c10000 entry 0x10c10100 relocations 4
mailboxes: 0x10e00000..0x10e071c0, 7 x 4160 bytes, zeroed (state RUNNING) before the tiles start
physical memory used: 0x10000000..0x10e071c0 of tilegx's 64 GiB
)golden"},
    {"--target tilepro --dry-run -np 5 pro.elf",
     R"golden(target tilepro: 5 PEs on a 1x5 rectangle (rows x cols) of the 8x8 tiles from tile x 0 y 0; PE k at x = 0 + k % 5, y = 0 + k / 5
partition 64 MiB (log2 26) per PE from ram_base 0x10000000: boot block at +0x0, image at +0x10000, stack 16 KiB at the top, room for the heaps 65392 KiB
image pro.elf: 20480 bytes in memory (8448 from the file, then zeros), entry +0x100, 4 relocations (R_TILEPRO_RELATIVE, GOT entries) applied per PE
pe 0: x 0 y 0 partition 0x10000000 boot-block 0x10000000 image 0x10010000 entry 0x10010100 relocations 4
pe 1: x 1 y 0 partition 0x14000000 boot-block 0x14000000 image 0x14010000 entry 0x14010100 relocations 4
pe 2: x 2 y 0 partition 0x18000000 boot-block 0x18000000 image 0x18010000 entry 0x18010100 relocations 4
pe 3: x 3 y 0 partition 0x1c000000 boot-block 0x1c000000 image 0x1c010000 entry 0x1c010100 relocations 4
pe 4: x 4 y 0 partition 0x20000000 boot-block 0x20000000 image 0x20010000 entry 0x20010100 relocations 4
mailboxes: 0x24000000..0x24005140, 5 x 4160 bytes, zeroed (state RUNNING) before the tiles start
physical memory used: 0x10000000..0x24005140 of tilepro's 4 GiB
)golden"},
};

const Case kLinux[] = {
    {"--dry-run -np 1 host.elf x y",
     R"golden(target linux: 1 PEs as processes, symmetric heap 64 MiB each, @CPUS@ CPUs, PE k pinned to CPU k
pe 0: host.elf x y
)golden"},
    // Emulated nodes: block-wise, the first npes % K nodes with a PE more.
    {"--dry-run -np 7 --nodes 3 host.elf x",
     R"golden(target linux: 7 PEs as processes, symmetric heap 64 MiB each, @CPUS@ CPUs@PINNING@
nodes: 3 (PEs 0-2, 3-4, 5-6)
pe 0 (node 0): host.elf x
pe 1 (node 0): host.elf x
pe 2 (node 0): host.elf x
pe 3 (node 1): host.elf x
pe 4 (node 1): host.elf x
pe 5 (node 2): host.elf x
pe 6 (node 2): host.elf x
)golden",
     7},
    {"--dry-run -np 1 --nodes 1 host.elf",
     R"golden(target linux: 1 PEs as processes, symmetric heap 64 MiB each, @CPUS@ CPUs, PE k pinned to CPU k
nodes: 1 (PEs 0)
pe 0 (node 0): host.elf
)golden"},
    {"--dry-run -np 3 --nodes 3 --gdb 2 host.elf",
     R"golden(target linux: 3 PEs as processes, symmetric heap 64 MiB each, @CPUS@ CPUs@PINNING@
nodes: 3 (PEs 0, 1, 2)
pe 0 (node 0): host.elf
pe 1 (node 1): host.elf
pe 2 (node 2): host.elf (under gdb)
)golden",
     3},
    // Each node's PEs under a prefix of words, {node} replaced by the node's number.
    {"--dry-run -np 3 --nodes 2 --node-prefix 'ip netns exec n{node} unshare -i{node}{node}' host.elf x",
     R"golden(target linux: 3 PEs as processes, symmetric heap 64 MiB each, @CPUS@ CPUs@PINNING@
nodes: 2 (PEs 0-1, 2)
pe 0 (node 0): ip netns exec n0 unshare -i00 host.elf x
pe 1 (node 0): ip netns exec n0 unshare -i00 host.elf x
pe 2 (node 1): ip netns exec n1 unshare -i11 host.elf x
)golden",
     3},
};

// With a launcher (--launcher, --hosts, --hostfile), the one command line oshrun would exec in its place.
const Case kLinuxLauncher[] = {
    {"--dry-run --hosts n1,n2:4 -np 6 host.elf x 'a b'", "mpirun -np 6 --host n1,n2:4 host.elf x 'a b'\n"},
    {"--dry-run --hostfile hosts -np 8 --tag-output --output-filename out --timeout 1.5 host.elf",
     "mpirun -np 8 --hostfile hosts --tag-output --output-filename out --timeout 2 host.elf\n"},
    // Every SHMEM_* and UCX_* variable by name (not oshrun's own SHMEM_LINUX_*), then -x with its value (the last
    // of a name), then the run's: SHMEM_SYMMETRIC_SIZE as the library reads it, --nodes.
    {"--dry-run --launcher mpirun -np 3 --nodes 2 -x PROBE_A=1 -x UCX_TLS=tcp -x PROBE_OTHER -x PROBE_A=2 host.elf",
     "mpirun -np 3 -x SHMEM_FOO -x UCX_NET_DEVICES -x UCX_TLS=tcp -x PROBE_OTHER=x -x PROBE_A=2 "
     "-x SHMEM_SYMMETRIC_SIZE=1536K -x SHMEM_LINUX_EMULATED_NODES=2 host.elf\n",
     1, "SHMEM_FOO=bar UCX_TLS=rc UCX_NET_DEVICES=mlx5_0:1 SHMEM_LINUX_FD=9 SHMEM_SYMMETRIC_SIZE=1.5M PROBE_OTHER=x"},
    // --symmetric-size wins over the environment's; $OSHRUN_MPIRUN; the time limit of $OSHRUN_TIMEOUT.
    {"--dry-run --hosts a,b --symmetric-size 1G host.elf",
     "/opt/openmpi/bin/mpirun -np 1 --host a,b --timeout 30 -x SHMEM_LINUX_EMULATED_NODES -x SHMEM_SYMMETRIC_SIZE=1G "
     "host.elf\n",
     1, "SHMEM_SYMMETRIC_SIZE=64M SHMEM_LINUX_EMULATED_NODES=1 OSHRUN_MPIRUN=/opt/openmpi/bin/mpirun OSHRUN_TIMEOUT=30"},
    // srun: the variables in its environment, which it passes on whole; its time limit in minutes.
    {"--dry-run --launcher srun --hosts 'node[1-2],node7' -np 4 --tag-output --timeout 90 --nodes 2 "
     "-x UCX_TLS=shm,tcp -x 'PROBE_B=a b' host.elf x",
     "UCX_TLS=shm,tcp PROBE_B='a b' SHMEM_LINUX_EMULATED_NODES=2 srun --mpi=pmix --export=ALL -n 4 "
     "'--nodelist=node[1-2],node7' --label --time=2 host.elf x\n",
     1, "SHMEM_FOO=bar"},
    {"--dry-run --launcher srun -np 2 --symmetric-size 3000 host.elf",
     "SHMEM_SYMMETRIC_SIZE=3000 /usr/local/bin/srun --mpi=pmix --export=ALL -n 2 host.elf\n", 1,
     "OSHRUN_SRUN=/usr/local/bin/srun"},
};

class DryRun : public ::testing::Test {
protected:
    oshrun::TempDir dir;

    DryRun() {
        write_file(dir.path(), "virt.elf", valid_elf().bytes());
        write_file(dir.path(), "ep.elf", epiphany_elf().bytes());
        write_file(dir.path(), "gx.elf", tile_elf(ELFCLASS64).bytes());
        write_file(dir.path(), "pro.elf", tile_elf(ELFCLASS32).bytes());
        // A program of this host's machine without a symbol table, as strip leaves one, with libshmem's note.
        TestElf host = valid_elf();
#if defined(__x86_64__)
        host.machine = EM_X86_64;
#elif defined(__aarch64__)
        host.machine = EM_AARCH64;
#endif
        host.section_headers = false;
        // libshmem's note (crt/linux), which is how oshrun knows a stripped libshmem program: owner "libshmem",
        // type 1, descriptor "linux".
        TestSegment note;
        note.type = PT_NOTE;
        note.flags = PF_R;
        note.data = {9, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 'l', 'i', 'b', 's', 'h', 'm', 'e', 'm', 0, 0, 0, 0,
                     'l', 'i', 'n', 'u', 'x', 0, 0, 0};
        host.segments.push_back(note);
        chmod(write_file(dir.path(), "host.elf", host.bytes()).c_str(), 0755);
        std::ofstream(dir.path() + "/hosts") << "n1 slots=4\nn2 slots=4\n";  // mpirun's hostfile
    }

    static std::string slurp(const std::string& path) {
        std::ifstream f(path);
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }

    // Every case's stdout is its text, its stderr empty, its status 0. oshrun runs with nothing of this
    // environment (no SHMEM_*, no OSHRUN_*) but PATH and TMPDIR (the temporary directory QEMU's command names).
    void expect_as_before(const Case* cases, size_t n) {
        cpu_set_t set;
        const int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
        for (size_t i = 0; i < n; ++i) {
            const std::string cmd = "cd " + dir.path() + " && env -i PATH=/usr/bin:/bin TMPDIR=/tmp " +
                                    cases[i].env + " " + OSHRUN_PATH + " " + cases[i].args + " >out 2>err";
            const int status = std::system(cmd.c_str());
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cases[i].args;
            std::string expected = cases[i].expected;
            const size_t at = expected.find("@CPUS@");
            if (at != std::string::npos) expected.replace(at, 6, std::to_string(cpus));
            const size_t pinning = expected.find("@PINNING@");
            if (pinning != std::string::npos)
                expected.replace(pinning, 9,
                                 int(cases[i].npes) <= cpus ? ", PE k pinned to CPU k" : " (oversubscribed: not pinned)");
            EXPECT_EQ(slurp(dir.path() + "/out"), expected) << cases[i].args;
            EXPECT_EQ(slurp(dir.path() + "/err"), "") << cases[i].args;
        }
    }
};

TEST_F(DryRun, VirtRv64AsBefore) { expect_as_before(kVirt, std::size(kVirt)); }
TEST_F(DryRun, EpiphanyAsBefore) { expect_as_before(kEpiphany, std::size(kEpiphany)); }
TEST_F(DryRun, TileAsBefore) { expect_as_before(kTile, std::size(kTile)); }
TEST_F(DryRun, LinuxAsBefore) {
#if !defined(__x86_64__) && !defined(__aarch64__)
    GTEST_SKIP() << "no host program to build for this machine";
#endif
    expect_as_before(kLinux, std::size(kLinux));
}
TEST_F(DryRun, LinuxLauncherCommand) {
#if !defined(__x86_64__) && !defined(__aarch64__)
    GTEST_SKIP() << "no host program to build for this machine";
#endif
    expect_as_before(kLinuxLauncher, std::size(kLinuxLauncher));
}

}  // namespace

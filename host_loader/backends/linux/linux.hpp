// The linux backend (PEs as processes of this host): its image check, its plan and its run (linux.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/image.hpp"
#include "core/request.hpp"
#include "core/target.hpp"

namespace oshrun {

constexpr uint64_t kLinuxDefaultHeap = 64ull << 20;  // as virt-rv64's partitions up to 16 PEs

// An executable this host runs (its own machine, or one a qemu-user binfmt handler runs), linked with libshmem's
// linux port (it has shmem_linux_preinit, unless it is stripped). Only path, file_size and launcher are filled in.
Image load_linux_image(const std::string& path, const Target& t);

// Whether program is an ELF file of this host's machine (the file is not read beyond its header).
bool is_host_program(const std::string& program);

// An emulated node of a run (--nodes): PEs first .. first + npes - 1, one shared memory object of their own.
struct LinuxNode {
    unsigned first = 0, npes = 0;
    bool operator==(const LinuxNode& o) const { return first == o.first && npes == o.npes; }
};

// npes PEs split block-wise into k nodes (1 <= k <= npes): node j has a contiguous range of PE numbers, the first
// npes % k nodes one PE more than the others.
std::vector<LinuxNode> split_nodes(unsigned npes, unsigned k);

// The run's plan: every PE a process, the symmetric heap each maps, whether each has a CPU of its own, the nodes.
struct LinuxPlan {
    unsigned npes = 0;
    uint64_t heap = 0;               // bytes of symmetric heap per PE
    int cpus = 0;                    // the CPUs oshrun may run on
    bool pin = false;                // PE k pinned to the k-th of them (npes <= cpus)
    unsigned spin = 0, yields = 0;   // how a waiting PE polls (pinned) or yields (oversubscribed) before it sleeps
    std::vector<std::string> argv;   // every PE's
    std::optional<unsigned> gdb_pe;  // the PE that runs under gdb
    std::vector<LinuxNode> nodes;    // in PE order; one node of every PE without --nodes
    bool emulated_nodes = false;     // --nodes given: the PEs get SHMEM_LINUX_NODE_*, the board and UCX over TCP
    std::vector<std::string> node_prefix;  // --node-prefix: words before each PE's command, {node} replaced
    unsigned node_of(unsigned pe) const;
    // PE pe's command line: the node's prefix, then launcher (the image's: qemu-user for a foreign program), then argv.
    std::vector<std::string> command(unsigned pe, const std::vector<std::string>& launcher) const;
};

// The plan for req (npes, the symmetric heap asked for, argv, --gdb, --nodes) on this host's CPUs. Throws Failure
// (status 2) if the heap size asked for is not a size, or --nodes is not 1 to npes.
LinuxPlan plan_linux(const Target& t, const Image& img, const Request& req);

// What --dry-run prints: the target, the heap and the CPUs, with --nodes the nodes' PEs, one line per PE with its
// command line (and with --nodes its node).
std::string linux_plan_text(const Target& t, const LinuxPlan& plan, const Image& img);

// A run handed to a launcher across machines, as Sandia OpenSHMEM's oshrun does: --launcher mpirun|srun, or --hosts
// or --hostfile (mpirun unless --launcher srun). oshrun forks no PE then: it execs the launcher, which starts the
// PEs on their hosts, and the library learns its PE from PMIx (docs/multinode.md).
struct LaunchPlan {
    std::string launcher;            // "mpirun" or "srun"
    std::vector<std::string> argv;   // the launcher's command line; argv[0]: $OSHRUN_MPIRUN / $OSHRUN_SRUN, else
                                     // the launcher's name (found on PATH)
    std::vector<std::string> set;    // NAME=VALUE the launcher's environment gets (srun's way of passing -x)
    std::vector<std::string> env;    // the launcher's whole environment: oshrun's without SHMEM_LINUX_* (but
                                     // SHMEM_LINUX_EMULATED_NODES), then set
};

// The launcher req asks for: --launcher, else "mpirun" with --hosts or --hostfile, else "" (oshrun forks the PEs).
std::string launcher_of(const Request& req);

// The command for req's launcher (launcher_of(req) is not ""), with host_env oshrun's environment:
//   mpirun -np N [--host a,b | --hostfile F] [--tag-output] [--output-filename DIR] [--timeout S]
//          [-x NAME]... [-x NAME=VALUE]... PROGRAM ARGS...
//     -x NAME for every SHMEM_* and UCX_* variable of host_env (mpirun passes on its value; not SHMEM_LINUX_* but
//     SHMEM_LINUX_EMULATED_NODES), -x NAME=VALUE for oshrun's -x and for what the run sets: SHMEM_SYMMETRIC_SIZE
//     (--symmetric-size, else the one of the PEs' environment, in a form the library reads) and
//     SHMEM_LINUX_EMULATED_NODES (--nodes); S: the time limit in whole seconds, rounded up;
//   srun --mpi=pmix --export=ALL -n N [--nodelist=a,b] [--label] [--time=MINUTES] PROGRAM ARGS...
//     with oshrun's -x and the run's variables in srun's environment (set), which srun passes on whole.
// Throws Failure (status 2) for what a launcher cannot do: --gdb, a program that runs here under qemu-user, with
// srun --hostfile or --output-filename; or a --hostfile that cannot be read.
LaunchPlan plan_launch(const Request& req, const Image& img, const std::vector<std::string>& host_env);

// What --dry-run prints of it (without the newline): set as NAME=VALUE words, then argv, shell-quoted.
std::string launch_text(const LaunchPlan& plan);

class LinuxBackend final : public Backend {
public:
    const std::vector<Target>& targets() const override;
    // linux for a program of this host's machine (is_host_program).
    const Target* claims(const std::string& program) const override;
    bool takes(Option o) const override;  // --symmetric-size, --gdb, --nodes, --launcher, --hosts, --hostfile
    std::string help() const override;
    // load_linux_image.
    Image load(const Target& t, const Request& req) const override;
    // Forks the PEs (one under gdb with --gdb), relays their output, returns the run's status; with a launcher
    // (launcher_of), execs it (plan_launch) and does not return.
    int run(const Target& t, const Image& img, const Request& req) const override;
};

}  // namespace oshrun

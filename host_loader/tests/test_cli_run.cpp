// The command line, running a child, and oshrun end to end with a stand-in emulator (a shell script).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "backends/linux/linux.hpp"
#include "backends/registry.hpp"
#include "console_records.hpp"
#include "core/common.hpp"
#include "core/process.hpp"
#include "core/request.hpp"
#include "elf_builder.hpp"
#include "test_env.hpp"

using namespace oshrun;

namespace {

// A file's whole contents ("" if it cannot be read).
std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

#define EXPECT_HAS(haystack, needle) EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

Failure usage_failure(const std::vector<std::string>& args) {
    try {
        parse_cli(args);
    } catch (const Failure& f) {
        return f;
    }
    ADD_FAILURE() << "accepted";
    return Failure("");
}

TEST(Cli, NpSpellings) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"-np", "4", "p.elf"}, {"-n", "4", "p.elf"}, {"--np", "4", "p.elf"}, {"--npes", "4", "p.elf"},
             {"--npes=4", "p.elf"}, {"--np=4", "p.elf"}}) {
        const Request cli = parse_cli(args);
        EXPECT_EQ(cli.npes, 4u) << args[0];
        EXPECT_EQ(cli.program, "p.elf");
    }
    EXPECT_EQ(parse_cli({"p.elf"}).npes, 1u);
}

TEST(Cli, ArgumentsAfterProgramBelongToIt) {
    const Request cli = parse_cli({"-np", "2", "--verbose", "p.elf", "-np", "7", "--help", "x"});
    EXPECT_EQ(cli.npes, 2u);
    EXPECT_TRUE(cli.verbose);
    EXPECT_FALSE(cli.help);
    EXPECT_EQ(cli.program, "p.elf");
    EXPECT_EQ(cli.program_args, (std::vector<std::string>{"-np", "7", "--help", "x"}));
    const Request dashed = parse_cli({"--", "-weird-name.elf", "a"});
    EXPECT_EQ(dashed.program, "-weird-name.elf");
    EXPECT_EQ(dashed.program_args, std::vector<std::string>{"a"});
}

TEST(Cli, Options) {
    const Request cli = parse_cli({"--target", "virt-rv64", "--symmetric-size", "64M", "--partition-size=256M",
                               "--timeout", "1.5", "--icount", "--qemu", "/x/qemu", "--extra-qemu-arg", "-s",
                               "--extra-qemu-arg=-S", "--dry-run", "-v", "p.elf"});
    EXPECT_EQ(cli.target.value(), "virt-rv64");
    EXPECT_FALSE(parse_cli({"p.elf"}).target);  // the registry's default_target decides
    EXPECT_EQ(cli.symmetric_size.value(), 64 * MiB);
    EXPECT_EQ(cli.partition_size.value(), 256 * MiB);
    EXPECT_DOUBLE_EQ(cli.timeout.value(), 1.5);
    EXPECT_TRUE(cli.icount && cli.dry_run && cli.verbose);
    EXPECT_EQ(cli.emulator, "/x/qemu");
    EXPECT_EQ(cli.extra_qemu_args, (std::vector<std::string>{"-s", "-S"}));
    EXPECT_EQ(parse_cli({"--emulator", "/y/sim", "p.elf"}).emulator, "/y/sim");
    EXPECT_EQ(parse_cli({"--backend=esim", "p.elf"}).mesh, "esim");
    EXPECT_TRUE(parse_cli({"-h"}).help);
    EXPECT_TRUE(parse_cli({"--help"}).help);
}

TEST(Cli, UsageErrors) {
    EXPECT_EQ(usage_failure({"-np", "4"}).status, 2);
    EXPECT_HAS(usage_failure({"-np", "4"}).what(), "no program given");
    EXPECT_HAS(usage_failure({"--frobnicate", "p.elf"}).what(), "unknown option --frobnicate");
    EXPECT_HAS(usage_failure({"-np", "four", "p.elf"}).what(), "not a number of PEs");
    EXPECT_HAS(usage_failure({"-np", "-3", "p.elf"}).what(), "not a number of PEs");
    EXPECT_HAS(usage_failure({"-np"}).what(), "-np needs a value");
    EXPECT_HAS(usage_failure({"--timeout", "soon", "p.elf"}).what(), "not a number of seconds");
    EXPECT_HAS(usage_failure({"--symmetric-size", "big", "p.elf"}).what(), "not a size");
    EXPECT_HAS(usage_failure({"--icount=yes", "p.elf"}).what(), "unknown option --icount=yes: --icount takes no value");
}

TEST(Cli, DidYouMean) {
    EXPECT_EQ(std::string(usage_failure({"--tag-ouput", "p.elf"}).what()),
              "unknown option --tag-ouput; did you mean --tag-output?\n(oshrun --help shows the usage)");
    EXPECT_HAS(usage_failure({"--versoin"}).what(), "unknown option --versoin; did you mean --version?");
    EXPECT_HAS(usage_failure({"-tag-output", "p.elf"}).what(), "did you mean --tag-output?");
    EXPECT_HAS(usage_failure({"--gdb-prot", "1", "p.elf"}).what(), "did you mean --gdb-port?");
    EXPECT_HAS(usage_failure({"--output-file=out", "p.elf"}).what(),
               "unknown option --output-file=out; did you mean --output-filename?");  // a unique prefix
    EXPECT_HAS(usage_failure({"--tag", "p.elf"}).what(), "did you mean --tag-output?");
    EXPECT_HAS(usage_failure({"--npe", "2", "p.elf"}).what(), "did you mean --np or --npes?");
    // Nothing close: no guess.
    EXPECT_EQ(std::string(usage_failure({"--frobnicate", "p.elf"}).what()).find("did you mean"), std::string::npos);
    EXPECT_EQ(std::string(usage_failure({"-y", "p.elf"}).what()).find("did you mean"), std::string::npos);
    EXPECT_EQ(std::string(usage_failure({"--e", "p.elf"}).what()).find("did you mean"), std::string::npos);
    EXPECT_EQ(close_options("--timeuot"), std::vector<std::string>{"--timeout"});
    EXPECT_TRUE(close_options("--zzz").empty());
}

TEST(Cli, Version) {
    const Request cli = parse_cli({"--version"});  // no program needed
    EXPECT_TRUE(cli.version);
    EXPECT_EQ(version_text(), std::string("oshrun (libshmem) ") + SHMEM_VERSION +
                                  "\ntargets: virt-rv64, epiphany-e16, epiphany-e64, tilegx, tilepro, linux\n");
}

TEST(Cli, OutputOptions) {
    const Request cli = parse_cli({"--tag-output", "--output-filename", "logs", "p.elf"});
    EXPECT_TRUE(cli.console.tag_output);
    EXPECT_EQ(cli.console.output_dir, "logs");
    EXPECT_EQ(parse_cli({"--output-filename=d/e", "p.elf"}).console.output_dir, "d/e");
    EXPECT_FALSE(parse_cli({"p.elf"}).console.tag_output);
    EXPECT_HAS(usage_failure({"--tag-output=yes", "p.elf"}).what(), "--tag-output takes no value");
    EXPECT_HAS(usage_failure({"--output-filename", "", "p.elf"}).what(), "--output-filename needs a directory");
}

TEST(Cli, EnvironmentExports) {
    const Request cli = parse_cli({"-x", "FOO=bar=baz", "-x", "HOME", "-x", "EMPTY=", "-x", "SHMEM_A=mine", "p.elf"});
    ASSERT_EQ(cli.exports.size(), 4u);
    EXPECT_EQ(cli.exports[0].name, "FOO");
    EXPECT_EQ(cli.exports[0].value.value(), "bar=baz");
    EXPECT_EQ(cli.exports[1].name, "HOME");
    EXPECT_FALSE(cli.exports[1].value);
    EXPECT_EQ(cli.exports[2].value.value(), "");
    // SHMEM_* from oshrun's environment, -x on top (winning), sorted by name; nothing else of the environment.
    const std::vector<std::string> host = {"PATH=/bin", "SHMEM_B=2", "HOME=/root", "SHMEM_A=1", "SHMEMX=no",
                                           "OSHRUN_TIMEOUT=3"};
    EXPECT_EQ(program_environment(cli, host), (std::vector<std::string>{"EMPTY=", "FOO=bar=baz", "HOME=/root",
                                                                        "SHMEM_A=mine", "SHMEM_B=2"}));
    EXPECT_EQ(program_environment(parse_cli({"p.elf"}), host), (std::vector<std::string>{"SHMEM_A=1", "SHMEM_B=2"}));
    EXPECT_STREQ(env_value(host, "HOME"), "/root");
    EXPECT_EQ(env_value(host, "HOM"), nullptr);
    try {
        program_environment(parse_cli({"-x", "NOT_SET_ANYWHERE", "p.elf"}), host);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
        EXPECT_HAS(f.what(), "-x NOT_SET_ANYWHERE: NOT_SET_ANYWHERE is not set in oshrun's environment");
    }
    EXPECT_HAS(usage_failure({"-x", "=v", "p.elf"}).what(), "-x =v: expected NAME=VALUE or NAME");
    EXPECT_HAS(usage_failure({"-x"}).what(), "-x needs a value");
}

TEST(Cli, Gdb) {
    const Request cli = parse_cli({"--gdb", "1", "-np", "2", "p.elf"});  // -np may come after --gdb
    EXPECT_EQ(cli.gdb_pe.value(), 1u);
    EXPECT_FALSE(cli.gdb_port);
    EXPECT_EQ(parse_cli({"-np", "4", "--gdb=3", "--gdb-port", "1234", "p.elf"}).gdb_port.value(), 1234u);
    EXPECT_HAS(usage_failure({"-np", "2", "--gdb", "2", "p.elf"}).what(),
               "--gdb 2: not a PE of this run; expected 0 <= PE < 2 (-np 2)");
    EXPECT_HAS(usage_failure({"--gdb", "1", "p.elf"}).what(), "expected 0 <= PE < 1");
    EXPECT_HAS(usage_failure({"--gdb", "-1", "p.elf"}).what(), "--gdb -1: not a PE number");
    EXPECT_HAS(usage_failure({"--gdb-port", "1234", "p.elf"}).what(), "--gdb-port needs --gdb PE");
    EXPECT_HAS(usage_failure({"--gdb", "0", "--gdb-port", "70000", "p.elf"}).what(), "not a TCP port");
    EXPECT_HAS(usage_failure({"--gdb", "0", "--gdb-port", "0", "p.elf"}).what(), "not a TCP port");
}

TEST(Cli, Nodes) {
    EXPECT_EQ(parse_cli({"--nodes", "3", "-np", "7", "p.elf"}).nodes.value(), 3u);  // -np may come after --nodes
    EXPECT_EQ(parse_cli({"-np", "4", "--nodes=4", "p.elf"}).nodes.value(), 4u);
    EXPECT_EQ(parse_cli({"--nodes", "1", "p.elf"}).nodes.value(), 1u);
    EXPECT_FALSE(parse_cli({"-np", "4", "p.elf"}).nodes);
    const Failure zero = usage_failure({"-np", "4", "--nodes", "0", "p.elf"});
    EXPECT_EQ(zero.status, 2);
    EXPECT_HAS(zero.what(), "--nodes 0: expected a number of nodes from 1 to 4 (-np 4: every node has a PE at least)");
    const Failure more = usage_failure({"--nodes", "5", "-np", "4", "p.elf"});
    EXPECT_EQ(more.status, 2);
    EXPECT_HAS(more.what(), "--nodes 5: expected a number of nodes from 1 to 4 (-np 4");
    EXPECT_HAS(usage_failure({"--nodes", "2", "p.elf"}).what(), "--nodes 2: expected a number of nodes from 1 to 1");
    const Failure word = usage_failure({"-np", "4", "--nodes", "two", "p.elf"});
    EXPECT_EQ(word.status, 2);
    EXPECT_HAS(word.what(), "--nodes two: not a number of nodes (1 to the number of PEs)");
    EXPECT_HAS(usage_failure({"--nodes", "-1", "p.elf"}).what(), "--nodes -1: not a number of nodes");
    EXPECT_HAS(usage_failure({"--nodes"}).what(), "--nodes needs a value");
}

TEST(Cli, NodePrefix) {
    const Request r = parse_cli({"--nodes", "2", "-np", "4", "--node-prefix", "  ip netns exec ns{node}\tunshare -p ", "p.elf"});
    EXPECT_EQ(r.node_prefix, (std::vector<std::string>{"ip", "netns", "exec", "ns{node}", "unshare", "-p"}));
    EXPECT_TRUE(r.gives(Option::node_prefix));
    EXPECT_FALSE(parse_cli({"--nodes", "2", "-np", "4", "p.elf"}).gives(Option::node_prefix));
    EXPECT_HAS(usage_failure({"--node-prefix", "env", "p.elf"}).what(), "--node-prefix needs --nodes K");
    EXPECT_HAS(usage_failure({"--nodes", "1", "--node-prefix", " ", "p.elf"}).what(),
               "--node-prefix needs a command (words separated by spaces)");
    EXPECT_HAS(usage_failure({"--nodes", "1", "--node-prefix", "env", "--hosts", "a", "p.elf"}).what(),
               "--node-prefix: oshrun starts no PE when a launcher does");
    EXPECT_HAS(usage_failure({"--node-prefx", "env", "p.elf"}).what(), "did you mean --node-prefix");
}

TEST(Cli, Launcher) {
    EXPECT_EQ(parse_cli({"--launcher", "mpirun", "p.elf"}).launcher, "mpirun");
    EXPECT_EQ(parse_cli({"--launcher=srun", "p.elf"}).launcher, "srun");
    EXPECT_EQ(parse_cli({"--hosts", "a,b:4,node[1-3,5]", "p.elf"}).hosts,
              (std::vector<std::string>{"a", "b:4", "node[1-3", "5]"}));  // as given, comma by comma
    EXPECT_EQ(parse_cli({"--hostfile=hosts", "p.elf"}).hostfile, "hosts");
    // --hosts and --hostfile mean mpirun unless --launcher says srun; nothing: oshrun forks the PEs.
    EXPECT_EQ(launcher_of(parse_cli({"p.elf"})), "");
    EXPECT_EQ(launcher_of(parse_cli({"--hosts", "a", "p.elf"})), "mpirun");
    EXPECT_EQ(launcher_of(parse_cli({"--hostfile", "f", "p.elf"})), "mpirun");
    EXPECT_EQ(launcher_of(parse_cli({"--hosts", "a", "--launcher", "srun", "p.elf"})), "srun");
    EXPECT_FALSE(parse_cli({"--hosts", "a", "p.elf"}).gives(Option::launcher));
    const Failure unknown = usage_failure({"--launcher", "mpich", "p.elf"});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_HAS(unknown.what(), "--launcher mpich: not a launcher oshrun knows; expected mpirun or srun");
    for (const char* hosts : {"", "a,,b", "a,", ",a", "a b"})
        EXPECT_HAS(usage_failure({"--hosts", hosts, "p.elf"}).what(),
                   "--hosts " + std::string(hosts) + ": expected host names separated by commas (a,b,...)");
    EXPECT_HAS(usage_failure({"--hostfile"}).what(), "--hostfile needs a value");
    EXPECT_HAS(usage_failure({"--hostfile=", "p.elf"}).what(), "--hostfile needs a file");
    EXPECT_HAS(usage_failure({"--hosts", "a", "--hostfile", "f", "p.elf"}).what(),
               "--hosts and --hostfile: give the hosts one way, not both");
    EXPECT_HAS(usage_failure({"--host", "a", "p.elf"}).what(), "did you mean --hosts?");
}

TEST(Cli, DebugFromEnvironment) {
    EXPECT_FALSE(debug_requested(nullptr));
    EXPECT_FALSE(debug_requested(""));
    EXPECT_FALSE(debug_requested("0"));
    EXPECT_TRUE(debug_requested("1"));
    EXPECT_TRUE(debug_requested("yes"));
}

TEST(Cli, UsageListsOptionsAndStatuses) {
    const std::string u = usage();
    for (const char* s : {"--version", "-x NAME=VALUE", "--tag-output", "--output-filename DIR", "--gdb PE",
                          "--gdb-port N", "--nodes K", "multi-node runs on one host", "--launcher NAME",
                          "mpirun or srun", "$OSHRUN_MPIRUN", "--hosts A,B,...", "--hostfile FILE", "SHMEM_DEBUG", "  0  ", "1..255", "134", "139", "124", "125", "127",
                          "  2  "})
        EXPECT_HAS(u, s);
}

TEST(Cli, TimeoutFromEnvironment) {
    Request cli;
    EXPECT_EQ(timeout_seconds(cli, nullptr), 0);
    EXPECT_EQ(timeout_seconds(cli, "30"), 30);
    EXPECT_THROW(timeout_seconds(cli, "-1"), Failure);
    cli.timeout = 2;
    EXPECT_EQ(timeout_seconds(cli, "30"), 2);
}

TEST(Targets, Table) {
    ASSERT_NE(find_target("virt-rv64"), nullptr);
    EXPECT_EQ(find_target("virt-rv64")->max_pes, 512u);
    EXPECT_EQ(find_target("epiphany"), nullptr);
    EXPECT_EQ(find_backend("epiphany"), nullptr);
    EXPECT_EQ(target_names(), "virt-rv64, epiphany-e16, epiphany-e64, tilegx, tilepro, linux");
    // One backend per family of targets: virt's, Epiphany's (both chips), TILE's (both chips), linux's.
    EXPECT_EQ(find_backend("epiphany-e16"), find_backend("epiphany-e64"));
    EXPECT_EQ(find_backend("tilegx"), find_backend("tilepro"));
    EXPECT_EQ(backends().size(), 4u);
    for (const char* name : {"epiphany-e16", "epiphany-e64"}) {
        const Target& ep = *find_target(name);
        EXPECT_EQ(ep.elf_machine, 0x1223u);
        EXPECT_EQ(ep.elf_class, ELFCLASS32);
        EXPECT_EQ(ep.elf_type, ET_EXEC);
        EXPECT_EQ(ep.chip.first_row << 6 | ep.chip.first_col, 0x808u);
        EXPECT_FALSE(ep.loader_relocates);
    }
    EXPECT_EQ(find_target("epiphany-e16")->max_pes, 16u);
    EXPECT_EQ(find_target("epiphany-e16")->chip.cols, 4u);
    EXPECT_EQ(find_target("epiphany-e64")->max_pes, 64u);
    EXPECT_EQ(find_target("epiphany-e64")->chip.rows, 8u);
    // The TILE targets: images relocated by the loader (test_tile.cpp has the rest).
    for (const char* name : {"tilegx", "tilepro"}) EXPECT_TRUE(find_target(name)->loader_relocates) << name;
    // The hosted target reads its programs itself (load_linux_image): no image rules.
    EXPECT_EQ(find_target("linux")->elf_machine, 0u);
    EXPECT_EQ(find_target("linux")->max_pes, 512u);
}

TEST(Linux, RefusesWhatItCannotRun) {
    const Target& lx = *find_target("linux");
    // A program without libshmem's linux start-up code (this test program has no libshmem note): its PEs would
    // each run alone.
    try {
        load_linux_image("/proc/self/exe", lx);
        ADD_FAILURE() << "a program without libshmem was accepted";
    } catch (const Failure& f) {
        EXPECT_NE(std::string(f.what()).find("not a libshmem program for the linux target"), std::string::npos) << f.what();
        EXPECT_EQ(f.status, 2);
    }
    // Not an ELF file; not there.
    try {
        load_linux_image("/etc/hostname", lx);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
    }
    try {
        load_linux_image("/no/such/program", lx);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_NE(std::string(f.what()).find("cannot open"), std::string::npos) << f.what();
    }
}

TEST(Linux, NodesSplitBlockWise) {
    using Nodes = std::vector<LinuxNode>;
    EXPECT_EQ(split_nodes(7, 3), (Nodes{{0, 3}, {3, 2}, {5, 2}}));
    EXPECT_EQ(split_nodes(4, 2), (Nodes{{0, 2}, {2, 2}}));
    EXPECT_EQ(split_nodes(5, 5), (Nodes{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}}));
    EXPECT_EQ(split_nodes(1, 1), (Nodes{{0, 1}}));
    // The plan: every PE's node; without --nodes, one node of all.
    Request req;
    req.npes = 7;
    req.argv = {"p"};
    req.nodes = 3;
    const LinuxPlan plan = plan_linux(*find_target("linux"), Image{}, req);
    EXPECT_TRUE(plan.emulated_nodes);
    EXPECT_EQ(plan.nodes, split_nodes(7, 3));
    const unsigned node_of[] = {0, 0, 0, 1, 1, 2, 2};
    for (unsigned k = 0; k < 7; ++k) EXPECT_EQ(plan.node_of(k), node_of[k]) << k;
    req.nodes.reset();
    const LinuxPlan one = plan_linux(*find_target("linux"), Image{}, req);
    EXPECT_FALSE(one.emulated_nodes);
    EXPECT_EQ(one.nodes, (Nodes{{0, 7}}));
    for (unsigned k = 0; k < 7; ++k) EXPECT_EQ(one.node_of(k), 0u) << k;
    req.nodes = 8;
    EXPECT_THROW(plan_linux(*find_target("linux"), Image{}, req), Failure);
}

TEST(Run, ExitStatusAndSignal) {
    EXPECT_EQ(run_child({"sh", "-c", "exit 3"}, 0).exit_status, 3);
    EXPECT_EQ(run_child({"true"}, 10).exit_status, 0);
    const RunResult r = run_child({"sh", "-c", "kill -SEGV $$"}, 0);
    EXPECT_EQ(r.term_signal, SIGSEGV);
    EXPECT_FALSE(r.timed_out);
}

TEST(Run, Timeout) {
    const auto start = std::chrono::steady_clock::now();
    const RunResult r = run_child({"sleep", "10"}, 0.2);
    EXPECT_TRUE(r.timed_out);
    EXPECT_EQ(r.term_signal, SIGKILL);  // at once: an emulator given SIGTERM says so on the user's stderr
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(Run, TimeoutEscalatesToKill) {
    const RunResult r = run_child({"sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"}, 0.1);
    EXPECT_TRUE(r.timed_out);
    EXPECT_EQ(r.term_signal, SIGKILL);
}

TEST(Run, OutputRelayedAsItComes) {
    // The first piece arrives while the child still runs, not when it ends.
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    std::string got;
    double first = -1;
    const RunResult r = run_child({"sh", "-c", "printf early; sleep 0.5; printf late"}, 0, [&](const char* b, size_t n) {
        if (first < 0) first = std::chrono::duration<double>(clock::now() - start).count();
        got.append(b, n);
    });
    EXPECT_EQ(r.exit_status, 0);
    EXPECT_EQ(got, "earlylate");
    EXPECT_GE(first, 0);
    EXPECT_LT(first, 0.4);
}

TEST(Run, OutputDrainedAfterExit) {
    // A lot of output, then the child ends at once: every byte comes through.
    size_t bytes = 0;
    const RunResult r = run_child({"sh", "-c", "head -c 3000000 /dev/zero; exit 4"}, 0,
                                  [&](const char*, size_t n) { bytes += n; });
    EXPECT_EQ(r.exit_status, 4);
    EXPECT_EQ(bytes, 3000000u);
    // A process the child leaves behind keeps the pipe open: run_child still returns when the child ends.
    const auto start = std::chrono::steady_clock::now();
    std::string got;
    run_child({"sh", "-c", "sleep 3 >/dev/null 2>&1 & echo done"}, 0, [&](const char* b, size_t n) { got.append(b, n); });
    EXPECT_EQ(got, "done\n");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    // Without a sink the child writes to our stdout itself, and a timeout still works with one.
    const RunResult t = run_child({"sh", "-c", "echo x; exec sleep 10"}, 0.2, [](const char*, size_t) {});
    EXPECT_TRUE(t.timed_out);
    // A child that writes without pause still meets its time limit.
    const auto begin = std::chrono::steady_clock::now();
    const RunResult busy = run_child({"yes"}, 0.3, [](const char*, size_t) {});
    EXPECT_TRUE(busy.timed_out);
    EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(3));
}

TEST(Run, FreeTcpPort) {
    const unsigned port = free_tcp_port();
    EXPECT_GT(port, 0u);
    EXPECT_LT(port, 65536u);
}

TEST(Run, MissingProgram) {
    try {
        run_child({"/nonexistent/qemu"}, 0);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 127);
        EXPECT_HAS(f.what(), "cannot run /nonexistent/qemu");
    }
    EXPECT_EQ(find_on_path("sh").empty(), false);
    EXPECT_EQ(find_on_path("no-such-program-anywhere"), "");
}

TEST(Run, TempDirRemoved) {
    std::string path;
    {
        const TempDir dir;
        path = dir.path();
        EXPECT_HAS(path, "/oshrun.");
        write_file(path, "a.bin", {1, 2, 3});
        EXPECT_TRUE(std::filesystem::is_directory(path));
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Run, ShellJoin) {
    EXPECT_EQ(shell_join({"qemu", "-device", "loader,file=/t/x.bin,addr=0x1"}), "qemu -device loader,file=/t/x.bin,addr=0x1");
    EXPECT_EQ(shell_join({"a b", "", "it's"}), "'a b' '' 'it'\\''s'");
}

// A shell command that writes these bytes (console records) to stdout, as the guest does through the UART.
std::string shell_printf(const std::string& bytes) {
    std::string s = "printf '";
    for (unsigned char c : bytes) {
        char oct[8];
        std::snprintf(oct, sizeof oct, "\\%03o", c);
        s += std::isalnum(c) || c == ' ' ? std::string(1, char(c)) : std::string(oct);
    }
    return s + "'";
}

// oshrun itself, with a shell script standing in for QEMU.
class Oshrun : public ::testing::Test {
protected:
    TempDir dir;
    std::string image = write_file(dir.path(), "prog.elf", valid_elf().bytes());
    std::string out, err;

    // A stand-in emulator: records its arguments, copies the files it was given, then runs body.
    std::string fake_qemu(const std::string& body) {
        const std::string path = dir.path() + "/fake-qemu";
        std::ofstream f(path);
        f << "#!/bin/sh\n"
          << "printf '%s\\n' \"$@\" > " << dir.path() << "/args\n"
          << "for a in \"$@\"; do case $a in loader,file=*) f=${a#loader,file=}; f=${f%%,*}; "
          << "cp \"$f\" " << dir.path() << "/copy-$(basename \"$f\"); echo \"${f%/*}\" > " << dir.path()
          << "/tmpdir;; esac; done\n"
          << body << "\n";
        f.close();
        chmod(path.c_str(), 0755);
        return path;
    }
    int oshrun(const std::string& args, const std::string& env = "") {
        const std::string cmd = oshrun_test::without_shmem_environment() + " " + env + " " + std::string(OSHRUN_PATH) +
                                " " + args + " >" + dir.path() + "/out 2>" +
                                dir.path() + "/err";
        const int status = std::system(cmd.c_str());
        out = slurp(dir.path() + "/out");
        err = slurp(dir.path() + "/err");
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
};

TEST_F(Oshrun, DryRun) {
    ASSERT_EQ(oshrun("--dry-run -np 3 " + image + " a b"), 0) << err;
    EXPECT_HAS(out, "pe 0: partition 0x80000000 boot-block 0x80000000 image 0x80001000 bytes 8200");
    EXPECT_HAS(out, "pe 2: partition 0x88000000 boot-block 0x88000000 image 0x88001000 bytes 8200");
    EXPECT_HAS(out, "shared code: 0x8c000000 (every PE runs the image at 0x8c001000), page tables at 0x8c006000");
    EXPECT_HAS(out, "qemu-system-riscv64 -machine virt,aclint=on,memory-backend=shmem.ram,dtb=");
    EXPECT_HAS(out, "/machine.dtb -bios none -smp 3 -m 196M -object memory-backend-memfd,id=shmem.ram,size=196M");
    EXPECT_HAS(out, "-device loader,addr=0x8c001000,cpu-num=2");
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/args"));
}

TEST_F(Oshrun, PassesExitStatusAndCleansUp) {
    const std::string qemu = fake_qemu("echo guest says hi; " + shell_printf(exit_record(1, 7)) + "; exit 7");
    EXPECT_EQ(oshrun("--qemu " + qemu + " -np 2 --icount " + image + " x y"), 7) << err;
    EXPECT_EQ(out, "guest says hi\n");
    const std::string args = slurp(dir.path() + "/args");
    EXPECT_HAS(args, "-smp\n2\n");
    EXPECT_HAS(args, "-icount\nshift=0,sleep=off\n");
    // The files the emulator was given, and the directory gone afterwards.
    // The shared code: every PE's boot block in one file, which PE k copies from (crt/virt-rv64/start.S).
    const std::string boots = slurp(dir.path() + "/copy-boot.bin");
    ASSERT_EQ(boots.size(), 2 * 4096u);
    const std::string boot1 = boots.substr(4096);
    EXPECT_EQ(boot1.substr(0, 8), "SSHMMBB1");
    EXPECT_HAS(boot1.substr(64), image + std::string(1, '\0') + "x" + std::string(1, '\0') + "y");
    EXPECT_EQ(slurp(dir.path() + "/copy-image.bin").size(), 0x2008u);
    std::string tmp = slurp(dir.path() + "/tmpdir");
    tmp.pop_back();
    EXPECT_HAS(tmp, "/oshrun.");
    EXPECT_FALSE(std::filesystem::exists(tmp)) << tmp;
}

TEST_F(Oshrun, Timeout) {
    const std::string qemu = fake_qemu("exec sleep 10");
    EXPECT_EQ(oshrun("--timeout 0.3 --qemu " + qemu + " -np 4 " + image), 124);
    EXPECT_HAS(err, "oshrun: timeout: " + image + " did not finish within 0.3 s on 4 PEs; emulator killed");
    std::string tmp = slurp(dir.path() + "/tmpdir");
    tmp.pop_back();
    EXPECT_FALSE(std::filesystem::exists(tmp)) << tmp;
}

TEST_F(Oshrun, TimeoutFromEnvironment) {
    const std::string qemu = fake_qemu("exec sleep 10");
    EXPECT_EQ(std::system(("OSHRUN_TIMEOUT=0.2 " + std::string(OSHRUN_PATH) + " --qemu " + qemu + " " + image +
                           " 2>/dev/null; test $? -eq 124").c_str()), 0);
}

TEST_F(Oshrun, EmulatorKilledBySignal) {
    const std::string qemu = fake_qemu("kill -KILL $$");
    EXPECT_EQ(oshrun("--qemu " + qemu + " " + image), 125);
    EXPECT_HAS(err, "oshrun: the emulator (" + qemu + ") failed (killed by signal 9 (Killed)) before the program ended");
}

TEST_F(Oshrun, EmulatorFailsBeforeTheProgramEnds) {
    // QEMU refusing an option: its message on stderr, then 125, whatever its own status.
    const std::string qemu = fake_qemu("echo 'qemu: -frob: invalid option' >&2; exit 1");
    EXPECT_EQ(oshrun("--qemu " + qemu + " --extra-qemu-arg=-frob " + image), 125);
    EXPECT_EQ(err, "qemu: -frob: invalid option\noshrun: the emulator (" + qemu +
                       ") failed (exit status 1) before the program ended\n");
    // Even an emulator that exits 0 failed if no exit record came: the program never said it ended.
    EXPECT_EQ(oshrun("--qemu " + fake_qemu("echo plain text; exit 0") + " " + image), 125);
    EXPECT_EQ(out, "plain text\n");
    EXPECT_HAS(err, "failed (exit status 0) before the program ended");
}

TEST_F(Oshrun, ExitRecordGivesTheStatus) {
    // The record's status, whatever QEMU says (its 8 bits, or 0 for a status of 256)...
    EXPECT_EQ(oshrun("--qemu " + fake_qemu(shell_printf(exit_record(0, 139)) + "; exit 0") + " " + image), 139);
    EXPECT_EQ(err, "");
    // ...and of two PEs that ended the run at once, the one whose status the emulator exits with.
    EXPECT_EQ(oshrun("--qemu " + fake_qemu(shell_printf(exit_record(0, 3) + exit_record(1, 4)) + "; exit 4") +
                     " -np 2 " + image), 4);
    EXPECT_EQ(oshrun("--qemu " + fake_qemu(shell_printf(exit_record(0, 3) + exit_record(1, 4)) + "; exit 9") +
                     " -np 2 " + image), 3);
}

TEST_F(Oshrun, RelaysRecordsTagsAndStreams) {
    const std::string qemu = fake_qemu(shell_printf(console_records(1, "one\n") + console_records(0, "err\n", 'e') +
                                                    console_records(0, "zer") + console_records(1, "partial") +
                                                    console_records(0, "o\n") + exit_record(0, 0)));
    EXPECT_EQ(oshrun("--qemu " + qemu + " -np 2 " + image), 0) << err;
    EXPECT_EQ(out, "one\nzero\npartial\n");
    EXPECT_EQ(err, "err\n");
    EXPECT_EQ(oshrun("--tag-output --qemu " + qemu + " -np 2 " + image), 0) << err;
    EXPECT_EQ(out, "[PE 1] one\n[PE 0] zero\n[PE 1] partial\n");
    EXPECT_EQ(err, "[PE 0] err\n");
    EXPECT_EQ(oshrun("--output-filename " + dir.path() + "/logs --qemu " + qemu + " -np 3 " + image), 0) << err;
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "");
    EXPECT_EQ(slurp(dir.path() + "/logs/pe.0"), "err\nzero\n");
    EXPECT_EQ(slurp(dir.path() + "/logs/pe.1"), "one\npartial\n");
    EXPECT_EQ(slurp(dir.path() + "/logs/pe.2"), "");
}

TEST_F(Oshrun, EnvironmentInTheBootBlock) {
    const std::string qemu = fake_qemu(shell_printf(exit_record(0, 0)));
    ASSERT_EQ(oshrun("-x ZED=last -x EXTRA=1 --qemu " + qemu + " " + image + " arg", "SHMEM_DEBUG=1 SHMEM_FOO=bar"), 0)
        << err;
    const std::string boot = slurp(dir.path() + "/copy-boot.bin");
    ASSERT_EQ(boot.size(), 4096u);
    const std::string strings = image + '\0' + "arg" + '\0' + "EXTRA=1" + '\0' + "SHMEM_DEBUG=1" + '\0' +
                                "SHMEM_FOO=bar" + '\0' + "ZED=last" + '\0';
    EXPECT_EQ(boot.substr(64, strings.size()), strings);
    EXPECT_EQ(boot[44], 4);  // envc
    // SHMEM_DEBUG: the placement and the command on stderr.
    EXPECT_HAS(err, "pe 0: partition 0x80000000 boot-block 0x80000000 image 0x80001000");
    EXPECT_HAS(err, "oshrun: " + qemu + " -machine virt");
    EXPECT_EQ(oshrun("-x NOT_SET_HERE_EITHER --qemu " + qemu + " " + image), 2);
    EXPECT_HAS(err, "oshrun: -x NOT_SET_HERE_EITHER: NOT_SET_HERE_EITHER is not set in oshrun's environment");
    // The heap is sized by the SHMEM_SYMMETRIC_SIZE the PEs get, -x included.
    ASSERT_EQ(oshrun("--dry-run -x SHMEM_SYMMETRIC_SIZE=64M " + image), 0) << err;
    EXPECT_HAS(out, "partition 128 MiB");
    EXPECT_EQ(oshrun("--dry-run " + image + " " + std::string(3000, 'a'), "SHMEM_BIG=" + std::string(1100, 'b')), 2);
    EXPECT_HAS(err, "program arguments and environment too long for the boot block: the arguments need " +
                        std::to_string(image.size() + 1 + 3001) + " bytes");
}

TEST_F(Oshrun, Gdb) {
    // QEMU stopped with its gdb server; the command that attaches gdb to PE 1; no time limit.
    const std::string qemu = fake_qemu("sleep 0.5; " + shell_printf(exit_record(0, 0)));
    ASSERT_EQ(oshrun("--timeout 0.1 --gdb 1 --gdb-port 4567 -np 2 --qemu " + qemu + " " + image), 0) << err;
    EXPECT_HAS(slurp(dir.path() + "/args"), "-gdb\ntcp:127.0.0.1:4567\n-S\n");
    EXPECT_HAS(err, "gdb-multiarch -q -ex 'target remote 127.0.0.1:4567' -ex 'symbol-file -o 0x84001000 " + image +
                        "' -ex 'thread 2'\n");
    EXPECT_HAS(err, "hart k = thread k+1");
    EXPECT_HAS(err, "the run starts when gdb continues");
    // A free port when none is given.
    ASSERT_EQ(oshrun("--dry-run --gdb 0 " + image), 0) << err;
    EXPECT_HAS(out, "-gdb tcp:127.0.0.1:");
    EXPECT_EQ(oshrun("--gdb 2 -np 2 " + image), 2);
    EXPECT_HAS(err, "--gdb 2: not a PE of this run");
}

TEST_F(Oshrun, EmulatorMissing) {
    EXPECT_EQ(oshrun("--qemu /nonexistent/qemu-system-riscv64 " + image), 127);
    EXPECT_HAS(err, "cannot run /nonexistent/qemu-system-riscv64");
    EXPECT_EQ(std::system(("PATH=/nonexistent " + std::string(OSHRUN_PATH) + " " + image + " 2>" + dir.path() +
                           "/err; test $? -eq 127").c_str()), 0);
    EXPECT_HAS(slurp(dir.path() + "/err"), "qemu-system-riscv64 not found on PATH");
}

TEST_F(Oshrun, Refusals) {
    EXPECT_EQ(oshrun("--target epiphany " + image), 2);
    EXPECT_HAS(err, "oshrun: unknown target 'epiphany'; valid targets: virt-rv64");
    EXPECT_EQ(oshrun("-np 513 " + image), 2);
    EXPECT_HAS(err, "virt-rv64 runs 1 to 512 PEs");
    EXPECT_EQ(oshrun("-np 0 " + image), 2);
    EXPECT_EQ(oshrun("--bogus " + image), 2);
    EXPECT_EQ(oshrun(""), 2);
    TestElf x86 = valid_elf();
    x86.machine = EM_X86_64;
    const std::string bad = write_file(dir.path(), "x86.elf", x86.bytes());
    EXPECT_EQ(oshrun("--target virt-rv64 --dry-run " + bad), 2);
    EXPECT_EQ(err, "oshrun: " + bad + ": ELF machine is x86-64 (62); target virt-rv64 needs RISC-V (243)\n");
    // Without --target, an image of this host's machine is taken for a linux program (this one is not executable).
    EXPECT_EQ(oshrun("--dry-run " + bad), 2);
    EXPECT_HAS(err, "not executable");
    EXPECT_EQ(std::system(("SHMEM_SYMMETRIC_SIZE=huge " + std::string(OSHRUN_PATH) + " --dry-run " + image +
                           " >/dev/null 2>&1; test $? -eq 2").c_str()), 0);
    EXPECT_EQ(oshrun("--help"), 0);
    EXPECT_HAS(out, "usage: oshrun");
    EXPECT_EQ(oshrun("--tag-ouput " + image), 2);
    EXPECT_HAS(err, "oshrun: unknown option --tag-ouput; did you mean --tag-output?");
}

TEST_F(Oshrun, NodesOnlyOnLinux) {
    EXPECT_EQ(oshrun("--nodes 2 -np 2 " + image), 2);
    EXPECT_EQ(err, "oshrun: --nodes is an option of linux; virt-rv64 does not take it\n");
    EXPECT_EQ(oshrun("--target tilegx --dry-run --nodes 1 " + image), 2);
    EXPECT_EQ(err, "oshrun: --nodes is an option of linux; tilegx does not take it\n");
    // The command line's own errors, on every target.
    EXPECT_EQ(oshrun("--nodes 3 -np 2 " + image), 2);
    EXPECT_HAS(err, "oshrun: --nodes 3: expected a number of nodes from 1 to 2 (-np 2");
    EXPECT_EQ(oshrun("--nodes 0 -np 2 " + image), 2);
    EXPECT_HAS(err, "oshrun: --nodes 0: expected a number of nodes from 1 to 2");
    EXPECT_EQ(oshrun("--nodes x -np 2 " + image), 2);
    EXPECT_HAS(err, "oshrun: --nodes x: not a number of nodes");
}

TEST_F(Oshrun, Version) {
    EXPECT_EQ(oshrun("--version"), 0);
    EXPECT_EQ(out, std::string("oshrun (libshmem) ") + SHMEM_VERSION + "\ntargets: virt-rv64, epiphany-e16, epiphany-e64, tilegx, tilepro, linux\n");
}

// oshrun running linux_probe (tests/linux_probe.cpp), a program of this host with libshmem's note: what each PE
// gets from oshrun, and how the run's status follows the exit words.
class LinuxRun : public ::testing::Test {
protected:
    TempDir dir;
    std::string err;

    void SetUp() override {
#if !defined(__x86_64__) && !defined(__aarch64__) && !defined(__arm__)
        GTEST_SKIP() << "oshrun runs no program of this machine as a linux program";
#endif
    }
    // oshrun args linux_probe probe_args, each PE's output to DIR/pe.<k>, without the UCX variables of this
    // environment; env: variables for oshrun's environment.
    int oshrun(const std::string& args, const std::string& probe_args = "", const std::string& env = "") {
        const std::string cmd = oshrun_test::without_shmem_environment() + " -u UCX_TLS -u UCX_WARN_UNUSED_ENV_VARS " +
                                env + " " + OSHRUN_PATH + " --timeout 60 --output-filename " + dir.path() + "/pes " +
                                args + " " + LINUX_PROBE_PATH + " " + probe_args + " 2>" + dir.path() + "/err";
        const int status = std::system(cmd.c_str());
        std::ifstream f(dir.path() + "/err");
        std::stringstream s;
        s << f.rdbuf();
        err = s.str();
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    struct Memfd {
        int fd;
        unsigned long long inode;
        long long size;
    };
    // What PE k printed: its variables (NAME -> VALUE), its memfds by name.
    struct Pe {
        std::map<std::string, std::string> env;
        std::multimap<std::string, Memfd> memfds;
        std::string var(const std::string& name) const {
            const auto it = env.find(name);
            return it == env.end() ? "(unset)" : it->second;
        }
    };
    Pe pe(unsigned k) {
        std::ifstream f(dir.path() + "/pes/pe." + std::to_string(k));
        Pe p;
        for (std::string line; std::getline(f, line);) {
            std::istringstream words(line);
            std::string first;
            words >> first;
            if (first == "memfd") {
                std::string name, fd_word, inode_word, size_word;
                Memfd m{};
                words >> name >> fd_word >> m.fd >> inode_word >> m.inode >> size_word >> m.size;
                p.memfds.emplace(name, m);
            } else if (line.find('=') != std::string::npos) {
                p.env[line.substr(0, line.find('='))] = line.substr(line.find('=') + 1);
            }
        }
        return p;
    }
};

TEST_F(LinuxRun, OneNodeAsBefore) {
    ASSERT_EQ(oshrun("-np 3"), 0) << err;
    std::set<unsigned long long> objects;
    for (unsigned k = 0; k < 3; ++k) {
        const Pe p = pe(k);
        EXPECT_EQ(p.var("SHMEM_LINUX_PE"), std::to_string(k));
        EXPECT_EQ(p.var("SHMEM_LINUX_NPES"), "3");
        for (const char* name : {"SHMEM_LINUX_NODE_FIRST", "SHMEM_LINUX_NODE_NPES", "SHMEM_LINUX_BOARD", "UCX_TLS",
                                 "UCX_WARN_UNUSED_ENV_VARS"})
            EXPECT_EQ(p.var(name), "(unset)") << name << " of PE " << k;
        ASSERT_EQ(p.memfds.size(), 1u) << "PE " << k;
        ASSERT_EQ(p.memfds.count("oshrun-symmetric"), 1u) << "PE " << k;
        const Memfd& mem = p.memfds.find("oshrun-symmetric")->second;
        EXPECT_EQ(std::to_string(mem.fd), p.var("SHMEM_LINUX_FD"));
        objects.insert(mem.inode);
    }
    EXPECT_EQ(objects.size(), 1u);  // one object of every PE
}

TEST_F(LinuxRun, NodesEnvironment) {
    ASSERT_EQ(oshrun("-np 7 --nodes 3"), 0) << err;
    const unsigned node_of[] = {0, 0, 0, 1, 1, 2, 2};
    const char* first[] = {"0", "3", "5"};
    const char* npes[] = {"3", "2", "2"};
    std::map<unsigned, std::set<unsigned long long>> objects;  // node -> its PEs' shared memory objects
    std::set<unsigned long long> boards;
    for (unsigned k = 0; k < 7; ++k) {
        const Pe p = pe(k);
        const unsigned j = node_of[k];
        EXPECT_EQ(p.var("SHMEM_LINUX_PE"), std::to_string(k));
        EXPECT_EQ(p.var("SHMEM_LINUX_NPES"), "7");
        EXPECT_EQ(p.var("SHMEM_LINUX_NODE_FIRST"), first[j]) << "PE " << k;
        EXPECT_EQ(p.var("SHMEM_LINUX_NODE_NPES"), npes[j]) << "PE " << k;
        EXPECT_EQ(p.var("UCX_TLS"), "tcp");
        EXPECT_EQ(p.var("UCX_WARN_UNUSED_ENV_VARS"), "n");
        // Its node's object and the board, no other node's.
        ASSERT_EQ(p.memfds.size(), 2u) << "PE " << k;
        ASSERT_EQ(p.memfds.count("oshrun-symmetric"), 1u) << "PE " << k;
        ASSERT_EQ(p.memfds.count("oshrun-board"), 1u) << "PE " << k;
        const Memfd& mem = p.memfds.find("oshrun-symmetric")->second;
        const Memfd& board = p.memfds.find("oshrun-board")->second;
        EXPECT_EQ(std::to_string(mem.fd), p.var("SHMEM_LINUX_FD"));
        EXPECT_EQ(std::to_string(board.fd), p.var("SHMEM_LINUX_BOARD"));
        EXPECT_EQ(board.size, 0);
        objects[j].insert(mem.inode);
        boards.insert(board.inode);
    }
    std::set<unsigned long long> all;
    for (const auto& [j, inodes] : objects) {
        EXPECT_EQ(inodes.size(), 1u) << "node " << j;  // one object of the node's PEs
        all.insert(inodes.begin(), inodes.end());
    }
    EXPECT_EQ(all.size(), 3u);     // one each
    EXPECT_EQ(boards.size(), 1u);  // one board of all
    // One node: the node's variables and the board all the same.
    ASSERT_EQ(oshrun("-np 2 --nodes 1"), 0) << err;
    for (unsigned k = 0; k < 2; ++k) {
        const Pe p = pe(k);
        EXPECT_EQ(p.var("SHMEM_LINUX_NODE_FIRST"), "0");
        EXPECT_EQ(p.var("SHMEM_LINUX_NODE_NPES"), "2");
        EXPECT_EQ(p.memfds.count("oshrun-board"), 1u);
        EXPECT_EQ(p.var("UCX_TLS"), "tcp");
    }
}

TEST_F(LinuxRun, NodesKeepTheUsersUcxSettings) {
    ASSERT_EQ(oshrun("-np 2 --nodes 2", "", "UCX_TLS=rc UCX_WARN_UNUSED_ENV_VARS=y"), 0) << err;
    EXPECT_EQ(pe(1).var("UCX_TLS"), "rc");
    EXPECT_EQ(pe(1).var("UCX_WARN_UNUSED_ENV_VARS"), "y");
    ASSERT_EQ(oshrun("-np 2 --nodes 2 -x UCX_TLS=shm,tcp", "", "UCX_TLS=rc"), 0) << err;
    EXPECT_EQ(pe(0).var("UCX_TLS"), "shm,tcp");
    EXPECT_EQ(pe(0).var("UCX_WARN_UNUSED_ENV_VARS"), "n");
    ASSERT_EQ(oshrun("-np 2 --nodes 2 -x UCX_TLS="), 0) << err;  // set, empty
    EXPECT_EQ(pe(0).var("UCX_TLS"), "");
}

TEST_F(LinuxRun, ExitWordOfTheEndedPesNode) {
    // The word's status, not the process's: PE 5 (node 2) sets its node's word to 3 and exits with 9.
    EXPECT_EQ(oshrun("-np 7 --nodes 3", "end 5 3 9"), 3) << err;
    EXPECT_EQ(err, "");
    EXPECT_EQ(oshrun("-np 7 --nodes 3", "end 0 4 9"), 4) << err;
    EXPECT_EQ(oshrun("-np 3", "end 2 5 9"), 5) << err;  // one node, as before
    // A word with status 0 ends the run too: PE 1 sets it and exits with 0, the others (which wait) are stopped.
    EXPECT_EQ(oshrun("-np 3", "end 1 0 0"), 0) << err;
    EXPECT_EQ(oshrun("-np 2 --nodes 2", "end 1 0 0"), 0) << err;
}

TEST_F(LinuxRun, ExitWordOfAnotherNode) {
    // PE 2 (node 2) sets its node's word to 4 and runs on; PE 0 (node 0, whose word is not set) then exits with 9:
    // the run ends with the word's 4.
    EXPECT_EQ(oshrun("-np 3 --nodes 3", "end-late 2 4 0"), 4) << err;
    EXPECT_EQ(oshrun("-np 6 --nodes 2", "end-late 4 6 1"), 6) << err;
}

// oshrun with a launcher (--launcher, --hosts, --hostfile) on linux_probe: what it refuses, that it execs the
// launcher (a stand-in script, $OSHRUN_MPIRUN or $OSHRUN_SRUN, that records what it got) in its own place, and a
// real run under Open MPI's mpirun.
class Launcher : public ::testing::Test {
protected:
    TempDir dir;
    std::string out, err;

    void SetUp() override {
#if !defined(__x86_64__) && !defined(__aarch64__) && !defined(__arm__)
        GTEST_SKIP() << "oshrun runs no program of this machine as a linux program";
#endif
    }
    // oshrun args, run by the shell std::system starts, which execs it (oshrun keeps that shell's process id, in
    // DIR/shell.pid); env: variables for oshrun's environment, which has none of this one's SHMEM_* and UCX_*.
    int oshrun(const std::string& args, const std::string& env = "") {
        std::string unset = oshrun_test::without_shmem_environment();
        for (char** e = environ; *e; ++e)
            if (std::strncmp(*e, "UCX_", 4) == 0) unset += " -u " + std::string(*e, std::strchr(*e, '=') - *e);
        const std::string cmd = "echo $$ >" + dir.path() + "/shell.pid; exec " + unset + " " + env + " " +
                                OSHRUN_PATH + " " + args + " >" + dir.path() + "/out 2>" + dir.path() + "/err";
        const int status = std::system(cmd.c_str());
        out = slurp(dir.path() + "/out");
        err = slurp(dir.path() + "/err");
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    // A stand-in launcher: records its process id, its arguments (one a line) and its environment, exits 7.
    std::string fake_launcher(const std::string& name) {
        const std::string path = dir.path() + "/" + name;
        std::ofstream f(path);
        f << "#!/bin/sh\necho $$ >" << dir.path() << "/launcher.pid\nprintf '%s\\n' \"$@\" >" << dir.path()
          << "/launcher.args\nenv >" << dir.path() << "/launcher.env\nexit 7\n";
        f.close();
        chmod(path.c_str(), 0755);
        return path;
    }
    std::set<std::string> launcher_env() {
        std::set<std::string> vars;
        std::istringstream lines(slurp(dir.path() + "/launcher.env"));
        for (std::string line; std::getline(lines, line);) vars.insert(line);
        return vars;
    }
    const std::string probe = LINUX_PROBE_PATH;
};

TEST_F(Launcher, Refusals) {
    // What a launcher cannot do, before anything runs (--dry-run too).
    EXPECT_EQ(oshrun("--launcher mpirun --gdb 0 -np 2 " + probe), 2);
    EXPECT_EQ(err, "oshrun: --gdb: not with a launcher (mpirun): mpirun starts the PEs on their hosts, where oshrun "
                   "cannot run one under gdb\n");
    EXPECT_EQ(oshrun("--dry-run --hosts a,b --gdb 1 -np 2 " + probe), 2);
    EXPECT_HAS(err, "oshrun: --gdb: not with a launcher (mpirun)");
    EXPECT_EQ(oshrun("--dry-run --launcher srun --gdb 0 " + probe), 2);
    EXPECT_HAS(err, "oshrun: --gdb: not with a launcher (srun): srun starts the PEs");
    // The emulators' options: not the linux target's, launcher or not.
    EXPECT_EQ(oshrun("--launcher mpirun --icount " + probe), 2);
    EXPECT_EQ(err, "oshrun: --icount is an option of virt-rv64; linux does not take it\n");
    EXPECT_EQ(oshrun("--hosts a --qemu /bin/true " + probe), 2);
    EXPECT_HAS(err, "oshrun: --emulator is an option of virt-rv64, epiphany-e16, epiphany-e64; linux does not take it");
    // srun and what is mpirun's.
    write_file(dir.path(), "hosts", {'a', '\n'});
    EXPECT_EQ(oshrun("--dry-run --launcher srun --hostfile " + dir.path() + "/hosts " + probe), 2);
    EXPECT_EQ(err, "oshrun: --hostfile: not with srun (it is an Open MPI hostfile; srun's --nodefile reads another "
                   "format): give the hosts with --hosts a,b,... (srun --nodelist)\n");
    EXPECT_EQ(oshrun("--dry-run --launcher srun --output-filename " + dir.path() + "/logs " + probe), 2);
    EXPECT_HAS(err, "oshrun: --output-filename: not with srun");
    // --hostfile without a file.
    EXPECT_EQ(oshrun("--dry-run --hostfile " + dir.path() + "/none " + probe), 2);
    EXPECT_EQ(err, "oshrun: --hostfile " + dir.path() + "/none: cannot read it: No such file or directory\n");
    EXPECT_EQ(oshrun(probe + " --hostfile"), 0);  // the program's argument, not oshrun's
    EXPECT_EQ(oshrun("--hostfile"), 2);
    EXPECT_HAS(err, "oshrun: --hostfile needs a value");
    // An unknown launcher; -x NAME without a value.
    EXPECT_EQ(oshrun("--launcher mpich " + probe), 2);
    EXPECT_HAS(err, "oshrun: --launcher mpich: not a launcher oshrun knows; expected mpirun or srun");
    EXPECT_EQ(oshrun("--dry-run --hosts a -x PROBE_NOT_SET " + probe), 2);
    EXPECT_HAS(err, "oshrun: -x PROBE_NOT_SET: PROBE_NOT_SET is not set in oshrun's environment");
}

TEST_F(Launcher, OnlyOnLinux) {
    const std::string image = write_file(dir.path(), "prog.elf", valid_elf().bytes());
    EXPECT_EQ(oshrun("--launcher mpirun " + image), 2);
    EXPECT_EQ(err, "oshrun: --launcher is an option of linux; virt-rv64 does not take it\n");
    EXPECT_EQ(oshrun("--dry-run --hosts a,b " + image), 2);
    EXPECT_EQ(err, "oshrun: --hosts is an option of linux; virt-rv64 does not take it\n");
    EXPECT_EQ(oshrun("--target tilegx --hostfile hosts " + image), 2);
    EXPECT_EQ(err, "oshrun: --hostfile is an option of linux; tilegx does not take it\n");
}

TEST_F(Launcher, LauncherMissing) {
    EXPECT_EQ(oshrun("--launcher mpirun " + probe, "PATH=/nonexistent"), 127);
    EXPECT_EQ(err, "oshrun: mpirun, the launcher, is not on PATH (Debian: apt-get install openmpi-bin; or name it "
                   "with OSHRUN_MPIRUN=PATH)\n");
    EXPECT_EQ(oshrun("--launcher srun " + probe, "PATH=/nonexistent"), 127);
    EXPECT_EQ(err, "oshrun: srun, the launcher, is not on PATH (Debian: apt-get install slurm-client; or name it "
                   "with OSHRUN_SRUN=PATH)\n");
    EXPECT_EQ(oshrun("--hosts a " + probe, "OSHRUN_MPIRUN=/nonexistent/mpirun"), 127);
    EXPECT_EQ(err, "oshrun: OSHRUN_MPIRUN=/nonexistent/mpirun: not a program (the launcher mpirun; Debian: apt-get "
                   "install openmpi-bin)\n");
    // --dry-run runs nothing, so needs no launcher.
    EXPECT_EQ(oshrun("--dry-run --launcher srun " + probe, "PATH=/nonexistent"), 0) << err;
    EXPECT_EQ(out, "srun --mpi=pmix --export=ALL -n 1 " + probe + "\n");
}

TEST_F(Launcher, ExecsMpirunInItsPlace) {
    const std::string fake = fake_launcher("mpirun");
    ASSERT_EQ(oshrun("--hosts n1,n2 -np 4 --tag-output --output-filename logs --timeout 5 --nodes 2 "
                     "-x PROBE_A=1 -x PROBE_B " + probe + " arg 'two words'",
                     "OSHRUN_MPIRUN=" + fake + " PROBE_B=b SHMEM_FOO=foo UCX_TLS=tcp SHMEM_LINUX_FD=3 PROBE_C=c"),
              7) << err;  // the launcher's status
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "");
    // The same process: no oshrun waits for the launcher.
    EXPECT_EQ(slurp(dir.path() + "/launcher.pid"), slurp(dir.path() + "/shell.pid"));
    EXPECT_EQ(slurp(dir.path() + "/launcher.args"),
              "-np\n4\n--host\nn1,n2\n--tag-output\n--output-filename\nlogs\n--timeout\n5\n-x\nSHMEM_FOO\n-x\nUCX_TLS\n"
              "-x\nPROBE_A=1\n-x\nPROBE_B=b\n-x\nSHMEM_LINUX_EMULATED_NODES=2\n" + probe + "\narg\ntwo words\n");
    // Its environment is oshrun's (mpirun passes -x NAME's values from it), without oshrun's own SHMEM_LINUX_*.
    const std::set<std::string> env = launcher_env();
    for (const char* var : {"SHMEM_FOO=foo", "UCX_TLS=tcp", "PROBE_B=b", "PROBE_C=c"}) EXPECT_EQ(env.count(var), 1u) << var;
    EXPECT_EQ(env.count("SHMEM_LINUX_FD=3"), 0u);
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/logs"));  // mpirun's to make
    // -v: the command on stderr first.
    ASSERT_EQ(oshrun("-v --launcher mpirun " + probe, "OSHRUN_MPIRUN=" + fake), 7);
    EXPECT_EQ(err, "oshrun: " + fake + " -np 1 " + probe + "\n");
    EXPECT_EQ(slurp(dir.path() + "/launcher.args"), "-np\n1\n" + probe + "\n");
}

TEST_F(Launcher, ExecsSrunInItsPlace) {
    const std::string fake = fake_launcher("srun");
    ASSERT_EQ(oshrun("--launcher srun --hosts n1,n2 -np 3 --tag-output --symmetric-size 2M -x UCX_TLS=shm,tcp " +
                     probe + " arg",
                     "OSHRUN_SRUN=" + fake + " SHMEM_FOO=foo SHMEM_SYMMETRIC_SIZE=1G SHMEM_LINUX_PE=0"),
              7) << err;
    EXPECT_EQ(slurp(dir.path() + "/launcher.pid"), slurp(dir.path() + "/shell.pid"));
    EXPECT_EQ(slurp(dir.path() + "/launcher.args"),
              "--mpi=pmix\n--export=ALL\n-n\n3\n--nodelist=n1,n2\n--label\n" + probe + "\narg\n");
    // srun passes its environment on: the run's variables are there.
    const std::set<std::string> env = launcher_env();
    for (const char* var : {"SHMEM_FOO=foo", "UCX_TLS=shm,tcp", "SHMEM_SYMMETRIC_SIZE=2M"})
        EXPECT_EQ(env.count(var), 1u) << var;
    EXPECT_EQ(env.count("SHMEM_SYMMETRIC_SIZE=1G"), 0u);
    EXPECT_EQ(env.count("SHMEM_LINUX_PE=0"), 0u);
}

// Open MPI's mpirun itself starts linux_probe: what each process got through it, and the statuses mpirun gives.
// As root, Open MPI asks for its consent in the environment (oshrun does not give it: the user does).
TEST_F(Launcher, RealMpirun) {
    if (find_on_path("mpirun").empty()) GTEST_SKIP() << "no mpirun (Debian: openmpi-bin)";
    const std::string consent = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                                "OMPI_MCA_rmaps_base_oversubscribe=1 ";
    ASSERT_EQ(oshrun("--launcher mpirun -np 2 --tag-output --symmetric-size 4M --nodes 2 -x PROBE_A=1 " + probe,
                     consent + "SHMEM_FOO=foo UCX_NET_DEVICES=lo SHMEM_LINUX_FD=3 SHMEM_SYMMETRIC_SIZE=1G"),
              0) << err;
    for (unsigned k = 0; k < 2; ++k) {
        const std::string tag = "[1," + std::to_string(k) + "]<stdout>:";
        for (const std::string& var : {"PMIX_RANK=" + std::to_string(k), std::string("SHMEM_FOO=foo"),
                                       std::string("UCX_NET_DEVICES=lo"), std::string("PROBE_A=1"),
                                       std::string("SHMEM_SYMMETRIC_SIZE=4M"),
                                       std::string("SHMEM_LINUX_EMULATED_NODES=2")})
            EXPECT_HAS(out, tag + var + "\n");
        EXPECT_EQ(out.find(tag + "SHMEM_LINUX_FD="), std::string::npos) << out;
        EXPECT_EQ(out.find(tag + "SHMEM_SYMMETRIC_SIZE=1G"), std::string::npos) << out;
        EXPECT_EQ(out.find(tag + "memfd"), std::string::npos) << out;  // oshrun made no shared memory
    }
    // A process's exit status is mpirun's; at --timeout, mpirun ends the job and exits with 110.
    EXPECT_EQ(oshrun("--launcher mpirun -np 2 " + probe + " exit 3", consent), 3) << err;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(oshrun("--launcher mpirun -np 2 --timeout 1 " + probe + " hang", consent), 110) << err;
    EXPECT_HAS(err, "The user-provided time limit for job execution has been reached");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

}  // namespace

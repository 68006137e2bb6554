// The registry of backends, and what main checks against a backend before it runs a request: -np and the
// options the backend takes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fstream>
#include <set>
#include <sstream>

#include "backends/registry.hpp"
#include "core/backend.hpp"
#include "core/common.hpp"
#include "core/process.hpp"
#include "core/request.hpp"
#include "elf_builder.hpp"
#include "test_env.hpp"

using namespace oshrun;

namespace {

#define EXPECT_HAS(haystack, needle) EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

TEST(Registry, EveryTargetNameResolvesToItsBackend) {
    size_t targets = 0;
    for (const Backend* b : backends()) {
        ASSERT_FALSE(b->targets().empty());
        for (const Target& t : b->targets()) {
            EXPECT_EQ(find_target(t.name), &t) << t.name;
            EXPECT_EQ(find_backend(t.name), b) << t.name;
            EXPECT_GE(t.max_pes, 1u) << t.name;
            EXPECT_NE(std::string(t.summary), "") << t.name;
            ++targets;
        }
    }
    EXPECT_EQ(targets, 6u);
    EXPECT_EQ(find_target("no-such-target"), nullptr);
    EXPECT_EQ(find_backend("no-such-target"), nullptr);
    EXPECT_EQ(find_backend(""), nullptr);
}

TEST(Registry, TargetNamesAreUnique) {
    std::set<std::string> names;
    size_t count = 0;
    for (const Backend* b : backends())
        for (const Target& t : b->targets()) names.insert(t.name), ++count;
    EXPECT_EQ(names.size(), count);
    EXPECT_EQ(target_names(), "virt-rv64, epiphany-e16, epiphany-e64, tilegx, tilepro, linux");
}

TEST(Registry, DefaultTargetFollowsTheProgram) {
    const TempDir dir;
    EXPECT_EQ(default_target(write_file(dir.path(), "virt.elf", valid_elf().bytes())), "virt-rv64");
    EXPECT_EQ(default_target(dir.path() + "/missing.elf"), "virt-rv64");
    EXPECT_EQ(default_target("/proc/self/exe"), "linux");  // this test program: this host's machine
    for (const Backend* b : backends()) {
        if (const Target* t = b->claims("/proc/self/exe")) {
            EXPECT_EQ(find_backend(t->name), b);
        }
    }
}

TEST(Registry, EveryBackendHasItsHelpSection) {
    const std::string u = usage();
    for (const Backend* b : backends()) {
        const std::string section = b->help();
        ASSERT_GE(section.size(), 2u);
        EXPECT_EQ(section.substr(section.size() - 2), "\n\n");  // whole lines, then an empty one
        EXPECT_HAS(u, section);
        for (const Target& t : b->targets()) EXPECT_HAS(u, std::string("  ") + t.name + " ");
    }
}

// The targets whose backends take option o, as the refusal names them.
std::string takers(Option o) {
    std::string names;
    for (const Backend* b : backends())
        if (b->takes(o))
            for (const Target& t : b->targets()) names += (names.empty() ? "" : ", ") + std::string(t.name);
    return names;
}

TEST(Options, RefusalNamesEveryTargetThatTakesTheOption) {
    const Target& e16 = *find_target("epiphany-e16");
    const Target& linux_target = *find_target("linux");
    const Target& gx = *find_target("tilegx");
    const Target& virt = *find_target("virt-rv64");
    EXPECT_EQ(refusal(Option::symmetric_size, e16, backends()),
              "--symmetric-size is an option of virt-rv64, tilegx, tilepro, linux; epiphany-e16 does not take it");
    EXPECT_EQ(refusal(Option::partition_size, linux_target, backends()),
              "--partition-size is an option of virt-rv64, tilegx, tilepro; linux does not take it");
    EXPECT_EQ(refusal(Option::gdb, gx, backends()), "--gdb is an option of virt-rv64, linux; tilegx does not take it");
    EXPECT_EQ(refusal(Option::icount, gx, backends()), "--icount is an option of virt-rv64; tilegx does not take it");
    EXPECT_EQ(refusal(Option::extra_qemu_arg, e16, backends()),
              "--extra-qemu-arg is an option of virt-rv64; epiphany-e16 does not take it");
    EXPECT_EQ(refusal(Option::mesh, virt, backends()),
              "--backend is an option of epiphany-e16, epiphany-e64; virt-rv64 does not take it");
    EXPECT_EQ(refusal(Option::emulator, linux_target, backends()),
              "--emulator is an option of virt-rv64, epiphany-e16, epiphany-e64; linux does not take it");
    EXPECT_EQ(refusal(Option::boot_dir, e16, backends()),
              "--boot-dir is an option of tilegx, tilepro; epiphany-e16 does not take it");
    EXPECT_EQ(refusal(Option::tile_origin, linux_target, backends()),
              "--tile-origin is an option of tilegx, tilepro; linux does not take it");
    EXPECT_EQ(refusal(Option::nodes, virt, backends()), "--nodes is an option of linux; virt-rv64 does not take it");
    EXPECT_EQ(refusal(Option::node_prefix, virt, backends()),
              "--node-prefix is an option of linux; virt-rv64 does not take it");
    EXPECT_EQ(refusal(Option::launcher, e16, backends()),
              "--launcher is an option of linux; epiphany-e16 does not take it");
    EXPECT_EQ(refusal(Option::hosts, gx, backends()), "--hosts is an option of linux; tilegx does not take it");
    EXPECT_EQ(refusal(Option::hostfile, virt, backends()), "--hostfile is an option of linux; virt-rv64 does not take it");
}

// Each option on the command line, as parse_cli reads it.
std::vector<std::string> giving(Option o) {
    switch (o) {
    case Option::symmetric_size: return {"--symmetric-size", "1M"};
    case Option::partition_size: return {"--partition-size", "1M"};
    case Option::icount: return {"--icount"};
    case Option::extra_qemu_arg: return {"--extra-qemu-arg", "-s"};
    case Option::gdb: return {"--gdb", "0"};
    case Option::mesh: return {"--backend", "sim"};
    case Option::emulator: return {"--qemu", "/bin/true"};
    case Option::boot_dir: return {"--boot-dir", "boot"};
    case Option::tile_origin: return {"--tile-origin", "0,0"};
    case Option::nodes: return {"--nodes", "1"};
    case Option::node_prefix: return {"--nodes", "1", "--node-prefix", "env"};  // (it needs --nodes)
    case Option::launcher: return {"--launcher", "mpirun"};
    case Option::hosts: return {"--hosts", "a,b"};
    case Option::hostfile: return {"--hostfile", "hosts"};
    }
    return {};
}

TEST(Options, CheckRequestRefusesWhatTheBackendDoesNotTake) {
    for (Option o : kTargetOptions) {
        std::vector<std::string> args = giving(o);
        args.push_back("p.elf");
        const Request req = parse_cli(args);
        EXPECT_TRUE(req.gives(o)) << option_name(o);
        for (Option other : kTargetOptions)
            EXPECT_EQ(req.gives(other), other == o || (o == Option::node_prefix && other == Option::nodes))
                << option_name(other);
        EXPECT_NE(takers(o), "") << option_name(o);
        for (const Backend* b : backends())
            for (const Target& t : b->targets()) {
                if (b->takes(o)) {
                    EXPECT_NO_THROW(check_request(req, t, *b, backends())) << option_name(o) << " on " << t.name;
                    continue;
                }
                try {
                    check_request(req, t, *b, backends());
                    ADD_FAILURE() << option_name(o) << " taken by " << t.name;
                } catch (const Failure& f) {
                    EXPECT_EQ(f.status, 2);
                    // (--node-prefix comes with --nodes, which check_request refuses first)
                    const Option first = o == Option::node_prefix ? Option::nodes : o;
                    EXPECT_EQ(std::string(f.what()), std::string(option_name(first)) + " is an option of " +
                                                         takers(first) + "; " + t.name + " does not take it");
                }
            }
    }
}

TEST(Options, CheckRequestKeepsNpesWithinTheTarget) {
    const Target& e16 = *find_target("epiphany-e16");
    const Backend& ep = *find_backend("epiphany-e16");
    Request req = parse_cli({"-np", "16", "p.elf"});
    EXPECT_NO_THROW(check_request(req, e16, ep, backends()));
    req.npes = 17;
    EXPECT_THROW(check_request(req, e16, ep, backends()), Failure);
    req.npes = 0;
    try {
        check_request(req, e16, ep, backends());
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(std::string(f.what()), "-np 0: epiphany-e16 runs 1 to 16 PEs");
    }
}

TEST(Options, OshrunRefusesWithTheOneMessage) {
    const TempDir dir;
    const std::string image = write_file(dir.path(), "ep.elf", epiphany_elf().bytes());
    const std::string cmd = oshrun_test::without_shmem_environment() + " " + OSHRUN_PATH +
                            " --target epiphany-e16 --symmetric-size 4K " + image + " 2>" + dir.path() + "/err";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2);
    std::ifstream f(dir.path() + "/err");
    std::stringstream err;
    err << f.rdbuf();
    EXPECT_EQ(err.str(), "oshrun: --symmetric-size is an option of virt-rv64, tilegx, tilepro, linux; epiphany-e16 "
                         "does not take it\n");
}

}  // namespace

// The command line, running a child, and oshrun end to end with a stand-in emulator (a shell script).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli.hpp"
#include "common.hpp"
#include "elf_builder.hpp"
#include "run.hpp"
#include "target.hpp"

using namespace oshrun;

namespace {

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
        const Cli cli = parse_cli(args);
        EXPECT_EQ(cli.npes, 4u) << args[0];
        EXPECT_EQ(cli.program, "p.elf");
    }
    EXPECT_EQ(parse_cli({"p.elf"}).npes, 1u);
}

TEST(Cli, ArgumentsAfterProgramBelongToIt) {
    const Cli cli = parse_cli({"-np", "2", "--verbose", "p.elf", "-np", "7", "--help", "x"});
    EXPECT_EQ(cli.npes, 2u);
    EXPECT_TRUE(cli.verbose);
    EXPECT_FALSE(cli.help);
    EXPECT_EQ(cli.program, "p.elf");
    EXPECT_EQ(cli.program_args, (std::vector<std::string>{"-np", "7", "--help", "x"}));
    const Cli dashed = parse_cli({"--", "-weird-name.elf", "a"});
    EXPECT_EQ(dashed.program, "-weird-name.elf");
    EXPECT_EQ(dashed.program_args, std::vector<std::string>{"a"});
}

TEST(Cli, Options) {
    const Cli cli = parse_cli({"--target", "virt-rv64", "--symmetric-size", "64M", "--partition-size=256M",
                               "--timeout", "1.5", "--icount", "--qemu", "/x/qemu", "--extra-qemu-arg", "-s",
                               "--extra-qemu-arg=-S", "--dry-run", "-v", "p.elf"});
    EXPECT_EQ(cli.target, "virt-rv64");
    EXPECT_EQ(cli.symmetric_size.value(), 64 * MiB);
    EXPECT_EQ(cli.partition_size.value(), 256 * MiB);
    EXPECT_DOUBLE_EQ(cli.timeout.value(), 1.5);
    EXPECT_TRUE(cli.icount && cli.dry_run && cli.verbose);
    EXPECT_EQ(cli.emulator, "/x/qemu");
    EXPECT_EQ(cli.extra_qemu_args, (std::vector<std::string>{"-s", "-S"}));
    EXPECT_EQ(parse_cli({"--emulator", "/y/sim", "p.elf"}).emulator, "/y/sim");
    EXPECT_EQ(parse_cli({"--backend=esim", "p.elf"}).backend, "esim");
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
    EXPECT_HAS(usage_failure({"--icount=yes", "p.elf"}).what(), "unknown option");
}

TEST(Cli, TimeoutFromEnvironment) {
    Cli cli;
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
    EXPECT_EQ(target_names(), "virt-rv64, epiphany-e16, epiphany-e64");
    // Two kinds of backend: an emulator process (virt) or a run hook that drives the cores (Epiphany).
    const Target& virt = *find_target("virt-rv64");
    EXPECT_TRUE(virt.place && virt.write_files && virt.command && !virt.run);
    for (const char* name : {"epiphany-e16", "epiphany-e64"}) {
        const Target& ep = *find_target(name);
        EXPECT_TRUE(ep.run && !ep.place && !ep.write_files && !ep.command) << name;
        EXPECT_EQ(ep.elf_machine, 0x1223u);
        EXPECT_EQ(ep.elf_class, ELFCLASS32);
        EXPECT_EQ(ep.elf_type, ET_EXEC);
        EXPECT_EQ(ep.chip.first_row << 6 | ep.chip.first_col, 0x808u);
    }
    EXPECT_EQ(find_target("epiphany-e16")->max_pes, 16u);
    EXPECT_EQ(find_target("epiphany-e16")->chip.cols, 4u);
    EXPECT_EQ(find_target("epiphany-e64")->max_pes, 64u);
    EXPECT_EQ(find_target("epiphany-e64")->chip.rows, 8u);
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
    EXPECT_EQ(r.term_signal, SIGTERM);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(Run, TimeoutEscalatesToKill) {
    const RunResult r = run_child({"sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"}, 0.1);
    EXPECT_TRUE(r.timed_out);
    EXPECT_EQ(r.term_signal, SIGKILL);
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
    int oshrun(const std::string& args) {
        const std::string cmd = std::string(OSHRUN_PATH) + " " + args + " >" + dir.path() + "/out 2>" + dir.path() + "/err";
        const int status = std::system(cmd.c_str());
        out = slurp(dir.path() + "/out");
        err = slurp(dir.path() + "/err");
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::string slurp(const std::string& path) {
        std::ifstream f(path);
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }
};

TEST_F(Oshrun, DryRun) {
    ASSERT_EQ(oshrun("--dry-run -np 3 " + image + " a b"), 0) << err;
    EXPECT_HAS(out, "pe 0: partition 0x80000000 boot-block 0x80000000 image 0x80001000 bytes 8200");
    EXPECT_HAS(out, "pe 2: partition 0x80400000 boot-block 0x80400000 image 0x80401000 bytes 8200");
    EXPECT_HAS(out, "qemu-system-riscv64 -machine virt -bios none -smp 3 -m 8M");
    EXPECT_HAS(out, "addr=0x80401000,force-raw=on,cpu-num=2");
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/args"));
}

TEST_F(Oshrun, PassesExitStatusAndCleansUp) {
    const std::string qemu = fake_qemu("echo guest says hi; exit 7");
    EXPECT_EQ(oshrun("--qemu " + qemu + " -np 2 --icount " + image + " x y"), 7) << err;
    EXPECT_EQ(out, "guest says hi\n");
    const std::string args = slurp(dir.path() + "/args");
    EXPECT_HAS(args, "-smp\n2\n");
    EXPECT_HAS(args, "-icount\nshift=0,sleep=off\n");
    // The files the emulator was given, and the directory gone afterwards.
    const std::string boot1 = slurp(dir.path() + "/copy-boot1.bin");
    ASSERT_EQ(boot1.size(), 4096u);
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
    EXPECT_EQ(oshrun("--qemu " + qemu + " " + image), 128 + SIGKILL);
    EXPECT_HAS(err, "killed by signal 9");
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
    EXPECT_EQ(oshrun("--dry-run " + bad), 2);
    EXPECT_EQ(err, "oshrun: " + bad + ": ELF machine is x86-64 (62); target virt-rv64 needs RISC-V (243)\n");
    EXPECT_EQ(std::system(("SHMEM_SYMMETRIC_SIZE=huge " + std::string(OSHRUN_PATH) + " --dry-run " + image +
                           " >/dev/null 2>&1; test $? -eq 2").c_str()), 0);
    EXPECT_EQ(oshrun("--help"), 0);
    EXPECT_HAS(out, "usage: oshrun");
}

}  // namespace

// The esim backend's pure parts: the per-core ELF files the simulator processes load, and where an Epiphany
// address lies in the session's shared-memory file. (Running the simulator itself is the Epiphany test suite's job:
// README.md, "Epiphany".)
#include <elf.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>

#include "backends/epiphany/epiphany.hpp"
#include "backends/epiphany/esim.hpp"
#include "backends/registry.hpp"
#include "core/common.hpp"
#include "core/process.hpp"

using namespace oshrun;

namespace {

template <class T>
T at(const std::vector<uint8_t>& f, size_t offset) {
    T v;
    EXPECT_LE(offset + sizeof v, f.size());
    std::memcpy(&v, f.data() + offset, sizeof v);
    return v;
}

TEST(EsimElf, EveryLoadIsASectionAndASegmentWithItsBytes) {
    const std::vector<EsimLoad> loads = {
        {0x0, {0xb2, 0x01, 0xe0, 0xff}}, {0x40, std::vector<uint8_t>(0xc0, 0x5a)}, {0x8f000000, {1, 2, 3}}};
    const std::vector<uint8_t> f = make_esim_elf(loads);
    const auto eh = at<Elf32_Ehdr>(f, 0);
    EXPECT_EQ(std::memcmp(eh.e_ident, ELFMAG, SELFMAG), 0);
    EXPECT_EQ(eh.e_ident[EI_CLASS], ELFCLASS32);
    EXPECT_EQ(eh.e_ident[EI_DATA], ELFDATA2LSB);
    EXPECT_EQ(eh.e_type, ET_EXEC);
    EXPECT_EQ(eh.e_machine, kEmAdaptevaEpiphany);
    EXPECT_EQ(eh.e_entry, 0u);  // the reset vector
    ASSERT_EQ(eh.e_phnum, loads.size());
    ASSERT_EQ(eh.e_shnum, loads.size() + 2);  // null, .shstrtab, the loads
    const auto strtab = at<Elf32_Shdr>(f, eh.e_shoff + eh.e_shstrndx * sizeof(Elf32_Shdr));
    EXPECT_EQ(strtab.sh_type, unsigned(SHT_STRTAB));
    for (size_t i = 0; i < loads.size(); ++i) {
        const auto ph = at<Elf32_Phdr>(f, eh.e_phoff + i * sizeof(Elf32_Phdr));
        const auto sh = at<Elf32_Shdr>(f, eh.e_shoff + (i + 2) * sizeof(Elf32_Shdr));
        EXPECT_EQ(ph.p_type, unsigned(PT_LOAD));
        EXPECT_EQ(ph.p_vaddr, loads[i].addr);
        EXPECT_EQ(ph.p_paddr, loads[i].addr);  // the simulator may load at LMA
        EXPECT_EQ(ph.p_filesz, loads[i].bytes.size());
        EXPECT_EQ(ph.p_memsz, loads[i].bytes.size());
        EXPECT_EQ(sh.sh_type, unsigned(SHT_PROGBITS));  // it loads sections, not segments
        EXPECT_EQ(sh.sh_flags & SHF_ALLOC, unsigned(SHF_ALLOC));
        EXPECT_EQ(sh.sh_addr, loads[i].addr);
        EXPECT_EQ(sh.sh_offset, ph.p_offset);
        EXPECT_EQ(sh.sh_size, loads[i].bytes.size());
        EXPECT_STREQ(reinterpret_cast<const char*>(f.data() + strtab.sh_offset + sh.sh_name), ".load");
        ASSERT_LE(ph.p_offset + ph.p_filesz, f.size());
        EXPECT_TRUE(std::equal(loads[i].bytes.begin(), loads[i].bytes.end(), f.begin() + ph.p_offset));
    }
}

TEST(EsimElf, NoLoadsIsStillAnExecutable) {
    const std::vector<uint8_t> f = make_esim_elf({});
    const auto eh = at<Elf32_Ehdr>(f, 0);
    EXPECT_EQ(eh.e_phnum, 0);
    EXPECT_EQ(eh.e_shnum, 2);
}

TEST(EsimSession, CoresRowMajorAfterTheHeaderThenExternalDram) {
    // 2x3 workgroup at 0x808: cores 0x808 0x809 0x80a / 0x848 0x849 0x84a.
    const uint64_t core = 2 * MiB;  // 1 MiB of simulator state, then the 1 MiB window
    EXPECT_EQ(esim_session_offset(0x808, 2, 3, 0x80800000, 4), MiB + MiB);
    EXPECT_EQ(esim_session_offset(0x808, 2, 3, 0x80907ffc, 4), MiB + 1 * core + MiB + 0x7ffc);
    EXPECT_EQ(esim_session_offset(0x808, 2, 3, 0x84800040, 8), MiB + 3 * core + MiB + 0x40);
    EXPECT_EQ(esim_session_offset(0x808, 2, 3, 0x84a00000, 1), MiB + 5 * core + MiB);
    EXPECT_EQ(esim_session_offset(0x808, 2, 3, 0x8e000000, 4), MiB + 6 * core);
    EXPECT_EQ(esim_session_offset(0x808, 2, 3, 0x8f000010, 4), MiB + 6 * core + 0x1000010);
    EXPECT_EQ(esim_session_size(2, 3), MiB + 6 * core + 32 * MiB);
}

TEST(EsimSession, RefusesWhatTheSessionDoesNotHold) {
    const auto refused = [](uint32_t global, uint64_t n) {
        try {
            esim_session_offset(0x808, 2, 2, global, n);
        } catch (const Failure& f) {
            EXPECT_NE(std::string(f.what()).find("neither the SRAM of a core of the 2x2 workgroup at 0x808"),
                      std::string::npos) << f.what();
            return true;
        }
        return false;
    };
    EXPECT_TRUE(refused(0x80a00000, 4));   // column 10: outside 2 columns
    EXPECT_TRUE(refused(0x88800000, 4));   // row 34
    EXPECT_TRUE(refused(0x80700000, 4));   // column 7
    EXPECT_TRUE(refused(0x80807ffe, 4));   // runs past 32 KB of SRAM
    EXPECT_TRUE(refused(0x808f0400, 4));   // a register, not SRAM
    EXPECT_TRUE(refused(0x8ffffffe, 4));   // past external DRAM's end
    EXPECT_FALSE(refused(0x84900000, 0x8000));
}

// ---- the start of a session, with a stand-in for the simulator (a shell script given as --emulator) ----------

void write_file_text(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
}

// A one-core workgroup at the E16's first core, 0x808.
EpiphanyPlan one_core_plan() {
    EpiphanyPlan p;
    p.npes = 1;
    p.first_row = 32, p.first_col = 8, p.rows = 1, p.cols = 1;
    EpiphanyPe pe{};
    pe.pe = 0, pe.row = 32, pe.col = 8, pe.coreid = 0x808;
    p.pes.push_back(pe);
    return p;
}

// The Failure that starting a session with the simulator script `body` ends in (fails the test if it starts).
Failure start_failure(const TempDir& dir, const std::string& body, double timeout) {
    const std::string script = dir.path() + "/fake-esim.sh";
    write_file_text(script, "#!/bin/sh\n" + body + "\n");
    chmod(script.c_str(), 0755);
    const Target& t = *find_target("epiphany-e16");
    try {
        auto mesh = open_esim(t, one_core_plan(), script, false, timeout);
        mesh->start({0x808});
    } catch (const Failure& f) {
        return f;
    }
    ADD_FAILURE() << "the session started";
    return Failure("", 0);
}

// What every stand-in does first: the session file's name, from --e-session-name.
const char* const kSessionFile =
    "prev=; for a; do [ \"$prev\" = --e-session-name ] && s=$a; prev=$a; done; f=/dev/shm/esim.u.$(id -u)-$s";

TEST(EsimStart, HonoursTheTimeLimit) {
    // Simulators that never get to the start barrier: oshrun's --timeout ends the wait (it waited 60 s).
    const TempDir dir;
    const auto t0 = std::chrono::steady_clock::now();
    const Failure f = start_failure(dir, "exec sleep 30", 0.5);
    EXPECT_EQ(f.status, 124);
    EXPECT_NE(std::string(f.what()).find("timeout"), std::string::npos) << f.what();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

TEST(EsimStart, HonoursSignals) {
    const TempDir dir;
    const SignalCatcher signals;
    std::thread raiser([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        kill(getpid(), SIGTERM);
    });
    const Failure f = start_failure(dir, "exec sleep 30", 0);
    raiser.join();
    EXPECT_EQ(f.status, 128 + SIGTERM);
    EXPECT_NE(std::string(f.what()).find("interrupted"), std::string::npos) << f.what();
}

TEST(EsimStart, RefusesASessionFileOfAnotherUser) {
    // Another local user creates the session file first and so would dictate what oshrun reads as the cores'
    // output and exit status. The name is random (so this stand-in learns it from its arguments, as an attacker
    // could not); the owner is checked whatever the name.
    if (geteuid() != 0) GTEST_SKIP() << "needs root, to make a file that another user owns";
    const TempDir dir;
    const Failure f = start_failure(
        dir, std::string(kSessionFile) + "; truncate -s 1M $f; chown 65534 $f; exec sleep 30", 10);
    EXPECT_EQ(f.status, 1);
    EXPECT_NE(std::string(f.what()).find("belongs to uid 65534"), std::string::npos) << f.what();
}

TEST(EsimStart, SessionNamesAreRandom) {
    // Two sessions of one oshrun get unrelated names, neither made of the pid.
    const TempDir dir;
    const std::string record = dir.path() + "/names";
    for (int i = 0; i < 2; ++i)
        start_failure(dir, std::string(kSessionFile) + "; echo \"$s\" >> " + record + "; exec sleep 30", 0.3);
    std::ifstream in(record);
    std::string a, b;
    in >> a >> b;
    EXPECT_NE(a, b);
    for (const std::string& name : {a, b}) {
        ASSERT_EQ(name.size(), std::string("oshrun-").size() + 16) << name;
        EXPECT_EQ(name.substr(0, 7), "oshrun-");
        EXPECT_EQ(name.find_first_not_of("0123456789abcdef", 7), std::string::npos) << name;
    }
    // Not derived from the pid or from each other: names made of the pid and a counter would share their start
    // (two random names share 8 hex digits once in 4 billion). (Looking for the pid's digits in a random name
    // instead fails now and then: 16 random hex digits hold a given 3-digit number about once in 300 names.)
    EXPECT_NE(a.substr(7, 8), b.substr(7, 8)) << a << " " << b;
    char pid_hex[17];
    std::snprintf(pid_hex, sizeof pid_hex, "%016llx", static_cast<unsigned long long>(getpid()));
    EXPECT_NE(a.substr(7), pid_hex);
}

}  // namespace

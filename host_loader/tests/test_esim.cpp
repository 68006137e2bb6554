// The esim backend's pure parts: the per-core ELF files the simulator processes load, and where an Epiphany
// address lies in the session's shared-memory file. (Running the simulator itself is the Epiphany test suite's job:
// README.md, "Epiphany".)
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>

#include "common.hpp"
#include "epiphany.hpp"
#include "esim.hpp"

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

}  // namespace

// The console relay: records parsed however the stream is cut, whole lines per PE and stream, tags, files, raw
// bytes, malformed records, exit records.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "console_records.hpp"
#include "core/common.hpp"
#include "core/console.hpp"
#include "core/process.hpp"
#include "elf_builder.hpp"

using namespace oshrun;

namespace {

#define EXPECT_HAS(haystack, needle) EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

struct Relayed {
    std::string out, err;
    std::vector<int> exits;
    size_t malformed = 0;
};

// The stream fed in pieces that end at the given cut positions (ascending), then finished.
Relayed relay(unsigned npes, const std::string& stream, const std::vector<size_t>& cuts = {},
              ConsoleOptions opt = {}) {
    std::ostringstream out, err;
    Console c(npes, out, err, opt);
    size_t at = 0;
    for (size_t cut : cuts) {
        c.feed(stream.data() + at, cut - at);
        at = cut;
    }
    c.feed(stream.data() + at, stream.size() - at);
    c.finish();
    return {out.str(), err.str(), c.exit_statuses(), c.malformed_records()};
}

// A stream with a bit of everything: two PEs' lines crossing record boundaries, stderr, a zero-length record,
// an exit record.
std::string sample_stream() {
    return console_records(0, "hel") + console_records(1, "wor") + console_records(0, "lo\nsec") +
           console_records(1, "oops\n", 'e') + console_records(1, "") + console_records(1, "ld\n") +
           console_records(0, "ond\n") + exit_record(1, 3);
}

TEST(Console, WholeLinesPerPe) {
    const Relayed r = relay(2, sample_stream());
    EXPECT_EQ(r.out, "hello\nworld\nsecond\n");
    EXPECT_EQ(r.err, "oops\n");
    EXPECT_EQ(r.exits, std::vector<int>{3});
    EXPECT_EQ(r.malformed, 0u);
}

TEST(Console, SplitAtEveryByteBoundary) {
    const std::string s = sample_stream();
    const Relayed whole = relay(2, s);
    for (size_t cut = 0; cut <= s.size(); ++cut) {
        const Relayed r = relay(2, s, {cut});
        EXPECT_EQ(r.out, whole.out) << "cut at " << cut;
        EXPECT_EQ(r.err, whole.err) << "cut at " << cut;
        EXPECT_EQ(r.exits, whole.exits) << "cut at " << cut;
    }
    std::vector<size_t> every;  // one byte per feed
    for (size_t i = 1; i < s.size(); ++i) every.push_back(i);
    const Relayed bytewise = relay(2, s, every);
    EXPECT_EQ(bytewise.out, whole.out);
    EXPECT_EQ(bytewise.err, whole.err);
    EXPECT_EQ(bytewise.exits, whole.exits);
}

TEST(Console, LinesAreWrittenAsSoonAsTheyAreWhole) {
    std::ostringstream out, err;
    Console c(2, out, err);
    const std::string a = console_records(0, "ab"), b = console_records(1, "x\ny"), d = console_records(0, "c\nd");
    c.feed(a.data(), a.size());
    c.feed(b.data(), b.size());
    EXPECT_EQ(out.str(), "x\n");
    c.feed(d.data(), d.size());
    EXPECT_EQ(out.str(), "x\nabc\n");
    c.finish();  // the unfinished lines, PE by PE, each ended by a newline
    EXPECT_EQ(out.str(), "x\nabc\nd\ny\n");
    c.finish();  // nothing left
    EXPECT_EQ(out.str(), "x\nabc\nd\ny\n");
}

TEST(Console, LongLinesOfManyPesNeverInterleave) {
    // 16 PEs, each one line of 1000 to 3000 bytes of its own letter, sent in records of 1..255 bytes, the PEs'
    // records interleaved round-robin: every line comes out whole.
    const unsigned npes = 16;
    std::vector<std::string> rest(npes);
    for (unsigned k = 0; k < npes; ++k) rest[k] = std::string(1000 + 137 * k, char('A' + k)) + "\n";
    std::string stream;
    std::mt19937 rng(7);
    for (bool more = true; more;) {
        more = false;
        for (unsigned k = 0; k < npes; ++k) {
            if (rest[k].empty()) continue;
            const size_t n = std::min(rest[k].size(), size_t(1 + rng() % 255));
            stream += console_records(k, rest[k].substr(0, n));
            rest[k].erase(0, n);
            more = true;
        }
    }
    const Relayed r = relay(npes, stream, {stream.size() / 3, stream.size() / 2});
    std::istringstream lines(r.out);
    std::vector<bool> seen(npes, false);
    unsigned count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        ASSERT_FALSE(line.empty());
        const unsigned k = unsigned(line[0] - 'A');
        ASSERT_LT(k, npes);
        EXPECT_EQ(line, std::string(1000 + 137 * k, char('A' + k)));
        EXPECT_FALSE(seen[k]);
        seen[k] = true;
    }
    EXPECT_EQ(count, npes);
}

TEST(Console, SpillsThatFollowEachOtherKeepEveryLineWhole) {
    // The same with lines far past the cap: while one line spills the others are held, and when it ends the held
    // output may start the next spill while part of it is still held -- that part, and what comes after it, must
    // still come out in order (oshrun_huge_lines at 4 PEs once cut a line in two this way).
    const unsigned npes = 16;
    ConsoleOptions opt;
    opt.line_cap = 100;
    for (unsigned seed = 1; seed <= 20; ++seed) {
        std::vector<std::string> rest(npes);
        for (unsigned k = 0; k < npes; ++k) rest[k] = std::string(1000 + 137 * k, char('A' + k)) + "\n";
        std::string stream;
        std::mt19937 rng(seed);
        for (bool more = true; more;) {
            more = false;
            for (unsigned k = 0; k < npes; ++k) {
                if (rest[k].empty() || rng() % 3 == 0) {
                    more = more || !rest[k].empty();
                    continue;
                }
                const size_t n = std::min(rest[k].size(), size_t(1 + rng() % 255));
                stream += console_records(k, rest[k].substr(0, n));
                rest[k].erase(0, n);
                more = true;
            }
        }
        std::vector<size_t> cuts;
        for (size_t at = 0; at < stream.size(); at += 1 + rng() % 700) cuts.push_back(at);
        const Relayed r = relay(npes, stream, cuts, opt);
        std::istringstream lines(r.out);
        std::vector<bool> seen(npes, false);
        unsigned count = 0;
        for (std::string line; std::getline(lines, line); ++count) {
            ASSERT_FALSE(line.empty()) << seed;
            const unsigned k = unsigned(line[0] - 'A');
            ASSERT_LT(k, npes) << seed;
            ASSERT_EQ(line, std::string(1000 + 137 * k, char('A' + k))) << seed;
            EXPECT_FALSE(seen[k]) << seed;
            seen[k] = true;
        }
        EXPECT_EQ(count, npes) << seed;
    }
}

TEST(Console, AHeldChunkOfTheNextSpillingLineGoesOutWithIt) {
    // PE 2 spills; meanwhile PE 0 writes 6, PE 1 2, PE 0 6 more (past the cap of 8), PE 1 2, PE 0 2: all held. PE 2's
    // newline ends its spill: PE 0's first two chunks start a spill of its own, and its third, held behind PE 1's,
    // must come out before what PE 0 writes next.
    ConsoleOptions opt;
    opt.line_cap = 8;
    const std::string s = console_records(2, std::string(10, 'c')) + console_records(0, std::string(6, 'a')) +
                          console_records(1, "bb") + console_records(0, std::string(6, 'a')) +
                          console_records(1, "bb") + console_records(0, "AA") + console_records(2, "\n") +
                          console_records(0, "aa\n") + console_records(1, "\n");
    EXPECT_EQ(relay(3, s, {}, opt).out, std::string(10, 'c') + "\n" + std::string(12, 'a') + "AAaa\nbbbb\n");
}

TEST(Console, StderrGoesToErr) {
    const Relayed r = relay(3, console_records(2, "to-stderr\n", 'e') + console_records(0, "to-stdout\n") +
                                   console_records(2, "partial err", 'e'));
    EXPECT_EQ(r.out, "to-stdout\n");
    EXPECT_EQ(r.err, "to-stderr\npartial err\n");
}

TEST(Console, TagOutput) {
    ConsoleOptions opt;
    opt.tag_output = true;
    const Relayed r = relay(12, console_records(11, "a\nb") + console_records(3, "c\n", 'e') +
                                    console_records(0, "d\n") + console_records(11, "\n"), {}, opt);
    EXPECT_EQ(r.out, "[PE 11] a\n[PE 0] d\n[PE 11] b\n");
    EXPECT_EQ(r.err, "[PE 3] c\n");
}

TEST(Console, OutputFiles) {
    const TempDir dir;
    ConsoleOptions opt;
    opt.output_dir = dir.path() + "/logs/run1";  // created, parents too
    opt.tag_output = true;
    const Relayed r = relay(3, console_records(0, "zero out\n") + console_records(1, "one err\n", 'e') +
                                   console_records(0, "zero err\n", 'e') + console_records(0, "zero again") +
                                   "raw\n",
                            {}, opt);
    EXPECT_EQ(r.out, "raw\n");  // raw bytes are no PE's: they still go to out
    EXPECT_EQ(r.err, "");
    const auto slurp = [&](unsigned k) {
        std::ifstream f(opt.output_dir + "/pe." + std::to_string(k));
        EXPECT_TRUE(f.good()) << k;
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    };
    EXPECT_EQ(slurp(0), "[PE 0] zero out\n[PE 0] zero err\n[PE 0] zero again\n");  // in order of arrival
    EXPECT_EQ(slurp(1), "[PE 1] one err\n");
    EXPECT_EQ(slurp(2), "");  // every PE has its file
}

TEST(Console, OutputDirectoryThatCannotBeMade) {
    const TempDir dir;
    write_file(dir.path(), "file", {1});
    ConsoleOptions opt;
    opt.output_dir = dir.path() + "/file";
    std::ostringstream out, err;
    try {
        Console c(1, out, err, opt);
        ADD_FAILURE();
    } catch (const Failure& f) {
        EXPECT_EQ(f.status, 2);
        EXPECT_HAS(f.what(), "--output-filename " + opt.output_dir + ": cannot create the directory");
    }
}

TEST(Console, RawBytesPassThrough) {
    // Text outside records (a hart with no boot block; a target that writes plain text) goes out as it is, at
    // once, partial lines too, in order with the records' lines.
    std::ostringstream out, err;
    Console c(2, out, err);
    const std::string s = "libshmem: no boot block" + console_records(0, "line\n") + "\n";
    c.feed(s.data(), 10);
    EXPECT_EQ(out.str(), "libshmem: ");
    c.feed(s.data() + 10, s.size() - 10);
    EXPECT_EQ(out.str(), "libshmem: no boot blockline\n\n");
    c.finish();
    EXPECT_EQ(out.str(), "libshmem: no boot blockline\n\n");
    EXPECT_EQ(err.str(), "");
    EXPECT_EQ(relay(1, "plain text\nno records at all").out, "plain text\nno records at all");
}

TEST(Console, MalformedRecordsAreRawBytesReportedOnce) {
    const std::string bad_kind = std::string("\x01q\x00\x00\x02hi", 7);
    const std::string bad_pe = std::string("\x01o\x05\x00\x02zz", 7);          // PE 5 of 2
    const std::string bad_exit = std::string("\x01x\x00\x00\x02\x07\x08", 7);  // an exit record of 2 bytes
    const Relayed r = relay(2, bad_kind + console_records(1, "fine\n") + bad_pe + bad_exit + console_records(0, "ok\n"));
    // Each bad header's bytes come out raw, and the records after them are read as records.
    EXPECT_EQ(r.out, bad_kind + "fine\n" + bad_pe + bad_exit + "ok\n");
    EXPECT_EQ(r.malformed, 3u);
    EXPECT_TRUE(r.exits.empty());
    EXPECT_EQ(r.err, "oshrun: console: malformed record (kind 'q' is none of 'o', 'e', 'x'); its bytes are passed "
                     "through as they are (further malformed records are not reported)\n");
    EXPECT_HAS(relay(2, bad_pe).err, "malformed record (PE 5 is not a PE of this run of 2)");
    EXPECT_HAS(relay(2, bad_exit).err, "malformed record (an exit record of 2 bytes, not 1)");
}

TEST(Console, ARecordMayStartInsideABadHeader) {
    // SOH, then a bad kind that is itself SOH: the second SOH starts a good record.
    const std::string s = std::string("\x01") + console_records(0, "x\n");
    const Relayed r = relay(1, s);
    EXPECT_EQ(r.out, "\x01x\n");
    EXPECT_EQ(r.malformed, 1u);
}

TEST(Console, HeaderCutShortByTheEndIsRaw) {
    const Relayed r = relay(1, console_records(0, "last") + std::string("\x01o\x00", 3));
    EXPECT_EQ(r.out, std::string("\x01o\x00", 3) + "last\n");  // raw bytes at once, the partial line at the end
    const Relayed cut = relay(1, console_records(0, "payload cut short").substr(0, 10));
    EXPECT_EQ(cut.out, "paylo\n");
}

TEST(Console, ExitRecords) {
    const Relayed r = relay(4, console_records(2, "bye\n") + exit_record(2, 7) + exit_record(3, 0));
    EXPECT_EQ(r.out, "bye\n");
    EXPECT_EQ(r.exits, (std::vector<int>{7, 0}));
    EXPECT_EQ(relay(1, exit_record(0, 255)).exits, std::vector<int>{255});
    EXPECT_TRUE(relay(1, "no exit record\n").exits.empty());
}

TEST(Console, SixteenBitPeNumbers) {
    ConsoleOptions opt;
    opt.tag_output = true;
    EXPECT_EQ(relay(512, console_records(511, "last PE\n") + console_records(256, "x\n"), {}, opt).out,
              "[PE 511] last PE\n[PE 256] x\n");
}

TEST(Console, LineCap) {
    // A line longer than line_cap spills: out as it comes, with no byte added (a PE that never ends its line gets
    // one newline, at the end).
    ConsoleOptions opt;
    opt.line_cap = 10;
    EXPECT_EQ(relay(1, console_records(0, std::string(25, 'a')), {7, 13}, opt).out, std::string(25, 'a') + "\n");
    // A line of exactly line_cap bytes waits for its newline: no empty line after it.
    EXPECT_EQ(relay(1, console_records(0, std::string(10, 'b') + "\n"), {15}, opt).out, std::string(10, 'b') + "\n");
    EXPECT_EQ(relay(1, console_records(0, std::string(11, 'c') + "\nd\n"), {}, opt).out, std::string(11, 'c') + "\nd\n");
    // Tags: one, at the start of the line.
    opt.tag_output = true;
    EXPECT_EQ(relay(1, console_records(0, std::string(12, 'e') + "\n"), {9, 14}, opt).out,
              "[PE 0] " + std::string(12, 'e') + "\n");
}

TEST(Console, ASpillingLineHoldsTheOthers) {
    // PE 0's line passes the cap; PE 1's lines (and PE 0's stderr) that come while it spills are held, and come out
    // after it, in order: the long line stays whole.
    ConsoleOptions opt;
    opt.line_cap = 8;
    const std::string s = console_records(0, std::string(12, 'a')) + console_records(1, "one\ntw") +
                          console_records(0, "err\n", 'e') + console_records(0, std::string(12, 'a')) +
                          console_records(1, "o\n") + console_records(0, "aa\n") + console_records(1, "three\n");
    for (const std::vector<size_t>& cuts : {std::vector<size_t>{}, std::vector<size_t>{5, 20, 33, 51}}) {
        const Relayed r = relay(2, s, cuts, opt);
        EXPECT_EQ(r.out, std::string(26, 'a') + "\none\ntwo\nthree\n");
        EXPECT_EQ(r.err, "err\n");
    }
    // Held output is bounded: past hold_cap it goes out after the long line's pieces so far (no byte added).
    opt.hold_cap = 4;
    const Relayed r = relay(2, console_records(0, std::string(10, 'a')) + console_records(1, "12345\n") +
                                   console_records(0, "bb\n"), {}, opt);
    EXPECT_EQ(r.out, std::string(10, 'a') + "12345\nbb\n");
    // A line that never ends: the others come out after it at the end.
    opt.hold_cap = 1u << 20;
    EXPECT_EQ(relay(2, console_records(0, std::string(10, 'a')) + console_records(1, "x\n"), {}, opt).out,
              std::string(10, 'a') + "\nx\n");
}

TEST(Console, PerPeStreams) {
    // Epiphany: one stream per PE; each has its own parser, so their records may be cut anywhere independently.
    std::ostringstream out, err;
    Console c(2, out, err);
    const std::string a = console_records(0, "from zero\n"), b = console_records(1, "from one\n", 'e');
    c.feed(0, a.data(), 3);
    c.feed(1, b.data(), 4);
    c.feed(0, a.data() + 3, a.size() - 3);
    c.feed(1, b.data() + 4, b.size() - 4);
    c.finish();
    EXPECT_EQ(out.str(), "from zero\n");
    EXPECT_EQ(err.str(), "from one\n");
    EXPECT_FALSE(c.saw_malformed());
}

TEST(Console, RandomStreamsAnyCuts) {
    // Random records of random PEs and kinds, with garbage between some: however the stream is cut, the relay
    // says the same thing.
    std::mt19937 rng(11);
    for (int round = 0; round < 200; ++round) {
        std::string s;
        for (int i = 0, n = int(rng() % 20); i < n; ++i) {
            const unsigned pe = rng() % 4;
            std::string text;
            for (int j = 0, m = int(rng() % 40); j < m; ++j) text += "ab\n\x01"[rng() % 4];
            switch (rng() % 5) {
            case 0: s += console_records(pe, text, 'e', 1 + rng() % 255); break;
            case 1: s += exit_record(pe, rng() % 256); break;
            case 2: s += text; break;  // raw, SOH bytes included
            default: s += console_records(pe, text, 'o', 1 + rng() % 255);
            }
        }
        const Relayed whole = relay(4, s);
        std::vector<size_t> cuts;
        for (size_t at = 0; at < s.size(); at += 1 + rng() % 9) cuts.push_back(at);
        const Relayed pieces = relay(4, s, cuts);
        ASSERT_EQ(pieces.out, whole.out) << round;
        ASSERT_EQ(pieces.err, whole.err) << round;
        ASSERT_EQ(pieces.exits, whole.exits) << round;
    }
}

}  // namespace

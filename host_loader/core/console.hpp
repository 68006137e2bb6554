// The PEs' console as oshrun relays it: a stream of records (crt/common/console_protocol.h) parsed as it comes,
// each PE's stdout and stderr reassembled into whole lines, each line written out in one piece.
//
// virt-rv64: one stream, QEMU's UART (its stdout, on a pipe), carries the records of every PE: feed(bytes).
// Epiphany: every PE has a ring of its own, each carrying that PE's records: feed(pe, bytes).
// linux: every PE's stdout and stderr are pipes of their own, plain text: feed_text(pe, is_err, bytes). Each stream keeps
// its own parser state, so a record may be split anywhere across feeds.
//
// What goes where:
//   - a stdout record's payload: to out, a stderr record's: to err, line by line (a line is written once its
//     newline has come); with --tag-output every line is prefixed "[PE n] "; with --output-filename DIR both of
//     PE n's streams go to DIR/pe.<n>, in order of arrival, and nothing of the PEs to out or err;
//   - a line longer than line_cap bytes is not held whole (a PE that never ends its line cannot make oshrun hold
//     unbounded memory): its first line_cap bytes are written out as they are, and the rest of it follows as it
//     comes, until its newline (the line "spills"). Meanwhile every other stream's output is held, so that nothing
//     comes between the pieces: a line stays whole at any length, and no byte is added to it. Should the others
//     print more than hold_cap bytes before the spilling line ends, what they printed goes out after the line's
//     pieces so far (still not a byte added, but the rest of the long line then comes after it);
//   - finish(): every unfinished line, ended by a newline (the spilling one first, then PE by PE, stdout before
//     stderr);
//   - an exit record (kind 'x', one byte): its status is kept (exit_statuses()), nothing is written;
//   - bytes outside any record (a byte other than SOH where a record would start; a hart with no boot block
//     writes plain text) go to out as they are, at once.
//
// A malformed record -- a kind other than 'o', 'e', 'x', a PE number >= npes (or, in a PE's own stream, another
// PE's number), an exit record whose payload is not one byte -- is not a record: its SOH byte is passed through as
// a raw byte and parsing resumes at the byte after it (which may start a record again), so no input can make the
// relay crash, hang, or lose sync for longer than one header. The first such header is reported once on err
// ("oshrun: console: ..."); later ones are not. A header cut short by the end of the stream is passed through raw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace oshrun {

struct ConsoleOptions {
    bool tag_output = false;           // --tag-output: "[PE n] " before every line
    std::string output_dir;            // --output-filename DIR: PE n's lines to DIR/pe.<n>; "" = out and err
    size_t line_cap = 64 * 1024;       // the longest line kept before it is written out anyway (it spills)
    size_t hold_cap = 64u << 20;       // the most of the other streams' output held while a line spills
};

class Console {
public:
    // Throws Failure (status 2) if output_dir cannot be created or a file in it cannot be written.
    Console(unsigned npes, std::ostream& out, std::ostream& err, ConsoleOptions opt = {});
    Console(const Console&) = delete;
    Console& operator=(const Console&) = delete;
    ~Console();

    // The machine-wide stream (virt: the UART), records of any PE.
    void feed(const char* bytes, size_t n);
    // PE pe's own stream (Epiphany: its mailbox ring); records of another PE are malformed there.
    void feed(unsigned pe, const char* bytes, size_t n);
    // PE pe's stdout (is_err false) or stderr as plain text, no records (linux: each PE's own pipes).
    void feed_text(unsigned pe, bool is_err, const char* bytes, size_t n);
    // The end of every stream: a header cut short passed through raw, the unfinished lines written out.
    // Idempotent.
    void finish();

    // The statuses of the exit records seen, in order of arrival (normally one).
    const std::vector<int>& exit_statuses() const { return exits_; }
    bool saw_malformed() const { return malformed_ != 0; }
    size_t malformed_records() const { return malformed_; }

private:
    struct Parser {
        uint8_t header[5];
        size_t have = 0;          // header bytes so far (0: at a record boundary)
        size_t payload_left = 0;  // payload bytes still to come of the current record
        unsigned pe = 0;
        char kind = 0;
    };

    unsigned npes_;
    std::ostream& out_;
    std::ostream& err_;
    ConsoleOptions opt_;
    std::vector<Parser> parsers_;          // [0] the machine-wide stream, [1 + k] PE k's own
    std::vector<std::string> partial_;        // [2k] PE k's stdout, [2k + 1] its stderr
    std::vector<std::unique_ptr<std::ofstream>> files_;  // --output-filename: PE k's file, opened on first use
    std::string raw_;                      // raw bytes not yet written to out
    std::vector<int> exits_;
    size_t malformed_ = 0;
    bool wrote_out_ = false, wrote_err_ = false;
    // The stream (2k + is_err) whose line spills, -1 if none; what the others wrote meanwhile, in order of arrival.
    long spilling_ = -1;
    struct Held {
        unsigned pe;
        bool is_err;
        std::string bytes;
    };
    std::vector<Held> held_;
    size_t held_bytes_ = 0;
    bool replaying_ = false;

    void feed_stream(Parser& p, long own_pe, const char* bytes, size_t n);
    void byte(Parser& p, long own_pe, uint8_t b);
    void header_done(Parser& p, long own_pe);
    void reject(Parser& p, long own_pe, const std::string& why);
    void payload(Parser& p, const char* bytes, size_t n);
    void text(unsigned pe, bool is_err, const char* bytes, size_t n);
    void emit_line(unsigned pe, bool is_err, const char* text, size_t n, bool add_newline, bool line_start = true);
    void end_spill();
    void flush_raw();
    void flush_streams();
    std::ostream& file_of(unsigned pe);
};

}  // namespace oshrun

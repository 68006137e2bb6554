// The console relay (console.hpp says what goes where and how malformed input is treated).
#include "console.hpp"

#include <common/console_protocol.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common.hpp"

namespace oshrun {

namespace {

std::string pe_file(const std::string& dir, unsigned pe) { return dir + "/pe." + std::to_string(pe); }

std::string byte_text(uint8_t b) {
    char buf[16];
    if (b >= 0x20 && b < 0x7f)
        std::snprintf(buf, sizeof buf, "'%c'", char(b));
    else
        std::snprintf(buf, sizeof buf, "0x%02x", b);
    return buf;
}

}  // namespace

Console::Console(unsigned npes, std::ostream& out, std::ostream& err, ConsoleOptions opt)
    : npes_(npes), out_(out), err_(err), opt_(std::move(opt)), parsers_(size_t(npes) + 1), partial_(2 * size_t(npes)),
      files_(opt_.output_dir.empty() ? 0 : npes) {
    opt_.line_cap = std::max<size_t>(opt_.line_cap, 1);
    if (opt_.output_dir.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(opt_.output_dir, ec);
    if (ec || !std::filesystem::is_directory(opt_.output_dir))
        throw Failure("--output-filename " + opt_.output_dir + ": cannot create the directory" +
                      (ec ? ": " + ec.message() : std::string(": a file of that name is in the way")));
    // Every PE gets its file, empty if it prints nothing; the files are reopened for appending when used, by the
    // parent only (files opened before QEMU is started would be inherited by it).
    for (unsigned k = 0; k < npes; ++k) {
        std::ofstream f(pe_file(opt_.output_dir, k), std::ios::binary | std::ios::trunc);
        if (!f) throw Failure("--output-filename: cannot write " + pe_file(opt_.output_dir, k) + ": " + std::strerror(errno));
    }
}

Console::~Console() = default;

void Console::feed(const char* bytes, size_t n) {
    feed_stream(parsers_[0], -1, bytes, n);
    flush_streams();
}

void Console::feed(unsigned pe, const char* bytes, size_t n) {
    feed_stream(parsers_.at(size_t(pe) + 1), long(pe), bytes, n);
    flush_streams();
}

void Console::feed_stream(Parser& p, long own_pe, const char* s, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (p.payload_left) {
            const size_t k = std::min(p.payload_left, n - i);
            p.payload_left -= k;
            payload(p, s + i, k);
            i += k;
            continue;
        }
        if (p.have == 0) {  // at a record boundary: everything up to the next SOH is raw
            const void* soh = std::memchr(s + i, SHMEM_CONSOLE_SOH, n - i);
            const size_t k = soh ? size_t(static_cast<const char*>(soh) - (s + i)) : n - i;
            if (k) {
                raw_.append(s + i, k);
                i += k;
                continue;
            }
        }
        byte(p, own_pe, uint8_t(s[i++]));
    }
    flush_raw();
}

// One header byte; at a record boundary only SOH comes here.
void Console::byte(Parser& p, long own_pe, uint8_t b) {
    if (p.have == 0 && b != SHMEM_CONSOLE_SOH) {
        raw_ += char(b);
        return;
    }
    p.header[p.have++] = b;
    if (p.have == 2) {
        p.kind = char(b);
        if (b != SHMEM_CONSOLE_STDOUT && b != SHMEM_CONSOLE_STDERR && b != SHMEM_CONSOLE_EXIT)
            return reject(p, own_pe, "kind " + byte_text(b) + " is none of 'o', 'e', 'x'");
    } else if (p.have == 4) {
        p.pe = unsigned(p.header[2]) | unsigned(p.header[3]) << 8;
        if (p.pe >= npes_)
            return reject(p, own_pe, "PE " + std::to_string(p.pe) + " is not a PE of this run of " +
                                         std::to_string(npes_));
        if (own_pe >= 0 && p.pe != unsigned(own_pe))
            return reject(p, own_pe, "a record of PE " + std::to_string(p.pe) + " in PE " + std::to_string(own_pe) +
                                         "'s stream");
    } else if (p.have == SHMEM_CONSOLE_HEADER) {
        header_done(p, own_pe);
    }
}

void Console::header_done(Parser& p, long own_pe) {
    const size_t length = p.header[4];
    if (p.kind == SHMEM_CONSOLE_EXIT && length != 1)
        return reject(p, own_pe, "an exit record of " + std::to_string(length) + " bytes, not 1");
    p.have = 0;
    p.payload_left = length;
}

// Not a record after all: its SOH is a raw byte, and what followed it is read again from a record boundary.
void Console::reject(Parser& p, long own_pe, const std::string& why) {
    if (malformed_++ == 0) {
        flush_raw();
        flush_streams();
        err_ << "oshrun: console: malformed record (" << why
             << "); its bytes are passed through as they are (further malformed records are not reported)\n";
        err_.flush();
    }
    uint8_t again[SHMEM_CONSOLE_HEADER];
    const size_t n = p.have - 1;
    std::memcpy(again, p.header + 1, n);
    p.have = 0;
    raw_ += char(SHMEM_CONSOLE_SOH);
    for (size_t i = 0; i < n; ++i) byte(p, own_pe, again[i]);  // at most 4 bytes: never a whole header again
}

void Console::payload(Parser& p, const char* s, size_t n) {
    if (p.kind == SHMEM_CONSOLE_EXIT) {  // its one byte (header_done checked the length)
        exits_.push_back(uint8_t(s[0]));
        return;
    }
    text(p.pe, p.kind == SHMEM_CONSOLE_STDERR, s, n);
}

void Console::feed_text(unsigned pe, bool is_err, const char* bytes, size_t n) {
    if (pe < npes_) text(pe, is_err, bytes, n);
}

void Console::text(unsigned pe, bool is_err, const char* s, size_t n) {
    const long stream = long(2 * size_t(pe) + is_err);
    std::string& line = partial_[size_t(stream)];
    while (n) {
        if (spilling_ >= 0 && spilling_ != stream) {  // another stream's line spills: hold this until it ends
            if (!held_.empty() && held_.back().pe == pe && held_.back().is_err == is_err)
                held_.back().bytes.append(s, n);
            else
                held_.push_back({pe, is_err, std::string(s, n)});
            held_bytes_ += n;
            if (held_bytes_ > opt_.hold_cap) spilling_ = -1, end_spill();  // bounded: the held output goes out
            return;
        }
        const void* nl = std::memchr(s, '\n', n);
        const size_t text = nl ? size_t(static_cast<const char*>(nl) - s) : n;  // bytes before the newline
        if (spilling_ == stream) {  // this stream's long line goes on: out as it comes, to its newline
            emit_line(pe, is_err, s, nl ? text + 1 : n, false, false);
            if (!nl) return;
            s += text + 1;
            n -= text + 1;
            spilling_ = -1;
            end_spill();
            continue;
        }
        const size_t room = opt_.line_cap - line.size();
        if (text > room) {
            // The line passes the cap: what there is of it goes out, and it spills (see console.hpp). (A line of
            // exactly line_cap bytes waits for its newline like any other.)
            line.append(s, room);
            emit_line(pe, is_err, line.data(), line.size(), false);
            line.clear();
            s += room;
            n -= room;
            spilling_ = stream;
            continue;
        }
        if (!nl) {
            line.append(s, n);
            return;
        }
        if (line.empty()) {
            emit_line(pe, is_err, s, text + 1, false);
        } else {
            line.append(s, text + 1);
            emit_line(pe, is_err, line.data(), line.size(), false);
            line.clear();
        }
        s += text + 1;
        n -= text + 1;
    }
}

// A spill has ended (or may no longer hold the others): what they wrote meanwhile is relayed, in order, as if it came
// now. It may start a spill of its own: the held output of the new spilling stream then goes out with it (its later
// bytes come straight through, so none of its earlier ones may stay held), while the others' stays held, each
// stream's in its order: a stream with a byte still held has all its later bytes held too.
void Console::end_spill() {
    if (replaying_) return;  // the replay below goes on with the rest
    replaying_ = true;
    while (spilling_ < 0 && !held_.empty()) {  // each pass relays at least its first chunk
        std::vector<Held> kept;
        std::vector<bool> blocked(partial_.size(), false);
        for (Held& h : held_) {
            const long stream = long(2 * size_t(h.pe) + h.is_err);
            if (blocked[size_t(stream)] || (spilling_ >= 0 && spilling_ != stream)) {
                blocked[size_t(stream)] = true;
                kept.push_back(std::move(h));
                continue;
            }
            held_bytes_ -= h.bytes.size();
            text(h.pe, h.is_err, h.bytes.data(), h.bytes.size());
        }
        held_ = std::move(kept);
    }
    replaying_ = false;
}

void Console::emit_line(unsigned pe, bool is_err, const char* text, size_t n, bool add_newline, bool line_start) {
    flush_raw();  // raw bytes that came before this line go out before it
    std::ostream* o;
    if (!opt_.output_dir.empty()) {
        o = &file_of(pe);
    } else if (is_err) {
        if (wrote_out_) out_.flush(), wrote_out_ = false;  // a terminal shows both: keep them in order
        o = &err_;
        wrote_err_ = true;
    } else {
        if (wrote_err_) err_.flush(), wrote_err_ = false;
        o = &out_;
        wrote_out_ = true;
    }
    if (opt_.tag_output && line_start) *o << "[PE " << pe << "] ";
    o->write(text, std::streamsize(n));
    if (add_newline) o->put('\n');
}

std::ostream& Console::file_of(unsigned pe) {
    std::unique_ptr<std::ofstream>& f = files_.at(pe);
    if (!f) {
        const std::string path = pe_file(opt_.output_dir, pe);
        f = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::app);
        if (!*f) throw Failure("--output-filename: cannot write " + path + ": " + std::strerror(errno), 1);
    }
    return *f;
}

void Console::flush_raw() {
    if (raw_.empty()) return;
    if (wrote_err_) err_.flush(), wrote_err_ = false;
    out_.write(raw_.data(), std::streamsize(raw_.size()));
    wrote_out_ = true;
    raw_.clear();
}

void Console::flush_streams() {
    flush_raw();
    if (wrote_out_) out_.flush(), wrote_out_ = false;
    if (wrote_err_) err_.flush(), wrote_err_ = false;
    for (auto& f : files_)
        if (f) f->flush();
}

void Console::finish() {
    for (Parser& p : parsers_) {
        if (p.have) raw_.append(reinterpret_cast<const char*>(p.header), p.have);  // a header cut short
        p.have = 0;
        p.payload_left = 0;  // a record cut short: its payload so far is in its line already
    }
    flush_raw();
    while (spilling_ >= 0) {  // the spilling line ends here, then the held output may come (and spill again)
        const unsigned pe = unsigned(spilling_ / 2);
        const bool is_err = spilling_ % 2 != 0;
        spilling_ = -1;
        emit_line(pe, is_err, "\n", 1, false, false);
        end_spill();
    }
    for (unsigned k = 0; k < npes_; ++k)
        for (int is_err = 0; is_err < 2; ++is_err) {
            std::string& line = partial_[2 * size_t(k) + is_err];
            if (line.empty()) continue;
            emit_line(k, is_err, line.data(), line.size(), true);
            line.clear();
        }
    flush_streams();
}

}  // namespace oshrun

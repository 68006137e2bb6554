// A freestanding message builder for the library's and the startup code's reports. No printf: the error
// paths must not pull vfprintf into every program (on Epiphany that alone is a quarter of the core's memory).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "port.hpp"

namespace shmem::detail {

// The powers of ten of a machine word, largest first (Message::u).
struct Pow10 {
    static constexpr int count = sizeof(unsigned long) == 8 ? 20 : 10;  // digits of the largest word
    unsigned long v[count];
    constexpr Pow10() : v()
    {
        unsigned long p = 1;
        for (int i = count - 1; i >= 0; --i, p *= 10) v[i] = p;
    }
};
inline constexpr Pow10 pow10{};

class Message {
public:
    // Out of line (one copy per program): inlined, its loop would be repeated at every piece of every report.
    [[gnu::noinline]] Message &s(const char *p)
    {
        while (*p != '\0' && n_ < sizeof buf_) buf_[n_++] = *p++;
        return *this;
    }
    // Numbers are machine words (unsigned long: 32 bits on a 32-bit core, 64 on RV64): what the reports print
    // is PE numbers, sizes, addresses and registers. A 64-bit formatter on a 32-bit core would cost a table
    // of 64-bit constants and library calls for 64-bit compares and shifts in every program, since the startup
    // code's trap report uses it.
    // Decimal by subtracting powers of ten: no division, so a core without a divide instruction links no
    // divide routine for the error paths.
    [[gnu::noinline]] Message &u(unsigned long v)
    {
        bool digits = false;
        for (unsigned long p : pow10.v) {
            char d = '0';
            while (v >= p) {
                v -= p;
                ++d;
            }
            digits = digits || d != '0' || p == 1;
            if (digits && n_ < sizeof buf_) buf_[n_++] = d;
        }
        return *this;
    }
    Message &i(long v)
    {
        if (v < 0) {
            s("-");
            return u(0ul - (unsigned long)(v));
        }
        return u((unsigned long)(v));
    }
    [[gnu::noinline]] Message &x(unsigned long v)
    {
        s("0x");
        int shift = 8 * sizeof v - 4;
        while (shift > 0 && ((v >> shift) & 15) == 0) shift -= 4;
        for (; shift >= 0 && n_ < sizeof buf_; shift -= 4) buf_[n_++] = "0123456789abcdef"[(v >> shift) & 15];
        return *this;
    }
    Message &p(const void *ptr) { return x(reinterpret_cast<uintptr_t>(ptr)); }
    // Writes the message, ending it with a newline, as one console write (one line, never interleaved): to
    // stderr, where the library's reports go, or to stdout (SHMEM_CONSOLE_STDOUT: what SHMEM_INFO asks for).
    [[gnu::noinline]] void write(char stream = SHMEM_CONSOLE_STDERR)
    {
        if (n_ == sizeof buf_) --n_;
        buf_[n_++] = '\n';
        port::console_write(stream, buf_, n_);
        n_ = 0;
    }

    // The same, straight to the console as plain text, no record and no lock: for reports before the startup
    // code has set up the machine-wide state (the console lock lives in PE 0's .bss, which may not be cleared
    // yet, and there may be no PE number).
    void write_early()
    {
        if (n_ == sizeof buf_) --n_;
        buf_[n_++] = '\n';
        port::console_write_early(buf_, n_);
        n_ = 0;
    }

private:
    char buf_[240];
    size_t n_ = 0;
};

}  // namespace shmem::detail

// A freestanding message builder for the library's and the startup code's reports. No printf: the error
// paths must not pull vfprintf into every program (on Epiphany that alone is a quarter of the core's memory).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "shmem_port.hpp"

namespace shmem::detail {

class Message {
public:
    Message &s(const char *p)
    {
        while (*p != '\0' && n_ < sizeof buf_) buf_[n_++] = *p++;
        return *this;
    }
    // Decimal by subtracting powers of ten: no division, so a 32-bit core links no 64-bit divide routines
    // (3 KB of libgcc on Epiphany) for the error paths.
    Message &u(uint64_t v)
    {
        static constexpr uint64_t pow10[20] = {10000000000000000000ull, 1000000000000000000ull, 100000000000000000ull,
                                               10000000000000000ull, 1000000000000000ull, 100000000000000ull,
                                               10000000000000ull, 1000000000000ull, 100000000000ull, 10000000000ull,
                                               1000000000ull, 100000000ull, 10000000ull, 1000000ull, 100000ull,
                                               10000ull, 1000ull, 100ull, 10ull, 1ull};
        bool digits = false;
        for (uint64_t p : pow10) {
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
    Message &i(int64_t v)
    {
        if (v < 0) {
            s("-");
            return u(uint64_t(0) - uint64_t(v));
        }
        return u(uint64_t(v));
    }
    Message &x(uint64_t v)
    {
        s("0x");
        int shift = 60;
        while (shift > 0 && ((v >> shift) & 15) == 0) shift -= 4;
        for (; shift >= 0 && n_ < sizeof buf_; shift -= 4) buf_[n_++] = "0123456789abcdef"[(v >> shift) & 15];
        return *this;
    }
    Message &p(const void *ptr) { return x(reinterpret_cast<uintptr_t>(ptr)); }
    // Writes the message, ending it with a newline, as one console write (one line, never interleaved).
    void write()
    {
        if (n_ == sizeof buf_) --n_;
        buf_[n_++] = '\n';
        port::console_write(buf_, n_);
        n_ = 0;
    }

    // The same, straight to the console with no lock: for reports before the startup code has set up the
    // machine-wide state (the console lock lives in PE 0's .bss, which may not be cleared yet).
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

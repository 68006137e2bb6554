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
    Message &u(uint64_t v)
    {
        char t[20];
        int i = 0;
        do t[i++] = char('0' + v % 10);
        while ((v /= 10) != 0);
        while (i > 0 && n_ < sizeof buf_) buf_[n_++] = t[--i];
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

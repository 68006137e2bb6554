// Console records (crt/common/console_protocol.h) as the PEs write them, for the tests.
#pragma once

#include <common/console_protocol.h>

#include <algorithm>
#include <string>

namespace oshrun {

// text as PE pe's records of one kind ('o' stdout, 'e' stderr), payloads of at most max bytes (1..255).
inline std::string console_records(unsigned pe, const std::string& text, char kind = SHMEM_CONSOLE_STDOUT,
                                   size_t max = SHMEM_CONSOLE_MAX_PAYLOAD) {
    std::string s;
    for (size_t at = 0; at < text.size(); at += max) {
        const size_t n = std::min(max, text.size() - at);
        s += char(SHMEM_CONSOLE_SOH);
        s += kind;
        s += char(pe & 0xff);
        s += char(pe >> 8);
        s += char(n);
        s.append(text, at, n);
    }
    return s;
}

// The exit record: the run's status, written by the PE that ends the run.
inline std::string exit_record(unsigned pe, unsigned status) {
    return std::string{char(SHMEM_CONSOLE_SOH), SHMEM_CONSOLE_EXIT, char(pe & 0xff), char(pe >> 8), 1, char(status)};
}

}  // namespace oshrun

// libFuzzer target for the console parser and relay (console.cpp): whatever bytes the guest writes, oshrun must
// neither crash nor hang nor read out of bounds, and must relay them the same however the stream is cut into
// reads. Built only with clang, when asked for:
//
//   cmake -S host_loader -B /tmp/build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DOSHRUN_FUZZ=ON
//   cmake --build /tmp/build-fuzz --target fuzz_console -j2
//   mkdir -p /tmp/fuzz-corpus && /tmp/build-fuzz/fuzz_console -max_total_time=120 -max_len=4096 /tmp/fuzz-corpus
//
// (address and undefined-behaviour sanitizers are on; a failure leaves crash-<sha1> with the input, which
// `/tmp/build-fuzz/fuzz_console crash-<sha1>` replays.)
//
// Input: byte 0 chooses the run (PE count 1..8, per-PE streams as on Epiphany or one machine-wide stream as on
// virt, --tag-output, a line cap of 1..64 bytes or the default), byte 1 seeds the cut points; the rest is the
// console stream.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/console.hpp"

namespace {

struct Result {
    std::string out, err;
    std::vector<int> exits;
};

Result relay(unsigned npes, bool per_pe, unsigned pe, const oshrun::ConsoleOptions& opt, const uint8_t* data, size_t n,
             unsigned seed) {
    std::ostringstream out, err;
    oshrun::Console c(npes, out, err, opt);
    size_t at = 0;
    unsigned x = seed | 1;
    while (at < n) {
        size_t k = n - at;
        if (seed) {  // pieces of 1..16 bytes from a small xorshift
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            k = std::min<size_t>(k, 1 + x % 16);
        }
        const char* p = reinterpret_cast<const char*>(data + at);
        if (per_pe)
            c.feed(pe, p, k);
        else
            c.feed(p, k);
        at += k;
    }
    c.finish();
    c.finish();  // idempotent
    return {out.str(), err.str(), c.exit_statuses()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    const uint8_t how = data[0], seed = data[1];
    const unsigned npes = 1 + (how & 7);
    const bool per_pe = how & 8;
    oshrun::ConsoleOptions opt;
    opt.tag_output = how & 16;
    if (how & 32) opt.line_cap = 1 + (seed & 63);
    const unsigned pe = (seed >> 4) % npes;
    const Result whole = relay(npes, per_pe, pe, opt, data + 2, size - 2, 0);
    const Result cut = relay(npes, per_pe, pe, opt, data + 2, size - 2, seed | 0x100);
    if (whole.out != cut.out || whole.err != cut.err || whole.exits != cut.exits) std::abort();
    // Every exit status is a byte.
    for (int s : whole.exits)
        if (s < 0 || s > 255) std::abort();
    return 0;
}

#include "common.hpp"

#include <cinttypes>
#include <cstdio>

namespace oshrun {

std::string hex(uint64_t value) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, value);
    return buf;
}

std::string size_text(uint64_t bytes) {
    static const struct { uint64_t unit; const char* name; } units[] = {{GiB, "GiB"}, {MiB, "MiB"}, {KiB, "KiB"}};
    for (const auto& u : units)
        if (bytes != 0 && bytes % u.unit == 0) return std::to_string(bytes / u.unit) + " " + u.name;
    for (const auto& u : units)
        if (bytes >= u.unit) {
            char approx[32];
            std::snprintf(approx, sizeof approx, " (%.1f %s)", double(bytes) / double(u.unit), u.name);
            return std::to_string(bytes) + " bytes" + approx;
        }
    return std::to_string(bytes) + " bytes";
}

uint64_t align_up(uint64_t value, uint64_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

bool parse_size(const std::string& text, uint64_t& bytes) {
    size_t i = 0;
    unsigned __int128 whole = 0, frac = 0, frac_scale = 1;
    const auto digit = [&](size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
    if (!digit(0)) return false;
    for (; digit(i); ++i) {
        whole = whole * 10 + unsigned(text[i] - '0');
        if (whole > UINT64_MAX) return false;
    }
    if (i < text.size() && text[i] == '.') {
        if (!digit(++i)) return false;
        for (; digit(i); ++i)
            if (frac_scale < UINT64_MAX) frac = frac * 10 + unsigned(text[i] - '0'), frac_scale *= 10;  // digits past the 20th are ignored
    }
    unsigned __int128 scale = 1;
    if (i < text.size()) {
        switch (text[i++]) {
        case 'k': case 'K': scale = KiB; break;
        case 'm': case 'M': scale = MiB; break;
        case 'g': case 'G': scale = GiB; break;
        case 't': case 'T': scale = GiB * 1024; break;
        default: return false;
        }
    }
    if (i != text.size()) return false;
    const unsigned __int128 total = whole * scale + (frac * scale + frac_scale - 1) / frac_scale;
    if (total > UINT64_MAX) return false;
    bytes = uint64_t(total);
    return true;
}

}  // namespace oshrun

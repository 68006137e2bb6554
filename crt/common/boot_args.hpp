// The boot block's strings (argv, the environment) as the C runtime's arrays, for the startup code (crt/<port>/crt.cpp
// includes this file once).
#pragma once

#include <stdint.h>

namespace shmem::crt {
namespace {

// Up to `max` of the `count` NUL-terminated strings in s[0 .. len) into out[], then a null pointer; returns how
// many.
int split_strings(char *s, uint32_t count, uint32_t len, char **out, int max)
{
    int k = 0;
    for (uint32_t off = 0; k < int(count) && k < max && off < len; ++k) {
        out[k] = s + off;
        while (off < len && s[off] != '\0') ++off;
        ++off;
    }
    out[k] = nullptr;
    return k;
}

}  // namespace
}  // namespace shmem::crt

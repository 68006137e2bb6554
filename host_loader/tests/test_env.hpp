// The tests that run oshrun check what it forwards to the PEs (every SHMEM_* variable of its environment, and -x):
// they run it without the SHMEM_* variables of the environment the tests themselves run in (a developer's
// SHMEM_TOOLCHAIN_DIR, say), which would otherwise be forwarded too.
#pragma once

#include <cstring>
#include <string>

extern char** environ;

namespace oshrun_test {

// "env -u NAME ..." for every SHMEM_* variable set now: the prefix of a shell command that runs without them.
inline std::string without_shmem_environment() {
    std::string prefix = "env";
    for (char** e = environ; *e; ++e) {
        if (std::strncmp(*e, "SHMEM_", 6) != 0) continue;
        const char* eq = std::strchr(*e, '=');
        prefix += " -u " + std::string(*e, eq ? size_t(eq - *e) : std::strlen(*e));
    }
    return prefix;
}

}  // namespace oshrun_test

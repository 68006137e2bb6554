// Every backend oshrun has, and the targets they run: the one place that names them all.
#pragma once

#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/target.hpp"

namespace oshrun {

// Every backend, in the order --help and --version list their targets.
const std::vector<const Backend*>& backends();

// The target named name and the backend that runs it, or nullptr if no backend has it.
const Target* find_target(const std::string& name);
const Backend* find_backend(const std::string& name);
// "virt-rv64, epiphany-e16, ...".
std::string target_names();

// The target a program runs on when no --target is given: the one a backend claims it for (linux: a program of
// this host's machine), else virt-rv64.
std::string default_target(const std::string& program);

// --help's text and --version's, for these backends.
std::string usage();
std::string version_text();

}  // namespace oshrun

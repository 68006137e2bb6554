// The linux target (PEs as processes of this host): its image check and its run (linux.cpp).
#pragma once

#include <string>

#include "image.hpp"
#include "target.hpp"

namespace oshrun {

// An executable this host runs (its own machine, or one a qemu-user binfmt handler runs), linked with libshmem's
// linux port (it has shmem_linux_preinit, unless it is stripped). Only path and file_size are filled in.
Image load_linux_image(const std::string& path, const Target& t);

// The target for a program when no --target is given: "linux" if it is an ELF file of this host's machine, else
// otherwise (the file is not read any further here; the target's own check comes later).
std::string default_target(const std::string& program, const std::string& otherwise);

// Target::run of the linux target: forks the PEs, relays their output, returns the run's status.
int run_linux(const Target& t, const Image& img, const RunRequest& req);

}  // namespace oshrun

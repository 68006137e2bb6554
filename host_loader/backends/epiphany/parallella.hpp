// The parallella mesh (--backend parallella): the real Epiphany chip of a Parallella board, through the Parallella
// kernel's Epiphany driver (the /dev/epiphany/mesh0 device that e-hal and pal use). Linux only; it has not been run
// on hardware.
#pragma once

#include <memory>

#include "mesh.hpp"

namespace oshrun {

constexpr const char* kParallellaDevice = "/dev/epiphany/mesh0";

// Whether the device exists (the default mesh is parallella if so, else sim).
bool parallella_present();

// Opens the device and maps the chip and external DRAM. Throws Failure (status 127) without the device.
std::unique_ptr<Mesh> open_parallella(const Target& t);

}  // namespace oshrun

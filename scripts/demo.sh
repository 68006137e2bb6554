#!/usr/bin/env bash
# Installs what is needed, builds for QEMU virt (RISC-V 64) only what the demo runs (the library, oshrun, hello and
# the ring: the "demo" presets) and runs hello, then the ring, on 16 PEs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset demo >/dev/null
cmake --build --preset demo

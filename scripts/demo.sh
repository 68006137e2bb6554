#!/usr/bin/env bash
# Installs what is needed, builds for QEMU virt (RISC-V 64) and runs the demo (hello, then the ring) on 16 PEs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DSHMEM_TARGET=virt-rv64 >/dev/null
cmake --build build -j"$(nproc)"
cmake --build build --target demo

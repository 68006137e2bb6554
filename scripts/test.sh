#!/usr/bin/env bash
# Installs what is needed, builds everything and runs the whole test suite (target tests through the loader at
# every PE count, negative tests, native unit tests). Extra arguments go to ctest, e.g. -R heap.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DSHMEM_TARGET=virt-rv64 >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"

#!/usr/bin/env bash
# The target tests built for Epiphany (checks on), run on Adapteva's multicore simulator through oshrun's esim
# backend: one epiphany-elf-run process per core. The simulator is not part of this project and is not installed
# by it: put epiphany-elf-run on PATH first (README.md, "Epiphany"). Not part of scripts/test.sh: it takes hours
# on two cores (the simulator is a few million instructions per second per core).
#   bash scripts/test-epiphany-sim.sh                        # every target test at every PE count
#   bash scripts/test-epiphany-sim.sh -R '/np(1|2|4|16)$'    # extra arguments go to ctest
#   SHMEM_TARGET=epiphany-e64 bash scripts/test-epiphany-sim.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v epiphany-elf-run >/dev/null; then
  echo "epiphany-elf-run is not on PATH: build Adapteva's simulator (README.md, \"Epiphany\") and add it" >&2
  exit 127
fi
target=${SHMEM_TARGET:-epiphany-e16}
bash scripts/epiphany-toolchain.sh
cmake -S . -B "build-${target#epiphany-}-sim" -DSHMEM_TARGET="$target" >/dev/null
cmake --build "build-${target#epiphany-}-sim" -j"$(nproc)"
ctest --test-dir "build-${target#epiphany-}-sim" --output-on-failure -j"$(nproc)" -L target "$@"

#!/usr/bin/env bash
# The target tests built for Epiphany (checks on), run on Adapteva's multicore simulator through oshrun's esim
# backend (OSHRUN_EPIPHANY_BACKEND=esim): one epiphany-elf-run process per core. The simulator is not part of this
# project and is not installed by it: put epiphany-elf-run on PATH first (docs/epiphany.md). Not part of
# scripts/test.sh, which runs the suite on oshrun's own simulator: this takes hours on two cores (esim is a few
# million instructions per second per core), with time limits 10 x virt's.
#   bash scripts/test-epiphany-esim.sh                        # every target test at every PE count
#   bash scripts/test-epiphany-esim.sh -R '/np(1|2|4|16)$'    # extra arguments go to ctest
#   SHMEM_TARGET=epiphany-e64 bash scripts/test-epiphany-esim.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v epiphany-elf-run >/dev/null; then
  echo "epiphany-elf-run is not on PATH: build Adapteva's simulator (README.md, \"Epiphany\") and add it" >&2
  exit 127
fi
target=${SHMEM_TARGET:-epiphany-e16}
bash scripts/epiphany-toolchain.sh
cmake -S . -B "build-${target#epiphany-}-esim" -DSHMEM_TARGET="$target" -DSHMEM_BUILD_TESTS=ON -DSHMEM_TIMEOUT_FACTOR=10 >/dev/null
cmake --build "build-${target#epiphany-}-esim" -j"$(nproc)"
OSHRUN_EPIPHANY_BACKEND=esim ctest --test-dir "build-${target#epiphany-}-esim" --output-on-failure -j"$(nproc)" -L target "$@"

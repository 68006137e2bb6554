#!/usr/bin/env bash
# Installs what is needed, builds everything and runs the whole test suite: target tests through the loader at
# every PE count, negative tests, native unit tests; then the families whose mechanism a build option changes
# (atomics, locks, barriers, collectives) once more in the other configuration: TESTSET-lock atomics and the
# dissemination barrier; then every target test in a Release build; then the linux target's suite (plain, ASan+UBSan,
# TSan, the channel tests over its emulated message queue, and aarch64 under qemu-user); then the Epiphany builds and their suites on oshrun's Epiphany simulator;
# then the TILE builds (built and placed, never run: no emulator exists); then what a user does with an installed
# prefix (scripts/test-install.sh: oshcc, oshc++, find_package, add_subdirectory, from outside this tree); then oshrun's
# parsers under libFuzzer for a bounded time (scripts/fuzz.sh). Extra arguments
# go to ctest, e.g. -R heap (and skip the second configuration, Epiphany and the install checks).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DSHMEM_TARGET=virt-rv64 >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
if [ $# -eq 0 ]; then
  cmake -S . -B build-alt -DSHMEM_TARGET=virt-rv64 -DSHMEM_ATOMICS=testset -DSHMEM_BARRIER=dissemination >/dev/null
  cmake --build build-alt -j"$(nproc)"
  ctest --test-dir build-alt --output-on-failure -j"$(nproc)" -L target \
    -R '^(amo|legacy|barrier|teams|collectives|active_set|heap|ring|v16|profiling|zero_length)'
  # A Release build (no argument checks but the cheap ones, SHMEM_CHEAP_CHECKS): every target test, the negative
  # tests of what it still checks among them.
  cmake -S . -B build-rel -DSHMEM_TARGET=virt-rv64 -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-rel -j"$(nproc)"
  ctest --test-dir build-rel --output-on-failure -j"$(nproc)" -L target
  # linux: PEs as processes of this host. The whole target suite, then again under AddressSanitizer + UBSan and
  # under ThreadSanitizer; then built for aarch64 Linux and the PE counts up to 4 run there under qemu-user (64
  # qemu-user processes on two cores are too slow for the time limits; glibc's abort under qemu-user adds qemu's
  # own report to the output).
  cmake -S . -B build-linux -DSHMEM_TARGET=linux >/dev/null
  cmake --build build-linux -j"$(nproc)"
  ctest --test-dir build-linux --output-on-failure -j"$(nproc)"
  for san in address,undefined thread; do
    cmake -S . -B "build-linux-${san%%,*}" -DSHMEM_TARGET=linux -DSHMEM_SANITIZE=$san >/dev/null
    cmake --build "build-linux-${san%%,*}" -j"$(nproc)"
    ctest --test-dir "build-linux-${san%%,*}" --output-on-failure -j"$(nproc)" -L target
  done
  # The channels' message path (how TILE's UDN carries them, shmem/src/channel.cpp), run here over the linux
  # port's emulated message queue per PE: the channel tests only.
  cmake -S . -B build-linux-msg -DSHMEM_TARGET=linux -DSHMEM_LINUX_MSG_CHANNEL=ON >/dev/null
  cmake --build build-linux-msg -j"$(nproc)" --target libshmem_oshrun channel_pingpong channel_stream \
    channel_many_to_one channel_try channel_negative
  ctest --test-dir build-linux-msg --output-on-failure -j"$(nproc)" -R '^channel'
  # The peer comparison with Open MPI's OSHMEM (docs/peer.md), as a smoke run: it must produce rows for both
  # libraries; the figures are never judged.
  bash scripts/peer-bench.sh --smoke --out build-peer-smoke
  cmake -S . -B build-linux-arm64 -DSHMEM_TARGET=linux -DSHMEM_LINUX_CROSS=aarch64-linux-gnu >/dev/null
  cmake --build build-linux-arm64 -j"$(nproc)"
  ctest --test-dir build-linux-arm64 --output-on-failure -j"$(nproc)" -L target -R '/np[1-4]$' -E '^libc_neg_abort'
  # Epiphany-III: the cross toolchain (built once from Debian's sources into a cache, ~15 min the first time),
  # then the library, the tests and the examples built for it, the footprint of the two budget programs, and the
  # whole target suite on oshrun's own Epiphany simulator (the sim backend, docs/epiphany-sim.md), in the
  # MinSizeRel build and in a build with the argument checks on; the simulator's own tests (its decoder against
  # the assembler, the chip's behaviour) with them. Then Epiphany-IV (64 cores): a subset at 64 PEs.
  bash scripts/epiphany-toolchain.sh
  cmake -S . -B build-e16 -DSHMEM_TARGET=epiphany-e16 -DCMAKE_BUILD_TYPE=MinSizeRel >/dev/null
  cmake --build build-e16 -j"$(nproc)"
  bash scripts/footprint.sh build-e16/bench/footprint/fp_min.elf.map build-e16/bench/footprint/fp_rma.elf.map
  ctest --test-dir build-e16 --output-on-failure -j"$(nproc)" -L target
  ctest --test-dir build-e16 --output-on-failure -j"$(nproc)" -R '^host_loader\.Epsim'
  # with checks, and the dissemination barrier at every PE count (the default, auto, takes WAND at 16)
  cmake -S . -B build-e16-checks -DSHMEM_TARGET=epiphany-e16 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSHMEM_BARRIER=dissemination >/dev/null
  cmake --build build-e16-checks -j"$(nproc)"
  ctest --test-dir build-e16-checks --output-on-failure -j"$(nproc)" -L target
  e64_tests="barrier ring collectives amo_contention amo_lock p2p teams channel_stream"
  # (Twice the simulator's time limits: collectives at 64 cores ran 438 s on this 2-core machine with another
  # simulation beside it, over the 360 s the e16 suite's factor gives.)
  cmake -S . -B build-e64 -DSHMEM_TARGET=epiphany-e64 -DCMAKE_BUILD_TYPE=MinSizeRel -DSHMEM_DEFAULT_PES=16 \
    "-DSHMEM_API_PES=16;64" -DSHMEM_TIMEOUT_FACTOR=4 >/dev/null
  cmake --build build-e64 -j"$(nproc)" --target libshmem_oshrun $e64_tests
  ctest --test-dir build-e64 --output-on-failure -j"$(nproc)" -R "^(${e64_tests// /|})/np64\$"
  # TILE-Gx and TILEPro: the two cross toolchains (built once from Debian's sources into the cache, ~12 minutes the
  # first time), then for each the library, every test, example and benchmark, every image checked to be of that
  # machine, each test image placed by oshrun --dry-run (nothing can run a TILE image: docs/tile.md), the loader's
  # and the port's host unit tests, and the footprint of the two budget programs.
  bash scripts/tile-toolchain.sh
  for t in tilegx tilepro; do
    cmake -S . -B "build-$t" -DSHMEM_TARGET=$t >/dev/null
    cmake --build "build-$t" -j"$(nproc)"
    machine=$([ $t = tilegx ] && echo "Tilera TILE-Gx" || echo "Tilera TILEPro")
    images=0
    while IFS= read -r -d '' elf; do
      readelf -h "$elf" | grep -q "Machine: *$machine" || { echo "$elf: not a $machine image" >&2; exit 1; }
      images=$((images + 1))
    done < <(find "build-$t" -name '*.elf' -not -path '*/CMakeFiles/*' -print0)
    echo "$t: $images images, every one $machine"
    ctest --test-dir "build-$t" --output-on-failure -j"$(nproc)"
    bash scripts/footprint.sh "build-$t/bench/footprint/fp_min.elf.map" "build-$t/bench/footprint/fp_rma.elf.map"
  done
  # The target builds installed into one prefix, and a user's programs built against it from outside the tree.
  SHMEM_INSTALL_TEST_EPIPHANY=build-e16 SHMEM_INSTALL_TEST_TILE="build-tilegx build-tilepro" \
    SHMEM_INSTALL_TEST_LINUX=build-linux bash scripts/test-install.sh build
  # oshrun's parsers of untrusted input (images, the console stream) under libFuzzer, 60 s each.
  bash scripts/fuzz.sh
fi

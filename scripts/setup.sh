#!/usr/bin/env bash
# Installs everything libshmem needs on Debian 12, from Debian's packages only. Does nothing when all of it is
# already installed. Needs root (or sudo) when something is missing.
set -euo pipefail

packages=(
  cmake make g++ pkg-config            # host build
  libelf-dev libgtest-dev              # the loader's ELF reader; native unit tests
  qemu-system-misc                     # qemu-system-riscv64
  gcc-riscv64-unknown-elf              # the cross compiler
  picolibc-riscv64-unknown-elf         # the C library (see README: why picolibc)
  binutils-riscv64-linux-gnu           # its ld links position-independent images (the elf ld refuses -pie)
  gnuplot-nox                          # scripts/bench.sh draws its plots with it
  gcc-arm-none-eabi                    # a 32-bit C/C++ compiler: the headers' conformance checks (tests/conformance)
  gdb-multiarch                        # oshrun --gdb, and its test (tests/oshrun/gdb_session.sh)
  procps                               # pgrep, for the orphan test (tests/oshrun/orphans.sh)
  clang libclang-rt-14-dev             # libFuzzer, ASan, UBSan: scripts/fuzz.sh
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user   # the linux target built for aarch64, run under qemu-user
  gcc-arm-linux-gnueabihf g++-arm-linux-gnueabihf          # ... and for armhf (a Parallella's Cortex-A9 host)
  binutils-source                      # binutils' TILE-Gx assembler test list: the TILE-Gx simulator's decoder check
  gcc-12-source                        # GCC's c-torture execute tests, run on the TILE-Gx simulator (tests/ctorture)
  libucx-dev libpmix-dev openmpi-bin   # the linux target across nodes: UCX, PMIx, and mpirun (a PMIx launcher) to test it
  iproute2 util-linux                  # ip, unshare: nodes in namespaces of their own (tests/multinode/netns_smoke.sh)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq "${missing[@]}"

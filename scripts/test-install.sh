#!/usr/bin/env bash
# What a user does, checked: install libshmem into a prefix, then from a directory outside this source tree build
# a program of their own four ways and run it at 3 PEs -- oshcc (C), oshc++ (C++), a CMake project with
# find_package(libshmem), a CMake project with add_subdirectory(libshmem) -- each program checking its results
# and using assert, malloc, clock_gettime, fflush(NULL) and getenv of an `oshrun -x` variable; and with oshcc, a
# program that interposes on routines through pshmem.h (tests/profiling). Then the prefix is moved, and oshcc and
# find_package must still work from the new place.
#
#   bash scripts/test-install.sh [BUILD_DIR]        BUILD_DIR: a built virt-rv64 tree (default: build/virt)
#   SHMEM_INSTALL_TEST_EPIPHANY=build/e16           also install that Epiphany build into the same prefix and
#                                                   build the programs for it (they cannot run here)
#   SHMEM_INSTALL_TEST_TILE="build/tilegx build/tilepro"   also install those TILE builds and build the programs
#                                                   for them: TILE-Gx's run on oshrun's simulator, TILEPro's
#                                                   are placed by oshrun --dry-run (nothing runs TILEPro images:
#                                                   docs/tile.md)
#   SHMEM_INSTALL_TEST_LINUX=build/linux            also install that linux build (into the moved prefix) and
#                                                   build and run the programs for it: oshcc, oshc++,
#                                                   find_package, pkg-config
# Exits non-zero on the first failure.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build/virt}" && pwd)
linux_build=""
[ -z "${SHMEM_INSTALL_TEST_LINUX:-}" ] || linux_build=$(cd "$SHMEM_INSTALL_TEST_LINUX" && pwd)  # (we cd below)
work=$(mktemp -d "${TMPDIR:-/tmp}/libshmem-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
app=$src/tests/install/app
np=3

step() { printf '\n== %s\n' "$*"; }
run() {  # run <image> [oshrun options]: at $np PEs with the variable the programs check
  "$prefix/bin/oshrun" --timeout 60 "${@:2}" -x LIBSHMEM_APP_GREETING=hello -np $np "$1" | tee "$work/out"
  [ "$(grep -c ', ok$' "$work/out")" -eq $np ] || { echo "expected $np 'ok' lines from $1" >&2; exit 1; }
}

step "install $build into $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
if [ -n "${SHMEM_INSTALL_TEST_EPIPHANY:-}" ]; then
  cmake --install "$SHMEM_INSTALL_TEST_EPIPHANY" --prefix "$prefix" >/dev/null
fi
for tile_build in ${SHMEM_INSTALL_TEST_TILE:-}; do
  cmake --install "$tile_build" --prefix "$prefix" >/dev/null
done
echo "targets: $(tr '\n' ' ' < "$prefix/share/libshmem/targets")"
"$prefix/bin/oshrun" --version

mkdir -p "$work/user" && cd "$work/user"
step "oshcc (C)"
"$prefix/bin/oshcc" -O2 -Wall -o app.elf "$app/app.c"
run app.elf
step "oshc++ (C++)"
"$prefix/bin/oshc++" -O2 -Wall -o app_cxx.elf "$app/app.cpp"
run app_cxx.elf
step "oshcc: a profiling tool interposes on routines through the installed pshmem.h"
"$prefix/bin/oshcc" -O2 -Wall -Wextra -Werror -I"$src/tests" -o interpose.elf "$src/tests/profiling/test_interpose.c"
"$prefix/bin/oshrun" --timeout 60 -np $np interpose.elf | tee "$work/out"
grep -q "exactly as often as the program called it" "$work/out" || { echo "interpose.elf failed" >&2; exit 1; }

step "CMake: find_package(libshmem)"
cmake -S "$src/tests/install/find_package" -B fp \
  -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/libshmem/toolchain-virt-rv64.cmake" >/dev/null
cmake --build fp -j"$(nproc)" >/dev/null
run fp/app.elf
run fp/app_cxx.elf

step "CMake: add_subdirectory(libshmem)"
cmake -S "$src/tests/install/add_subdirectory" -B sub -DLIBSHMEM_SOURCE_DIR="$src" \
  -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-virt-rv64.cmake" >/dev/null
cmake --build sub -j"$(nproc)" >/dev/null
run sub/app.elf
run sub/app_cxx.elf
step "add_subdirectory without the toolchain file: a clear configure error"
if cmake -S "$src/tests/install/add_subdirectory" -B nosub -DLIBSHMEM_SOURCE_DIR="$src" > nosub.log 2>&1; then
  echo "configuring without CMAKE_TOOLCHAIN_FILE succeeded; expected an error" >&2; exit 1
fi
grep -q "CMAKE_TOOLCHAIN_FILE" nosub.log || { cat nosub.log >&2; echo "the error does not name CMAKE_TOOLCHAIN_FILE" >&2; exit 1; }
echo "refused, naming CMAKE_TOOLCHAIN_FILE"

step "the prefix moved: oshcc, pkg-config and find_package still work"
mv "$prefix" "$work/moved" && prefix=$work/moved
"$prefix/bin/oshcc" -o moved.elf "$app/app.c"
run moved.elf
# shellcheck disable=SC2046  # the flags are meant to split
PKG_CONFIG_PATH=$prefix/lib/pkgconfig riscv64-unknown-elf-gcc -o pc.elf "$app/app.c" \
  $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs libshmem-virt-rv64)
run pc.elf
cmake -S "$src/tests/install/find_package" -B fp2 \
  -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/libshmem/toolchain-virt-rv64.cmake" >/dev/null
cmake --build fp2 -j"$(nproc)" >/dev/null
run fp2/app.elf

if [ -n "${SHMEM_INSTALL_TEST_EPIPHANY:-}" ]; then
  step "Epiphany: the same wrappers and package build for it (no simulator here: built, not run)"
  for t in $(cat "$prefix/share/libshmem/targets"); do
    case "$t" in epiphany-*) ;; *) continue ;; esac
    "$prefix/bin/oshcc" --target "$t" --dram-code -o "app-$t.elf" "$app/app.c"
    "$prefix/bin/oshc++" --target "$t" --dram-code -o "app_cxx-$t.elf" "$app/app.cpp"
    cmake -S "$src/tests/install/find_package" -B "fp-$t" \
      -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/libshmem/toolchain-$t.cmake" >/dev/null
    cmake --build "fp-$t" -j"$(nproc)" >/dev/null
    echo "$t: app.elf, app_cxx.elf and the find_package project built"
  done
fi
if [ -n "${SHMEM_INSTALL_TEST_TILE:-}" ]; then
  step "TILE: the same wrappers and package build for it; TILE-Gx runs on oshrun's simulator, TILEPro is placed"
  for t in $(cat "$prefix/share/libshmem/targets"); do
    case "$t" in tilegx|tilepro) ;; *) continue ;; esac
    "$prefix/bin/oshcc" --target "$t" -O2 -Wall -o "app-$t.elf" "$app/app.c"
    "$prefix/bin/oshc++" --target "$t" -O2 -Wall -o "app_cxx-$t.elf" "$app/app.cpp"
    cmake -S "$src/tests/install/find_package" -B "fp-$t" \
      -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/libshmem/toolchain-$t.cmake" >/dev/null
    cmake --build "fp-$t" -j"$(nproc)" >/dev/null
    for img in "app-$t.elf" "app_cxx-$t.elf" "fp-$t/app.elf" "fp-$t/app_cxx.elf"; do
      if [ "$t" = tilegx ]; then
        run "$img" --target "$t"
        continue
      fi
      "$prefix/bin/oshrun" --target "$t" --dry-run -x LIBSHMEM_APP_GREETING=hello -np $np "$img" > "$work/out"
      grep -q "^pe $((np - 1)): " "$work/out" || { cat "$work/out" >&2; echo "no plan for $img" >&2; exit 1; }
    done
    if [ "$t" = tilegx ]; then
      # a board whose firmware numbers its tiles from (0, 0): the plan, the boot blocks and the UDN follow it
      run "app-$t.elf" --target "$t" --tile-origin 0,0
      echo "$t: app.elf, app_cxx.elf and the find_package project built and run on the simulator (also from tile 0,0)"
    else
      echo "$t: app.elf, app_cxx.elf and the find_package project built and placed"
    fi
  done
fi
if [ -n "$linux_build" ]; then
  step "linux: installed into the same (moved) prefix; oshcc, oshc++, find_package and pkg-config, run as processes"
  cmake --install "$linux_build" --prefix "$prefix" >/dev/null
  "$prefix/bin/oshcc" --target linux -O2 -Wall -o app-linux "$app/app.c"
  run app-linux   # oshrun picks linux for a program of this host's machine
  "$prefix/bin/oshc++" --target linux -O2 -Wall -o app_cxx-linux "$app/app.cpp"
  run app_cxx-linux
  cmake -S "$src/tests/install/find_package" -B fp-linux \
    -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/libshmem/toolchain-linux.cmake" >/dev/null
  cmake --build fp-linux -j"$(nproc)" >/dev/null
  run fp-linux/app.elf
  run fp-linux/app_cxx.elf
  # shellcheck disable=SC2046  # the flags are meant to split
  cc -o pc-linux "$app/app.c" $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs libshmem-linux)
  run pc-linux
  # The same installed program across emulated nodes (UCX between them), and started by mpirun (PMIx) where the
  # build has the network: nothing in the program or its link line changes.
  if grep -q '^SHMEM_CAPABILITIES:INTERNAL=.*multinode' "$linux_build/CMakeCache.txt" && command -v mpirun >/dev/null; then
    run app-linux --nodes 2
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
      run app-linux --hosts localhost --nodes 2
  fi
fi
step "all install checks passed"

#!/usr/bin/env bash
# The test suites: each one a few builds of CMakePresets.json (configure, build and test presets of one name: the
# tests each runs are chosen there, by ctest labels), plus the checks that are not ctests (the install checks, the
# fuzzers). Installs what is needed from Debian's packages, and builds a cross toolchain only for a suite that needs
# it (once, into ~/.cache/libshmem). Prints each suite's wall time and test count as it ends and a table at the end;
# exits non-zero on the first failure.
#
#   bash scripts/test.sh                 every suite, in the order --list gives
#   bash scripts/test.sh virt linux      the named suites (these two: what a change to the core needs)
#   bash scripts/test.sh --list          the suites and what each covers
#   bash scripts/test.sh -R heap         the virt suite's tests matching the ctest arguments given, nothing else
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# name|what it covers (the order is the order of a full run: what a change breaks first comes first)
suites=(
  "virt|QEMU virt (RISC-V 64): every test program at 1 to 64 PEs, the negative tests, oshrun end to end, the host tools' unit tests (loader, TILE port logic, heap), the frame's checks"
  "linux|PEs as processes of this host: every test program, its negative tests, oshrun's process backend"
  "virt-configs|virt again with TESTSET-lock atomics and the dissemination barrier (the mechanism families), and in Release (every test, and the instruction-count guard of the fast paths)"
  "linux-configs|linux again under ASan+UBSan and under TSan, with the channels over its emulated message queue, built for aarch64 and armhf and run under qemu-user, and the Open MPI comparison as a smoke run"
  "epiphany|Epiphany-III on oshrun's simulator in MinSizeRel (with the footprint guard) and with checks and the dissemination barrier, the simulator's own tests, an Epiphany-IV subset at 64 cores"
  "tile|TILE-Gx: every test on oshrun's simulator, the simulator's own tests; TILEPro: every image built, of its machine, and placed by oshrun --dry-run; the footprint reports"
  "template|the template port (port/template), built on the host compiler, so the port contract cannot drift from it"
  "install|a user's programs built from an installed prefix of every target four ways (oshcc, oshc++, find_package, add_subdirectory), run where they can"
  "fuzz|oshrun's parsers of untrusted input (images, the console stream) under libFuzzer, 60 s each, side by side"
)
suite_names=()
for s in "${suites[@]}"; do suite_names+=("${s%%|*}"); done

if [ "${1:-}" = "--list" ]; then
  for s in "${suites[@]}"; do printf '%-14s %s\n' "${s%%|*}" "${s#*|}"; done
  exit 0
fi

bash scripts/setup.sh
logs=build/logs
mkdir -p "$logs"
summary=()
total_tests=0
counts=/dev/null

# One preset's configure, build and test; the tests' count is added to the suite's, the build's and the tests' wall
# times to the table of builds.
builds=$logs/builds.times
: > "$builds"
preset() {  # preset <name> [extra ctest arguments]
  preset_build "$1"
  preset_test "$@"
}
preset_build() {  # preset_build <name>: configure and build; the build's wall time is kept for preset_test
  local name=$1
  local t0; t0=$(date +%s)
  echo "-- $name: configure, build"
  cmake --preset "$name" > "$logs/$name.configure.log" 2>&1 || { tail -n 60 "$logs/$name.configure.log"; return 1; }
  cmake --build --preset "$name" > "$logs/$name.build.log" 2>&1 || { tail -n 80 "$logs/$name.build.log"; return 1; }
  echo "$(( $(date +%s) - t0 ))" > "$logs/$name.build-seconds"
  echo "-- $name: built in $(cat "$logs/$name.build-seconds") s"
}
preset_test() {  # preset_test <name> [extra ctest arguments]: the built preset's tests
  local name=$1; shift
  local t1 rc=0; t1=$(date +%s)
  ctest_run --preset "$name" "$@" || rc=$?  # (its status returned explicitly: also right where set -e is off)
  local t2; t2=$(date +%s)
  echo "-- $name: tested in $((t2 - t1)) s"
  echo "$name $(cat "$logs/$name.build-seconds") $((t2 - t1))" >> "$builds"
  return "$rc"
}

# The cross toolchains (each built once into ~/.cache/libshmem): a run that needs one the cache lacks starts its
# build at once, in the background and at the lowest priority, so that it takes the cores whenever the suites
# before it leave them idle (configure steps, waits, single-threaded links), and yields to their tests (nice 19
# lowers its share; it does not remove it); the suite that needs it waits for it there. Each script takes its cache's lock: a second caller waits for the first.
declare -A toolchain_pid=()
toolchain_start() {  # toolchain_start <epiphany|tile>: build in the background if the cache lacks it
  local which=$1
  [ -n "${toolchain_pid[$which]:-}" ] && return 0  # started already, for an earlier suite
  bash "scripts/$which-toolchain.sh" --cached >/dev/null 2>&1 && return 0
  echo "-- the $which toolchain is not in the cache: building it in the background (log: $logs/$which-toolchain.log)"
  nice -n 19 bash "scripts/$which-toolchain.sh" > "$logs/$which-toolchain.log" 2>&1 &
  toolchain_pid[$which]=$!
}
toolchain() {  # toolchain <epiphany|tile>: the toolchain, built now or waited for
  local which=$1 pid=${toolchain_pid[$1]:-}
  if [ -n "$pid" ]; then
    # (A suite runs in a subshell, of which the build is no child: it is watched, not waited for.)
    echo "-- waiting for the $which toolchain's build (log: $logs/$which-toolchain.log)"
    while kill -0 "$pid" 2>/dev/null; do sleep 5; done
    cat "$logs/$which-toolchain.log"
    if ! bash "scripts/$which-toolchain.sh" --cached; then
      echo "test.sh: the $which toolchain's build failed (above)" >&2
      return 1
    fi
  fi
  bash "scripts/$which-toolchain.sh"
}
ctest_run() {  # ctest_run <ctest arguments>: ctest with its output, counting its tests
  local log; log=$(mktemp)
  set +e
  ctest "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  local n; n=$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n1)
  rm -f "$log"
  echo "${n:-0}" >> "$counts"
  return "$rc"
}

suite_virt() { preset virt; }
suite_linux() { preset linux; }
suite_virt_configs() { preset virt-alt; preset virt-release; }
suite_linux_configs() {
  preset linux-msg
  preset linux-asan
  preset linux-tsan
  # 64 qemu-user processes on two cores are too slow for the time limits: the PE counts up to 4 (the presets).
  preset linux-arm64
  # 32-bit ARM (a Parallella's Cortex-A9 host): the core's 32-bit paths on a hosted target.
  preset linux-armhf
  # The peer comparison with Open MPI's OSHMEM (docs/peer.md): it must produce rows for both libraries; the figures
  # are never judged.
  bash scripts/peer-bench.sh --smoke --out build/peer-smoke
}
suite_epiphany() {
  toolchain epiphany
  # e64's tests are one long run (collectives at 64 cores: one simulator process, one core, about 300 s) and a few
  # short ones: they run in the background from the start, beside the e16 builds' tests, instead of after them.
  preset_build e16
  preset_build e64
  echo "-- e64: tests in the background (their output follows e16-checks')"
  preset_test e64 > "$logs/e64.test.log" 2>&1 &
  local e64=$! rc=0
  suite_epiphany_e16 || rc=$?
  wait "$e64" || rc=1
  cat "$logs/e64.test.log"
  return "$rc"
}
suite_epiphany_e16() {  # (called where set -e is off: each step's failure is returned explicitly)
  preset_test e16 || return 1
  # The simulator's own tests (its decoder against the assembler, the chip's behaviour), built by the shared host
  # build with this toolchain's assembler: named here, not left to a search that ran before the toolchain existed.
  cmake -DEPSIM_ASSEMBLER="$(bash scripts/epiphany-toolchain.sh --print-prefix)/bin/epiphany-elf-as" build/host \
    > "$logs/host.configure.log" 2>&1 || { tail -n 60 "$logs/host.configure.log"; return 1; }
  cmake --build build/host -j"$jobs" > "$logs/host.build.log" 2>&1 || { tail -n 80 "$logs/host.build.log"; return 1; }
  ctest_run --test-dir build/host --output-on-failure -j"$jobs" -L '^epiphany-sim$' --no-tests=error || return 1
  preset_build e16-checks || return 1
  preset_test e16-checks || return 1
}
suite_tile() {
  toolchain tile
  preset tilegx
  preset tilegx-release
  preset tilepro
  # The TILE-Gx simulator's own tests (its decoder against binutils' assembler and disassembler), built by the
  # shared host build with this toolchain's binutils, named here as for the Epiphany simulator's.
  cmake -DTGXSIM_TOOLS="$(bash scripts/tile-toolchain.sh --print-prefix tilegx)/bin" build/host \
    > "$logs/host.configure.log" 2>&1 || { tail -n 60 "$logs/host.configure.log"; return 1; }
  cmake --build build/host -j"$jobs" > "$logs/host.build.log" 2>&1 || { tail -n 80 "$logs/host.build.log"; return 1; }
  ctest_run --test-dir build/host --output-on-failure -j"$jobs" -L '^tilegx-sim$' --no-tests=error
}
suite_template() {
  cmake -S port/template -B build/template > "$logs/template.configure.log" 2>&1 ||
    { tail -n 60 "$logs/template.configure.log"; return 1; }
  cmake --build build/template -j"$jobs"
}
suite_install() {
  toolchain epiphany
  toolchain tile
  local p
  for p in linux e16 tilegx tilepro; do  # (already built by their suites: then only checked up to date)
    preset_build "$p"
  done
  # README's install recipe, word for word but for the directory, in a tree of its own: it must build no test
  # (the library, oshrun and the wrappers), and its time and the prefix's size are what README quotes.
  local t0; t0=$(date +%s)
  rm -rf build/recipe build/recipe-prefix
  cmake -S . -B build/recipe -DSHMEM_TARGET=virt-rv64 -DCMAKE_BUILD_TYPE=Release > "$logs/recipe.log" 2>&1 &&
    cmake --build build/recipe -j >> "$logs/recipe.log" 2>&1 &&
    cmake --install build/recipe --prefix build/recipe-prefix >> "$logs/recipe.log" 2>&1 ||
    { tail -n 60 "$logs/recipe.log"; return 1; }
  if [ -e build/recipe/tests ] || [ -e build/recipe/examples ] || [ -e build/recipe/bench ]; then
    echo "README's install recipe built tests, examples or benchmarks; it must build only what it installs" >&2
    return 1
  fi
  echo "-- README's install recipe (virt-rv64 Release): built and installed in $(( $(date +%s) - t0 )) s," \
    "no test built; the prefix is $(du -sm build/recipe-prefix | cut -f1) MB"
  SHMEM_INSTALL_TEST_EPIPHANY=build/e16 SHMEM_INSTALL_TEST_TILE="build/tilegx build/tilepro" \
    SHMEM_INSTALL_TEST_LINUX=build/linux bash scripts/test-install.sh build/recipe
}
suite_fuzz() { bash scripts/fuzz.sh; }

# ctest arguments instead of suites: the virt build, its tests chosen by them.
if [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; then
  cmake --preset virt > "$logs/virt.configure.log" 2>&1 || { tail -n 60 "$logs/virt.configure.log"; exit 1; }
  cmake --build --preset virt
  ctest --test-dir build/virt --output-on-failure -j"$jobs" "$@"
  exit
fi

run=("$@")
[ ${#run[@]} -gt 0 ] || run=("${suite_names[@]}")
for s in "${run[@]}"; do
  found=0
  for n in "${suite_names[@]}"; do [ "$n" = "$s" ] && found=1; done
  if [ $found = 0 ]; then
    echo "test.sh: no suite '$s'; the suites: ${suite_names[*]} (--list says what each covers)" >&2
    exit 2
  fi
done

for s in "${run[@]}"; do
  case $s in
    epiphany) toolchain_start epiphany ;;
    tile) toolchain_start tile ;;
    install) toolchain_start epiphany; toolchain_start tile ;;
  esac
done

t_all=$(date +%s)
for s in "${run[@]}"; do
  echo
  echo "==== suite $s"
  counts=$logs/$s.counts
  : > "$counts"
  t0=$(date +%s)
  # (Not in an `if`: there set -e would be off inside the suite, and a failing step would go unseen.)
  set +e
  ( set -e; "suite_${s//-/_}" )
  rc=$?
  set -e
  dt=$(( $(date +%s) - t0 ))
  if [ $rc -ne 0 ]; then
    echo "==== suite $s FAILED after $dt s" >&2
    exit 1
  fi
  suite_tests=$(awk '{ n += $1 } END { print n + 0 }' "$counts")
  total_tests=$((total_tests + suite_tests))
  summary+=("$(printf '%-14s %6d s %7d tests' "$s" "$dt" "$suite_tests")")
  echo "==== suite $s: passed in $dt s ($suite_tests tests)"
done
echo
echo "build          build    test   (wall time, s)"
while read -r n b t; do printf '%-14s %5d  %6d\n' "$n" "$b" "$t"; done < "$builds"
echo
echo "suite          wall time   tests"
for l in "${summary[@]}"; do echo "$l"; done
printf '%-14s %6d s %7d tests\n' "all" "$(( $(date +%s) - t_all ))" "$total_tests"
echo "tests: $total_tests passed, 0 failed"

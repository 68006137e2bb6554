#!/usr/bin/env bash
# Host time of the simulated machine as the PE count grows (issue 16): how long the host takes to start a run
# (shmem_init and shmem_finalize, no barrier) and to run one shmem_barrier_all, at each PE count, and the ratio
# of each figure to the one at half the PEs. A linear machine doubles both per doubling; the guest's own work
# per barrier grows with N, so a ratio near 2 is the most a simulator can do. Wall-clock time on this host, the
# median of --reps runs: numbers, never pass/fail, and they vary with the host's load.
#
#   bash scripts/bench-host.sh [--target virt-rv64] [--pes "64 128 256 512"] [--rounds 1000] [--reps 3] [--build DIR]
#                              [--icount]
#
# --icount runs QEMU as the benchmarks and the tests' timing-sensitive checks do (one host thread, the harts in
# turn); without it QEMU gives every hart a host thread (what a user's `oshrun -np N` does).
set -euo pipefail
cd "$(dirname "$0")/.."
target=virt-rv64 pes="64 128 256 512" rounds=1000 reps=3 build="" icount=""
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --pes) pes=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --icount) icount=--icount; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "bench-host.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "bench-host.sh: --rounds must be a positive number" >&2; exit 2; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "bench-host.sh: --reps must be a positive number" >&2; exit 2; }
if [ -z "$build" ]; then
  build=build-bench-$target
  cmake -S . -B "$build" -DSHMEM_TARGET="$target" -DSHMEM_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target bench_barriers libshmem_oshrun >/dev/null
oshrun="$build/host/oshrun"
prog="$build/bench/bench_barriers.elf"

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
seconds() {  # seconds <np> <rounds>: the median wall-clock time of --reps runs
  local i
  for ((i = 0; i < reps; ++i)); do
    local t0 t1
    t0=$(date +%s.%N)
    "$oshrun" --target "$target" $icount --timeout 1200 -np "$1" "$prog" "$2" >/dev/null
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.6f\n", $2 - $1}'
  done | median
}

echo "host time on $(nproc) host cores, $target${icount:+ (QEMU -icount)}, median of $reps runs; ratio = this PE count's figure / the previous one's"
printf "%6s %12s %7s %16s %7s\n" PEs start-up/s ratio "per barrier/ms" ratio
prev_s="" prev_b=""
for n in $pes; do
  s=$(seconds "$n" 0)
  t=$(seconds "$n" "$rounds")
  b=$(echo "$s $t $rounds" | awk '{v = ($2 - $1) / $3 * 1000; printf "%.4f", v < 0 ? 0 : v}')
  rs=$( [ -n "$prev_s" ] && echo "$s $prev_s" | awk '{printf "%.2f", $1 / $2}' || echo "-")
  rb=$( [ -n "$prev_b" ] && echo "$b $prev_b" | awk '{printf "%.2f", ($2 > 0 ? $1 / $2 : 0)}' || echo "-")
  printf "%6s %12.3f %7s %16.4f %7s\n" "$n" "$s" "$rs" "$b" "$rb"
  echo "csv:host_time:$n,$s,$b"
  prev_s=$s prev_b=$b
done

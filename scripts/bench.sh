#!/usr/bin/env bash
# The whole benchmark suite on one target: builds a Release tree (argument checks off), runs every benchmark
# and case study through oshrun, collects their `csv:<table>:<values>` lines into <out>/<table>.csv, and draws
# <out>/*.png with gnuplot. Prints numbers, never pass/fail.
#
#   bash scripts/bench.sh [--target virt-rv64|tilegx|epiphany-e16] [--np 16] [--out results]
#
# epiphany-e16 runs scripts/bench-epiphany.sh instead: libshmem against ARL's library, the table and the figures of
# ARL's paper, on oshrun's Epiphany simulator (--np does not apply: every count from 2 to 16).
# --np is the PE count of the size sweeps and of the channel benchmark; the scaling runs use 1/2, 4, 8, ... up
# to it. On tilegx (the project's simulator: cycles of its timing model, PE 0's) the TILE calibration against
# the published figures runs too, at --np PEs (36: the whole chip).
set -euo pipefail
cd "$(dirname "$0")/.."
target=virt-rv64 np=16 out=results
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ "$target" = epiphany-e16 ] && exec bash scripts/bench-epiphany.sh --out "$out"
case "$target" in
  virt-rv64) cycle="one retired instruction of the whole QEMU virt machine (-icount shift=0,sleep=off): a PE that sleeps adds nothing, so a lone PE's figure is its instruction count and a collective's is the work of all PEs together"
             # what the plots say their numbers are: QEMU's counter is instructions of every hart together, not
             # cycles and not time
             unit="instructions of the whole machine (QEMU -icount)" unit_short="instructions" unit_one="instruction"
             icount=--icount whole=1 scope="whole machine" ;;
  tilegx) cycle="one cycle of oshrun's TILE-Gx simulator's timing model (sim/tilegx; GCC's scheduling latencies, not silicon: docs/tile-sim.md), read by PE 0 from SPR CYCLE: a collective's figure is PE 0's time"
          unit="simulated TILE-Gx cycles (PE 0's)" unit_short="cycles" unit_one="cycle"
          icount="" whole=0 scope="PE 0's time" ;;
  *) echo "bench.sh: no benchmark runner for target '$target' yet" >&2; exit 2 ;;
esac
if ! [[ "$np" =~ ^[0-9]+$ ]] || [ "$np" -lt 2 ]; then echo "bench.sh: --np must be a number >= 2" >&2; exit 2; fi

bash scripts/setup.sh
command -v gnuplot >/dev/null || { echo "bench.sh: gnuplot missing (scripts/setup.sh installs gnuplot-nox)" >&2; exit 2; }
build=build-bench-$target
cmake -S . -B "$build" -DSHMEM_TARGET="$target" -DSHMEM_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
oshrun="$build/host/oshrun"
mkdir -p "$out"
log="$out/bench.log"
: > "$log"
echo "target $target; a cycle is $cycle" | tee -a "$log"

scaling=()
for p in 2 4 8 16 32 64 128 256 512; do [ "$p" -le "$np" ] && scaling+=("$p"); done
[ "${scaling[-1]}" = "$np" ] || scaling+=("$np")

run() {  # run <np> <program> [args...]: one benchmark run, its output appended to the log
  local n=$1 prog=$2; shift 2
  echo "== oshrun --target $target $icount -np $n $(basename "$prog") $*" | tee -a "$log"
  SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-8M} "$oshrun" --target "$target" $icount --timeout 1200 -np "$n" "$prog" "$@" \
    | tee -a "$log" | grep -v '^csv:' || { echo "bench.sh: $(basename "$prog") failed at $n PEs" >&2; exit 1; }
}

run 2 "$build/bench/bench_putget.elf"
for p in "${scaling[@]}"; do run "$p" "$build/bench/bench_collectives.elf"; done
run "$np" "$build/bench/channels/bench_channels.elf"
for p in 1 "${scaling[@]}"; do [ "$p" -le 16 ] && run "$p" "$build/examples/fft2d/fft2d.elf" 128 all; done
for p in "${scaling[@]}"; do [ "$p" -ge 3 ] || continue; [ "$p" -le 16 ] && run "$p" "$build/examples/matvec/matvec.elf" 56 32 both; done
for p in 1 "${scaling[@]}"; do [ "$p" -le 16 ] && run "$p" "$build/examples/cbir/cbir.elf"; done
[ -f "$build/bench/tile/bench_calibrate.elf" ] && [ "$target" = tilegx ] && run "$np" "$build/bench/tile/bench_calibrate.elf"

# csv:<table>:<values> -> <out>/<table>.csv, the header once (the first line a table ever printed)
rm -f "$out"/*.csv
awk -v out="$out" -F: '/^csv:/ { t = $2; line = substr($0, length(t) + 6);
    if (!(t in seen)) { seen[t] = line; print line > (out "/" t ".csv"); next }
    if (line != seen[t]) print line > (out "/" t ".csv") }' "$log"
echo "csv: $(cd "$out" && ls *.csv | tr '\n' ' ')"

# ---- plots ------------------------------------------------------------------------------------------------
series() {  # series <csv> <awk condition> <x column> <y column>: the selected rows as "x y", sorted by x
  awk -F, -v c1="$3" -v c2="$4" "NR > 1 && ($2) { print \$c1, \$c2 }" "$1" | sort -n
}
source scripts/lib/plot.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

read -r put_a put_b < <(awk -F, '$1 == "shmem_putmem" { print $2, $3 }' "$out/putget_fit.csv")
read -r get_a get_b < <(awk -F, '$1 == "shmem_getmem" { print $2, $3 }' "$out/putget_fit.csv")
series "$out/putget.csv" 1 1 2 > "$tmp/put"; series "$out/putget.csv" 1 1 3 > "$tmp/get"
plot putget_latency.png "put/get to a neighbour ($target): T = alpha + beta L, $unit" "bytes" "$unit_short per call" \
  "set logscale xy 2" "'$tmp/put' w lp t 'shmem_putmem', $put_a + $put_b*x t 'put fit: alpha $put_a, beta $put_b', '$tmp/get' w lp t 'shmem_getmem', $get_a + $get_b*x t 'get fit: alpha $get_a, beta $get_b', 0.25*x dt 2 t 'copy limit: 0.25 per byte (one 8-byte load + store per 8 bytes)'"
awk '{ print $1, $1 / $2 }' "$tmp/put" > "$tmp/putbw"; awk '{ print $1, $1 / $2 }' "$tmp/get" > "$tmp/getbw"
plot putget_bandwidth.png "put/get bandwidth to a neighbour ($target), $unit" "bytes" "bytes per $unit_one" \
  "set logscale x 2; set yrange [0:*]" "'$tmp/putbw' w lp t 'shmem_putmem', '$tmp/getbw' w lp t 'shmem_getmem', 4 dt 2 t 'copy limit: 4 bytes per instruction'"

# per PE: the machine's count divided by the PEs (every PE works in a barrier), on linear axes, so that a cost
# that grows like log2 N looks like it and a constant one is flat
for op in barrier_wand barrier_dissemination; do
  awk -F, -v op="$op" -v whole="$whole" 'NR > 1 && $2 == op { print $1, whole ? $3 / $1 : $3 }' "$out/sync.csv" | sort -n > "$tmp/$op"
done
d2=$(awk 'NR == 1 { print $2 }' "$tmp/barrier_dissemination")
if [ "$whole" = 1 ]; then per_pe="$unit_short per PE (the machine's count / N)"; else per_pe="$unit_short per barrier ($scope)"; fi
plot barrier.png "barrier of all PEs vs PE count ($target): $per_pe" "PEs" "$per_pe" \
  "set yrange [0:*]" "'$tmp/barrier_wand' w lp t 'WAND-style (shmemx_barrier_all_wand)', '$tmp/barrier_dissemination' w lp t 'dissemination (shmemx_barrier_all_dissemination)', ${d2:-0}*log(x)/log(2) dt 2 t 'log2 N x the 2-PE cost (one round)'"

for op in broadcast fcollect sum_reduce; do series "$out/coll_size.csv" "\$1 == $np && \$2 == \"$op\"" 3 4 > "$tmp/$op"; done
plot collectives_size.png "collectives vs size at $np PEs ($target): $unit" "bytes (fcollect: per PE)" "$unit_short per call, $scope" \
  "set logscale xy 2" "'$tmp/broadcast' w lp t 'broadcast', '$tmp/fcollect' w lp t 'fcollect', '$tmp/sum_reduce' w lp t 'sum_reduce (long)'"

for op in fetch_add compare_swap; do series "$out/amo.csv" "\$2 == \"$op\"" 1 3 > "$tmp/$op"; done
plot atomics.png "one atomic to a neighbour ($target): $unit (the others sleep: the caller's own)" "PEs in the run" "$unit_short per call" "set logscale x 2; set yrange [0:*]" \
  "'$tmp/fetch_add' w lp t 'long fetch_add', '$tmp/compare_swap' w lp t 'long compare_swap'"

series "$out/channel_pingpong.csv" '$1 == "spsc"' 2 3 > "$tmp/pp_rt"
series "$out/channel_pingpong.csv" '$1 == "burst"' 2 4 > "$tmp/pp_burst"
series "$out/channel_stream.csv" 1 1 2 > "$tmp/stream"
plot channel_pingpong.png "channels between neighbours at $np PEs ($target), $unit" "slots (K)" "$unit_short" \
  "set logscale x 2; set yrange [0:*]" "'$tmp/pp_rt' w lp t 'ping-pong round trip, 1 value each way', '$tmp/pp_burst' w lp t 'burst ping-pong (K values each way), per message', '$tmp/stream' w lp t 'one-way stream, per message'"
series "$out/channel_many_to_one.csv" 1 1 2 > "$tmp/m21"
plot channel_many_to_one.png "many-to-one channel with idle senders at $np PEs ($target), $unit" "idle senders" "$unit_short per round trip" \
  "set yrange [0:*]" "'$tmp/m21' w lp t 'round trip through recv_any (fair selection)'"

fft_n=$(awk -F, 'NR == 2 { print $2 }' "$out/fft2d.csv")
args=""
for v in put get store alltoall; do
  series "$out/fft2d.csv" "\$3 == \"$v\"" 1 4 > "$tmp/fft_$v"
  args+="'$tmp/fft_$v' w lp t '$v',"
done
plot fft2d.png "2D FFT ${fft_n}x${fft_n}: transpose variants vs PE count ($target): $unit" "PEs" "$unit_short of the transpose, $scope" \
  "set logscale x 2; set yrange [0:*]" "${args%,}"
if [ -f "$out/matvec.csv" ]; then
  for m in tree linear; do series "$out/matvec.csv" "\$1 == \"$m\"" 3 5 > "$tmp/mv_$m"; done
  plot matvec.png "streaming mat-vec ($target): $unit" "workers" "$unit_short per matrix, $scope" \
    "set yrange [0:*]" "'$tmp/mv_tree' w lp t 'binary-tree distribution', '$tmp/mv_linear' w lp t 'linear distribution'"
fi
if [ -f "$out/cbir.csv" ]; then
  series "$out/cbir.csv" 1 1 3 > "$tmp/cbir"
  plot cbir.png "CBIR feature extraction + gather ($target): $unit" "PEs" "$unit_short, $scope" "set logscale x 2; set yrange [0:*]" "'$tmp/cbir' w lp t 'autocorrelogram features'"
fi
# ---- tables -----------------------------------------------------------------------------------------------
# The figures docs/benchmarks.md quotes, made from the CSV files of this run (never typed in by hand).
{
  echo "Generated by scripts/bench.sh --target $target --np $np (Release, checks off); $unit."
  echo
  echo "| put/get to a neighbour | alpha | beta (per byte) |"
  echo "|---|---|---|"
  awk -F, 'NR > 1 { printf "| `%s` | %s | %s (limit 0.25) |\n", $1, $2, $3 }' "$out/putget_fit.csv"
  echo
  if [ "$whole" = 1 ]; then each=", per PE"; else each=""; fi
  echo "| PEs | barrier_all$each | dissemination$each | broadcast 8 B | fcollect 8 B | sum_reduce 8 B | fetch_add (caller) |"
  echo "|---|---|---|---|---|---|---|"
  awk -F, -v whole="$whole" 'FILENAME ~ /sync/ && FNR > 1 { if ($2 == "barrier_all") b[$1] = $3; if ($2 == "barrier_dissemination") d[$1] = $3; n[$1] = 1 }
           FILENAME ~ /coll_size/ && FNR > 1 && $3 == 8 { c[$1 "," $2] = $4 }
           FILENAME ~ /amo/ && FNR > 1 && $2 == "fetch_add" { a[$1] = $3 }
           END { for (k in n) printf "%d | %.1f | %.1f | %s | %s | %s | %s |\n", k, whole ? b[k] / k : b[k],
                                      whole ? d[k] / k : d[k], c[k ",broadcast"],
                                      c[k ",fcollect"], c[k ",sum_reduce"], a[k] }' \
    "$out/sync.csv" "$out/coll_size.csv" "$out/amo.csv" | sort -n | sed 's/^/| /'
  echo
  echo "| at $np PEs, $scope | 8 B | 4 KiB |"
  echo "|---|---|---|"
  for op in broadcast fcollect sum_reduce; do
    awk -F, -v np="$np" -v op="$op" 'NR > 1 && $1 == np && $2 == op { v[$3] = $4 }
      END { printf "| %s | %s | %s |\n", op, v[8], v[4096] }' "$out/coll_size.csv"
  done
  # Issue 16's goals, each row with this run's figure and the ratio to its goal (a ratio above 1: not met). The
  # collectives' goals are multiples of a lower bound at 16 PEs (4x for 8 B, 1.5x for sum_reduce of 4 KiB).
  if [ "$np" = 16 ] && [ "$target" = virt-rv64 ]; then
    echo
    echo "| goal (virt-rv64, Release, 16 PEs) | measured | goal | ratio |"
    echo "|---|---|---|---|"
    awk -F, '
      FILENAME ~ /putget\.csv/ && $1 == 8 { m["putmem 8 B to a neighbour"] = $2; m["getmem 8 B"] = $3 }
      FILENAME ~ /amo/ && $1 == 16 { m["long_atomic_" $2] = $3 }
      FILENAME ~ /sync/ && $1 == 16 && $2 == "barrier_all" { m["barrier_all (WAND-style), per PE"] = $3 / 16 }
      FILENAME ~ /sync/ && $1 == 16 && $2 == "barrier_dissemination" { m["dissemination barrier, per PE"] = $3 / 16 }
      FILENAME ~ /coll_size/ && $1 == 16 { m[$2 " " ($3 == 8 ? "8 B" : $3 == 4096 ? "4 KiB" : "") ", whole machine"] = $4 }
      END {
        split("putmem 8 B to a neighbour|getmem 8 B|long_atomic_fetch_add|long_atomic_inc|long_atomic_compare_swap|" \
              "barrier_all (WAND-style), per PE|dissemination barrier, per PE|broadcast 8 B, whole machine|" \
              "fcollect 8 B, whole machine|sum_reduce 8 B, whole machine|sum_reduce 4 KiB, whole machine", row, "|")
        split("30|25|18|18|18|35|80|1144|3072|1272|48000", goal, "|")
        for (i = 1; i in row; ++i)
          if (row[i] in m) printf "| %s | %.1f | %d | %.2f |\n", row[i], m[row[i]], goal[i], m[row[i]] / goal[i]
          else printf "| %s | (not measured) | %d | |\n", row[i], goal[i]
      }' "$out/putget.csv" "$out/amo.csv" "$out/sync.csv" "$out/coll_size.csv"
  fi
  # The TILE calibration (bench/tile/calibrate.c): each figure with the published one and the ratio.
  if [ -f "$out/tile_calibration.csv" ]; then
    echo
    echo "| TILE figure, neighbour PEs (barriers: all $np) | simulated | published | ratio |"
    echo "|---|---|---|---|"
    awk -F, 'NR > 1 { if ($3 != "") printf "| %s | %s %s | %s %s | %.2f |\n", $1, $2, $4, $3, $4, $2 / $3
                      else printf "| %s | %s %s | | |\n", $1, $2, $4 }' "$out/tile_calibration.csv"
  fi
} > "$out/tables.md"
echo "tables: $out/tables.md"
cat "$out/tables.md"
{ echo "target: $target"; echo "a cycle is $cycle"; echo "build: Release (argument checks off)"; } > "$out/README.txt"
echo "plots: $(cd "$out" && ls *.png | tr '\n' ' ')"

#!/usr/bin/env bash
# Peer comparison: bench/peer/peer.c (standard OpenSHMEM 1.4 calls only) built with libshmem's linux target and
# with Debian's Open MPI OSHMEM 4.1.4, run at several PE counts, alternating the two libraries, R repetitions
# each. Writes <out>/peer.csv (every run), <out>/summary.csv (median/min/max per library, op, bytes, PEs and the
# ratio Open MPI / libshmem of the medians), <out>/peer.png, and prints the summary. Numbers only: no timing is
# ever judged. A run whose values are wrong (peer checks them) or that fails makes the script exit non-zero.
#
#   bash scripts/peer-bench.sh [--smoke] [--reps R] [--np 2,4,16] [--out DIR] [--only libshmem|openmpi]
#                              [--timeout S] [-- peer arguments]
#
#   --smoke    1 repetition, 2 and 4 PEs, tiny iteration counts; checks that both libraries produced rows
#   --reps R   repetitions per library and PE count (default 5)
#   --np LIST  PE counts (default 2,4,16; --smoke: 2,4)
#   --out DIR  output directory (default <repo>/build-peer; also holds the libshmem build, its install prefix
#              and both binaries)
#   --only L   run one library only (e.g. while libshmem's linux target is not there yet)
#   --timeout  seconds per run before it is killed (default 300; --smoke: 60)
#   --heap S   symmetric heap of each PE, both libraries (default 96M: peer's 64 MiB streaming buffer + collectives)
#   --across   every PE a node of its own, both libraries on the same UCX transport: libshmem with oshrun --nodes N
#              (UCX over TCP between its nodes), Open MPI's OSHMEM with -x UCX_TLS=tcp,self (its SPML is UCX);
#              smaller default counts (-i 20000 -b 1000 -c 200 -p 1 -m 16) and heap (40M): every operation crosses
#              TCP (docs/multinode.md)
#   -- ARGS    arguments for peer instead of the defaults (see bench/peer/peer.c: -i -b -c -p -m)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
smoke=0 reps=5 nps="" out="$repo/build-peer" only="" run_timeout="" peer_args=() heap="" across=0
die() { echo "peer-bench: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; shift ;;
    --reps) reps=${2:?}; shift 2 ;;
    --np) nps=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --only) only=${2:?}; shift 2 ;;
    --timeout) run_timeout=${2:?}; shift 2 ;;
    --) shift; peer_args=("$@"); break ;;
    --heap) heap=${2:?}; shift 2 ;;
    --across) across=1; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
case "$only" in ""|libshmem|openmpi) ;; *) die "--only takes libshmem or openmpi" ;; esac
if [ "$smoke" = 1 ]; then
  reps=1
  nps=${nps:-2,4}
  run_timeout=${run_timeout:-60}
  # tiny counts; the streaming buffer stays 64 MiB so the heap sizing is exercised too
  [ ${#peer_args[@]} -gt 0 ] || peer_args=(-i 1000 -b 100 -c 20 -p 1)
fi
if [ "$across" = 1 ]; then
  [ ${#peer_args[@]} -gt 0 ] || peer_args=(-i 20000 -b 1000 -c 200 -p 1 -m 16)
  heap=${heap:-40M}
fi
heap=${heap:-96M}
nps=${nps:-2,4,16}
run_timeout=${run_timeout:-300}
IFS=', ' read -r -a np_list <<< "$nps"
for n in "${np_list[@]}"; do
  if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 2 ]; then die "--np: PE counts must be numbers >= 2"; fi
done
libs=(libshmem openmpi)
[ -z "$only" ] || libs=("$only")

# The heap (--heap): the streaming put walks a 64 MiB buffer (peer -m, default 64) in the symmetric heap;
# collectives and the rest need about 2 MiB more at 16 PEs. Both libraries get the same size, under their own
# variable names: libshmem reads SHMEM_SYMMETRIC_SIZE; Open MPI 4.1.4 ignores that name and reads
# SMA_SYMMETRIC_SIZE (its default is 256 MiB).
[[ "$heap" =~ ^[0-9]+[KMG]?$ ]] || die "--heap takes a size such as 96M"

# ---- dependencies (Debian 12 packages only; the same way as scripts/setup.sh) -----------------------------
packages=(openmpi-bin libopenmpi-dev gnuplot-nox cmake make g++ pkg-config libelf-dev libucx-dev libpmix-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "peer-bench: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
fi
# Open MPI's wrappers by full path: a libshmem prefix on PATH also has an oshcc and an oshrun.
ompi_cc=/usr/bin/oshcc ompi_run=/usr/bin/oshrun
for f in "$ompi_cc" "$ompi_run" /usr/bin/gnuplot; do [ -x "$f" ] || die "$f missing after installing ${packages[*]}"; done

mkdir -p "$out"
out=$(cd "$out" && pwd)
# one run per output directory: two at once would mix their rows (and their timings)
exec 9>"$out/.lock"
flock -n 9 || die "another peer-bench is running with $out; wait for it or use --out"
bin="$out/bin" raw="$out/raw" prefix="$out/prefix" build="$out/build-libshmem"
mkdir -p "$bin" "$raw"
rm -f "$raw"/*.out "$raw"/*.err "$out/peer.csv" "$out/summary.csv" "$out/peer.png"
src="$repo/bench/peer/peer.c"
cflags=(-O2 -std=c11 -Wall)

# ---- libshmem: build the linux target, install it into a scratch prefix, compile peer ---------------------
missing_lib=""
if [[ " ${libs[*]} " == *" libshmem "* ]]; then
  log="$out/libshmem-build.log"
  echo "peer-bench: building libshmem (linux target, Release) in $build, installing into $prefix"
  if cmake -S "$repo" -B "$build" -DSHMEM_TARGET=linux -DCMAKE_BUILD_TYPE=Release -DSHMEM_BUILD_TESTS=OFF >"$log" 2>&1 &&
     cmake --build "$build" -j2 >>"$log" 2>&1 &&
     cmake --install "$build" --prefix "$prefix" >>"$log" 2>&1 &&
     "$prefix/bin/oshcc" --target linux "${cflags[@]}" -o "$bin/peer-libshmem" "$src" >>"$log" 2>&1; then
    :
  else
    echo "peer-bench: libshmem's linux target did not build or install, or peer.c did not compile with its oshcc." >&2
    echo "peer-bench: the last lines of $log:" >&2
    tail -n 15 "$log" | sed 's/^/    /' >&2
    [ "$only" != libshmem ] || exit 1
    echo "peer-bench: carrying on with Open MPI alone; the comparison will be incomplete (exit status 1)." >&2
    missing_lib=libshmem
    libs=(openmpi)
  fi
fi
if [ -z "$only" ] || [ "$only" = openmpi ]; then
  "$ompi_cc" "${cflags[@]}" -o "$bin/peer-openmpi" "$src" || die "peer.c did not compile with $ompi_cc"
fi

# ---- how each library runs --------------------------------------------------------------------------------
# libshmem: its own oshrun; the heap size by environment (oshrun passes SHMEM_* on to the PEs).
libshmem_run=(env "SHMEM_SYMMETRIC_SIZE=$heap" "$prefix/bin/oshrun" --target linux)
# Open MPI 4.1.4 in this container (checked with ompi_info/oshmem_info and the *_base_verbose parameters):
#   --allow-run-as-root   mpirun refuses to start as root without it (only added when root)
#   --oversubscribe       more PEs than cores (2 here): otherwise "not enough slots"; it also turns on
#                         mpi_yield_when_idle, without which 16 polling PEs made one barrier_all take ~78 ms
#   --mca osc ^rdma       the one-sided rdma component crashes (SIGSEGV) in shmem_finalize otherwise
#   --mca spml ucx        the only SPML built into Debian's package (oshmem_info); UCX over shared memory
#   --mca pml ob1 --mca btl self,vader
#                         what Open MPI uses here anyway for its MPI layer (pml ucx is only tried on
#                         Mellanox devices, opal_common_ucx_devices=mlx*); pinned so that no tcp/openib
#                         probing varies from run to run
#   --bind-to none        Open MPI binds to cores at <= 2 processes and not at all beyond; unbound
#                         everywhere (at 2 PEs binding made no measurable difference to it). libshmem's oshrun
#                         pins PE k to CPU k when there are at least as many CPUs as PEs, and not otherwise.
#   -x SMA_SYMMETRIC_SIZE the heap size (see above)
# shellcheck disable=SC2054  # "self,vader" is one argument
ompi_runflags=(--oversubscribe --mca osc ^rdma --mca spml ucx --mca pml ob1 --mca btl self,vader --bind-to none
               -x "SMA_SYMMETRIC_SIZE=$heap")
[ "$(id -u)" -ne 0 ] || ompi_runflags=(--allow-run-as-root "${ompi_runflags[@]}")
# --across: the same transport for both. libshmem's oshrun --nodes sets UCX_TLS=tcp for its PEs; OSHMEM's SPML
# gets UCX_TLS=tcp,self (self: its path to a PE's own memory, which libshmem reaches by loads and stores), and its
# collectives, which run over Open MPI's point-to-point layer, btl tcp instead of shared memory (vader).
if [ "$across" = 1 ]; then
  for i in "${!ompi_runflags[@]}"; do [ "${ompi_runflags[$i]}" != self,vader ] || ompi_runflags[$i]=self,tcp; done
  ompi_runflags+=(-x UCX_TLS=tcp,self)
fi
openmpi_run=("$ompi_run" "${ompi_runflags[@]}")

{
  echo "# peer-bench $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'))"
  echo "# libshmem $(git -C "$repo" describe --always --dirty 2>/dev/null || echo '?'); Open MPI $(dpkg-query -W -f='${Version}' openmpi-bin)"
  echo "libshmem: $prefix/bin/oshcc --target linux ${cflags[*]} -o $bin/peer-libshmem $src"
  echo "libshmem: ${libshmem_run[*]} $([ "$across" = 0 ] || echo '--nodes N ')-np N $bin/peer-libshmem ${peer_args[*]}"
  echo "openmpi:  $ompi_cc ${cflags[*]} -o $bin/peer-openmpi $src"
  echo "openmpi:  ${openmpi_run[*]} -np N $bin/peer-openmpi ${peer_args[*]}"
} > "$out/commands.txt"

# ---- runs -------------------------------------------------------------------------------------------------
# Other work on the machine distorts every figure (a descheduled PE turns a 0.2 us barrier into milliseconds):
# say so, never refuse.
read -r load1 _ < /proc/loadavg
echo "# load average before the runs: $load1" >> "$out/commands.txt"
if awk -v l="$load1" 'BEGIN { exit !(l >= 1.0) }'; then
  echo "peer-bench: note: load average $load1 on $(nproc) cores before the runs: other work on this machine distorts the figures" >&2
fi
echo "library,op,bytes,npes,rep,value,unit" > "$out/peer.csv"
failures=()
run_one() {  # run_one <library> <npes> <rep>
  local lib=$1 n=$2 r=$3 f="$raw/$1-np$2-rep$3" status=0 t0 t1
  local -a cmd
  if [ "$lib" = libshmem ]; then cmd=("${libshmem_run[@]}"); else cmd=("${openmpi_run[@]}"); fi
  [ "$across" = 0 ] || [ "$lib" != libshmem ] || cmd+=(--nodes "$n")
  t0=$EPOCHREALTIME
  timeout --kill-after=10 "$run_timeout" "${cmd[@]}" -np "$n" "$bin/peer-$lib" "${peer_args[@]}" \
    >"$f.out" 2>"$f.err" || status=$?
  t1=$EPOCHREALTIME
  local rows
  rows=$(grep -cE '^[a-z_0-9]+,[0-9]+,[0-9]+,[-+.0-9eE]+,(us|GB/s)$' "$f.out" || true)
  printf 'peer-bench: %-8s %2d PEs rep %d: %2d rows, %.1f s' "$lib" "$n" "$r" "$rows" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
  if [ "$status" -ne 0 ]; then
    [ "$status" -eq 124 ] && echo ", killed after ${run_timeout} s" || echo ", FAILED (exit status $status)"
    sed 's/^/    /' "$f.err" | tail -n 12
    failures+=("$lib at $n PEs, rep $r (status $status; $f.err)")
    return
  fi
  echo
  awk -v lib="$lib" -v r="$r" -v n="$n" -F, \
    '/^[a-z_0-9]+,[0-9]+,[0-9]+,[-+.0-9eE]+,(us|GB\/s)$/ && $3 == n { print lib "," $1 "," $2 "," $3 "," r "," $4 "," $5 }' \
    "$f.out" >> "$out/peer.csv"
}
for n in "${np_list[@]}"; do
  for ((r = 1; r <= reps; r++)); do
    # alternate which library goes first, so that neither always runs on a machine the other just warmed
    if [ $((r % 2)) = 1 ]; then order=(libshmem openmpi); else order=(openmpi libshmem); fi
    for lib in "${order[@]}"; do
      if [[ " ${libs[*]} " == *" $lib "* ]]; then run_one "$lib" "$n" "$r"; fi
    done
  done
done

# ---- summary: median, min, max per (library, op, bytes, npes); ratio Open MPI / libshmem of the medians ----
# Rows in the order peer prints its measurements, then by PE count, libshmem before Open MPI.
awk -F, -v OFS=, '
  NR == 1 { next }
  {
    opb = $2 SUBSEP $3
    if (!(opb in order)) { order[opb] = ++nob; obs[nob] = opb }
    k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
    if (!(k in cnt)) { keys[++nk] = k; unit[k] = $7 }
    v[k, ++cnt[k]] = $6 + 0
    if (!($4 in seen_np)) { seen_np[$4] = 1; nps[++nnp] = $4 + 0 }
  }
  END {
    for (i = 1; i <= nk; i++) {  # insertion sort of each group (a handful of values)
      k = keys[i]; c = cnt[k]
      for (a = 2; a <= c; a++) { x = v[k, a]; b = a - 1; while (b >= 1 && v[k, b] > x) { v[k, b + 1] = v[k, b]; b-- } v[k, b + 1] = x }
      med[k] = c % 2 ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2
    }
    for (a = 2; a <= nnp; a++) { x = nps[a]; b = a - 1; while (b >= 1 && nps[b] > x) { nps[b + 1] = nps[b]; b-- } nps[b + 1] = x }
    print "library,op,bytes,npes,unit,reps,median,min,max,ratio_openmpi_over_libshmem"
    for (o = 1; o <= nob; o++) for (p = 1; p <= nnp; p++) {
      split(obs[o], ob, SUBSEP)
      kl = "libshmem" SUBSEP ob[1] SUBSEP ob[2] SUBSEP nps[p]
      ko = "openmpi" SUBSEP ob[1] SUBSEP ob[2] SUBSEP nps[p]
      ratio = (kl in med) && (ko in med) && med[kl] > 0 ? sprintf("%.4g", med[ko] / med[kl]) : ""
      split("libshmem openmpi", libs, " ")
      for (l = 1; l <= 2; l++) {
        k = libs[l] SUBSEP ob[1] SUBSEP ob[2] SUBSEP nps[p]
        if (!(k in med)) continue
        print libs[l], ob[1], ob[2], nps[p], unit[k], cnt[k], sprintf("%.6g", med[k]), sprintf("%.6g", v[k, 1]),
              sprintf("%.6g", v[k, cnt[k]]), ratio
      }
    }
  }' "$out/peer.csv" > "$out/summary.csv"

# ---- the table --------------------------------------------------------------------------------------------
echo
echo "peer-bench: medians of $reps run(s) [min..max]; ratio = Open MPI median / libshmem median"
echo "            (for us, ratio > 1 means libshmem is faster; for GB/s, ratio > 1 means Open MPI is faster)"
awk -F, '
  NR == 1 { next }
  { k = $2 "," $3 "," $4; if (!(k in unit)) { keys[++n] = k; unit[k] = $5 }
    cell[k, $1] = sprintf("%.4g [%.4g..%.4g]", $7, $8, $9); ratio[k] = $10 }
  END {
    printf "%-17s %6s %4s %-5s  %-30s %-30s %s\n", "op", "bytes", "PEs", "unit", "libshmem", "Open MPI 4.1.4", "OMPI/libshmem"
    for (i = 1; i <= n; i++) {
      k = keys[i]; split(k, f, ",")
      printf "%-17s %6s %4s %-5s  %-30s %-30s %s\n", f[1], f[2], f[3], unit[k],
             ((k, "libshmem") in cell) ? cell[k, "libshmem"] : "-", ((k, "openmpi") in cell) ? cell[k, "openmpi"] : "-",
             ratio[k] == "" ? "-" : ratio[k]
    }
  }' "$out/summary.csv"

# ---- the plot: four panels, x = PEs (log2), median with min..max bars; libshmem solid, Open MPI dashed -----
pd="$out/plot"
rm -rf "$pd"
mkdir -p "$pd"
awk -F, -v d="$pd" 'NR > 1 { f = d "/" $1 "_" $2 "_" $3 ".dat"; print $4, $7, $8, $9 > f }' "$out/summary.csv"
xtics=$(printf '%s,' "${np_list[@]}"); xtics=${xtics%,}
np_min=$(printf '%s\n' "${np_list[@]}" | sort -n | head -1); np_max=$(printf '%s\n' "${np_list[@]}" | sort -n | tail -1)
panel() {  # panel <title> <ylabel> <log y: 0/1> <op:bytes:label>... -> gnuplot commands of one panel
  local title=$1 ylabel=$2 logy=$3 entries=() c=0 lib f spec
  shift 3
  for spec in "$@"; do
    c=$((c + 1))
    IFS=: read -r op bytes label <<< "$spec"
    for lib in libshmem openmpi; do
      f="$pd/${lib}_${op}_${bytes}.dat"
      [ -s "$f" ] || continue
      if [ "$lib" = libshmem ]; then
        entries+=("'$f' using 1:2:3:4 with yerrorlines lc $c dt 1 pt 7 lw 2 title '$label, libshmem'")
      else
        entries+=("'$f' using 1:2:3:4 with yerrorlines lc $c dt 2 pt 6 lw 2 title '$label, Open MPI'")
      fi
    done
  done
  echo "set title '$title'"
  echo "set ylabel '$ylabel'"
  if [ "$logy" = 1 ]; then echo "set logscale y 10"; else echo "unset logscale y; set yrange [0:*]"; fi
  if [ ${#entries[@]} -eq 0 ]; then echo "set multiplot next"; return; fi
  local IFS=,
  echo "plot ${entries[*]}"
}
{
  echo "set terminal pngcairo size 1500,1050 noenhanced font ',10'"
  echo "set output '$out/peer.png'"
  # shellcheck disable=SC2028  # the \\n is for gnuplot
  echo "set multiplot layout 2,2 title \"libshmem (linux target) vs Open MPI 4.1.4 OSHMEM: median of $reps run(s), bars min..max\\nthis machine has $(nproc) cores: more PEs than that oversubscribe it (16 PEs = 8 processes per core), so those figures include time-slicing\""
  echo "set logscale x 2"
  echo "set xrange [$np_min / 1.25 : $np_max * 1.25]"
  echo "set xtics ($xtics)"
  echo "set xlabel 'PEs (processes on this host)'"
  echo "set grid"
  echo "set key top left"
  panel "Point to point, PE 0 -> last PE (lower is better)" "microseconds per operation" 1 \
    "put_lat:8:put 8 B + quiet" "get_lat:8:get 8 B" "atomic_fetch_add:8:long fetch-add"
  panel "Barrier and 8-byte collectives, all PEs (lower is better)" "microseconds per call" 1 \
    "barrier_all:0:barrier_all" "broadcast64:8:broadcast64 8 B" "fcollect64:8:fcollect64 8 B/PE" \
    "sum_to_all_long:8:long sum_to_all 8 B"
  panel "64 KiB collectives, all PEs (lower is better)" "microseconds per call" 1 \
    "broadcast64:65536:broadcast64 64 KiB" "fcollect64:65536:fcollect64 64 KiB/PE" \
    "sum_to_all_long:65536:long sum_to_all 64 KiB"
  panel "Put bandwidth, 64 KiB putmem + quiet, PE 0 -> last PE (higher is better)" "GB/s (10^9 bytes/s)" 0 \
    "put_bw_cached:65536:cache-resident (same 64 KiB)" "put_bw_stream:65536:streaming (64 MiB buffer)"
  echo "unset multiplot"
} > "$pd/peer.gp"
gnuplot "$pd/peer.gp" || echo "peer-bench: gnuplot failed (script: $pd/peer.gp)" >&2

echo
echo "peer-bench: $out/peer.csv, $out/summary.csv, $out/peer.png; commands in $out/commands.txt, raw output in $raw"

# ---- verdict: failures and missing libraries, never timings -----------------------------------------------
status=0
if [ ${#failures[@]} -gt 0 ]; then
  echo "peer-bench: ${#failures[@]} run(s) failed:" >&2
  printf '    %s\n' "${failures[@]}" >&2
  status=1
fi
if [ -n "$missing_lib" ]; then
  echo "peer-bench: no $missing_lib figures (it did not build: $out/libshmem-build.log)" >&2
  status=1
fi
if [ "$smoke" = 1 ]; then
  want=(libshmem openmpi)
  [ -z "$only" ] || want=("$only")
  for lib in "${want[@]}"; do
    rows=$(grep -c "^$lib," "$out/peer.csv" || true)
    if [ "$rows" -eq 0 ]; then
      echo "peer-bench: smoke: no rows for $lib in $out/peer.csv" >&2
      status=1
    else
      echo "peer-bench: smoke: $rows rows for $lib"
    fi
  done
fi
exit "$status"

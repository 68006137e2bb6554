#!/usr/bin/env bash
# The misuse figures of docs/internals.md ("Errors"): every misuse program of tests/negative that the reliability
# work added (stack overflows, sizes that wrap, heap damage and ranges past a block, mismatched collectives,
# collective sources, bad team handles, PEs that end while others wait for them, frees of what is not a block),
# built with the oshcc of an installed prefix and run at 3 PEs with its oshrun, each classified by how the run ends: clear (status 134 or 139
# with a libshmem report), hang (the time limit), silent (status 0), other. Not a test: it measures a prefix, e.g.
#   cmake --install build --prefix /tmp/p && bash scripts/misuse-figures.sh /tmp/p
set -u
prefix=${1:?usage: misuse-figures.sh PREFIX}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A kinds=(
  [stack_overflow]="unbounded returning"
  [size_overflow]="put get iput put_signal wait broadcast fcollect alltoall reduce active_set"
  [heap_damage]="overrun header after_free put_freed put_past get_past put_header put_beyond put_wrap static_past finalize"
  [mismatch]="root count op split strided active"
  [coll_source]="broadcast collect fcollect alltoall reduce to_all"
  [bad_team]="garbage other_data destroyed not_member ctx_garbage"
  [ended_early]="return in_finalize finalize collective team lock no_init later"
  [bad_free]="static inner twice realloc"
)
clear=0 hang=0 silent=0 other=0
for p in stack_overflow size_overflow heap_damage mismatch coll_source bad_team ended_early bad_free; do
  if ! "$prefix/bin/oshcc" -o "$work/$p.elf" "$here/tests/negative/$p.c"; then
    echo "$p: does not build"
    continue
  fi
  for k in ${kinds[$p]}; do
    timeout 120 "$prefix/bin/oshrun" --timeout 20 -np 3 "$work/$p.elf" "$k" >"$work/out" 2>&1
    s=$?
    msg=$(grep -m1 "libshmem" "$work/out" | cut -c1-100)
    case $s in
      134|139) if [ -n "$msg" ]; then r=clear; clear=$((clear + 1)); else r=other; other=$((other + 1)); fi ;;
      124) r=hang; hang=$((hang + 1)) ;;
      0) r=silent; silent=$((silent + 1)) ;;
      *) r="status-$s"; other=$((other + 1)) ;;
    esac
    printf '%-26s %-8s %s\n' "$p $k" "$r" "$msg"
  done
done
echo "misuses: clear $clear, hang $hang, silent $silent, other $other"

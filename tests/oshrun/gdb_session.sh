#!/usr/bin/env bash
# A scripted gdb session through oshrun --gdb, as a user would have it:
#   gdb_session.sh OSHRUN PROGRAM SOURCE [GDB]
# starts `oshrun --gdb 1 --gdb-port <port> -np 2 PROGRAM` in the background, runs the gdb command oshrun prints
# (GDB, default gdb-multiarch, in batch mode), stops PE 1 in main, then sets a breakpoint on SOURCE's line marked "gdb-session: break here"
# (after `int me = shmem_my_pe();`), continues to it, prints me and calls shmem_my_pe(), which must both be 1
# (PE 1's copy of the program), then continues to the end; oshrun must exit 0.
set -uo pipefail
oshrun=$1 program=$2 source=$3 gdb=${4:-gdb-multiarch}

work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in oshrun.out oshrun.err gdb.out; do
    [ -f "$work/$f" ] && { echo "---- $f"; cat "$work/$f"; }
  done
  exit 1
}

line=$(grep -n 'gdb-session: break here' "$source" | head -1 | cut -d: -f1)
[ -n "$line" ] || fail "no line marked 'gdb-session: break here' in $source"

# A port nothing listens on (/proc/net/tcp lists listening sockets with state 0A).
listening() { grep -qi "^ *[0-9]*: [0-9A-F]*:$(printf '%04X' "$1") [0-9A-F:]* 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
port=$(( 20000 + (RANDOM + $$) % 40000 ))
while listening "$port"; do port=$(( port + 1 )); done

"$oshrun" --gdb 1 --gdb-port "$port" -np 2 "$program" >"$work/oshrun.out" 2>"$work/oshrun.err" &
pid=$!

# oshrun prints the command before QEMU starts; gdb retries the connection until QEMU listens.
for _ in $(seq 100); do
  grep -q '^  gdb-multiarch ' "$work/oshrun.err" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
command=$(grep -m1 '^  gdb-multiarch ' "$work/oshrun.err") || fail "oshrun printed no gdb command"
grep -q "target remote 127.0.0.1:$port" <<<"$command" || fail "the command does not use port $port: $command"
grep -q "thread 2" <<<"$command" || fail "the command does not select thread 2 (hart 1): $command"
eval "words=($command)"
words[0]=$gdb

timeout 120 "${words[@]}" -batch -ex 'break main' -ex continue -ex "break $(basename "$source"):$line" -ex continue -ex 'print me' \
  -ex 'print (int) shmem_my_pe()' -ex 'info threads' -ex continue >"$work/gdb.out" 2>&1
grep -q 'hit Breakpoint 1, main () at' "$work/gdb.out" || fail "gdb did not stop PE 1 in main"
grep -q '^\$1 = 1$' "$work/gdb.out" || fail "gdb did not show me = 1 on PE 1"
grep -q '^\$2 = 1$' "$work/gdb.out" || fail "gdb's call of shmem_my_pe() on PE 1 did not return 1"

# The run goes on to its end once gdb continues.
status=
for _ in $(seq 600); do
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    status=$?
    break
  fi
  sleep 0.1
done
pid_done=$pid
pid=
[ -n "$status" ] || { kill "$pid_done" 2>/dev/null; fail "oshrun did not end after gdb continued"; }
[ "$status" -eq 0 ] || fail "oshrun exited with $status, expected 0"
grep -q '^PE 1 of 2$' "$work/oshrun.out" || fail "PE 1's line is missing"
cat "$work/gdb.out"
echo "ok: gdb stopped PE 1 at $(basename "$source"):$line with me = 1; oshrun exited 0"

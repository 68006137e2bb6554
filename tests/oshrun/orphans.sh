#!/usr/bin/env bash
# No emulator and no temporary directory outlives oshrun, however oshrun ends: killed with SIGKILL (nothing can
# be caught: the watchdog and PR_SET_PDEATHSIG clean up), or ended by a signal it catches (SIGQUIT, SIGUSR1,
# SIGTERM: it stops the emulator itself and exits with 128 + the signal).
#   orphans.sh OSHRUN PROGRAM TARGET [processes]   (PROGRAM never ends: tests/negative/hang.c)
# processes: the target's PEs are processes of their own (running PROGRAM), not an emulator's.
set -u
oshrun=$1 program=$2 target=$3 mode=${4:-emulator}
fail() {
  echo "FAIL: $*"
  [ -n "${pid:-}" ] && kill -TERM "$pid" 2>/dev/null  # an oshrun this test left running would run on forever
  exit 1
}

# The emulator processes of a run: those whose command line names a file in dir. With processes, the PEs: the processes
# that run the program, oshrun itself ($pid) left out.
emulators_of() {
  if [ "$mode" = processes ]; then
    pgrep -f -- "^(/[^ ]*/qemu-[a-z0-9_]+ )?$program" | grep -vx "${pid:-0}" || true  # (qemu-user: another machine's)
  else
    pgrep -f -- "$1/" || true
  fi
}

# Waits (up to 10 s) for cond to hold.
wait_for() {
  for _ in $(seq 100); do
    if eval "$1"; then return 0; fi
    sleep 0.1
  done
  return 1
}

for sig in KILL QUIT USR1 TERM; do
  tmp=$(mktemp -d)
  TMPDIR=$tmp "$oshrun" --target "$target" -np 2 "$program" >"$tmp.out" 2>&1 &
  pid=$!
  wait_for '[ -n "$(ls "$tmp")" ] && [ -n "$(emulators_of "$tmp")" ]' || fail "SIG$sig: the emulator did not start"
  dir=$(ls -d "$tmp"/oshrun.*)
  kill -"$sig" "$pid"
  wait "$pid"
  status=$?
  case $sig in
    KILL) [ "$status" -eq 137 ] || fail "SIGKILL: oshrun's status $status" ;;
    QUIT) [ "$status" -eq 131 ] || fail "SIGQUIT: oshrun's status $status, expected 131"; grep -q "interrupted by" "$tmp.out" || fail "SIGQUIT: no message: $(cat "$tmp.out")" ;;
    USR1) [ "$status" -eq 138 ] || fail "SIGUSR1: oshrun's status $status, expected 138" ;;
    TERM) [ "$status" -eq 143 ] || fail "SIGTERM: oshrun's status $status, expected 143" ;;
  esac
  wait_for '[ -z "$(emulators_of "$tmp")" ]' || fail "SIG$sig: the emulator outlived oshrun: $(ps -o pid,args -p "$(emulators_of "$tmp" | tr '\n' ',' | sed 's/,$//')")"
  wait_for '[ ! -e "$dir" ]' || fail "SIG$sig: the temporary directory $dir outlived oshrun"
  rm -rf "$tmp" "$tmp.out"
  echo "SIG$sig: oshrun's status $status; no emulator and no temporary directory left"
done
# At a timeout: status 124 and oshrun's one line, no emulator's chatter ("terminating on signal ..."), and nothing
# left when oshrun returns, not even a zombie (checked at once: a zombie would be reaped by PID 1 later, if ever).
comm=$(basename "$program" | cut -c1-15)
tmp=$(mktemp -d)
TMPDIR=$tmp "$oshrun" --target "$target" --timeout 2 -np 2 "$program" >"$tmp.out" 2>&1
status=$?
[ "$status" -eq 124 ] || fail "--timeout: oshrun's status $status, expected 124: $(cat "$tmp.out")"
grep -q "^oshrun: timeout: " "$tmp.out" || fail "--timeout: no message: $(cat "$tmp.out")"
if grep -q "terminating on signal" "$tmp.out"; then fail "--timeout: the emulator's chatter: $(cat "$tmp.out")"; fi
left=$(emulators_of "$tmp")
zombies=$(ps -eo stat=,comm= | awk -v c="$comm" '$1 ~ /^Z/ && $2 == c' | wc -l)
[ -z "$left" ] || fail "--timeout: left running: $left"
[ "$zombies" -eq 0 ] || fail "--timeout: $zombies zombie PE processes left"
rm -rf "$tmp" "$tmp.out"
echo "--timeout: oshrun's status 124, its line alone; nothing left, no zombie"
echo "orphans: ok"

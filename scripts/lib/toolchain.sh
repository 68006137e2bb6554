# Helpers shared by the cross-toolchain scripts (scripts/*-toolchain.sh). Sourced, not run. The caller sets
# `tag` (the prefix of every message), `logdir`, `prefix` and `work` before calling step.

one() {  # one <glob>: the single file matching it
  # shellcheck disable=SC2206  # the glob is meant to expand
  local m=( $1 )
  if [ ${#m[@]} -ne 1 ] || [ ! -f "${m[0]}" ]; then
    echo "$tag: expected exactly one file matching $1, found: ${m[*]}" >&2; exit 1
  fi
  echo "${m[0]}"
}

peak_kb=0
step_no=0
step() {  # step <name> <command...>: run it with its output in <logdir>/<n>-<name>.log
  local name=$1; shift
  step_no=$((step_no + 1))
  local log; log=$(printf '%s/%d-%s.log' "$logdir" "$step_no" "$name")
  local t0; t0=$(date +%s)
  printf '%s: [%d] %-22s ' "$tag" "$step_no" "$name"
  # Not inside an `if`: there set -e would be off in the subshell too, and a failing command would go unseen.
  set +e
  ( set -e; "$@" ) >"$log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    echo "FAILED"
    echo "$tag: step '$name' failed; the last lines of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  local kb; kb=$(du -sk "$work" | cut -f1)
  [ -f "$work/peak-kb" ] && [ "$(cat "$work/peak-kb")" -gt "$kb" ] && kb=$(cat "$work/peak-kb")
  [ "$kb" -gt "$peak_kb" ] && peak_kb=$kb
  printf 'done in %4ds   (work dir %s MB, prefix %s MB)\n' "$(( $(date +%s) - t0 ))" \
    "$((kb / 1024))" "$(( $(du -sk "$prefix" | cut -f1) / 1024 ))"
}

apt_waiting() {  # apt_waiting <command...>: run it, again while another apt-get holds a lock
  local i
  for i in $(seq 90); do
    "$@" -o DPkg::Lock::Timeout=10 && return 0
    pgrep -x apt-get >/dev/null || pgrep -x dpkg >/dev/null || return 1  # failed for another reason than a lock
    echo "$tag: apt is busy (another apt-get running); waiting"
    sleep 10
  done
  return 1
}

install_packages() {  # install_packages <debian package...>: apt-get those that are missing (root or sudo)
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "$tag: installing ${missing[*]}"
  local sudo
  if [ "$(id -u)" -eq 0 ]; then sudo=(); elif command -v sudo >/dev/null; then sudo=(sudo); else
    echo "$tag: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  # Another apt-get (the other toolchain script, setup.sh) may hold apt's and dpkg's locks: wait for it (up to
  # 15 minutes), do not fail.
  apt_waiting "${sudo[@]}" apt-get update -qq
  apt_waiting "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

take_lock() {  # take_lock <file>: one build at a time per cache directory; a second caller waits for the first
  exec 9>"$1"
  if ! flock -n 9; then
    echo "$tag: another build is running ($1); waiting for it"
    flock 9
  fi
}

configure_gcc_without_selftests() {  # in a configured GCC build tree: configure gcc/, and run none of its self-tests
  # GCC's own self-tests (cc1 -fself-test on gcc/testsuite/selftests, which the unpack leaves out) test GCC, not
  # what it builds: the toolchain's check does that. The top-level Makefile passes no command-line variable down
  # (MAKEOVERRIDES=), so gcc/Makefile's list of them is emptied where configure wrote it.
  make configure-gcc
  sed -i 's/^SELFTEST_TARGETS = .*$/SELFTEST_TARGETS =/' gcc/Makefile
  grep -q '^SELFTEST_TARGETS =$' gcc/Makefile || { echo "$tag: gcc/Makefile has no SELFTEST_TARGETS line" >&2; exit 1; }
}

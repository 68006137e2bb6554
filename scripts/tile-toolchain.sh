#!/usr/bin/env bash
# Builds the TILE cross toolchains -- binutils 2.40, GCC 12 (C and C++, libgcc; no libstdc++) and newlib's C
# library -- for tilegx-linux-gnu (TILE-Gx, 64-bit) and tilepro-linux-gnu (TILEPro, 32-bit), from Debian 12's
# source packages (binutils-source, gcc-12-source, newlib-source), each into a cached prefix of its own. When a
# cache is complete it only prints where it is. Installs its build dependencies with apt-get when they are missing
# (needs root or sudo then). Nothing is fetched from anywhere but Debian's mirrors.
#
#   bash scripts/tile-toolchain.sh [tilegx|tilepro]...   build (or find) these toolchains (default: both)
#   bash scripts/tile-toolchain.sh --print-prefix V      print variant V's prefix only (whether built or not)
#   bash scripts/tile-toolchain.sh --force [V]...        rebuild even when the cache is complete
#   bash scripts/tile-toolchain.sh --cached [V]...       exit 0 if these caches are complete, 1 if not; build nothing
#   bash scripts/tile-toolchain.sh --check [V]...        only run the final check (below) on the cached toolchain
#
# Prefix: ${SHMEM_TOOLCHAIN_DIR:-$HOME/.cache/libshmem/toolchains}/<V>-linux-gnu-gcc12 (bin/ holds
# <V>-linux-gnu-gcc, -g++, -as, -ld, -size, -readelf, ...). The build runs in a temporary directory under
# ${TMPDIR:-/tmp} that is removed at the end, also when it fails or is interrupted; per-step logs stay in
# <prefix>.logs/. The stamp <prefix>/.complete is written last: an interrupted build is redone from scratch.
#
# Why it looks like this:
# - GCC 12 is the last GCC with the TILE back ends, and only for *-linux-gnu triplets (config.gcc) and only with
#   --enable-obsolete. No C library has a TILE bare-metal port, so GCC is built in one stage without target
#   headers (libgcc with inhibit_libc), and newlib's portable C is built with it: newlib has no TILE code at all,
#   so two small edits (below) let its configure accept the CPU. Programs get newlib's libc and libm; their
#   system calls (_write, _sbrk, _exit, ...) come from libshmem's startup code for TILE (crt/tile).
# - Only what the port needs: one GCC stage, C and C++ (cc1plus, no libstdc++), no LTO, NLS, plugins, multilibs
#   (TILE-Gx's -m32 is not built), documentation or GCC self-tests; host programs built at -O1 without debug
#   information.
# - Debian's dfsg GCC tarball has no GFDL manuals: Debian's gcc-gfdl-build.diff is applied, and MAKEINFO=true.
set -euo pipefail

tag=tile-toolchain
# Bump when anything below changes the installed result: a cache with another recipe is rebuilt.
recipe="tile gcc12 recipe 2: binutils 2.40, gcc 12 c/c++ one stage, libgcc and newlib libc/libm -fPIE nano-io -Os"
root=${SHMEM_TOOLCHAIN_DIR:-$HOME/.cache/libshmem/toolchains}
# shellcheck source=scripts/lib/toolchain.sh
. "$(dirname "$0")/lib/toolchain.sh"

force=0 check_only=0 cached_only=0 variants=()
while [ $# -gt 0 ]; do
  case "$1" in
    --print-prefix)
      case "${2:-}" in tilegx|tilepro) echo "$root/$2-linux-gnu-gcc12"; exit 0 ;; esac
      echo "$tag: --print-prefix takes tilegx or tilepro" >&2; exit 2 ;;
    --force) force=1; shift ;;
    --check) check_only=1; shift ;;
    --cached) cached_only=1; shift ;;
    tilegx|tilepro) variants+=("$1"); shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "$tag: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#variants[@]} -gt 0 ] || variants=(tilegx tilepro)

cache_complete() {  # cache_complete <variant>
  local p=$root/$1-linux-gnu-gcc12
  [ -f "$p/.complete" ] && [ "$(head -n1 "$p/.complete")" = "$recipe" ] && [ -x "$p/bin/$1-linux-gnu-gcc" ]
}

# ---- the steps (for one variant: $target, $prefix) ----
unpack() {
  mkdir -p "$work/src"
  tar -C "$work/src" -xf "$binutils_tar"
  # Only C and C++ are built: leave out the other languages' runtime libraries and the test suites (GCC's
  # self-tests are not run). The front ends' directories stay: configure reads their config-lang.in to know which
  # target libraries belong to languages that are not built.
  tar -C "$work/src" -xf "$gcc_tar" \
    --exclude='gcc-*/libgo' --exclude='gcc-*/libphobos' --exclude='gcc-*/libada' \
    --exclude='gcc-*/libgfortran' --exclude='gcc-*/libobjc' --exclude='gcc-*/libffi' \
    --exclude='gcc-*/libstdc++-v3/testsuite' --exclude='gcc-*/libsanitizer' --exclude='gcc-*/gcc/testsuite'
  tar -C "$work/src" -xf "$newlib_tar"
  mv "$work"/src/binutils-2.* "$work/src/binutils"
  mv "$work"/src/gcc-12.* "$work/src/gcc"
  mv "$work"/src/newlib-* "$work/src/newlib"
  # The dfsg tarball lacks doc/tm.texi; without this patch s-tm-texi fails the build.
  patch -d "$work/src/gcc" -p2 --forward < "$gfdl_patch"
  # newlib: its configure stops at a CPU it does not list, and <machine/ieeefp.h> at one whose byte order it does
  # not know. TILE needs no machine directory (newlib's portable C serves); its byte order is GCC's. (As for every
  # host configure.host does not list, newlib then calls the system by the POSIX names: write, sbrk, ...)
  local nl=$work/src/newlib/newlib
  sed -i '0,/^  tic80\*)$/s//  tilegx*|tilepro*)\n\tmachine_dir=\n\t;;\n&/' "$nl/configure.host"
  [ "$(grep -c '^  tilegx\*|tilepro\*)$' "$nl/configure.host")" = 1 ]
  sed -i '1i #if (defined(__tilegx__) || defined(__tilepro__)) \&\& !defined(__IEEE_BIG_ENDIAN)\
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\
#define __IEEE_BIG_ENDIAN\
#else\
#define __IEEE_LITTLE_ENDIAN\
#endif\
#endif' "$nl/libc/include/machine/ieeefp.h"
}

build_binutils() {
  mkdir -p "$work/build-binutils-$target" && cd "$work/build-binutils-$target"
  ../src/binutils/configure --target="$target" --prefix="$prefix" \
    --disable-nls --disable-werror --disable-gdb --disable-gdbserver --disable-sim --disable-gprofng \
    --disable-gprof --disable-readline --disable-libdecnumber --disable-plugins --with-system-zlib "${host_flags[@]}"
  make -j"$jobs" all-binutils all-gas all-ld
  make install-binutils install-gas install-ld
  cd "$work" && rm -rf "$work/build-binutils-$target"
}

build_gcc() {
  mkdir -p "$work/build-gcc-$target" && cd "$work/build-gcc-$target"
  ../src/gcc/configure --target="$target" --prefix="$prefix" --enable-obsolete --enable-languages=c,c++ \
    --without-headers --with-newlib --disable-shared --disable-threads --disable-tls --disable-multilib \
    --disable-nls --disable-lto --disable-plugin --disable-libstdcxx --disable-libssp --disable-libquadmath \
    --disable-libgomp --disable-libatomic --disable-libitm --disable-libvtv --disable-libsanitizer \
    --with-system-zlib MAKEINFO=true "${host_flags[@]}" CFLAGS_FOR_TARGET="$target_flags"
  configure_gcc_without_selftests
  make -j"$jobs" all-gcc all-target-libgcc
  make install-gcc install-target-libgcc
  cd "$work" && rm -rf "$work/build-gcc-$target"
}

build_newlib() {
  mkdir -p "$work/build-newlib-$target" && cd "$work/build-newlib-$target"
  # Only newlib's libc and libm (make all-target-newlib): libgloss has no TILE board support, and the system
  # calls are libshmem's. The top-level configure leaves newlib out of every *-linux-gnu target, so newlib is
  # configured for <cpu>-unknown-elf and built with the linux-gnu tools, then moved where GCC looks for its
  # target's headers and libraries (<prefix>/<target>/include and lib).
  local nl_target=$1-unknown-elf tools=() t
  for t in ar as ld nm objcopy objdump ranlib readelf strip; do
    tools+=("$(echo "$t" | tr a-z A-Z)_FOR_TARGET=$target-$t")
  done
  ../src/newlib/configure --target="$nl_target" --prefix="$prefix" --disable-nls \
    --enable-newlib-nano-formatted-io --enable-newlib-nano-malloc --disable-newlib-supplied-syscalls \
    --disable-newlib-multithread CC_FOR_TARGET="$target-gcc" CXX_FOR_TARGET="$target-g++" \
    GCC_FOR_TARGET="$target-gcc" "${tools[@]}" CFLAGS_FOR_TARGET="$target_flags" MAKEINFO=true
  make -j"$jobs" all-target-newlib
  make install-target-newlib
  mkdir -p "$prefix/$target"
  cp -a "$prefix/$nl_target/." "$prefix/$target/"
  rm -rf "$prefix/$nl_target"
  test -f "$prefix/$target/lib/libc.a" && test -f "$prefix/$target/lib/libm.a" && test -f "$prefix/$target/include/stdio.h"
  cd "$work" && rm -rf "$work/build-newlib-$target"
}

check() {
  local d=$work/check-$target; mkdir -p "$d" && cd "$d"
  "$target-gcc" --version | head -n1
  cat > hello.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
int counter;
int main(void) { char b[16]; strcpy(b, "hello"); counter = (int)strlen(b); printf("%s %d %g\n", b, counter, sqrt(2.0)); exit(0); }
/* What the C library needs from the system (POSIX names); crt/tile gives the real ones. */
void _exit(int c) { for (;;) (void)c; }
long write(int f, const void *p, unsigned long n) { (void)f; (void)p; return (long)n; }
void *sbrk(long n) { static char h[4096], *t = h; char *r = t; t += n; return r; }
int close(int f) { (void)f; return -1; }
long lseek(int f, long o, int w) { (void)f; (void)o; (void)w; return -1; }
long read(int f, void *p, unsigned long n) { (void)f; (void)p; (void)n; return 0; }
int fstat(int f, void *s) { (void)f; (void)s; return -1; }
int isatty(int f) { (void)f; return 1; }
int kill(int p, int s) { (void)p; (void)s; return -1; }
int getpid(void) { return 1; }
void _start(void) { exit(main()); }
EOF
  cat > free.cc <<'EOF'
#include <stdint.h>
template <typename T> struct Box { T v; constexpr T get() const { return v; } };
static_assert(sizeof(uint32_t) == 4, "int32");
extern "C" uint32_t twice(uint32_t x) { Box<uint32_t> b{x}; return b.get() * 2; }
EOF
  "$target-gcc" -Os -c hello.c -o hello.o
  "$target-g++" -Os -ffreestanding -fno-exceptions -fno-rtti -c free.cc -o free.o
  "$target-gcc" -Os -static -nostartfiles -Wl,--gc-sections hello.o free.o -lm -o hello.elf
  "$target-size" hello.o free.o hello.elf
  "$target-readelf" -h hello.elf | grep -E 'Class|Machine'
}

build_variant() {  # build_variant <variant>
  target=$1-linux-gnu
  prefix=$root/$1-linux-gnu-gcc12
  logdir=$prefix.logs
  if [ "$force" = 0 ] && cache_complete "$1"; then
    echo "$tag: cached toolchain is complete: $prefix (bin: $prefix/bin)"; return 0
  fi
  take_lock "$root/.$1-linux-gnu-gcc12.lock"
  if [ "$force" = 0 ] && cache_complete "$1"; then
    echo "$tag: cached toolchain is complete: $prefix (bin: $prefix/bin)"; return 0
  fi
  local t_start; t_start=$(date +%s)
  rm -rf "$prefix" "$logdir"
  mkdir -p "$prefix" "$logdir"
  export PATH="$prefix/bin:$PATH"
  echo "$tag: building $target into $prefix (work dir $work, $jobs jobs, logs in $logdir)"
  [ -d "$work/src/gcc" ] || step unpack unpack
  step "binutils-$1" build_binutils
  step "gcc-$1" build_gcc
  step "newlib-$1" build_newlib "$1"
  step "check-$1" check
  cat "$logdir"/*-check-"$1".log
  { echo "$recipe"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(( $(date +%s) - t_start ))s, peak work dir $((peak_kb / 1024)) MB"
    echo "from $(basename "$binutils_tar") $(basename "$gcc_tar") $(basename "$newlib_tar")"
  } > "$prefix/.complete"
  echo "$tag: $target done in $(( $(date +%s) - t_start ))s; prefix $(( $(du -sk "$prefix" | cut -f1) / 1024 )) MB"
  exec 9>&-
}

# ---- main ----
if [ "$cached_only" = 1 ]; then
  for v in "${variants[@]}"; do cache_complete "$v" || exit 1; done
  exit 0
fi
host_flags=(CFLAGS="-O1 -g0" CXXFLAGS="-O1 -g0")
# -fPIE: programs are position-independent images that oshrun relocates for each tile (crt/tile/boot_block.h); code
# of the C library or libgcc that built its addresses absolutely would leave relocations in the instructions.
target_flags="-g -Os -ffunction-sections -fdata-sections -fPIE"
mkdir -p "$root"
if [ "$check_only" = 1 ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/tile-toolchain-check.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  for v in "${variants[@]}"; do
    cache_complete "$v" || { echo "$tag: no complete $v toolchain to check (build it first)" >&2; exit 1; }
    target=$v-linux-gnu prefix=$root/$v-linux-gnu-gcc12
    PATH="$prefix/bin:$PATH" check
  done
  exit 0
fi
all_cached=1
for v in "${variants[@]}"; do { [ "$force" = 0 ] && cache_complete "$v"; } || all_cached=0; done
if [ "$all_cached" = 1 ]; then
  for v in "${variants[@]}"; do echo "$tag: cached toolchain is complete: $root/$v-linux-gnu-gcc12"; done
  exit 0
fi

install_packages build-essential texinfo bison flex patch xz-utils file \
  libgmp-dev libmpfr-dev libmpc-dev libisl-dev zlib1g-dev binutils-source gcc-12-source newlib-source
binutils_tar=$(one '/usr/src/binutils/binutils-2.40.tar.*')
gcc_tar=$(one '/usr/src/gcc-12/gcc-12.*-dfsg.tar.*')
gfdl_patch=$(one /usr/src/gcc-12/debian/patches/gcc-gfdl-build.diff)
newlib_tar=$(one '/usr/src/newlib/newlib-*.tar.*')

jobs=$(nproc)
work=$(mktemp -d "${TMPDIR:-/tmp}/tile-toolchain.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
for v in "${variants[@]}"; do build_variant "$v"; done

#!/usr/bin/env bash
# Builds the epiphany-elf cross toolchain -- binutils 2.40, GCC 12 (C, C++, libstdc++) and newlib -- from Debian 12's
# source packages (binutils-source, gcc-12-source, newlib-source) into a cached prefix. When the cache is complete
# it only prints where it is. Installs its build dependencies with apt-get when they are missing (needs root or
# sudo then). Nothing is fetched from anywhere but Debian's mirrors.
#
#   bash scripts/epiphany-toolchain.sh              build (or find) the toolchain, then print its prefix
#   bash scripts/epiphany-toolchain.sh --print-prefix   print the prefix only (whether built or not)
#   bash scripts/epiphany-toolchain.sh --force      rebuild even when the cache is complete
#   bash scripts/epiphany-toolchain.sh --cached     exit 0 if the cache is complete, 1 if not; build nothing
#   bash scripts/epiphany-toolchain.sh --check      only run the final check (below) on the cached toolchain
#
# Prefix: ${SHMEM_TOOLCHAIN_DIR:-$HOME/.cache/libshmem/toolchains}/epiphany-elf-gcc12 (its bin/ holds
# epiphany-elf-gcc, -g++, -as, -ld, -size, ...; about 170 MB, relocatable). The build runs in a temporary directory
# under ${TMPDIR:-/tmp} (about 0.9 GB at its peak) that is removed at the end, also when it fails or is
# interrupted; per-step logs stay in <prefix>.logs/; the stamp records how long the build took. The stamp file
# <prefix>/.complete is written last: an interrupted build is redone from scratch.
#
# Steps: binutils; GCC's compilers (C, C++), configured once with <prefix>/epiphany-elf as their sysroot, after
# newlib's source headers were put there (GCC's configure and its <limits.h> must see a C library's headers); newlib
# built with those compilers (newlib-nano's printf and malloc, -Os, one section per function: cores have 32 KB),
# installed over the seeded headers; then, in the same GCC tree, libgcc and libstdc++ against the installed newlib;
# a check that compiles C and C++ and links a C and a C++ program with newlib at address 0 of a 32 KB map. One GCC
# tree (no stage-1 compiler only for newlib), no LTO, no plugins, and GCC's own self-tests not run (the check does
# what this toolchain is used for). Debian's dfsg GCC tarball has no GFDL manuals, so Debian's own
# gcc-gfdl-build.diff (from gcc-12-source) is applied, and GCC is configured with MAKEINFO=true (no info pages).
set -euo pipefail

tag=epiphany-toolchain
target=epiphany-elf
# Bump when anything below changes the installed result: a cache with another recipe is rebuilt.
recipe="epiphany-elf-gcc12 recipe 3: binutils 2.40, gcc 12 c/c++/libstdc++ one tree sysroot no-lto, newlib nano-io nano-malloc -Os"
root=${SHMEM_TOOLCHAIN_DIR:-$HOME/.cache/libshmem/toolchains}
prefix=$root/epiphany-elf-gcc12
stamp=$prefix/.complete
logdir=$prefix.logs

force=0 check_only=0 cached_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --print-prefix) echo "$prefix"; exit 0 ;;
    --force) force=1; shift ;;
    --check) check_only=1; shift ;;
    --cached) cached_only=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "epiphany-toolchain.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

cache_complete() {
  [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$recipe" ] && [ -x "$prefix/bin/$target-gcc" ]
}
# shellcheck source=scripts/lib/toolchain.sh
. "$(dirname "$0")/lib/toolchain.sh"  # one, step, install_packages, take_lock
# Host programs carry no debug info (smaller work dir and prefix); the target libraries are built for size.
host_flags=(CFLAGS="-O2 -g0" CXXFLAGS="-O2 -g0")
target_flags="-g -Os -ffunction-sections -fdata-sections"

unpack() {
  mkdir -p "$work/src"
  tar -C "$work/src" -xf "$binutils_tar"
  # Only C and C++ are built: leave out the other languages' runtime libraries and GCC's test suite. The front
  # ends' directories stay: configure reads their config-lang.in to know which target libraries belong to
  # languages that are not built (without gcc/go it would configure libffi, which has no epiphany port).
  # libstdc++'s testsuite/ stays: its configure writes testsuite/Makefile from the Makefile.in there.
  tar -C "$work/src" -xf "$gcc_tar" \
    --exclude='gcc-*/libgo' --exclude='gcc-*/libphobos' --exclude='gcc-*/libada' \
    --exclude='gcc-*/libgfortran' --exclude='gcc-*/libobjc' --exclude='gcc-*/libffi' \
    --exclude='gcc-*/gcc/testsuite'
  tar -C "$work/src" -xf "$newlib_tar"
  mv "$work"/src/binutils-2.* "$work/src/binutils"
  mv "$work"/src/gcc-12.* "$work/src/gcc"
  mv "$work"/src/newlib-* "$work/src/newlib"
  # The dfsg tarball lacks doc/tm.texi; without this patch s-tm-texi fails the build.
  patch -d "$work/src/gcc" -p2 --forward < "$gfdl_patch"
}

build_binutils() {
  mkdir -p "$work/build-binutils" && cd "$work/build-binutils"
  ../src/binutils/configure --target=$target --prefix="$prefix" \
    --disable-nls --disable-werror --disable-gdb --disable-gdbserver --disable-sim --disable-gprofng \
    --disable-readline --disable-libdecnumber --with-system-zlib "${host_flags[@]}"
  make -j"$jobs"
  make install
  cd "$work" && rm -rf "$work/build-binutils" "$work/src/binutils"
}

gcc_common=("--target=$target" --with-newlib --disable-nls --disable-shared --disable-threads --disable-tls
            --disable-libssp --disable-libquadmath --disable-libgomp --disable-libatomic --disable-libitm
            --disable-libvtv --disable-libsanitizer --with-system-zlib MAKEINFO=true)

# GCC takes <prefix>/epiphany-elf as its sysroot (GCC treats a sysroot inside its prefix as relocatable). Its
# configure and its build of <limits.h> look there for the C library's headers: without them GCC would build
# libgcc with inhibit_libc and a <limits.h> that never reaches newlib's (PATH_MAX, _POSIX_* ...). So newlib's
# source headers go there first; newlib's install replaces them with the complete set (newlib.h and the rest)
# before any target library is compiled.
build_gcc_compilers() {
  mkdir -p "$prefix/$target/include"
  cp -a "$work/src/newlib/newlib/libc/include/." "$prefix/$target/include/"
  test -f "$prefix/$target/include/stdio.h" && test -f "$prefix/$target/include/limits.h"
  mkdir -p "$work/build-gcc" && cd "$work/build-gcc"
  ../src/gcc/configure --prefix="$prefix" "${gcc_common[@]}" --enable-languages=c,c++ \
    --with-sysroot="$prefix/$target" --with-native-system-header-dir=/include \
    --disable-lto --disable-plugin --disable-libstdcxx-pch --disable-libstdcxx-verbose "${host_flags[@]}" \
    CFLAGS_FOR_TARGET="$target_flags" CXXFLAGS_FOR_TARGET="$target_flags"
  configure_gcc_without_selftests
  grep -q '^inhibit_libc = false' gcc/Makefile || { echo "GCC's configure did not see newlib's headers" >&2; exit 1; }
  make -j"$jobs" all-gcc
  make install-gcc
}

build_newlib() {
  mkdir -p "$work/build-newlib" && cd "$work/build-newlib"
  ../src/newlib/configure --target=$target --prefix="$prefix" --disable-nls \
    --enable-newlib-nano-formatted-io --enable-newlib-nano-malloc \
    CFLAGS_FOR_TARGET="$target_flags" MAKEINFO=true
  make -j"$jobs"
  make install
  test -f "$prefix/$target/include/newlib.h" && test -f "$prefix/$target/lib/libc.a"
  cd "$work" && rm -rf "$work/build-newlib" "$work/src/newlib"
}

build_gcc_libraries() {
  cd "$work/build-gcc"
  make -j"$jobs" all-target-libgcc all-target-libstdc++-v3
  # The work dir is at its largest here (sources, binutils' and GCC's build trees); step() reads this back.
  du -sk "$work" | cut -f1 > "$work/peak-kb"
  echo "work dir after the target libraries: $(( $(cat "$work/peak-kb") / 1024 )) MB"
  make install-target-libgcc install-target-libstdc++-v3
}

check() {
  local d=$work/check; mkdir -p "$d" && cd "$d"
  $target-gcc --version | head -n1
  cat > hello.c <<'EOF'
#include <stdio.h>
#include <string.h>
int counter;
int main(void) { char b[16]; strcpy(b, "hello"); counter = (int)strlen(b); printf("%s %d\n", b, counter); return 0; }
EOF
  cat > free.cc <<'EOF'
#include <stdint.h>
template <typename T> struct Box { T v; constexpr T get() const { return v; } };
static_assert(sizeof(uint32_t) == 4 && sizeof(void *) == 4, "ILP32");
extern "C" uint32_t twice(uint32_t x) { Box<uint32_t> b{x}; return b.get() * 2; }
EOF
  cat > std.cc <<'EOF'
#include <array>
#include <cstdint>
#include <type_traits>
template <typename T, std::size_t N> constexpr T sum(const std::array<T, N> &a) { T s{}; for (T x : a) s += x; return s; }
static_assert(std::is_unsigned<std::uint32_t>::value, "");
extern "C" std::uint32_t total(std::uint32_t x) { std::array<std::uint32_t, 3> a{{x, 2, 3}}; return sum(a); }
EOF
  # A 32 KB core-local map: vector table at 0 (crt0's IVT), code and data after it, the stack at the top.
  cat > tiny.ld <<'EOF'
MEMORY { LOCAL (rwx) : ORIGIN = 0, LENGTH = 32K }
ENTRY(_start)
SECTIONS {
  IVT 0 : { KEEP(*(IVT)) } > LOCAL
  RESERVED_CRT0 : { KEEP(*(RESERVED_CRT0)) } > LOCAL
  .text : { *(.text .text.*) } > LOCAL
  .init : { KEEP(*(.init)) } > LOCAL
  .fini : { KEEP(*(.fini)) } > LOCAL
  .ctors : { KEEP(*(.ctors .ctors.*)) } > LOCAL
  .dtors : { KEEP(*(.dtors .dtors.*)) } > LOCAL
  .eh_frame : { KEEP(*(.eh_frame)) } > LOCAL
  .rodata : { *(.rodata .rodata.*) } > LOCAL
  .data : { *(.data .data.*) } > LOCAL
  . = ALIGN(8);
  __bss_start = .; ___bss_start = .;
  .bss : { *(.bss .bss.* COMMON) } > LOCAL
  . = ALIGN(8);
  _end = .; end = .;
  __heap_start = .; ___heap_start = .;
  __heap_end = 32K - 2K; ___heap_end = __heap_end;
  ___stack = 32K - 8;
}
EOF
  $target-gcc -Os -c hello.c -o hello.o
  $target-g++ -Os -ffreestanding -fno-exceptions -fno-rtti -c free.cc -o free.o
  local nowarn=-Wl,--no-warn-rwx-segments  # one RWX segment is what a 32 KB core-local image is
  $target-gcc -Os -Wl,--gc-sections $nowarn -T tiny.ld hello.o -o hello-32k.elf
  $target-gcc -Os $nowarn hello.o -o hello-default.elf
  if ! printf '#include <limits.h>\n#if !defined(PATH_MAX) || INT_MAX != 2147483647\n#error limits\n#endif\n' \
       | $target-gcc -fsyntax-only -x c -; then
    echo "<limits.h> does not reach newlib's (no PATH_MAX)" >&2; return 1
  fi
  echo "<limits.h>: GCC's, chained to newlib's (PATH_MAX is there)"
  local objs=(hello.o free.o)
  if [ -f "$prefix/$target/lib/libstdc++.a" ]; then
    echo "libstdc++: installed"
    $target-g++ -Os -fno-exceptions -fno-rtti -c std.cc -o std.o
    objs+=(std.o)
    cat > main.cc <<'EOF'
#include <array>
#include <cstdio>
struct Counter { int n; Counter() : n(3) {} };  // a static constructor: run through crt0's init
static Counter counter;
extern "C" unsigned total(unsigned);
int main() { std::array<int, 4> a{{1, 2, 3, 4}}; int s = 0; for (int x : a) s += x; std::printf("%d %u\n", s + counter.n, total(1)); }
EOF
    $target-g++ -Os -fno-exceptions -fno-rtti -Wl,--gc-sections $nowarn -T tiny.ld main.cc std.o -o cxx-32k.elf
    objs+=(cxx-32k.elf)
  else
    echo "libstdc++: not built (no C++ standard headers)"
  fi
  $target-size "${objs[@]}" hello-32k.elf hello-default.elf
  $target-objdump -h hello-32k.elf | grep -E '^ +[0-9]+ (IVT|RESERVED_CRT0|\.text) '
}

# ---- main ----
if [ "$cached_only" = 1 ]; then cache_complete; exit; fi
if [ "$check_only" = 1 ]; then
  cache_complete || { echo "epiphany-toolchain: no complete toolchain in $prefix to check (build it first)" >&2; exit 1; }
  work=$(mktemp -d "${TMPDIR:-/tmp}/epiphany-toolchain-check.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  export PATH="$prefix/bin:$PATH"
  check
  exit 0
fi
if [ "$force" = 0 ] && cache_complete; then
  echo "epiphany-toolchain: cached toolchain is complete: $prefix (bin: $prefix/bin)"
  exit 0
fi

# One build at a time per cache directory; a second caller waits, then finds the cache complete.
mkdir -p "$root"
take_lock "$root/.epiphany-elf-gcc12.lock"
if [ "$force" = 0 ] && cache_complete; then
  echo "epiphany-toolchain: cached toolchain is complete: $prefix (bin: $prefix/bin)"
  exit 0
fi

# ---- build dependencies (Debian packages only) ----
install_packages build-essential texinfo bison flex patch xz-utils file \
  libgmp-dev libmpfr-dev libmpc-dev libisl-dev zlib1g-dev binutils-source gcc-12-source newlib-source

binutils_tar=$(one '/usr/src/binutils/binutils-2.40.tar.*')
gcc_tar=$(one '/usr/src/gcc-12/gcc-12.*-dfsg.tar.*')
gfdl_patch=$(one /usr/src/gcc-12/debian/patches/gcc-gfdl-build.diff)
newlib_tar=$(one '/usr/src/newlib/newlib-*.tar.*')

# ---- the build ----
jobs=$(nproc)
t_start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/epiphany-toolchain.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$prefix" "$logdir"
mkdir -p "$prefix" "$logdir"
export PATH="$prefix/bin:$PATH"
echo "epiphany-toolchain: building $target into $prefix (work dir $work, $jobs jobs, logs in $logdir)"
step unpack unpack
step binutils build_binutils
step gcc build_gcc_compilers
step newlib build_newlib
step gcc-libraries build_gcc_libraries
step check check
cat "$logdir"/*-check.log
rm -rf "$work"
# The stamp goes last: only a build that got this far counts as complete.
{ echo "$recipe"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(( $(date +%s) - t_start ))s, peak work dir $((peak_kb / 1024)) MB"
  echo "from $(basename "$binutils_tar") $(basename "$gcc_tar") $(basename "$newlib_tar")"
} > "$stamp"
echo "epiphany-toolchain: done in $(( $(date +%s) - t_start ))s; peak work dir $((peak_kb / 1024)) MB;" \
  "prefix $(( $(du -sk "$prefix" | cut -f1) / 1024 )) MB: $prefix (bin: $prefix/bin)"

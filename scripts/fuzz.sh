#!/usr/bin/env bash
# Fuzzes oshrun's parsers of untrusted input, side by side, for a bounded time each (default 60 s; FUZZ_SECONDS=N
# for another): fuzz_image (the image reader and the placement, from a seed corpus the build writes) and
# fuzz_console (the console stream). Built with clang, libFuzzer, ASan and UBSan in build-fuzz/. A crash, a
# sanitizer report, an allocation over 256 MB or an input that takes over 10 s fails the run and leaves the input in
# build-fuzz/artifacts/.
# The corpora grow in build-fuzz/corpus-* across runs (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
cmake -S host_loader -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DOSHRUN_FUZZ=ON -DOSHRUN_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_image fuzz_console fuzz_image_corpus >/dev/null
mkdir -p build-fuzz/artifacts build-fuzz/corpus-image build-fuzz/corpus-console
run() {
  local target=$1 corpus=$2
  shift 2
  echo "fuzz: $target for ${seconds} s"
  build-fuzz/"$target" -max_total_time="$seconds" -timeout=10 -malloc_limit_mb=256 -rss_limit_mb=1024 \
    -artifact_prefix=build-fuzz/artifacts/"$target"- -print_final_stats=1 "$@" "$corpus" 2>&1 |
    grep -E "^(Done|stat::peak_rss_mb)|ERROR|SUMMARY|Test unit written|^==" || true
  return "${PIPESTATUS[0]}"
}
# The two fuzzers side by side (libFuzzer runs one process of one thread: each takes a core), each for its whole
# time; each one's report is printed whole when it ends.
run fuzz_image build-fuzz/corpus-image -max_len=65536 build-fuzz/seeds-image > build-fuzz/fuzz_image.out 2>&1 &
image=$!
run fuzz_console build-fuzz/corpus-console -max_len=4096 > build-fuzz/fuzz_console.out 2>&1 &
console=$!
rc=0
wait "$image" || rc=1
cat build-fuzz/fuzz_image.out
wait "$console" || rc=1
cat build-fuzz/fuzz_console.out
[ "$rc" = 0 ] || { echo "fuzz: FAILED (the inputs are in build-fuzz/artifacts/)" >&2; exit 1; }
echo "fuzz: no crash, no sanitizer report, no runaway allocation"

#!/usr/bin/env bash
# The sanitizer configuration: clang, ASan + UBSan (-DCUTEVIS_SANITIZE=ON) in its own
# build folder, every test under it, then a short libFuzzer smoke run of each harness
# in tests/fuzz/ (FUZZ_SECONDS each, default 30).  Part of scripts/test.sh (CI).
# It builds what it runs: no benchmarks (-DCUTEVIS_BENCHMARKS=OFF; ctest runs none, and the
# main build compiles them), and its ctest leaves out what the main build's ctest runs the
# same way without our code under the sanitizers: timings ("speed:") and the style check.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${SANITIZE_BUILD_DIR:-build-asan}
CXX_CLANG=${SANITIZE_CXX:-$(command -v clang++-14 || command -v clang++)}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
jobs=$(nproc)
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
start=$(date +%s)
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX_CLANG" \
  -DCUTEVIS_SANITIZE=ON -DCUTEVIS_WERROR=ON -DCUTEVIS_BENCHMARKS=OFF "${launcher[@]}"
cmake --build "$BUILD" -j"$jobs"
# Leaks are findings too; a UBSan report stops the test (-fno-sanitize-recover).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp}
# Timing bounds ("speed: ...") hold for the optimized build, not under ASan's ~10x.
ctest --test-dir "$BUILD" --output-on-failure -j"$jobs" -E "speed:|^style:"
# Fuzz smoke: each harness from its seed corpus (grown copies in $BUILD, not the tree).
for harness in "$BUILD"/fuzz/fuzz_*; do
  name=$(basename "$harness"); name=${name#fuzz_}
  corpus="$BUILD/fuzz-corpus/$name"
  mkdir -p "$corpus"
  dict=()
  if [ -f "tests/fuzz/$name.dict" ]; then dict=(-dict="tests/fuzz/$name.dict"); fi
  echo "fuzz smoke: $name, ${FUZZ_SECONDS}s"
  "$harness" "${dict[@]}" -max_total_time="$FUZZ_SECONDS" -timeout=25 -rss_limit_mb=2560 \
    -print_final_stats=1 "$corpus" "tests/fuzz/corpus/$name" 2>"$BUILD/fuzz-$name.log" ||
    { tail -n 60 "$BUILD/fuzz-$name.log"; echo "fuzz smoke: $name found a bug (log: $BUILD/fuzz-$name.log)"; exit 1; }
  grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$BUILD/fuzz-$name.log" | tail -n 2 || true
done
echo "sanitize.sh: ASan/UBSan tests and fuzz smoke passed in $(( $(date +%s) - start ))s"

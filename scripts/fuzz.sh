#!/usr/bin/env bash
# A long libFuzzer session (issue 11: >= 30 minutes per harness): every harness of
# tests/fuzz/ at once, each with FUZZ_WORKERS forked workers, for FUZZ_SECONDS, going on
# past crashes, timeouts and out-of-memory runs (each is saved under WORK/artifacts).
# -timeout=25: ASan/UBSan run ~10x slower than the release build's ~2 s bound.
#   scripts/fuzz.sh [BIN_DIR=build-asan/fuzz] [WORK=build-asan/fuzz-long]
# The grown corpus stays in WORK/corpus/NAME (run again to go on from it); the seeds
# in tests/fuzz/corpus/NAME are only read.  Ends with one summary line per harness.
set -uo pipefail
BIN=${1:-build-asan/fuzz}
WORK=${2:-build-asan/fuzz-long}
SEEDS=${FUZZ_SEEDS:-tests/fuzz/corpus}
DICTS=${FUZZ_DICTS:-tests/fuzz}
mkdir -p "$WORK/artifacts"
for harness in "$BIN"/fuzz_*; do
  name=$(basename "$harness"); name=${name#fuzz_}
  mkdir -p "$WORK/corpus/$name"
  dict=()
  if [ -f "$DICTS/$name.dict" ]; then dict=(-dict="$DICTS/$name.dict"); fi
  nice -n 19 "$harness" "${dict[@]}" -fork="${FUZZ_WORKERS:-2}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="${FUZZ_SECONDS:-1800}" -timeout=25 -rss_limit_mb=4096 \
    -artifact_prefix="$WORK/artifacts/$name-" "$WORK/corpus/$name" "$SEEDS/$name" >"$WORK/$name.log" 2>&1 &
done
wait
for log in "$WORK"/*.log; do
  name=$(basename "$log" .log)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  echo "$name: ${last:-no progress line} | artifacts: $(ls "$WORK/artifacts" | grep -c "^$name-")"
done

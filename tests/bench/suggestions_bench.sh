#!/usr/bin/env bash
# "did you mean" cost (issue 19: the suggestion search bounded to a few ms per run): whole-process
# medians of CPU time (perf's task-clock; /usr/bin/time's 10 ms ticks without perf) and wall time
# of `cutevis atom` with a valid name and with typical typos, and of `eval` with a mistyped name.
#   tests/bench/suggestions_bench.sh [BUILD_DIR] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
runs=${2:-15}
exe=$build/bin/cutevis
cpu_ms() {  # CPU ms of one run
  if command -v perf > /dev/null && perf stat -x, -e task-clock true > /dev/null 2>&1; then
    perf stat -x, -e task-clock "$@" 2>&1 > /dev/null | awk -F, '/task-clock/ {printf "%.2f\n", $1}'
  else
    local tf
    tf=$(mktemp)
    /usr/bin/time -o "$tf" -f '%U %S' "$@" > /dev/null 2>&1 || true
    awk '{printf "%.2f\n", ($1 + $2) * 1000}' "$tf"
    rm -f "$tf"
  fi
}
median() {  # "CPU ms CPU, WALL ms wall": medians of RUNS runs (after 2 warm-up runs)
  local cpus=() walls=()
  for _ in 1 2; do "$@" > /dev/null 2>&1 || true; done
  for _ in $(seq "$runs"); do
    local t0=$(date +%s%N)
    cpus+=("$(cpu_ms "$@")")
    local t1=$(date +%s%N)
    walls+=($(( (t1 - t0) / 1000 )))
  done
  local c w
  c=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  w=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}')
  echo "$c ms CPU, $w ms wall"
}
echo "load $(cut -d' ' -f1-3 /proc/loadavg); medians of $runs runs"
for name in SM80_16x8x16_F32F16F16F32_TN SM80_16x8x16_F32F16F16F32_TX SM90_64x128x16_F32F16F16_SX \
            SM100_MMA_F16BF16_SX 'Copy_Atom<SM75_U32x4_LDSM_X, half_t>'; do
  printf '%-40s %s\n' "atom $name" "$(median "$exe" atom "$name")"
done
printf '%-40s %s\n' "eval 'make_layoutt(4)'" "$(median "$exe" eval 'make_layoutt(4)')"

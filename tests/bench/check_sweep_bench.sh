#!/usr/bin/env bash
# `cutevis check` timings (issue 21's benchmark): the SM80 kernel of tests/data/check checked once,
# and swept over 8 configurations (kPad 0|4|8|16 x kBlockK 32|64) in one process.  Prints the median
# wall and CPU (user+sys) time of RUNS runs of each, and the cost of one configuration after the first.
#   tests/bench/check_sweep_bench.sh [BUILD_DIR] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
runs=${2:-21}
exe=$build/bin/cutevis
kernel=$here/tests/data/check/sm80_gemm.cu
median() {  # "wall_ms cpu_ms" medians of RUNS runs
  local walls=() cpus=()
  for _ in 1 2 3; do "$@" > /dev/null 2>&1 || true; done
  for _ in $(seq "$runs"); do
    local line tf
    tf=$(mktemp)
    /usr/bin/time -o "$tf" -f '%e %U %S' "$@" > /dev/null 2>&1 || true
    line=$(tail -1 "$tf")
    rm -f "$tf"
    walls+=("$(echo "$line" | awk '{print $1 * 1000}')")
    cpus+=("$(echo "$line" | awk '{print ($2 + $3) * 1000}')")
  done
  local w c
  w=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  c=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$w $c"
}
one=$(median "$exe" check --from "$kernel" -D M=4096 -D N=4096 -D K=4096)
eight=$(median "$exe" check --from "$kernel" -D M=4096 -D N=4096 -D K=4096 --sweep 'kPad=0|4|8|16' --sweep 'kBlockK=32|64')
read -r w1 c1 <<< "$one"
read -r w8 c8 <<< "$eight"
echo "kernel: $(wc -l < "$kernel") lines; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "1 config:  wall ${w1} ms, cpu ${c1} ms (median of $runs)"
echo "8 configs: wall ${w8} ms, cpu ${c8} ms (median of $runs)"
awk -v w1="$w1" -v w8="$w8" -v c1="$c1" -v c8="$c8" \
  'BEGIN {printf "each config after the first: wall %.1f ms, cpu %.1f ms\n", (w8 - w1) / 7, (c8 - c1) / 7}'

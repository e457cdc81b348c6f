#!/usr/bin/env bash
# Whole-process medians of the paste-your-kernel front end (issue 13's benchmark):
#   cutevis names --from <a 3,000-line kernel file>   and   cutevis mma --from <a collective-style header>
# The kernel file is samples/sm90_collective_config.hpp repeated in renamed namespaces and
# structs, with a host-side kernel body between copies.  Usage: paste_kernel_bench.sh [BUILD_DIR] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
runs=${2:-41}
exe=$build/bin/cutevis
header=$here/samples/sm90_collective_config.hpp
big=$(mktemp /tmp/cutevis_kernel3000_XXXX.cu)
trap 'rm -f "$big"' EXIT
i=0
while [ "$(wc -l < "$big")" -lt 3000 ]; do
  sed -e "s/CollectiveConfig/CollectiveConfig$i/g" -e "s/namespace example/namespace example$i/" -e '/#pragma once/d' "$header" >> "$big"
  printf '__global__ void scale_%d(float* out, int n) {\n  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n    out[i] = out[i] * 2.0f + 1.0f;\n}\n' "$i" >> "$big"
  i=$((i + 1))
done
median() {  # median wall time in ms of RUNS runs of the command
  local times=()
  for _ in 1 2 3; do "$@" > /dev/null 2>&1 || true; done
  for _ in $(seq "$runs"); do
    local t0=$(date +%s%N); "$@" > /dev/null 2>&1 || true; local t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f ms\n", a[int((NR+1)/2)]/1000}'
}
echo "kernel file: $(wc -l < "$big") lines, $(wc -c < "$big") bytes"
echo "eval '((4,2),4):((8,4),1)':                       $(median "$exe" eval '((4,2),4):((8,4),1)')"
echo "names --from (3,000 lines, -D ElementA_=half_t):   $(median "$exe" names --from "$big" -D ElementA_=half_t)"
echo "names --from (3,000 lines) --json:                  $(median "$exe" names --from "$big" --json)"
echo "mma --from sm90_collective_config.hpp TiledMma:    $(median "$exe" mma --from "$header" TiledMma)"
echo "eval --from header -D ElementA_=half_t SmemLayoutB: $(median "$exe" eval --from "$header" -D ElementA_=half_t 'SmemLayoutB{}')"

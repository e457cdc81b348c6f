#!/usr/bin/env bash
# Whole-process medians of `names --from` a 3,000-line kernel file that #includes CUTLASS
# (issue 19): the file of paste_kernel_bench.sh with a CUTLASS kernel's includes on top
# (cutlass.h, dispatch_policy, collective_builder, sm90_pipeline, mma_sm90, barrier: ~190
# headers, ~5 MB), read with -I: without the header cache, with it cold (first run) and warm.
# Usage: include_bench.sh [BUILD_DIR] [RUNS]; needs CUTLASS_PATH (exit 77 without it).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
runs=${2:-21}
exe=$build/bin/cutevis
if [ -z "${CUTLASS_PATH:-}" ] || [ ! -d "$CUTLASS_PATH/include/cutlass" ]; then
  echo "SKIPPED: set CUTLASS_PATH to a CUTLASS checkout" >&2
  exit 77
fi
inc=$CUTLASS_PATH/include
unset CUTLASS_PATH  # (cutevis would read it too: the runs below give -I or nothing)
header=$here/samples/sm90_collective_config.hpp
work=$(mktemp -d /tmp/cutevis_include_bench_XXXX)
trap 'rm -rf "$work"' EXIT
big=$work/kernel3000.cu
printf '%s\n' '#include <cute/tensor.hpp>' '#include "cutlass/cutlass.h"' '#include "cutlass/gemm/dispatch_policy.hpp"' \
  '#include "cutlass/gemm/collective/collective_builder.hpp"' '#include "cutlass/pipeline/sm90_pipeline.hpp"' \
  '#include "cutlass/arch/mma_sm90.h"' '#include "cutlass/arch/barrier.h"' > "$big"
i=0
while [ "$(wc -l < "$big")" -lt 3000 ]; do
  sed -e "s/CollectiveConfig/CollectiveConfig$i/g" -e "s/namespace example/namespace example$i/" -e '/#pragma once/d' \
      -e '/#include/d' "$header" >> "$big"
  printf '__global__ void scale_%d(float* out, int n) {\n  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n    out[i] = out[i] * 2.0f + 1.0f;\n}\n' "$i" >> "$big"
  i=$((i + 1))
done
# The same for a FlashAttention-3-style file (tests/data/kernels/fa3_style_mainloop.hpp: smem
# layouts and TiledMMAs through CUTLASS's sm90_common.inl, GMMA::ss_op_selector, ...) with a few
# more CUTLASS includes on top, repeated in renamed namespaces to 3,000 lines, each copy followed
# by the aliases a kernel takes from its mainloop and a device function.
fa3_src=$here/tests/data/kernels/fa3_style_mainloop.hpp
fa3=$work/fa3_kernel3000.cu
printf '%s\n' '#include <cute/tensor.hpp>' '#include "cutlass/cutlass.h"' '#include "cutlass/numeric_types.h"' \
  '#include "cutlass/gemm/collective/builders/sm90_common.inl"' '#include "cutlass/pipeline/sm90_pipeline.hpp"' \
  '#include "cutlass/arch/barrier.h"' > "$fa3"
i=0
while [ "$(wc -l < "$fa3")" -lt 3000 ]; do
  sed -e '/#pragma once/d' -e '/#include/d' -e '/^\/\//d' -e "s/namespace flash/namespace flash$i/" -e "s/flash::/flash$i::/g" \
      -e "s/^using Mainloop\(Fp8\)\{0,1\} =/using Mainloop\1_$i =/" "$fa3_src" >> "$fa3"
  printf 'using SmemLayoutQ_%d = Mainloop_%d::SmemLayoutQ;\nusing SmemLayoutK_%d = Mainloop_%d::SmemLayoutK;\nusing TiledMmaQK_%d = MainloopFp8_%d::TiledMmaQK;\n' \
    "$i" "$i" "$i" "$i" "$i" "$i" >> "$fa3"
  printf '__global__ void softmax_rescale_%d(float* row_max, float* row_sum, int n) {\n  for (int i = threadIdx.x; i < n; i += blockDim.x) row_sum[i] *= __expf(-row_max[i]);\n}\n' "$i" >> "$fa3"
  i=$((i + 1))
done
fa3_own=$work/fa3_kernel3000_no_includes.cu
grep -v '#include' "$fa3" > "$fa3_own"
# What is measured, and why both: CPU is the process's own user + system time; wall is what a
# user waits.  On this shared machine other builds take the cores, so wall grows with the load
# (at load 4 on 2 cores a warm run of 65 ms CPU took 145 ms wall: preempted 15-19 times, it
# waited for a core, never for the disk); CPU does not, so CPU is the figure to compare across
# runs, and each case prints the load around it.  Times come from bash's own `time` (1 ms resolution; the
# earlier /usr/bin/time gave CPU in 10 ms steps and a `date` process before and after was timed
# with the run).  "warm": the cache filled by an earlier run and 3 untimed runs first (headers,
# entry and binary in the page cache); "cold": the cache folder emptied before each run (the
# headers still in the page cache: a first run after a reboot also reads them from disk).
run_once() {  # one run: "WALL_us CPU_us"
  local TIMEFORMAT='%3R %3U %3S' t
  t=$( { time "$@" > /dev/null 2>&1; } 2>&1 ) || true
  awk '{printf "%d %d\n", $1 * 1000000, ($2 + $3) * 1000000}' <<< "$t"
}
load() { cut -d' ' -f1 /proc/loadavg; }
medians() {  # "CPU ms CPU, WALL ms wall (min MIN), N runs": medians of the lines "WALL CPU" on stdin
  sort -n -k1 > "$work/w"; sort -n -k2 "$work/w" > "$work/c"
  awk '{a[NR]=$2} END {printf "%5.1f ms CPU, ", a[int((NR+1)/2)]/1000}' "$work/c"
  awk '{a[NR]=$1} END {printf "%6.1f ms wall (min %5.1f), %d runs", a[int((NR+1)/2)]/1000, a[1]/1000, NR}' "$work/w"
}
with_load() {  # the medians of "$@"'s lines, then the load before and after
  local before; before=$(load)
  local m; m=$("$@" | medians)
  echo "$m, load $before-$(load)"
}
timed() { for _ in $(seq "$runs"); do run_once "$@"; done; }
median() {  # medians of RUNS runs (after 3 untimed runs)
  for _ in 1 2 3; do "$@" > /dev/null 2>&1 || true; done
  with_load timed "$@"
}
cold_runs() {  # RUNS first runs: the cache folder $1 emptied before each
  local cache=$1; shift
  for _ in $(seq "$runs"); do rm -rf "$cache"; run_once "$@"; done
}
cold() { with_load cold_runs "$work/cache" "$@"; }
cold3() { with_load cold_runs "$work/cache3" "$@"; }
echo "medians of $runs runs each on $(nproc) cores; CPU = user + system (the figure to compare), wall grows with the load"
echo "kernel file: $(wc -l < "$big") lines, $(wc -c < "$big") bytes"
grep -v '#include' "$big" > "$work/kernel3000_no_includes.cu"
echo "names --from, #include lines removed:           $(CUTEVIS_CACHE_DIR=off median "$exe" names --from "$work/kernel3000_no_includes.cu" -D ElementA_=half_t)"
echo "names --from, no -I (headers not found):       $(CUTEVIS_CACHE_DIR=off median "$exe" names --from "$big" -D ElementA_=half_t)"
echo "names --from -I cutlass, no cache:             $(CUTEVIS_CACHE_DIR=off median "$exe" names --from "$big" -D ElementA_=half_t -I "$inc")"
echo "names --from -I cutlass, cache cold:           $(CUTEVIS_CACHE_DIR=$work/cache cold "$exe" names --from "$big" -D ElementA_=half_t -I "$inc")"
echo "names --from -I cutlass, cache warm:           $(CUTEVIS_CACHE_DIR=$work/cache median "$exe" names --from "$big" -D ElementA_=half_t -I "$inc")"
echo "cache: $(du -sh "$work/cache" | cut -f1) in $(ls "$work/cache" | wc -l) entries"
echo "FA3-style file: $(wc -l < "$fa3") lines, $(wc -c < "$fa3") bytes; $("$exe" names --from "$fa3" -I "$inc" 2>/dev/null | tail -1 | cut -d';' -f1)"
echo "FA3-style, #include lines removed:              $(CUTEVIS_CACHE_DIR=off median "$exe" names --from "$fa3_own")"
echo "FA3-style -I cutlass, no cache:                 $(CUTEVIS_CACHE_DIR=off median "$exe" names --from "$fa3" -I "$inc")"
echo "FA3-style -I cutlass, cache cold:               $(CUTEVIS_CACHE_DIR=$work/cache3 cold3 "$exe" names --from "$fa3" -I "$inc")"
echo "FA3-style -I cutlass, cache warm:               $(CUTEVIS_CACHE_DIR=$work/cache3 median "$exe" names --from "$fa3" -I "$inc")"

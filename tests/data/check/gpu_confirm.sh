#!/usr/bin/env bash
# On a GPU machine: build variants of tests/data/check/sm80_gemm.cu (one change each, as `cutevis check
# --sweep` names them), run each once, and read the ldmatrix bank conflicts with Nsight Compute.
#   CUTLASS_INCLUDE=DIR OUT=DIR tests/data/check/gpu_confirm.sh
# Writes $OUT/confirm.txt (each variant's CUDA error), $OUT/ncu.csv (the LDSM and cp.async counters).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${OUT:-/tmp/cutevis-check-gpu}"
work=$(mktemp -d)
mkdir -p "$out"
nvcc=/usr/local/cuda/bin/nvcc
ncu=/usr/local/cuda/bin/ncu
k="$here/sm80_gemm.cu"
sed 's/constexpr int kPad = 0;/constexpr int kPad = 4;/' "$k" > "$work/pad4.cu"
sed 's/constexpr int kPad = 0;/constexpr int kPad = 8;/' "$k" > "$work/pad8.cu"
sed 's/constexpr int kPad = 0;/constexpr int kPad = 16;/' "$k" > "$work/pad16.cu"
sed 's/conditional_t<kPad == 0, SmemSwizzledA, SmemPaddedA>/SmemPaddedA/' "$k" > "$work/rows128.cu"
cp "$k" "$work/swizzled.cu"
cp "$here/gpu_confirm.cu" "$work/"
variants="swizzled pad4 pad8 pad16 rows128"
for v in $variants; do
  (cd "$work" && $nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -I"$CUTLASS_INCLUDE" \
     -DCHECK_KERNEL="\"$v.cu\"" -o "$v" gpu_confirm.cu > "$v.build.log" 2>&1 || echo "$v: build failed") &
done
wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/confirm.txt"
for v in $variants; do
  [ -x "$work/$v" ] || { tail -5 "$work/$v.build.log" >> "$out/confirm.txt"; continue; }
  (cd "$work" && ./"$v") >> "$out/confirm.txt" 2>&1
done
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
for v in swizzled pad8 pad16 rows128; do
  [ -x "$work/$v" ] || continue
  echo "== $v" >> "$out/ncu.csv"
  (cd "$work" && $ncu --csv --page raw --metrics "$metrics" ./"$v") >> "$out/ncu.csv" 2>> "$out/ncu.err"
done
cat "$out/confirm.txt"
grep -E "^==|gemm_sm80" "$out/ncu.csv" | cut -c1-400

#!/usr/bin/env bash
# On a machine with a GPU: build cutevis (PNG off: the GPU machine has no Cairo),
# run the GPU tests and `cutevis verify --all`, and keep the logs under $OUT.
#   OUT=/tmp/out scripts/gpu_check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-/tmp/cutevis-gpu}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCUTEVIS_PNG=OFF > "$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
cmake --build build-gpu -j"$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
cutevis=build-gpu/bin/cutevis

echo "== verify --all (wall time, whole process, JIT cache disabled: cold)"
start=$(date +%s%N)
CUDA_CACHE_DISABLE=1 $cutevis verify --all > "$out/verify_all.txt" 2>&1
code=$?
end=$(date +%s%N)
echo "exit $code, $(( (end - start) / 1000000 )) ms" | tee "$out/verify_all_time.txt"
cat "$out/verify_all.txt"

echo "== GPU tests"
ctest --test-dir build-gpu -L gpu --output-on-failure > "$out/gpu_tests.log" 2>&1
tail -4 "$out/gpu_tests.log"
$cutevis verify --all --json > "$out/verify_all.json" 2>/dev/null

echo "== single atoms and hand-written layouts"
{
  $cutevis verify SM80_16x8x16_F32F16F16F32_TN; echo "exit $?"
  $cutevis verify 'SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>'; echo "exit $?"
  $cutevis verify 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>'; echo "exit $?"
  # a hand-written SM80 C layout with its two value modes swapped (wrong on purpose)
  $cutevis verify SM80_16x8x16_F32F16F16F32_TN --layout-c '((4,8),(2,2)):((32,1),(8,16))'; echo "exit $?"
  $cutevis verify SM80_16x8x16_F32F16F16F32_TN --layout-c '((4,8),(2,2)):((32,1),(8,16))' --svg -o "$out/diff_c.svg"; echo "exit $?"
  $cutevis verify SM70_8x8x4_F32F16F16F32_NT --thr-id '8:1'; echo "exit $?"
  # pipeline mode: SM90 wgmma SS over SW128 (agrees), then a packed A read as padded by an SM80 kernel (disagrees)
  $cutevis verify --pipeline --mma 'make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})' \
    --smem-a 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})' --smem-b 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})'; echo "exit $?"
  $cutevis verify --pipeline --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})' --smem-a '(16,16):(24,1)' --data-a '(16,16):(16,1)' \
    --smem-b '(8,16):(16,1)' --copy-a SM75_U32x4_LDSM_N --copy-b SM75_U32x2_LDSM_N --svg -o "$out/pipeline_diff.svg"; echo "exit $?"
} > "$out/single.txt" 2>&1
cat "$out/single.txt"

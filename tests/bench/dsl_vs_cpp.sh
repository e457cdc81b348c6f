#!/usr/bin/env bash
# CuTeDSL expression -> SVG against the C++ spelling of the same object: whole `cutevis`
# processes, interleaved (so drift of a shared machine hits both alike), medians in ms.
#   tests/bench/dsl_vs_cpp.sh [path/to/cutevis] [runs]
# Issue 14's goal: the DSL path within 10% of the C++ path.
set -euo pipefail
bin=${1:-build/bin/cutevis}
runs=${2:-101}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# name | command words | the DSL and the C++ spelling of one picture [| the command that must
# give equal output for both: by default the command with --style cute, which has no title
# naming the expression; CuTe's style draws rank <= 2 only, so rank-4 layouts compare --json]
cases=(
  "layout|layout --svg|cute.make_layout(((4, 2), 4), stride=((8, 4), 1))|((4,2),4):((8,4),1)"
  "sm80 2x2 TiledMMA|mma --svg|cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1))|make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})"
  "sm90 trivial TiledMMA 64x128|mma --svg|sm90_utils.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, cute.nvgpu.OperandMajorMode.K, cute.nvgpu.OperandMajorMode.K, cutlass.Float32, (1, 1, 1), (64, 128))|make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})"
  "sm100 make_smem_layout_a|layout --svg|sm100_utils.make_smem_layout_a(sm100_utils.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, cute.nvgpu.OperandMajorMode.K, cute.nvgpu.OperandMajorMode.K, cutlass.Float32, tcgen05.CtaGroup.ONE, (128, 256)), (128, 256, 64), cutlass.Float16, 4)|coalesce(UMMA::tile_to_mma_shape(composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), append(partition_shape_A(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{}), make_shape(_128{},_64{})), _4{}), Step<_1,_2,_3>{}), append(partition_shape_A(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{}), make_shape(_128{},_64{})), _4{}))|layout --json"
  "tiled_mma.tv_layout_C_tiled|layout --svg|(cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1))).tv_layout_C_tiled|get_layoutC_TV(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))"
  "tiled copy|copy --svg|cute.make_tiled_copy_tv(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=128), cute.make_layout((32, 8), stride=(8, 1)), cute.make_layout((1, 8)))|make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})"
)

ms() { echo $(( ($2 - $1) / 1000 )); }  # ns -> us
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m/1000}'; }

printf "%-28s %10s %10s %8s\n" "case" "DSL ms" "C++ ms" "DSL/C++"
for c in "${cases[@]}"; do
  IFS='|' read -r name cmd dsl cpp check <<<"$c"
  read -ra words <<<"$cmd"
  if [[ -n "${check:-}" ]]; then read -ra same <<<"$check"; else same=("${words[@]}" --style cute); fi
  # both must draw the same picture apart from the title (the expression itself)
  "$bin" "${same[@]}" "$dsl" >"$out/dsl.svg"
  "$bin" "${same[@]}" "$cpp" >"$out/cpp.svg"
  cmp -s "$out/dsl.svg" "$out/cpp.svg" || { echo "$name: DSL and C++ pictures differ" >&2; exit 1; }
  : >"$out/d"; : >"$out/c"
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N); "$bin" "${words[@]}" "$dsl" >/dev/null; t1=$(date +%s%N)
    "$bin" "${words[@]}" "$cpp" >/dev/null; t2=$(date +%s%N)
    ms "$t0" "$t1" >>"$out/d"; ms "$t1" "$t2" >>"$out/c"
  done
  d=$(median <"$out/d"); p=$(median <"$out/c")
  printf "%-28s %10s %10s %8s\n" "$name" "$d" "$p" "$(awk -v a="$d" -v b="$p" 'BEGIN{printf "%.3f", a/b}')"
done

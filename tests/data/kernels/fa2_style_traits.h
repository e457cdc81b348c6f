// FlashAttention-2-style kernel traits written for cutevis's tests (not FlashAttention's code):
// the SM80 and the host/SM75 choices behind __CUDA_ARCH__, as such files write them.
// tests/lang/preprocessor_test.cpp and tests/app/paste_kernel_test.cpp read it with --from.
#pragma once

#include <cute/tensor.hpp>

#include "cutlass/cutlass.h"

using namespace cute;

#define KBLOCK_N_DEFAULT 64

template <int kHeadDim_, int kBlockM_, int kBlockN_, int kNWarps_, typename elem_type = cutlass::half_t>
struct Flash_kernel_traits {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using Element = elem_type;
  static constexpr bool Has_cp_async = true;
#else
  using Element = cutlass::half_t;
  static constexpr bool Has_cp_async = false;
#endif

  using ElementAccum = float;
  using index_t = int64_t;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using MMA_Atom_Arch = MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>;
#else
  using MMA_Atom_Arch = MMA_Atom<SM75_16x8x8_F32F16F16F32_TN>;
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, elem_type>;
  using SmemCopyAtomTransposed = Copy_Atom<SM75_U16x8_LDSM_T, elem_type>;
#else
  using SmemCopyAtom = Copy_Atom<DefaultCopy, elem_type>;
  using SmemCopyAtomTransposed = Copy_Atom<DefaultCopy, elem_type>;
#endif
};

#if 0
// an old layout kept for reference: never compiled
using OldLayout = Layout<Shape<_3, _5>>;
#endif

#ifdef FLASH_DEBUG_LAYOUTS
using DebugLayout = Layout<Shape<_2, _2>>;
#endif

constexpr int kBlockNDefault = KBLOCK_N_DEFAULT;

template <int kHeadDim_, int kBlockM_, int kBlockN_, int kNWarps_, typename elem_type = cutlass::half_t,
          typename Base = Flash_kernel_traits<kHeadDim_, kBlockM_, kBlockN_, kNWarps_, elem_type>>
struct Flash_fwd_kernel_traits : public Base {
  static constexpr int kNWarps = kNWarps_;
  static constexpr int kNThreads = kNWarps * 32;
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kHeadDim = kHeadDim_;
  static constexpr int kBlockKSmem = kHeadDim % 64 == 0 ? 64 : 32;
  static constexpr int kSwizzle = kBlockKSmem == 32 ? 2 : 3;

  using TiledMma =
      TiledMMA<typename Base::MMA_Atom_Arch, Layout<Shape<Int<kNWarps>, _1, _1>>, Tile<Int<16 * kNWarps>, _16, _16>>;

  using SmemLayoutAtomQ = decltype(composition(Swizzle<kSwizzle, 3, 3>{},
                                               Layout<Shape<_8, Int<kBlockKSmem>>, Stride<Int<kBlockKSmem>, _1>>{}));
  using SmemLayoutQ = decltype(tile_to_shape(SmemLayoutAtomQ{}, Shape<Int<kBlockM>, Int<kHeadDim>>{}));

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using Gmem_copy_struct = SM80_CP_ASYNC_CACHEGLOBAL<cute::uint128_t>;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  using Gmem_copy_struct = DefaultCopy;
#else
  using Gmem_copy_struct = AutoVectorizingCopyWithAssumedAlignment<128>;
#endif
  static constexpr int kGmemElemsPerLoad = sizeof(cute::uint128_t) / sizeof(elem_type);
  static constexpr int kGmemThreadsPerRow = kBlockKSmem / kGmemElemsPerLoad;
  using GmemLayoutAtom =
      Layout<Shape<Int<kNThreads / kGmemThreadsPerRow>, Int<kGmemThreadsPerRow>>, Stride<Int<kGmemThreadsPerRow>, _1>>;
  using GmemTiledCopyQKV = decltype(make_tiled_copy(Copy_Atom<Gmem_copy_struct, elem_type>{}, GmemLayoutAtom{},
                                                    Layout<Shape<_1, _8>>{}));  // Val layout, 8 vals per read
};

using Kernel_traits = Flash_fwd_kernel_traits<128, 128, 64, 4>;

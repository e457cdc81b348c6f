// A FlashAttention-3-style Hopper mainloop configuration written for cutevis's tests (not
// FlashAttention's code): smem layouts and TiledMMAs chosen by the head dimension, CuTe's GMMA
// atoms, compile-time helpers.  tests/app/paste_kernel_test.cpp reads it with --from.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/gemm/collective/builders/sm90_common.inl>

namespace flash {

using namespace cute;

enum class Softmax_mode { kPlain, kCausal = 4, kLocal };

template <int kStages_, class Element_, class TileShape_MNK_, class ClusterShape_ = Shape<_1, _1, _1>,
          bool Is_causal = false>
struct CollectiveMainloopFwdSm90 {
  static constexpr int kStages = kStages_;
  using Element = Element_;
  using ElementAccum = float;
  using TileShape_MNK = TileShape_MNK_;
  using ClusterShape = ClusterShape_;
  static constexpr int kBlockM = get<0>(TileShape_MNK{});
  static constexpr int kBlockN = get<1>(TileShape_MNK{});
  static constexpr int kHeadDim = get<2>(TileShape_MNK{});
  static constexpr bool Mma1_is_RS = kHeadDim >= 128;
  static constexpr int kNWarps = kBlockM / 16;
  static constexpr float kScaleInit = -1e30f;
  static constexpr Softmax_mode kMode = Is_causal ? Softmax_mode::kCausal : Softmax_mode::kPlain;

  using AtomLayoutQK = Layout<Shape<Int<kBlockM / 64>, _1, _1>>;
  using TiledMmaQK = decltype(cute::make_tiled_mma(
      GMMA::ss_op_selector<Element, Element, ElementAccum, TileShape_MNK>(), AtomLayoutQK{}));

  using SmemLayoutAtomQ = decltype(GMMA::Layout_SW128_Atom<Element, GMMA::Major::K>{});
  using SmemLayoutQ = decltype(tile_to_shape(SmemLayoutAtomQ{}, select<0, 2>(TileShape_MNK{})));
  using SmemLayoutAtomK = std::conditional_t<kHeadDim >= 128, decltype(GMMA::Layout_K_SW128_Atom<Element>{}),
                                             decltype(GMMA::Layout_K_SW64_Atom<Element>{})>;
  using SmemLayoutK = decltype(tile_to_shape(
      SmemLayoutAtomK{}, make_shape(shape<1>(TileShape_MNK{}), shape<2>(TileShape_MNK{}), Int<kStages>{})));
  static constexpr int kAlignment = cute::gcd(kHeadDim, 128 / sizeof_bits_v<Element>);
  static constexpr int kClusterSize = CUTE_STATIC_V(size(ClusterShape{}));
  static constexpr bool Is_fp8 = std::is_same_v<Element, cutlass::float_e4m3_t>;
  using ElementO = std::conditional_t<Is_fp8, cutlass::half_t, Element>;
  static constexpr int kModeValue = int(kMode);
};

}  // namespace flash

using Mainloop = flash::CollectiveMainloopFwdSm90<2, cutlass::half_t, Shape<_128, _128, _128>>;
using MainloopFp8 = flash::CollectiveMainloopFwdSm90<2, cutlass::float_e4m3_t, Shape<_128, _176, _64>>;

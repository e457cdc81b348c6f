// A Hopper mainloop in the style of FA3 / CUTLASS's collective builders: its smem layouts
// come from constexpr functions written in the file.
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/tensor.hpp>

using namespace cute;

namespace my_attn::detail {

// the largest GMMA atom whose width divides the tile
template <GMMA::Major major, class ElementType, class BLK_MN, class BLK_K>
CUTE_HOST_DEVICE constexpr auto smem_atom_selector() {
  using namespace cute;

  auto BLK_MN0 = size<0>(BLK_MN{});
  auto BLK_K0 = size<0>(BLK_K{});

  static_assert(BLK_MN0 % 8 == 0, "BLK_MN0 must be a multiple of 8.");
  static_assert(BLK_K0 % 8 == 0, "BLK_K0 must be a multiple of 8.");

  if constexpr (major == GMMA::Major::MN) {
    if constexpr (BLK_MN0 % size<0>(GMMA::Layout_MN_SW128_Atom<ElementType>{}) == 0) {
      return GMMA::Layout_MN_SW128_Atom<ElementType>{};
    } else if constexpr (BLK_MN0 % size<0>(GMMA::Layout_MN_SW64_Atom<ElementType>{}) == 0) {
      return GMMA::Layout_MN_SW64_Atom<ElementType>{};
    } else if constexpr (BLK_MN0 % size<0>(GMMA::Layout_MN_SW32_Atom<ElementType>{}) == 0) {
      return GMMA::Layout_MN_SW32_Atom<ElementType>{};
    } else {
      static_assert(BLK_MN0 % size<0>(GMMA::Layout_MN_INTER_Atom<ElementType>{}) == 0,
                    "BLK_MN0 must be a multiple of the INTER atom");
      return GMMA::Layout_MN_INTER_Atom<ElementType>{};
    }
  } else if constexpr (major == GMMA::Major::K) {
    if constexpr (BLK_K0 % size<1>(GMMA::Layout_K_SW128_Atom<ElementType>{}) == 0) {
      return GMMA::Layout_K_SW128_Atom<ElementType>{};
    } else if constexpr (BLK_K0 % size<1>(GMMA::Layout_K_SW64_Atom<ElementType>{}) == 0) {
      return GMMA::Layout_K_SW64_Atom<ElementType>{};
    } else if constexpr (BLK_K0 % size<1>(GMMA::Layout_K_SW32_Atom<ElementType>{}) == 0) {
      return GMMA::Layout_K_SW32_Atom<ElementType>{};
    } else {
      static_assert(BLK_K0 % size<1>(GMMA::Layout_K_INTER_Atom<ElementType>{}) == 0,
                    "BLK_K0 must be a multiple of the INTER atom");
      return GMMA::Layout_K_INTER_Atom<ElementType>{};
    }
  }
}

// deduced from its argument
template <class Layout>
CUTE_HOST_DEVICE constexpr auto rows_of(Layout const& layout) {
  return size<0>(layout);
}

template <int N>
CUTE_HOST_DEVICE constexpr int twice(Int<N>) {
  return 2 * N;
}

constexpr int round_up_to(int x, int multiple = 64) { return (x + multiple - 1) / multiple * multiple; }

}  // namespace my_attn::detail

template <class Element, int kBlockM, int kBlockN, int kHeadDim>
struct CollectiveMainloopFwd {
  using TileShape_MNK = Shape<Int<kBlockM>, Int<kBlockN>, Int<kHeadDim>>;
  using SmemLayoutAtomQ =
      decltype(my_attn::detail::smem_atom_selector<GMMA::Major::K, Element, decltype(cute::get<0>(TileShape_MNK{})),
                                                   decltype(cute::get<2>(TileShape_MNK{}))>());
  using SmemLayoutQ = decltype(tile_to_shape(SmemLayoutAtomQ{}, select<0, 2>(TileShape_MNK{})));
  using SmemLayoutAtomVt =
      decltype(my_attn::detail::smem_atom_selector<GMMA::Major::MN, Element, decltype(cute::get<2>(TileShape_MNK{})),
                                                   decltype(cute::get<1>(TileShape_MNK{}))>());
  using SmemLayoutVt =
      decltype(tile_to_shape(SmemLayoutAtomVt{}, make_shape(get<2>(TileShape_MNK{}), get<1>(TileShape_MNK{}))));

  static constexpr auto smem_q_rows() {
    constexpr int rows = kBlockM;
    using Q = SmemLayoutQ;
    if constexpr (rows >= 128) {
      return size<0>(Q{});
    } else {
      return size<1>(Q{});
    }
  }
};

using Mainloop = CollectiveMainloopFwd<cutlass::half_t, 128, 176, 96>;
using SmemLayoutQ = Mainloop::SmemLayoutQ;
using SmemLayoutVt = Mainloop::SmemLayoutVt;
using AtomK32 = decltype(my_attn::detail::smem_atom_selector<GMMA::Major::K, float, _64, _16>());
using AtomMN8 = decltype(my_attn::detail::smem_atom_selector<GMMA::Major::MN, cutlass::float_e4m3_t, _64, _64>());
constexpr auto kRows = my_attn::detail::rows_of(SmemLayoutQ{});
auto kTwice = my_attn::detail::twice(Int<24>{});
constexpr int kPadded = my_attn::detail::round_up_to(200);
constexpr int kPadded128 = my_attn::detail::round_up_to(200, 128);
constexpr auto kQRows = Mainloop::smem_q_rows();

// Dispatch policies and a traits class specialized on them, as CUTLASS's collectives are.
template <int Stages_, class ClusterShape_ = Shape<_1, _1, _1>>
struct MainloopSm90TmaGmmaWarpSpecialized {
  static constexpr int Stages = Stages_;
  using ClusterShape = ClusterShape_;
};
template <int Stages_>
struct MainloopSm80CpAsync {
  static constexpr int Stages = Stages_;
};

template <class DispatchPolicy, class TileShape>
struct PipelineTraits {
  static constexpr int kStages = 1;
};
template <int S, class Cluster, class TileShape>
struct PipelineTraits<MainloopSm90TmaGmmaWarpSpecialized<S, Cluster>, TileShape> {
  static constexpr int kStages = S;
  using SmemShapeA = decltype(make_shape(get<0>(TileShape{}), get<2>(TileShape{}), Int<S>{}));
};
template <class TileShape>
struct PipelineTraits<MainloopSm80CpAsync<2>, TileShape> {
  static constexpr int kStages = 20;
};

using CtaTile = Shape<_128, _128, _64>;
constexpr int kStagesSm90 = PipelineTraits<MainloopSm90TmaGmmaWarpSpecialized<4>, CtaTile>::kStages;
using SmemShapeA = PipelineTraits<MainloopSm90TmaGmmaWarpSpecialized<3, Shape<_2, _1, _1>>, CtaTile>::SmemShapeA;
using Sm80Traits = PipelineTraits<MainloopSm80CpAsync<2>, CtaTile>;
constexpr int kStagesSm80 = Sm80Traits::kStages;
constexpr int kStagesOther = PipelineTraits<MainloopSm80CpAsync<3>, CtaTile>::kStages;

// Members inherited: from a base class template (named through `using typename Base::X`) and a plain struct.
template <int kBlockM_, int kHeadDim_>
struct KernelTraitsBase {
  static constexpr int kBlockM = kBlockM_;
  using SmemLayoutAtom =
      decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Int<kHeadDim_>>, Stride<Int<kHeadDim_>, _1>>{}));
};
template <int kBlockM_, int kHeadDim_>
struct KernelTraits : public KernelTraitsBase<kBlockM_, kHeadDim_> {
  using Base = KernelTraitsBase<kBlockM_, kHeadDim_>;
  using typename Base::SmemLayoutAtom;
  using SmemLayoutQ = decltype(tile_to_shape(SmemLayoutAtom{}, Shape<Int<kBlockM_>, Int<kHeadDim_>>{}));
};
struct PlainBase {
  static constexpr int kWarps = 4;
};
struct Derived : PlainBase {
  static constexpr int kThreads = kWarps * 32;
};
using Traits64 = KernelTraits<64, 64>;
using SmemLayoutQ64 = Traits64::SmemLayoutQ;
constexpr int kBlockM64 = Traits64::kBlockM;
constexpr int kDerivedWarps = Derived::kWarps;

// The tutorial's atom spelled through aliases.
using mma_op = SM80_16x8x16_F16F16F16F16_TN;
using mma_traits = MMA_Traits<mma_op>;
using mma_atom = MMA_Atom<mma_traits>;
using TiledMmaTutorial = decltype(make_tiled_mma(mma_atom{}, Layout<Shape<_2, _2, _1>>{}));
using FragC = decltype(partition_fragment_C(TiledMmaTutorial{}, Shape<_64, _64>{}));

// A home-made atom with its own traits: 32 threads, 8x8x4, one A/B value and two C values each.
struct MyHalfMma_8x8x4 {
  using DRegisters = float[2];
  using ARegisters = uint32_t[1];
  using BRegisters = uint32_t[1];
  using CRegisters = float[2];
};
namespace cute {
template <>
struct MMA_Traits<MyHalfMma_8x8x4> {
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;
  using Shape_MNK = Shape<_8, _8, _4>;
  using ThrID = Layout<_32>;
  using ALayout = Layout<Shape<Shape<_4, _8>, _1>, Stride<Stride<_8, _1>, _0>>;   // (T32,V1) -> (M8,K4)
  using BLayout = Layout<Shape<Shape<_4, _8>, _1>, Stride<Stride<_8, _1>, _0>>;   // (T32,V1) -> (N8,K4)
  using CLayout = Layout<Shape<Shape<_4, _8>, _2>, Stride<Stride<_16, _1>, _8>>;  // (T32,V2) -> (M8,N8)
};
}  // namespace cute
using TiledMmaMine = decltype(make_tiled_mma(MyHalfMma_8x8x4{}, Layout<Shape<_2, _2, _1>>{}));
using FragCMine = decltype(partition_fragment_C(TiledMmaMine{}, Shape<_32, _32>{}));

// A home-made copy (one thread moves 64 bits), and the tutorial's copy op through an alias.
struct MyCopy64 {
  using SRegisters = uint64_t[1];
  using DRegisters = uint64_t[1];
};
namespace cute {
template <>
struct Copy_Traits<MyCopy64> {
  using ThrID = Layout<_1>;
  using SrcLayout = Layout<Shape<_1, _64>>;  // (T1,V64) -> bit
  using DstLayout = Layout<Shape<_1, _64>>;
  using RefLayout = SrcLayout;
};
}  // namespace cute
using G2SCopy = decltype(make_tiled_copy(Copy_Atom<MyCopy64, cutlass::half_t>{},
                                         Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _4>>{}));
using ldsm_op = SM75_U32x4_LDSM_N;
using S2RAtom = Copy_Atom<Copy_Traits<ldsm_op>, cutlass::half_t>;
using S2RCopyA = decltype(make_tiled_copy_A(S2RAtom{}, TiledMmaTutorial{}));

// Floating constants are kept as written.
constexpr float kNegInfApprox = -1e30f;
constexpr float kScale = 0.125f;

// cutevis test input (issue 13): an alias template and a struct template, as kernels write them.
// tests/app/templates_cli_test.cpp instantiates them; CuTe's answers are in that test.
#pragma once
#include <cute/tensor.hpp>

template <class T, int BK = 64>
using SmemLayoutAtom = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Int<BK>>, Stride<Int<BK>, _1>>{}));

template <class T, int kBlockM_ = 128, int Stages = 3>
struct Cfg {
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlockK = 128 / sizeof(T) * 2;
  using SmemLayoutAtomA = decltype(GMMA::Layout_K_SW128_Atom<T>{});
  using SmemLayoutA =
      decltype(tile_to_shape(SmemLayoutAtomA{}, make_shape(Int<kBlockM>{}, Int<kBlockK>{}, Int<Stages>{})));
};

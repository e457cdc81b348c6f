// Hand-written in CuTe's tutorial style for tests/app/coordinate_partition_test.cpp: coordinate
// tensors partitioned per thread, structured bindings, a __grid_constant__ kernel parameter.
#include <cute/tensor.hpp>
using namespace cute;

template <class TiledMma, class TiledCopy, class Pair>
__global__ void coord_kernel(TiledMma mma, TiledCopy copy, CUTLASS_GRID_CONSTANT Pair const pair) {
  Tensor cC = make_identity_tensor(make_shape(Int<64>{}, Int<32>{}));
  Tensor cA = make_identity_tensor(make_shape(Int<64>{}, Int<16>{}));
  Tensor cT = make_identity_tensor(make_shape(Int<16>{}, Int<32>{}));
  auto thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCcC = thr_mma.partition_C(cC);
  Tensor tCcA = thr_mma.partition_A(cA);
  auto thr_copy = copy.get_slice(threadIdx.x);
  Tensor tScT = thr_copy.partition_S(cT);
  Tensor tDcT = thr_copy.partition_D(cT);
  Tensor cC_tiles = zipped_divide(cC, make_tile(Int<16>{}, Int<8>{}));
  Tensor cC_flat = flat_divide(cC, make_tile(Int<16>{}, Int<8>{}));
  Layout cluster = tiled_divide(make_layout(make_shape(Int<4>{}, Int<4>{}, Int<1>{})), make_tile(Layout<_1>{}));
  auto cta_in_cluster = cluster.get_flat_coord(int(cute::block_rank_in_cluster()));
  auto [first, second] = pair;
  auto const& [m, n] = shape(cC);
  auto [tile, rest] = make_tuple(Int<128>{}, make_layout(make_shape(Int<8>{}, Int<2>{})));
  auto [x, y, z] = make_tuple(Int<1>{}, Int<2>{});
  auto [p, q] = std::make_pair(Int<6>{}, Int<7>{});
  auto [lay_shape, lay_stride] = make_layout(make_shape(Int<8>{}, Int<2>{}));
}

// local_tile of coordinate tensors at a run-time block coordinate (a component it moves is an `int`: ArithTuple(0,_0)),
// at a static one (static components stay static: ArithTuple(_256,_0)), and sliced directly
__global__ void tile_kernel() {
  Tensor cA = make_identity_tensor(make_shape(512, 1024));
  Tensor cT = make_identity_tensor(make_shape(Int<512>{}, Int<1024>{}));
  Tensor gA = local_tile(cA, make_shape(Int<128>{}, Int<64>{}), make_coord(blockIdx.x, _));
  Tensor gB = local_tile(cT, make_shape(Int<128>{}, Int<64>{}), make_coord(blockIdx.x, blockIdx.y));
  Tensor gS = local_tile(cT, make_shape(Int<128>{}, Int<64>{}), make_coord(Int<2>{}, blockIdx.y));
  Tensor gT = local_tile(cT, make_shape(Int<128>{}, Int<64>{}), make_coord(Int<2>{}, _));
  Tensor c2 = cT(_, Int<5>{});
  Tensor c3 = cT(_, blockIdx.x);
}

void launch() {
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{});
  auto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                              Layout<Shape<_1, _4>>{});
  auto pair = make_tuple(Int<3>{}, make_shape(Int<4>{}, Int<5>{}));
  coord_kernel<<<1, 128>>>(mma, copy, pair);
}

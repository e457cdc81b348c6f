// cutevis — one thread's partition_S / partition_D of a tensor under a TiledCopy, as CuTe's
// ThrCopy computes them (include/cute/atom/copy_atom.hpp, tidfrg_S / tile2thrfrg):
//
//   zipped_divide(tensor, Tiler_MN)          ((TileM,TileN),(RestM,RestN))
//   compose the tile mode with the TV layout  ((thr,val),(RestM,RestN))
//   slice thr = T                             (CPY, CPY_M, CPY_N) at an offset
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "lib/swizzle.hpp"

namespace cutevis {

struct ThreadPartition {
  char side = 'S';  // 'S': partition_S (source side of the atom), 'D': partition_D; 'A', 'B', 'C': ThrMMA's
  int64_t thread = 0;
  // (CPY, CPY_M, CPY_N) -> element offset from `offset`.  For a swizzled (composed) tensor
  // A o O o B this is the partition of B; the swizzle applies to O + offset + layout(i).
  Layout layout;
  int64_t offset = 0;
  std::string text;              // e.g. "0 + ((8,1),8,1):((1,0),1024,0)", "Sw<3,4,3> o smem_ptr[16b](unset) o 64 + ..."
  std::vector<int64_t> cells;    // tensor index (m + M*n) of each element, in index order
  std::vector<int64_t> offsets;  // the tensor's offset of each element: what tS(i) reads
  // partition_mma of an operand the MMA reads from shared memory (GMMA/UMMA SS): 128 / element
  // bits, the elements of one 128-bit descriptor unit (its fragment is descriptors); 0 otherwise
  int64_t descriptor_elements = 0;
  bool tensor_memory = false;  // an operand in SM100 tensor memory: no register fragment
};

ThreadPartition partition_S(const TiledCopy& copy, const AnyLayout& tensor, int64_t thread);
ThreadPartition partition_D(const TiledCopy& copy, const AnyLayout& tensor, int64_t thread);

// get_layoutS/D_TV over a whole (M,N) tensor instead of one tile: (thr_idx, (val,(RestM,RestN)))
// -> m + M*n; a thread's value i is element i of its partition_S/D.  For pictures of partitions.
Layout tensor_layout_tv(const TiledCopy& copy, char side, const IntTuple& shape);

// ThrMMA::partition_A/B/C (include/cute/atom/mma_atom.hpp): thrfrg_X(tensor) sliced at the
// thread's (ThrV,(Thr0,Thr1)) coordinate: (MMA, MMA_M, MMA_K) for A, (MMA, MMA_N, MMA_K) for B,
// (MMA, MMA_M, MMA_N) for C.  `operand` is 'A', 'B' or 'C'; the tensor is (M,K), (N,K) or (M,N), and
// further modes (a pipeline's PIPE) follow the partition's: (MMA, MMA_M, MMA_K, PIPE).
ThreadPartition partition_mma(const struct TiledMma& mma, char operand, const AnyLayout& tensor, int64_t thread);

// partition_fragment_X: the registers the partition fills: for A and B make_fragment_like(partition
// layout) (mode 0 compact column-major, the rest ordered like the partition), for C compact
// column-major (make_fragment_C); for an operand read from shared memory (GMMA SS) CuTe's
// descriptor tensor, replace<0>(recast<uint128_t>(partition), _1:_0): one descriptor per MMA.
// Throws Error for tensor-memory operands.
Layout partition_fragment(const ThreadPartition& partition);

// TiledCopy::retile(fragment) (retile_D / retile_S): an MMA fragment (MMA, MMA_M, MMA_K) seen as
// the copy's ((CPY_V, rest), CPY_M, CPY_K): register index of each copy value, for
// copy(s2r, tXsA, thr_copy.retile_D(tCrA)).
Layout retile(const TiledCopy& copy, const Layout& fragment);

// The names above in the expression language, as kernels write them (atoms/analysis/partition_names.cpp):
//   ThrMMA thr_mma = tiled_mma.get_slice(threadIdx.x);     thr_mma.partition_A(sA)   partition_fragment_B(sB)
//   thr_mma.make_fragment_A(tCsA) (GMMA/UMMA: descriptors; UMMA make_fragment_C: a TMEM tensor)
//   ThrCopy thr_copy = tiled_copy.get_slice(threadIdx.x);   thr_copy.partition_S(gA)  thr_copy.retile_D(tCrA)
// threadIdx.x is thread 0, or N with -D threadIdx.x=N; the partition says whose it is.
void register_partition_names(Registry& registry);

}  // namespace cutevis

namespace cutevis {

// Whether a copy's destination fragment is the TiledMMA's A (or B) fragment thread by thread
// (what make_tiled_copy_A/B promise and retile_D relies on): every thread must receive exactly
// the cells of the (M,K) / (N,K) tile that the MMA's get_layoutA/B_TV gives it.
struct FragmentCheck {
  bool matches = true;
  std::string operand;  // "A" or "B"
  int64_t threads_checked = 0;
  std::string first_mismatch;  // e.g. "thread 5: the MMA's A value 2 is (m,k) = (8,2), the copy delivers (0,10)"
};
FragmentCheck check_fragment(const TiledCopy& copy, const struct TiledMma& mma, char operand);

}  // namespace cutevis

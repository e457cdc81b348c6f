// cutevis — CUTLASS's block-scaled scale-factor layouts (cutlass/detail/sm100_blockscaled_layout.hpp,
// sm103_blockscaled_layout.hpp), natively: a user's pasted line works without -I.
//
//   cutlass::detail::Sm1xxBlockScaledConfig<32>::tile_atom_to_shape_SFA(make_shape(M,N,K,L))
//   cutlass::detail::Sm1xxBlockScaledConfig<16>::deduce_smem_layoutSFB(tiled_mma, Shape<_128,_192,_256>{})
//   cutlass::detail::Sm1xxBlockScaledOutputConfig<16, UMMA::Major::MN>::tile_atom_to_shape_SFD(problem_shape)
//
// One scale factor serves SFVecSize consecutive K elements of one row of A (or B). CUTLASS keeps
// them in 512-element blocks of 128 rows x 4 scale factors,
//   SfAtom ((32,4),(SFVecSize,4)):((16,4),(0,1))     (M,K) -> SF offset   (SM100, SM120)
//          ((8,4,4),(SFVecSize,4)):((16,128,4),(0,1))                       (SM103)
// so that a 32-bit word holds the 4 scale factors of one row (one TMEM column's worth for UTCCP).
// The SM120 collectives use Sm1xxBlockScaledConfig too.
#pragma once

#include "atoms/tiled_mma.hpp"
#include "lib/layout.hpp"

namespace cutevis {

enum class SfConfig { kSm1xx, kSm103 };

struct BlockScaledConfig {
  SfConfig arch = SfConfig::kSm1xx;
  int vec_size = 32;    // SFVecSize: elements of K that share one scale factor
  bool k_major = true;  // the output config's UMMA::Major (the input configs are K-major)
};

// Sm1xxBlockScaledBasicChunk<SFVecSize, major>::SfAtom (or Sm103's): (MN,K) -> SF offset.
Layout sf_atom(const BlockScaledConfig& c);
// deduce_layoutSFA/SFB (and the output config's deduce_layoutSFD) return LayoutSF{}: the layout type with
// its run-time extents 0, as CUTLASS default-constructs it (size 0; a kernel fills the extents in with
// tile_atom_to_shape_SF*).
Layout deduce_layout_sf(const BlockScaledConfig& c);
// tile_atom_to_shape_SFA/SFB: the SF atom tiled over (M,K[,L]) or (N,K[,L]) of a 3- or 4-mode problem
// shape (M,N,K[,L]), K first (Step<_2,_1,_3>); 'D': the output config's tile_atom_to_shape_SFD over
// (M,N,L) (L = 1 when absent).
Layout tile_atom_to_shape_sf(const BlockScaledConfig& c, char operand, const IntTuple& problem_shape);
// Sm1xxBlockScaledTensorConfig::tile_atom_to_shape((M,N[,L])).
Layout tile_atom_to_shape_sf_tensor(const IntTuple& problem_shape);
// deduce_smem_layoutSFA/SFB(tiled_mma, tile_shape_mnk): one stage of the scale factors in shared memory,
// ((((32,4),MMA_MN/128),(SFVecSize,MMA_NSF)),_1,(4/MMA_NSF,K/SFVecSize/4)); SFB pads N to a multiple of 128.
Layout deduce_smem_layout_sf(const BlockScaledConfig& c, char operand, const TiledMma& mma, const IntTuple& tile_mnk);

}  // namespace cutevis

namespace cutevis {
class Registry;
// The configs' names in the expression language (atoms/blockscaled_names.cpp).
void register_blockscaled_names(Registry& registry);
}  // namespace cutevis

namespace cutevis {

// Which scale factor serves each element of A (M,K) and B (N,K) of one CTA tile of a block-scaled UMMA:
// the SF element's offset in global memory (tile_atom_to_shape_SFA/SFB of the tile as the problem,
// L = 1), in one shared-memory stage (deduce_smem_layoutSFA/SFB) and in tensor memory after the
// collective's UTCCP copy (UMMA::tmem_sf_frg over the stage's shape, atoms/utccp.hpp): lane (of
// subpartition 0; the same scale factor is in lanes +32, +64, +96), 32-bit column counted from
// tCtSFA's base (CUTLASS puts tCtSFA right after the accumulators and tCtSFB right after tCtSFA),
// and byte in the column (the MMA's SF ID).
struct SfTmemCell {
  int64_t lane = 0, column = 0, byte = 0;
};
struct ScaleFactorMap {
  int vec_size = 0;
  int64_t m = 0, n = 0, k = 0;  // the tile: A is this CTA's (M,K) (M / 2 for a CTA pair), B is (N,K)
  Layout gmem_sfa, gmem_sfb, smem_sfa, smem_sfb;
  Layout tmem_sfa, tmem_sfb;                 // tmem_sf_frg: 8-bit values, lane stride TMEM::DP<uint8_t> = 262144
  int64_t tmem_cols_a = 0, tmem_cols_b = 0;  // 32-bit columns each spans (tCtSFB starts tmem_cols_a on)
  std::string utccp;                         // the collective's copy: SM100_UTCCP_4x32dp128bit_1cta or _2cta
  // per element, column-major (m + M*k), (n + N*k): the SF element's offsets
  std::vector<int64_t> gmem_a, smem_a, gmem_b, smem_b;
  std::vector<SfTmemCell> tmem_a, tmem_b;
  IntTuple problem;           // (M,N,K,L) the gmem layouts were tiled to
  int64_t coord[4] = {};      // the tile's (m, n, k, l) coordinate in the problem
  int64_t sfb_row_shift = 0;  // N = 192, odd n tile: B's row n is SFB's smem row n + 64 (tCtSFB + 2 columns)
};
// `problem` (M,N,K) or (M,N,K,L), or empty for the tile as the whole problem (L = 1); `coord` the tile's
// (m, n, k, l) coordinate in it (CTA 0 of a pair: the first M/2 rows of the tile). With N = 192 the
// collective loads SFB in 256-row tiles from the 128-row block the tile starts in, so an odd n tile's
// rows are 64 rows into its smem/TMEM (CUTLASS shifts tCtSFB by 2 columns); gmem stays SFB(n_global).
ScaleFactorMap scale_factor_map(const TiledMma& mma, const IntTuple& tile_mnk, const IntTuple& problem = IntTuple(),
                                const std::vector<int64_t>& coord = {});

}  // namespace cutevis

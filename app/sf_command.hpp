// cutevis mma BLOCKSCALED_MMA --sf: which scale factor serves each element of A and B (SM100 UMMA: gmem, smem,
// TMEM; SM120 block-scaled mma.sync: which thread's SF register, which byte).
//   cutevis mma
//   'SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,256,UMMA::Major::K,UMMA::Major::K>'
//       --sf [--sf-tile 128x256x128] [--png | --json]
// A (M,K) and B (N,K) coloured by the SF element that scales them, beside the SF layouts in global
// memory (Sm1xxBlockScaledConfig<SFVecSize>::tile_atom_to_shape_SFA/SFB of the tile, L = 1), in one
// shared-memory stage (deduce_smem_layoutSFA/SFB) and in tensor memory after the collective's UTCCP copy
// (atoms/utccp.hpp). JSON sf_a / sf_b: per element (gmem, smem, TMEM lane, TMEM column, TMEM byte).
#pragma once

#include <string>

#include "app/commands.hpp"

namespace cutevis {

struct SfOptions {
  std::string tile;     // --sf-tile MxNxK (default: the MMA's M and N, K = 4 scale factors per row)
  std::string problem;  // --sf-problem MxNxK[xL] (default: the tile, L = 1)
  std::string coord;    // --sf-coord m,n,k,l: the tile's coordinate in the problem (default 0,0,0,0)
};

Output run_mma_sf(const ShowOptions& show, const SfOptions& sf);

}  // namespace cutevis

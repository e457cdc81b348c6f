// cutevis — shared-memory matrix descriptors as wgmma (SM90 GMMA) and tcgen05.mma (SM100 UMMA)
// read them: CuTe's make_gmma_desc / make_umma_desc (cute/atom/mma_traits_sm90_gmma.hpp,
// cute/arch/mma_sm100_desc.hpp) on runtime layouts, with CuTe's reasons when a layout is not
// canonical, and the descriptors over every MMA k-block of partition_fragment_A/B.
//
//   SmemDescriptorMatch m = make_smem_descriptor(DescriptorFamily::kGmma, OperandMajor::kK, tile, 16);
//   m.ok, m.canonical ("K_SW128"), m.desc.sbo ...
//   OperandDescriptors d = operand_descriptors(tiled_mma, 'A', smem_a);   // d.blocks[i].desc.bits
//
// Units: start, LBO and SBO in 16 bytes (uint128_t), as the descriptor stores them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/analysis/json.hpp"
#include "lib/swizzle.hpp"

namespace cutevis {

struct TiledMma;

enum class DescriptorFamily { kGmma, kUmma };  // GmmaDescriptor (SM90), UMMA::SmemDescriptor (SM100)
enum class OperandMajor { kK, kMN };

// A 64-bit descriptor's fields.
//   GMMA: start [0,14) | LBO [16,30) | SBO [32,46) | base_offset [49,52) | layout_type [62,64)
//         layout_type: INTERLEAVE 0, B128 1, B64 2, B32 3
//   UMMA: the same, plus version [46,48) (1 on Blackwell), lbo_mode [52,53), layout_type [61,64):
//         SWIZZLE_NONE 0, SWIZZLE_128B_BASE32B 1, SWIZZLE_128B 2, SWIZZLE_64B 4, SWIZZLE_32B 6
struct SmemDescriptor {
  DescriptorFamily family = DescriptorFamily::kGmma;
  int64_t start = 0, lbo = 0, sbo = 0;  // 16-byte units
  int base_offset = 0;
  int layout_type = 0;  // the raw field
  int version = 0;      // UMMA
  int lbo_mode = 0;     // UMMA
  uint64_t bits() const;
  std::string layout_name() const;  // CuTe's to_string(LayoutType): "B128", "SWIZZLE_128B", ...
  // The swizzle the hardware applies to byte addresses (Swizzle<B,4,3>; UMMA's 128B_BASE32B
  // Swizzle<2,5,2>); throws Error for a layout_type no descriptor uses.
  Swizzle swizzle() const;
};
SmemDescriptor decode_descriptor(uint64_t bits, DescriptorFamily family);
std::string descriptor_hex(uint64_t bits);  // "0x%016x"

// make_gmma_desc<Major>(tensor) / make_umma_desc<Major>(tensor) for an (MN,K) shared-memory tensor of
// `element_bits`-bit elements (the tensor<0> of a partition: one MMA's operand), starting at element
// `offset` of the smem allocation.  CuTe's swizzle comes from the smem pointer (GMMA::Layout_*_Atom's
// smem_ptr_flag); a plain layout is INTERLEAVE.
struct SmemDescriptorMatch {
  bool ok = false;
  std::string canonical;  // "K_SW128", "MN_INTER", "MN_SW128_32B", ... (empty when not ok)
  std::string reason;     // when !ok: CuTe's static_assert text first, then what was found
  SmemDescriptor desc;
};
SmemDescriptorMatch make_smem_descriptor(DescriptorFamily family, OperandMajor major, const AnyLayout& tensor,
                                         int element_bits, int64_t offset = 0);

// One operand an MMA reads through descriptors (GMMA SS A and B, RS B; UMMA SS), over a whole
// shared-memory tensor: CuTe's descriptor tensor partition_fragment_A/B, replace<0>(recast<uint128_t>
// (partition), _1:_0) around make_*_desc(tensor<0>(partition)), for thread 0 (warpgroup 0).
struct OperandDescriptors {
  char operand = 'A';
  DescriptorFamily family = DescriptorFamily::kGmma;
  OperandMajor major = OperandMajor::kK;
  int element_bits = 16;
  std::string element_type;   // "half_t"
  SmemDescriptorMatch match;  // on the first MMA's tile
  struct Block {
    int64_t mn = 0, k = 0;  // the fragment's (MMA_M|MMA_N, MMA_K) coordinate
    SmemDescriptor desc;
  };
  std::vector<Block> blocks;  // every (mn, k), k fastest; empty when !match.ok
  // When !match.ok: the canonical atom CuTe would accept for this operand, with the same element
  // order (the MMA's major), tiled to the tensor's shape, as C++ (empty when none fits).
  std::string nearest;
};
// Whether the TiledMMA reads this operand from shared memory through descriptors.
bool reads_by_descriptor(const TiledMma& mma, char operand);
OperandDescriptors operand_descriptors(const TiledMma& mma, char operand, const AnyLayout& smem);

Json to_json(const SmemDescriptor& d);
Json to_json(const OperandDescriptors& d);
std::string to_text(const OperandDescriptors& d);
std::string to_text(const SmemDescriptor& d);

// The canonical layout a descriptor addresses, in elements of `element_bits` bits: an (MN,K) tensor of
// `mn` rows and one MMA's K (256 bits of K; 32 bytes), composed with the descriptor's swizzle as the
// smem pointer applies it, from its start address.  For pictures of what the hardware reads.
AnyLayout descriptor_layout(const SmemDescriptor& d, OperandMajor major, int element_bits, int64_t mn);

}  // namespace cutevis

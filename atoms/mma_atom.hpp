// cutevis — MMA atoms and TiledMMA: the data the catalogue gives every other module.
//
// An MmaAtom is CuTe's MMA_Atom<MMA_Traits<Op>>: Shape_MNK, ThrID and the
// A/B/C TV layouts ((thr,val) -> column-major index into (M,K), (N,K), (M,N)),
// plus what `verify` needs to run the real instruction: the PTX it wraps and
// its register signature (CuTe's arch/ D/A/B/CRegisters).
#pragma once

#include <string>
#include <vector>

#include "lib/lang/expr.hpp"
#include "lib/layout.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

// One operand's registers in the wrapped instruction, per thread:
// CuTe's `using ARegisters = uint32_t[4];` is {"uint32_t", 4}.
struct RegisterSpec {
  std::string c_type;  // "uint32_t", "uint64_t", "float", "double", ...
  int count = 0;
};

enum class OperandSource {
  kRegister,      // fragment in registers
  kSharedMemory,  // GMMA/UMMA shared-memory descriptor (SS, and B of RS)
  kTensorMemory,  // UMMA tensor memory (SM100)
};

struct MmaAtom {
  std::string name;        // CuTe's C++ spelling: SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>
  std::string short_name;  // the short form: SM90_64x128x16_F32F16F16_SS<K,K>
  std::string family;  // "SM61", "SM70", "SM75", "SM80", "SM89", "SM90", "SM90_GMMA", "SM100" (FFMA2), "SM100_UMMA",
                       // "SM120", "Universal"
  int sm = 0;          // 61, 70, 75, 80, 89, 90, 100, 120; 0 for UniversalFMA
  IntTuple shape_mnk;  // Shape_MNK
  Layout thr_id;       // ThrID
  Layout layout_a;     // ALayout: (thr,val) -> (M,K)
  Layout layout_b;     // BLayout: (thr,val) -> (N,K)
  Layout layout_c;     // CLayout: (thr,val) -> (M,N)
  ValueType type_a, type_b, type_c, type_d;  // ValTypeA/B/C/D
  std::string ptx;  // the instruction it wraps ("" for UniversalFMA and SM100 FFMA2: a C++ fma)
  RegisterSpec regs_d, regs_a, regs_b, regs_c;
  OperandSource source_a = OperandSource::kRegister;
  OperandSource source_b = OperandSource::kRegister;
  std::string major_a, major_b;  // "K" or "MN" for GMMA/UMMA, else ""
  // CuTe-style comments, e.g. "(T32,V4) -> (M16,K8)"
  std::string comment_a, comment_b, comment_c;

  // --- what `verify` needs beyond the mnemonic ------------------------------------------
  // `ptx` above is the instruction exactly as CuTe's fma() spells it
  // ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32").  asm_template is the whole
  // asm statement CuTe emits (same tokens; whitespace ours), asm_operands its operand
  // list with CuTe's constraints: "=f"(d0), ... : "r"(a0), ..., "f"(c0), ...
  // Register arrays are named d/a/b/c as in CuTe; GMMA/UMMA descriptors desc_a/desc_b.
  // Kept as CuTe has them even where ptxas 13.0 refuses: SM61_DP2A (`dp2a` wants .lo/.hi)
  // and SM120_16x8x64_TN_VS with float_ue8m0_t,16 (scale_vec::4X with .ue8m0).
  std::string asm_template;
  std::string asm_operands;
  int ptx_calls = 1;    // instructions per fma: 4 for planar complex C64, 3 for Gaussian GC64
  std::string base_op;  // the atom whose instruction a composite repeats ("" if none)
  OperandSource source_c = OperandSource::kRegister;  // UMMA accumulates in tensor memory
  std::string scale_a, scale_b;  // GMMA/UMMA ScaleIn template arguments: "One" or "Neg" ("" if none)
  bool saturate = false;         // _SATURATE (.satfinite) or UMMA::Saturate::True
  // Block-scaled atoms (SM100 MX*, SM120 *_VS): scale-factor type, elements per scale
  // factor, and for SM120 the scale-factor TV layouts (thr,val) -> (M,K) / (N,K).
  ValueType type_sf;
  int sf_vec_size = 0;
  Layout layout_sfa, layout_sfb;
  // 2:4 structured-sparse atoms (SM90 SPARSE GMMA): A's ValTypeA is sparse_elem<2,T>; the metadata
  // E is ValTypeE (sparse_elem<8,uint8_t>, or <4,...> for tf32) laid out by ELayout (thr,val) -> (M,K),
  // passed in ERegisters.  type_e.bits == 0 for every other atom.
  ValueType type_e;
  Layout layout_e;
  RegisterSpec regs_e;
  std::string comment_e;
};

// TiledMMA as CuTe's make_tiled_mma(atom, atom_layout, permutation) builds it.
struct TiledMma {
  MmaAtom atom;
  Layout atom_layout;       // AtomLayoutMNK (thr layout of atoms), default (1,1,1):(0,0,0)
  Tiler permutation;        // PermutationMNK, default (_,_,_)
  Layout thr_layout_vmnk;   // ThrLayoutVMNK
  IntTuple tile_mnk;        // (tile_size_mnk<0>, <1>, <2>)
  int64_t num_threads = 0;  // size(thr_layout_vmnk)
  Layout tv_layout_a;       // get_layoutA_TV: (thr_idx,val) -> column-major (M,K) of the tile
  Layout tv_layout_b;       // get_layoutB_TV: (thr_idx,val) -> (N,K)
  Layout tv_layout_c;       // get_layoutC_TV: (thr_idx,val) -> (M,N)
};

}  // namespace cutevis

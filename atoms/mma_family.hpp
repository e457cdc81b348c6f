// cutevis — internals of the MMA catalogue: the parsed form of an atom name, the
// family interface every generator implements, and helpers shared by the generators.
// Not for other modules: use atoms/mma_catalogue.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"
#include "atoms/mma_catalogue.hpp"

namespace cutevis::mma {

// An atom name after normalization: no whitespace, no `cute::`, `MMA_Atom<>` or `{}`,
// namespaces folded (SM90::GMMA::MMA_64x8x16_... -> SM90_64x8x16_...).
struct AtomName {
  std::string base;                // SM90_64x128x16_F32F16F16_SS
  bool has_targs = false;          // `<...>` present (possibly empty)
  std::vector<std::string> targs;  // top-level template arguments, as written
  std::string text() const;        // base<targs> (for messages)
};
AtomName parse_atom_name(const std::string& text);

// A family decodes the names it owns and lists its atoms (short name, C++ name, sm).
//   decode: std::nullopt when the name is not of this family; an Error (one line, what
//           is wrong) when it is but is invalid.
struct Family {
  const char* label;
  std::optional<MmaAtom> (*decode)(const AtomName&);
  void (*names)(std::vector<ListedMmaAtom>&);
};
std::optional<MmaAtom> decode_sync(const AtomName&);  // mma_sync.cpp: SM70..SM90 mma.sync, SM120
void sync_names(std::vector<ListedMmaAtom>&);
std::optional<MmaAtom> decode_scalar(const AtomName&);  // mma_scalar.cpp: SM61 DP4A/DP2A, UniversalFMA, SM100 FFMA2
void scalar_names(std::vector<ListedMmaAtom>&);
std::optional<MmaAtom> decode_gmma(const AtomName&);  // mma_gmma.cpp: SM90 wgmma
void gmma_names(std::vector<ListedMmaAtom>&);
std::optional<MmaAtom> decode_umma(const AtomName&);  // mma_umma.cpp: SM100 tcgen05.mma
void umma_names(std::vector<ListedMmaAtom>&);

// --- element types as atom names spell them ---------------------------------------------
// One token of a type string such as F32F16F16F32: its C++ type and its PTX name (the
// `token` column of lib/element_types.cpp).
struct ElementType {
  const char* token;  // "F16", "BF16", "TF32", "F32", "C64", "GC64", "S32", "U1", "E4M3", ...
  ValueType type;     // half_t/16, ...
  const char* ptx;    // "f16", ..., "b1"
};
// Split "F32F16F16F32" into element types; Error on an unknown token.
std::vector<ElementType> split_types(const std::string& types);
ValueType value_type(const std::string& cpp_name);  // a known C++ element type, else Error
// The C++ type named in a template argument (half_t, cutlass::half_t, ...), or nullopt.
std::optional<ValueType> parse_value_type(const std::string& arg);
std::string ptx_type(const ValueType& t);  // half_t -> f16, float_e2m1_t -> e2m1, ...

// "GMMA::Major::MN" / "UMMA::Major::K" / "MN" -> "MN"; "" if not a major.
std::string parse_major(const std::string& arg);
// "GMMA::ScaleIn::Neg" / "Neg" -> "Neg"; "" if not a ScaleIn.
std::string parse_scale_in(const std::string& arg);
// "GMMA::SparseSel::One" / "One" -> "One" (a sparse GMMA's metadata selector); "" if not one.
std::string parse_sparse_sel(const std::string& arg);
// "UMMA::Saturate::True" -> "True" (the scope must be written); "" if not a Saturate.
std::string parse_saturate(const std::string& arg);
// An integer template argument (128, _128, Int<128>{}), or nullopt.
std::optional<int64_t> parse_int(const std::string& arg);

// --- building atoms -------------------------------------------------------------------
// "(T32,V4) -> (M16,K8)" for a TV layout onto an (R x C) tile named by `rows`/`cols`.
std::string tv_comment(const Layout& tv, char rows, int64_t r, char cols, int64_t c);
// Fill comment_a/b/c from the layouts and shape_mnk.
void set_comments(MmaAtom& atom);
// Registers of a register-sourced atom, by the rule of CuTe's arch/ structs: 32-bit
// registers (`uint32_t`) pack sub-word A/B values; f32 accumulators are `float`, f64
// `double`, everything else narrower is packed into `uint32_t`.
RegisterSpec packed_registers(const ValueType& t, int64_t values);
// "=f"(d0), "=f"(d1) : "r"(a0), ... and "{%0, %1}, {%2, %3}, ..." for an mma.sync.
void set_sync_asm(MmaAtom& atom);
// "r", "f", "d", "l" for a register C type.
const char* constraint(const std::string& c_type);
// "{%first, %first+1, ...}" with `count` operands.
std::string operand_list(int first, int count);

}  // namespace cutevis::mma

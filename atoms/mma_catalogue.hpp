// cutevis — the MMA atom catalogue: every CuTe MMA atom from SM61 to SM120 by name.
//
// Names are decoded, never looked up in a built table: `SM90_64x200x16_F32F16F16_SS<MN,K>`
// is parsed into (N=200, F32+=F16*F16, SS, majors) and built by the GMMA generator, so
// finding one atom costs microseconds however large the catalogue is.
//
// Accepted spellings (whitespace anywhere):
//   SM80_16x8x16_F32F16F16F32_TN            cute::SM80_16x8x16_F32F16F16F32_TN{}
//   MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>  MMA_Atom<MMA_Traits<SM80_...>>
//   SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>     (short: <K,MN>, none: <K,K>)
//   SM90::GMMA::MMA_64x128x16_F32F16F16_SS<...>   SM90::MMA_16x8x4_F64F64F64F64_TN
//   SM90_64x64x32_F32E4M3E4M3_SS_TN[<>]     SM90_64x64x32_S32S8S8_RS_TN_SATURATE
//   SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>
//   SM120_16x8x32_TN<float_e4m3_t,float_e2m1_t,float>   UniversalFMA<float>
#pragma once

#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"

namespace cutevis {

// Decode any accepted spelling; an unknown or invalid name is an Error that says what
// is wrong and suggests the nearest valid names.
MmaAtom find_mma_atom(const std::string& name);

// Every atom of the catalogue, in family order (see mma_atom_names()).
std::vector<MmaAtom> mma_catalogue();

// One catalogue atom as its family lists it, known without building its layouts: the short
// name (what `list` shows), CuTe's C++ spelling and the architecture, each equal to the built
// atom's short_name, name and sm.  Filtering these first lets `list PATTERN` build only the
// few atoms it keeps (find_mma_atom(short_name)) instead of all 9,093.
struct ListedMmaAtom {
  std::string short_name;
  std::string cpp_name;
  int sm = 0;
};
// Every atom of the catalogue, in the order of mma_catalogue() and mma_atom_names().
const std::vector<ListedMmaAtom>& mma_listing();

// Short names of every catalogue atom; cheap (no layouts are built).  Families with
// free element-type parameters list the type combinations CuTe instantiates for them:
// UMMA f8f6f4/mx kinds list equal A/B types; UniversalFMA lists the common types.
std::vector<std::string> mma_atom_names();

// Whether `name` is spelled like an MMA atom (so a resolver may claim it, and a typo in
// it is an MMA-atom error rather than an unknown name).
bool looks_like_mma_atom(const std::string& name);

// print(MMA_Atom) in our notation (no underscores on integers); with `underscore`,
// byte for byte what CuTe prints.
std::string to_string(const MmaAtom& atom);
std::string to_string(const MmaAtom& atom, bool underscore);

}  // namespace cutevis

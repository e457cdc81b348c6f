// cutevis — an atom by the name a user typed: MMA or copy, whichever catalogue has it.
//
//   find_atom("SM80_16x8x16_F32F16F16F32_TN{}")            -> the MMA atom
//   find_atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>")      -> the copy atom
// A name in neither catalogue gets the error (with suggestions) of the family it looks
// like: names with Copy, LDSM, STSM, CP_ASYNC, TMA ... are taken for copy atoms.
#pragma once

#include <string>
#include <variant>

#include "atoms/copy_atom.hpp"
#include "atoms/mma_atom.hpp"

namespace cutevis {

std::variant<MmaAtom, CopyAtom> find_atom(std::string name);
// Whether a name that neither catalogue knows reads as a copy atom's.
bool looks_like_copy(const std::string& name);

}  // namespace cutevis

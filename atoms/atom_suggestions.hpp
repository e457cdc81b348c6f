// cutevis — the catalogues' lookups with their "did you mean" optional: a name tried in both
// catalogues (atoms/atom_lookup.cpp) shows one message, so only that catalogue searches its names
// for suggestions (the MMA search lists up to 8,771 names, the copy search builds every copy atom).
#pragma once

#include <string>

#include "atoms/copy_atom.hpp"
#include "atoms/mma_atom.hpp"

namespace cutevis {

// find_mma_atom / find_copy_atom (atoms/mma_catalogue.hpp, atoms/copy_catalogue.hpp), whose
// Error names the nearest valid names only when `suggest`.
MmaAtom find_mma_atom(const std::string& name, bool suggest);
CopyAtom find_copy_atom(const std::string& name, bool suggest);

// Whether each MMA family's names all have the letters the suggestion search assumes they do
// (it skips a whole family by the letters a typo lacks of them): for a test.
bool mma_family_texts_hold();

}  // namespace cutevis

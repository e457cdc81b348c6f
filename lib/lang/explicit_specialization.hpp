// cutevis — a traits class the sources specialize for a name of their own:
//
//   template <> struct MMA_Traits<MyAtom> { using Shape_MNK = ...; using ALayout = ...; ... };
//
// found by the trait's name and the argument as written, and its members evaluated (atoms/mma_names.cpp's
// home-made atoms, atoms/copy_names.cpp's home-made copies).
#pragma once

#include <string>

#include "lib/lang/expr.hpp"

namespace cutevis {

struct ClassDef;

// `template <> struct traits<name>` (also written `cute::name`) seen from ev's scope; nullptr if none.
const ClassDef* explicit_specialization(Evaluator& ev, const std::string& traits, const std::string& name);

// Its member `member`, evaluated; an error at `at` naming `needs` (what such traits give) if it has none.
Value specialization_member(Evaluator& ev, const ClassDef& c, const std::string& member, const Node& at,
                            const std::string& needs);

}  // namespace cutevis

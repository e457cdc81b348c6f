// cutevis — what C++ computes at compile time in a user's file, beyond declarations: the
// bodies of constexpr functions, and class templates with their partial specializations
// and base classes.
//
//   template <GMMA::Major major, class T, class BLK_MN, class BLK_K>
//   CUTE_HOST_DEVICE constexpr auto smem_selector() {
//     auto BLK_K0 = size<0>(BLK_K{});
//     static_assert(BLK_K0 % 8 == 0, "BLK_K0 must be a multiple of 8");
//     if constexpr (BLK_K0 % 64 == 0) { return GMMA::Layout_K_SW128_Atom<T>{}; }
//     else { return GMMA::Layout_K_SW64_Atom<T>{}; }
//   }
//   using SmemLayoutAtom = decltype(smem_selector<GMMA::Major::K, half_t, _128, _64>());
//
// The scanner (lib/lang/cpp_scanner.cpp) records each definition; the environment keeps them
// (lib/lang/environment.hpp); a call is run here, statement by statement, by the evaluator
// (if / if constexpr chains, return, local constexpr/auto/using, static_assert).
#pragma once

#include <string>
#include <vector>

#include "lib/lang/declarations.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis {

// A constexpr function defined in a source file (a free function or a static member).
struct FunctionDef {
  // name, scope (what encloses it), file, line and column of its body; text: the body
  // between its braces (comments and the parts of #if groups not read blanked);
  // template_scope/params/defaults: the enclosing struct template, as for its members.
  Declaration decl;
  std::string raw_body;                                          // the same span as written (static_assert's message)
  std::vector<std::string> tparams, tdefaults;                   // its own template header
  std::vector<std::string> params, param_types, param_defaults;  // its parameters ("" no default)
};

// A struct or class the file defines: `template <int S> struct Policy<Sm90<S>> : Base<S> {`.
struct ClassDef {
  std::string name;           // Policy
  std::string scope;          // what encloses it
  std::string members_scope;  // its members' scope (Policy#2 for a second definition of Policy)
  bool is_template = false;
  std::vector<std::string> tparams, tdefaults;
  std::string specialization;      // "Sm90<S>": the arguments a specialization is written for ("" the primary)
  std::vector<std::string> bases;  // the base classes as written
  // Its non-static data members in order, as written, for sizeof (lib/lang/environment.cpp lays them out):
  // `alignas(16) Barrier full_[Stages][2];` -> type "Barrier", extents {"Stages", "2"}, align "16".
  struct DataMember {
    std::string type;                  // "T *" a pointer
    std::vector<std::string> extents;  // outermost first; none for a plain member
    std::string align;                 // alignas(A): "A" ("" none)
  };
  std::vector<DataMember> data_members;
  std::string align;   // `struct alignas(64) X`: "64" ("" none)
  std::string unlaid;  // why sizeof cannot lay it out ("" it can): a union, a bit-field, a member not read
  std::string file;
  int line = 0;
};

// Calls `call` (f(...), f<T, 4>(...), Owner::f(...)) if it names a constexpr function the
// sources define; false otherwise.
bool call_user_function(Evaluator& ev, const Node& call, Value& out);

}  // namespace cutevis

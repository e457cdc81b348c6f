// cutevis — an atom name's template arguments as a kernel writes them: its own template
// parameters and aliases (UniversalFMA<TC,TA,TB>, SM80_CP_ASYNC_CACHEALWAYS<TA>), replaced by
// the type or integer each names (from the file's declarations or a -D).
#pragma once

#include <string>

#include "lib/lang/expr.hpp"

namespace cutevis {

// A bare unqualified name that is not an element type: TA, TypeA, ElementA, bM.
bool is_open_name(const Node& arg);
// The argument with each open name (at any depth of <...>) replaced by its type or integer;
// an undefined one throws the evaluator's unknown-name error (so `names` lists the -D it needs).
Node resolved_template_arg(Evaluator& ev, const Node& arg);
// `name` (SM80_CP_ASYNC_CACHEALWAYS<TA>) with its template arguments resolved, not the name itself.
Node with_resolved_template_args(Evaluator& ev, const Node& name);
// The same as C++ text, for the catalogues that read names as text.
std::string resolved_template_arg_text(Evaluator& ev, const Node& arg);
// A name with its template arguments so resolved, as C++ text without its call part:
// UniversalFMA<float,float,float> for UniversalFMA<TC,TA,TB>{}.
std::string resolved_name_text(Evaluator& ev, const Node& name, const char* separator = ",");

}  // namespace cutevis

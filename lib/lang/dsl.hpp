// cutevis — CuTeDSL (Python) as a front end of the one expression language.
//
//   cute.make_layout((4, 8), stride=(1, 4))          == (4,8):(1,4)
//   cute.logical_divide(L, (2, None))                 == logical_divide(L, make_tile(2,_))
//   cute.size(L, mode=[0])                            == size<0>(L)
//
// parse_dsl_expression() reads CuTeDSL's Python spelling into the same Node tree that
// parse_expression() builds for C++ and CuTe's printed notation, so one evaluator gives
// the same objects.  Python-only forms map onto Nodes as follows:
//   a.b.c            one kName "a.b.c" (module paths are canonicalised: `cutlass.cute.` and
//                    `cutlass.` drop, `warpgroup.X` is `cute.nvgpu.warpgroup.X`, the helper
//                    modules are `sm90_utils.` / `sm100_utils.` whatever they were imported as)
//   f(x, k=v)        kName with args; an argument written `k=v` carries Node::keyword "k"
//   (a,) [a, b]      kTuple; `(a)` is just `a`, as in Python
//   None             kUnderscore (CuTeDSL's None is CuTe's `_` in tilers and coordinates)
//   True / False     kName "True" / "False"
//   a+b a-b a*b a//b a%b -a   kName "py.add" / "py.sub" / "py.mul" / "py.floordiv" / "py.mod" / "py.neg"
//   x[i]             kName "py.getitem" (x, i);  min(...) / max(...) are "py.min" / "py.max"
//   (e).attr         kName "py.attr" (e, attr); `name.attr` with a declared `name` stays one dotted
//                    name.  Either calls the builtin "py.attr.ATTR" with the object first: the
//                    attributes and methods of values (layout.shape, tiled_mma.tv_layout_C_tiled,
//                    tiled_mma.partition_shape_A(s)) are builtins "py.attr.shape", ...
//   f(..., loc=loc, ip=ip)   MLIR's location keywords are accepted and ignored
// The `cute.*` names are registered by register_dsl_algebra (lib/lang/dsl_builtins.cpp): each binds
// CuTeDSL's keyword parameters and calls the C++ builtin of the same meaning.  The atoms and
// tilings (cute.nvgpu.*, cute.make_mma_atom, sm90_utils.*, ...) are registered by atoms/.
#pragma once

#include <string>
#include <vector>

#include "lib/lang/declarations.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis {

// Parse one CuTeDSL expression; throws Error with the position of the bad spot (and a hint
// when C++ or CuTe's printed notation was probably meant).
Node parse_dsl_expression(const std::string& text);

// Whether `text` is spelled in CuTeDSL: it names a DSL module (`cute.`, `cutlass.`,
// `sm90_utils.`, `warpgroup.`, ... followed by a dot), `self.`, or None/True/False.
// C++ and CuTe's printed notation never do, so detection is unambiguous for them.
bool looks_like_dsl(const std::string& text);

// A hint for a C++ parse error when the text uses a CuTeDSL spelling (keyword arguments,
// None), or "" (used by parse_expression's error path).
std::string dsl_hint_for_cpp_error(const std::string& text);

// Parse in the given syntax (kAuto: looks_like_dsl decides).
Node parse_in_syntax(const std::string& text, Syntax syntax);

// The assignments of a Python source (a CuTeDSL kernel): `name = expr` and `self.attr = expr`
// at any indentation (module constants, function and method bodies), `name: T = expr`.
// Each is a Declaration with language kPython; its scope is the enclosing classes and
// functions, "::"-joined (for `self.x`, the enclosing classes only: an attribute set in
// __init__ is seen from every method).  Tuple targets, augmented assignments, strings and comments are
// skipped; the expressions are not parsed here (they are parsed lazily when named).
std::vector<Declaration> scan_python(const std::string& text, const std::string& file);

// CuTeDSL's argument binding for a call node `n` of a function with parameters `params`
// (the first `required` of them required): the argument node bound to each parameter,
// positionally or by keyword, or nullptr where it is left out or given as None.  Unknown or
// repeated keywords, too many arguments and missing required ones are Errors at the call.
std::vector<const Node*> bind_dsl_args(Evaluator& ev, const Node& n, const std::vector<const char*>& params,
                                       size_t required);

// A copy of call `n` that calls the registered (C++) function `cpp` with `args` (up to the
// first nullptr; keywords dropped) and, if given, the integers of `modes` (one, or a tuple
// or list of them) as template arguments: the C++ builtin does the work, and errors still
// point into the DSL text.
Node cpp_call(const Node& n, const std::string& cpp, const std::vector<const Node*>& args, const Node* modes = nullptr);

// The members of a CuTeDSL enum class ("OperandMajorMode" -> K, MN); a member written
// `...OperandMajorMode.K` evaluates to the tag "OperandMajorMode.K".  Empty for an unknown class.
std::vector<std::string> dsl_enum_members(const std::string& cls);

// The CuTeDSL names of the layout algebra (cute.make_layout, cute.logical_divide, ...).
void register_dsl_algebra(Registry& r);

}  // namespace cutevis

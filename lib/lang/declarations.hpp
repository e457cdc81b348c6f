// cutevis — declarations collected from source files (C++ or CuTeDSL Python) and -D.
//
//   using SmemLayoutA = decltype(tile_to_shape(...));   -> {"SmemLayoutA", "...", kCpp}
//   sA_layout = cute.make_layout((128, 64), stride=(64, 1))   -> {"sA_layout", "...", kPython}
//
// A scanner only finds the text of each definition; it is parsed and evaluated lazily,
// when an expression names it, by the same evaluator as every other expression.
#pragma once

#include <string>
#include <vector>

namespace cutevis {

enum class SourceLanguage { kCpp, kPython };

// A branch of the if / else-if / else chain that gives a default-size local its value (Declaration::default_branches).
struct DefaultBranch {
  std::string condition;  // as written; "" for the closing else
  int line = 0;
  bool fails = false;      // assert(false) or a throw: the program stops there
  std::string value;       // what it assigns the local, as written; "" where it assigns nothing
  std::string written_at;  // where it does: "`ldA = m` at line 516"
};

struct Declaration {
  std::string name;   // the declared name: "SmemLayoutA", "bM", "self.tile_shape"
  std::string scope;  // enclosing namespaces/structs/classes, "::"-joined ("" at file scope)
  std::string text;   // the defining expression or type, as written
  SourceLanguage language = SourceLanguage::kCpp;
  std::string file;          // "" for -D, "-" for standard input
  int line = 0, column = 0;  // 1-based position of `text` in `file`
  // Declared inside a template (an alias template's own header, or a struct template's members):
  // the template's qualified name and its parameters in order, each with its default ("" none).
  // Cfg<half_t>::SmemLayoutA and SmemLayoutAtom<half_t, 32> bind them (lib/lang/environment.cpp).
  std::string template_scope;
  std::vector<std::string> template_params, template_defaults;
  // Read from a header the file #includes (-I): found only where C++ finds it, from an enclosing
  // namespace or by qualification, never as a look-alike of a name the file leaves open.
  bool from_header = false;
  // `using cutlass::detail::TagToStrideA_t;` in a namespace: text is the qualified name it brings
  // in, found where that name is (lib/lang/environment.cpp)
  bool using_declaration = false;
  // A parameter bound from a call in the same file (a kernel's `class SmemLayoutA` from its launch
  // `gemm_device<decltype(sA), ...>` or `gemm_device<<<...>>>(..., sA, ...)`): text is the caller's
  // argument, read in the caller's scope (`gemm_nt`), not in `scope` where the name is found.
  std::string read_in = {};
  // A function's local that the function changes after its declaration (`int m = 512;` then
  // `sscanf(argv[1], "%d", &m)` or `ldA = m;` in a branch): its initializer is only where it starts,
  // so it has no value here; this says where it changes (lib/lang/launch_binding.cpp).  A -D gives one.
  std::string changed_at = {};
  // A local whose only changes after its initializer read the program's command line (`int m = 512;` then
  // `sscanf(argv[1], "%d", &m)`): read at its initializer's value, the program's default problem size, said in a
  // note beside the value (Environment::command_line_note); this says what changes it and where ("argv[1] changes
  // it at line 586").  A -D gives another.
  std::string command_line_at = {};
  // A local whose other changes are plain assignments in one if / else-if / else chain among its function's own
  // statements (`int ldA = 0; if (transA == 'N') { ldA = m; } else if (transA == 'T') { ldA = k; }`): the
  // chain's branches, in order.  Read at the program's default as the chain gives it there: the first branch
  // whose condition holds (conditions and values of compile-time values and other defaults), else the
  // initializer (Environment::resolve).  A -D gives another.
  std::vector<DefaultBranch> default_branches = {};
};

// The scope a declaration's text is read in: the caller's for a bound parameter, else its own.
inline const std::string& reading_scope(const Declaration& d) { return d.read_in.empty() ? d.scope : d.read_in; }

}  // namespace cutevis

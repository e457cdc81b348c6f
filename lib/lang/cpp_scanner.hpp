// cutevis — the declarations of C++ text, found without a compiler: files read with
// --from, and snippets of several `;`-separated statements.
//
//   using X = T;   using X = decltype(E);   typedef T X;   auto x = E;   Type x = E;
//   constexpr int N = E;   static constexpr auto N = E;   Type x;   Type x{};   #define N 128
//   (in the parts of #if/#ifdef/#elif/#else groups that the given macros select)
//   template <class T = Default, int N = 4>   (defaults are definitions; parameters without one are listed)
//
// inside namespaces, structs, functions and templates alike; the scope of each is the
// "::"-joined names of what encloses it.  Everything else (includes, statements, kernel
// bodies, host code) is skipped.  Comments become spaces, so positions stay exact.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lib/lang/declarations.hpp"
#include "lib/lang/functions.hpp"
#include "lib/lang/preprocessor.hpp"

namespace cutevis {

struct CppScan {
  std::vector<Declaration> declarations;
  // Template and function parameters without a default: what -D must give (text "").
  std::vector<Declaration> parameters;
  // The preprocessor's notes: conditions decided without a value, unbalanced #if groups.
  std::vector<PreprocessorNote> notes;
  // The macros at the end of the file (its own #define/#undef and its headers'): what a file
  // that #includes it reads on with.
  std::map<std::string, std::string> macros;
  // constexpr functions (their bodies are not read for declarations) and structs/classes.
  std::vector<FunctionDef> functions;
  std::vector<ClassDef> classes;
};

// Called at each #include in a part of the file that is read: `name` as written, in <> or not,
// its 1-based line, and the macros at that point, which the header's #define/#undef update.
// (lib/ reads no files: app/includes.cpp finds, reads and scans the header.)
using IncludeHook =
    std::function<void(const std::string& name, bool angled, int line, std::map<std::string, std::string>& macros)>;

// `file` names the source in positions ("-" for standard input).  `macros` are the -D and
// --arch values #if reads (lib/lang/preprocessor.hpp): the parts of #if groups a compile with
// them would not read are skipped.  `include`, when given, is called at each #include; `state`,
// when given, is the macros in effect where the file is included (the file may #define and #undef
// them; `macros` win over them).
CppScan scan_cpp(const std::string& text, const std::string& file,
                 const std::map<std::string, std::string>& macros = {}, const IncludeHook* include = nullptr,
                 const std::map<std::string, std::string>* state = nullptr);

// A snippet: its declarations, and its result — the last statement: a declared name
// (result_name) or an expression (the byte span [result_begin, result_end) of the text).
struct CppSnippet {
  std::vector<Declaration> declarations;
  std::vector<FunctionDef> functions;  // constexpr functions and structs, as CppScan's
  std::vector<ClassDef> classes;
  std::string result_name;  // qualified, when the last statement declares
  size_t result_begin = 0, result_end = 0;
};
CppSnippet scan_cpp_snippet(const std::string& text, const std::string& file);

// Whether text is a snippet (has statements) rather than one expression.
bool looks_like_snippet(const std::string& text);

}  // namespace cutevis

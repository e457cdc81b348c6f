// cutevis — declarations from files and -D for every command that takes an expression:
//
//   cutevis eval --from kernel.cu -D bM=128 'SmemLayoutA{}'
//   cutevis mma --from collective.hpp TiledMma
//   cutevis eval 'using A = Layout<Shape<_4,_8>>; auto b = coalesce(A{});'   (a snippet: the result is b)
//   cutevis names --from kernel.cu [-D ...] [--json]
//
// Files are read here (lib/ knows no files); the scanners and the name environment are
// lib's (lib/lang/cpp_scanner.hpp, lib/lang/environment.hpp).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "lib/lang/environment.hpp"

namespace cutevis {

struct SourceOptions {
  std::vector<std::string> from;          // --from FILE (repeatable; "-" is standard input)
  std::vector<std::string> defines;       // -D NAME=VALUE (repeatable)
  std::string arch;                       // --arch smXX: #if reads __CUDA_ARCH__ = XX*10 (lib/lang/preprocessor.hpp)
  std::vector<std::string> include_dirs;  // -I DIR (repeatable): where #include looks (app/includes.hpp)
  std::vector<std::string> pre_includes;  // -include FILE (repeatable): read first, as gcc's -include does
  bool empty() const { return from.empty() && defines.empty(); }
};

// The options as the files are read with: each --from file's folder settings (.cutevis or
// cutevis.toml, app/includes.hpp) add their -D where the command line gives none of that name and
// their --arch when none is given; include_dirs becomes the whole search path (-I, the settings'
// folders, then the environment's: CUTEVIS_INCLUDE_PATH, CPATH, CPLUS_INCLUDE_PATH, CUTLASS_PATH).
SourceOptions resolved_sources(const SourceOptions& options);

// The declarations of the files and the -D definitions; nullptr when there are none (the
// plain expression path stays as fast as it was).  Throws Error for unreadable, oversized,
// binary or unsupported files and malformed -D.  The preprocessor's notes (an #if decided
// without a value) are the environment's first warnings (Environment::take_warnings).
std::shared_ptr<Environment> load_sources(const SourceOptions& options);
// The macros #if reads: --arch's __CUDA_ARCH__ and __CUDACC__, then the -D values (which win).
std::map<std::string, std::string> source_macros(const SourceOptions& options);

// One --from file's text (checked: size, not binary), and one -D NAME=VALUE as a definition
// (for `cutevis check`, which scans its files once for many configurations).
std::string read_source(const std::string& path);
Declaration parse_define(const std::string& define);

// An expression or a snippet, evaluated with the declared names (env may be null); a
// CuTeDSL expression (syntax kDsl, or kAuto and spelled in the DSL) is one expression.
// Warnings (composition's check, ...) are appended to `warnings` when given.
Value evaluate_source(const std::string& text, Environment* env, Syntax syntax = Syntax::kAuto,
                      std::vector<Warning>* warnings = nullptr);

struct NamesOptions {
  SourceOptions sources;
  bool json = false;
  std::shared_ptr<Environment> env;  // the sources already loaded (else run_names loads them)
};
// `cutevis names`: every declared name, its kind and CuTe print, or why it is unresolved
// and which -D would resolve it.
Output run_names(const NamesOptions& options);

// The text for stderr of any Error: FILE:LINE:COL and the declaration's line for errors in
// files, every undefined name with a caret and the -D to give, else format_error's.
std::string describe_error(const Error& error, const std::string& source);

}  // namespace cutevis

// cutevis — #include followed into the user's own headers and CUTLASS checkout, so that a kernel's
// CUTLASS helpers (arch tags, dispatch policies, ...) are read as CUTLASS writes them:
//
//   cutevis names --from kernel.cu -I ~/cutlass/include -I csrc
//   CUTLASS_PATH=~/cutlass cutevis names --from kernel.cu          ($CUTLASS_PATH/include)
//   kernel.cu's folder holds .cutevis (or cutevis.toml):  include = ["../cutlass/include"]
//
// The folders searched, in order: -I, the settings file of each --from file's folder,
// $CUTEVIS_INCLUDE_PATH, $CPATH and $CPLUS_INCLUDE_PATH (colon-separated), $CUTLASS_PATH/include.
// `#include "x"` looks beside the including file first.  What is read:
//   * CuTe's own headers (cute/...): never — CuTe is built in;
//   * system and CUDA headers (<cstdint>, <cuda_runtime.h>, thrust/, cub/, cuda/, ...): never;
//   * every other header found: once (as #pragma once / include guards would), with the macros
//     in effect where it is included (its #defines count after it), nested at most kMaxDepth deep,
//     at most kMaxFiles files and kMaxBytes in all;
//   * a header not found: a note naming it (not an error).
// Declarations read from headers are marked from_header: found only from an enclosing scope or
// by qualification (lib/lang/environment.cpp), and not listed by `cutevis names`.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/header_cache.hpp"
#include "lib/lang/cpp_scanner.hpp"

namespace cutevis {

// A folder's settings file: `.cutevis` or `cutevis.toml` (the first found, in that order).
//
//   # comments start with '#'
//   include = ["../cutlass/include", "csrc"]    # folders #include searches (relative: to this file)
//   define  = ["kHeadDim=128", "Element=cutlass::half_t"]   # default -D (a -D given wins)
//   arch    = "sm90"                             # default --arch
//   pre_include = ["cutlass/gemm/collective/collective_builder_decl.hpp"]   # default -include
//
// Keys are these four; values a "string" or an array of them (which may span lines).
struct FolderSettings {
  std::string file;  // the settings file read ("" when the folder has none)
  std::vector<std::string> include_dirs, defines, pre_includes;
  std::string arch;
};
// Throws Error "FILE:LINE: ..." for a malformed file.
FolderSettings folder_settings(const std::string& folder);

// The include folders of the environment: $CUTEVIS_INCLUDE_PATH, $CPATH, $CPLUS_INCLUDE_PATH,
// then $CUTLASS_PATH/include (or $CUTLASS_PATH when it has no include/).
std::vector<std::string> environment_include_dirs();

// The macros a compile of CUDA C++ defines before any file (__cplusplus, __CUDACC__, the nvcc
// version): the headers' #if read them.  __CUDA_ARCH__ only comes from --arch or -D.
std::map<std::string, std::string> compiler_macros();

struct IncludeStats {
  size_t headers_read = 0, bytes_read = 0;
  size_t cute_skipped = 0, system_skipped = 0, repeated = 0;
  std::vector<std::string> not_found;       // as written, once each
  size_t cache_hits = 0, cache_misses = 0;  // a --from file's #includes found in the header cache or not
};

// Reads the files of one command: headers shared by several --from files are read once.
class IncludeReader {
 public:
  static constexpr int kMaxDepth = 32;
  static constexpr size_t kMaxFiles = 4000;
  static constexpr size_t kMaxBytes = size_t{64} << 20;

  // `cache`: where a --from file's #includes are kept between runs (app/header_cache.hpp).
  explicit IncludeReader(std::vector<std::string> dirs, HeaderCache cache = HeaderCache());

  // `text` of the file `path`, with the headers it includes: the headers' declarations and
  // parameters (from_header) come first, then the file's own; the file's notes, plus one note
  // for headers not found and one if a limit stopped the reading.
  CppScan scan(const std::string& text, const std::string& path, const std::map<std::string, std::string>& macros);

  // Leave the declarations of cached headers in the cache's bytes (HeaderCacheEntry::deferred):
  // scan() then lists them in deferred(), not in its declarations.
  void defer_cached_declarations(bool defer) { defer_ = defer; }
  // gcc's -include FILE: each file is read before every scanned file's first line, as if that
  // file began with #include "FILE" (its declarations are from_header, its #defines count).
  // FILE is looked for in the working folder, then beside the scanned file, then in the
  // include folders; scan() throws Error when it is in none.
  void set_pre_includes(std::vector<std::string> files) { pre_includes_ = std::move(files); }
  // Of the last scan(): each deferred source with the indices, in scan().declarations and
  // scan().parameters, of the declaration and parameter it comes before (Environment::add_deferred
  // and add_deferred_parameters it there).
  struct DeferredAt {
    size_t declaration, parameter;
    std::shared_ptr<const DeferredDeclarations> source;
  };
  const std::vector<DeferredAt>& deferred() const { return deferred_; }

  const IncludeStats& stats() const { return stats_; }
  const std::vector<std::string>& dirs() const { return dirs_; }
  // Where #include NAME from the file `from` ("-": none) is found; "" when it is not.
  std::string find(const std::string& name, bool angled, const std::string& from) const;

 private:
  void include(const std::string& name, bool angled, const std::string& from, int depth,
               std::map<std::string, std::string>& macros);

  // A --from file's own #include, from the cache or read and then kept there.
  void cached_include(const std::string& name, const std::string& path, const std::string& canonical,
                      std::map<std::string, std::string>& macros);
  void read_header(const std::string& path, const std::string& text, int depth,
                   std::map<std::string, std::string>& macros);

  std::vector<std::string> dirs_;
  std::vector<std::string> pre_includes_;
  HeaderCache cache_;
  std::vector<CachedFile> read_log_;  // every header read, in order
  std::set<std::string> seen_;        // canonical paths read (or being read)
  IncludeStats stats_;
  std::vector<Declaration> declarations_, parameters_;  // of the headers, in the order read
  std::vector<FunctionDef> functions_;
  std::vector<ClassDef> classes_;
  std::map<std::string, std::string> given_;  // -D and --arch: they win in every header
  bool defer_ = false;
  std::vector<DeferredAt> deferred_;
  bool limited_ = false;
  std::string limit_note_;
};

// Adds what IncludeReader::scan gave to `env`: the declarations and parameters in order, each of
// `deferred` (IncludeReader::deferred() after that scan) in its place, then the functions and
// classes.  (By value: `cutevis check` adds one scan to an environment per configuration.)
void add_scan(Environment& env, CppScan scan, const std::vector<IncludeReader::DeferredAt>& deferred);

}  // namespace cutevis

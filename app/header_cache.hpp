// cutevis — the declarations read from a --from file's headers, kept on disk so that the next run
// does not scan them again (a CUTLASS kernel's includes are ~5 MB in ~190 files; scanning them
// costs ~0.2 s, loading their declarations a tenth of that).
//
// One entry per #include of a --from file (everything that include reads, nested headers too),
// named by a hash of: this cutevis binary (its size and time: a new build reads anew), the
// header's path and content, the include folders, the -D/--arch values, the macros where it is
// included and the headers already read.  An entry also lists every file it read with its size
// and modification time; a file that changed since makes it stale (read anew).
//
// Where: $CUTEVIS_CACHE_DIR, else $XDG_CACHE_HOME/cutevis/headers, else ~/.cache/cutevis/headers;
// CUTEVIS_CACHE_DIR=off turns it off.  Entries are written to a temporary file and renamed (a
// reader never sees half of one); each ends with a checksum (a corrupt or truncated entry is
// ignored); the folder is kept under kMaxCacheBytes by removing the oldest entries.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/lang/declarations.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/functions.hpp"

namespace cutevis {

constexpr uint64_t kMaxCacheBytes = uint64_t{256} << 20;

// A file an entry read, as it was then.
struct CachedFile {
  std::string path;       // as shown in positions
  std::string canonical;  // for "read once"
  uint64_t size = 0;
  int64_t mtime_ns = 0;
};

struct HeaderCacheEntry {
  std::vector<Declaration> declarations, parameters;
  // load(key, true): the declarations and parameters are left in the entry's bytes, indexed by
  // name and decoded when a lookup names them (declarations and parameters are then empty)
  std::shared_ptr<const DeferredDeclarations> deferred;
  std::vector<FunctionDef> functions;  // constexpr functions and structs (lib/lang/functions.hpp)
  std::vector<ClassDef> classes;
  std::map<std::string, std::string> macros_after;
  std::vector<CachedFile> files;
  std::vector<std::string> not_found;
  uint64_t bytes_read = 0, cute_skipped = 0, system_skipped = 0, repeated = 0;
};

// 64-bit FNV-1a, continued from `seed`.
uint64_t fnv1a(const std::string& bytes, uint64_t seed = 14695981039346656037ull);
uint64_t fnv1a(const char* bytes, size_t size, uint64_t seed = 14695981039346656037ull);

class HeaderCache {
 public:
  HeaderCache();  // the folder from the environment (above); disabled if none can be named
  explicit HeaderCache(std::string folder) : folder_(std::move(folder)) {}
  bool enabled() const { return !folder_.empty(); }
  const std::string& folder() const { return folder_; }

  // The entry for `key`, if present, whole and fresh (every file it read unchanged); `defer`:
  // its declarations deferred (HeaderCacheEntry::deferred).
  std::optional<HeaderCacheEntry> load(uint64_t key, bool defer = false) const;
  // Writes the entry (atomically); failures are silent: the cache is an optimization.
  void store(uint64_t key, const HeaderCacheEntry& entry) const;

  // The size and modification time of `path` (false if it cannot be read).
  static bool stat_file(const std::string& path, uint64_t& size, int64_t& mtime_ns);
  // A hash of the running binary (size, time): entries of another build are not used.
  static uint64_t binary_stamp();

 private:
  std::string path_of(uint64_t key) const;
  void trim() const;
  std::string folder_;
};

}  // namespace cutevis

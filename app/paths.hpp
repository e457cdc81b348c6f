// cutevis — paths as docs and batch contain them: absolute, normalized, every symbolic link of
// the existing part resolved, and whether one lies below another.  (Writing is app/output.hpp.)
#pragma once

#include <filesystem>
#include <string>

namespace cutevis {

// `p` absolute (against the working folder) and lexically normal; `p` itself when that fails.
std::filesystem::path absolute_normal(const std::filesystem::path& p);

// The path with every symbolic link of its existing part resolved (the rest appended): a dangling
// final link (x.svg -> /elsewhere/new.svg) is followed first, as writing would.
std::filesystem::path resolved(const std::filesystem::path& p);

// `inner` is `outer` or below it (both absolute and normal).
bool is_within(const std::filesystem::path& inner, const std::filesystem::path& outer);

// The nearest folder above `file` that holds .git, else the file's folder; absolute, links resolved.
std::filesystem::path repository_root(const std::string& file);

}  // namespace cutevis

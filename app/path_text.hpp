// cutevis — POSIX paths as strings, for the code the page links too (app/includes.cpp,
// app/output.cpp): what those files took from std::filesystem, with its answers (checked
// against it in tests/app/path_text_test.cpp).  std::filesystem and the error messages it
// formats were 10 KB of the page's .wasm; docs and batch (not in the page) keep using it
// through app/paths.hpp.
#pragma once

#include <string>
#include <string_view>

namespace cutevis {

// std::filesystem::path's `dir / name`: `name` when it is absolute, else `dir`, a '/' unless
// `dir` is empty or already ends in one, and `name`.
std::string path_join(std::string_view dir, std::string_view name);

// path::parent_path(): the path without its last element and the separators before it
// ("a/b" -> "a", "a/b/" -> "a/b", "//a" -> "/", "a" -> ""); a root alone ("/", "//") is its own
// parent.  Where libstdc++ and libc++ differ (leading "//"), libstdc++'s answer, which the native
// CLI gave before.
std::string path_parent(std::string_view p);

// path::lexically_normal(): no "." elements, "x/.." pairs removed, one '/' between elements,
// ".." at the root dropped; a trailing '/' kept unless the last element is ".."; "." if empty; a
// root alone ("//") unchanged, as libstdc++ leaves it.
std::string path_normal(std::string_view p);

inline bool path_is_absolute(std::string_view p) { return !p.empty() && p.front() == '/'; }

// std::filesystem::absolute(): `p` joined to the working folder (not normalized).
std::string absolute_path(const std::string& p);

// stat(2) says so (links followed); false when it fails.
bool is_regular_file(const std::string& p);
bool is_directory(const std::string& p);

// The path with every link and "."/".." resolved (realpath(3)) when the file exists, else `p`:
// what weakly_canonical gives for an existing file, the key under which a header is read once.
std::string real_path_or_same(const std::string& p);

// readlink(2) in full: the link's target, or false with errno set.
bool read_symlink(const std::string& p, std::string& target);

// create_directories(): every missing folder of `dir` made; 0, or the errno of the step that
// failed (ENOTDIR when something other than a folder is in the way).
int make_directories(const std::string& dir);

}  // namespace cutevis

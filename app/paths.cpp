#include "app/paths.hpp"

namespace cutevis {

namespace fs = std::filesystem;

fs::path absolute_normal(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return (ec ? p : a).lexically_normal();
}

// The path with every symbolic link of its existing part resolved.
fs::path resolved(const fs::path& p) {
  // weakly_canonical stops at a dangling link (x.svg -> /elsewhere/new.svg): follow the
  // final component's links first, as writing would
  fs::path q = absolute_normal(p);
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(q, ec)) || ec) break;
    const fs::path target = fs::read_symlink(q, ec);
    if (ec) break;
    q = (target.is_absolute() ? target : q.parent_path() / target).lexically_normal();
  }
  std::error_code ec;
  fs::path r = fs::weakly_canonical(q, ec);
  return ec ? q : r;
}

bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty() && std::next(o) == outer.end()) return true;  // "dir/" ends in an empty element
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

fs::path repository_root(const std::string& file) {
  fs::path dir = resolved(file).parent_path();
  for (fs::path d = dir;; d = d.parent_path()) {
    std::error_code ec;
    if (fs::exists(d / ".git", ec)) return d;
    if (d == d.parent_path() || d.empty()) break;
  }
  return dir;  // no repository: the file's folder
}

}  // namespace cutevis

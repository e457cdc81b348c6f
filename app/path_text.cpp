#include "app/path_text.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <vector>

namespace cutevis {

std::string path_join(std::string_view dir, std::string_view name) {
  if (path_is_absolute(name)) return std::string(name);
  std::string out(dir);
  if (!out.empty() && out.back() != '/') out += '/';
  out += name;
  return out;
}

std::string path_parent(std::string_view p) {
  if (p.find_first_not_of('/') == std::string_view::npos) return std::string(p);  // "", or a root alone
  size_t end = p.size();
  if (p.back() == '/') {  // the last element is the empty name after the separator
    while (end > 0 && p[end - 1] == '/') --end;
    return std::string(p.substr(0, end));
  }
  const size_t slash = p.rfind('/');
  if (slash == std::string_view::npos) return "";  // one name
  size_t cut = slash;
  while (cut > 0 && p[cut - 1] == '/') --cut;
  if (cut == 0) return "/";  // the root
  return std::string(p.substr(0, cut));
}

std::string path_normal(std::string_view p) {
  if (p.find_first_not_of('/') == std::string_view::npos) return std::string(p);  // "", or a root alone
  const bool absolute = path_is_absolute(p);
  std::vector<std::string_view> names;
  bool trailing = false;  // the normal path ends in '/'
  for (size_t at = 0; at < p.size();) {
    const size_t end = std::min(p.find('/', at), p.size());
    const std::string_view name = p.substr(at, end - at);
    at = end + 1;
    if (name.empty()) continue;
    trailing = false;
    if (name == ".") {
      trailing = true;  // "a/." is "a/"
    } else if (name == ".." && !names.empty() && names.back() != "..") {
      names.pop_back();
      trailing = true;  // "a/b/.." is "a/"
    } else if (name != ".." || !absolute) {
      names.push_back(name);  // ("/.." is "/")
    }
  }
  if (p.back() == '/') trailing = true;
  if (names.empty()) return absolute ? "/" : ".";
  if (names.back() == "..") trailing = false;
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += '/';
    out += names[i];
  }
  if (trailing) out += '/';
  return out;
}

std::string absolute_path(const std::string& p) {
  if (path_is_absolute(p)) return p;
  std::vector<char> buf(PATH_MAX);
  while (!::getcwd(buf.data(), buf.size())) {
    if (errno != ERANGE) return p;
    buf.resize(buf.size() * 2);
  }
  return path_join(buf.data(), p);
}

bool is_regular_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_directory(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string real_path_or_same(const std::string& p) {
  char* real = ::realpath(p.c_str(), nullptr);
  if (!real) return p;
  std::string out = real;
  std::free(real);
  return out;
}

bool read_symlink(const std::string& p, std::string& target) {
  std::vector<char> buf(256);
  for (;;) {
    const ssize_t n = ::readlink(p.c_str(), buf.data(), buf.size());
    if (n < 0) return false;
    if (static_cast<size_t>(n) < buf.size()) {
      target.assign(buf.data(), static_cast<size_t>(n));
      return true;
    }
    buf.resize(buf.size() * 2);  // perhaps cut short: read again into more
  }
}

int make_directories(const std::string& dir) {
  size_t end = dir.find_first_not_of('/');  // the first name, past the root
  for (;;) {
    if (end != std::string::npos) end = dir.find('/', end);
    const std::string prefix = dir.substr(0, end);  // the folders up to this name
    if (::mkdir(prefix.c_str(), 0777) != 0) {
      if (errno != EEXIST) return errno;
      if (!is_directory(prefix)) return ENOTDIR;
    }
    if (end == std::string::npos) return 0;
    end = dir.find_first_not_of('/', end);  // the next name ("a//b/": b, then none)
    if (end == std::string::npos) return 0;
  }
}

}  // namespace cutevis

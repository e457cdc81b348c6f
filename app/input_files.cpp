#include "app/input_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "lib/error.hpp"

namespace cutevis {

namespace {

constexpr long kProcMagic = 0x9fa0, kSysfsMagic = 0x62656572, kDebugfsMagic = 0x64626720;

std::string megabytes(size_t bytes) {
  if (bytes >= (size_t{1} << 20)) return std::to_string(bytes >> 20) + " MB";
  return std::to_string(bytes) + " bytes";
}

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void too_big(const std::string& what, const std::string& path, size_t cap) {
  throw Error(what + " " + path + ": larger than " + megabytes(cap) +
              ", the limit for input files (CUTEVIS_MAX_INPUT_MB=N raises it)");
}

// Reads fd up to cap + 1 bytes; false: more than cap.
bool read_bounded(int fd, std::string& out, size_t cap, size_t hint) {
  out.clear();
  out.resize(std::min(hint, cap) + 1);
  size_t have = 0;
  for (;;) {
    if (have == out.size()) {
      if (out.size() > cap) break;
      out.resize(std::min(cap + 1, out.size() * 2 + 4096));
    }
    ssize_t n = ::read(fd, out.data() + have, out.size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(std::strerror(errno));
    }
    if (n == 0) break;
    have += static_cast<size_t>(n);
  }
  out.resize(have);
  return have <= cap;
}

void drop_bom(std::string& s) {
  if (s.size() >= 3 && s.compare(0, 3, "\xEF\xBB\xBF") == 0) s.erase(0, 3);
}

}  // namespace

size_t max_input_bytes(size_t default_bytes) {
  if (const char* v = std::getenv("CUTEVIS_MAX_INPUT_MB")) {
    char* end = nullptr;
    const long mb = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && mb >= 1 && mb <= 65536) return static_cast<size_t>(mb) << 20;
  }
  return default_bytes;
}

std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes, Links links) {
  const size_t cap = max_bytes ? max_bytes : max_input_bytes();
  std::string text;
  if (path == "-") {
    try {
      if (!read_bounded(STDIN_FILENO, text, cap, 1 << 16)) too_big(what, "- (standard input)", cap);
    } catch (const Error& e) {
      if (std::string(e.what()).rfind(what, 0) == 0) throw;
      throw Error(what + " - (standard input): " + e.what());
    }
    drop_bom(text);
    return text;
  }
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (links == Links::kNever ? O_NOFOLLOW : 0));
  if (fd < 0 && errno == ELOOP && links == Links::kNever)
    throw Error(what + " " + path + ": a symbolic link; refused (remove it)");
  if (fd < 0) throw Error(what + " " + path + ": cannot read the file: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw Error(what + " " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw Error(what + " " + path + ": " + kind_of(st.st_mode) + "; cutevis reads regular files only");
  struct statfs fs {};
  if (::fstatfs(fd, &fs) == 0 &&
      (static_cast<long>(fs.f_type) == kProcMagic || static_cast<long>(fs.f_type) == kSysfsMagic ||
       static_cast<long>(fs.f_type) == kDebugfsMagic))
    throw Error(what + " " + path + ": a kernel file (/proc, /sys); cutevis reads regular files only");
  if (static_cast<uint64_t>(st.st_size) > cap)
    throw Error(what + " " + path + ": the file is " + megabytes(static_cast<size_t>(st.st_size)) +
                "; cutevis reads files up to " + megabytes(cap) + " (CUTEVIS_MAX_INPUT_MB=N raises it)");
  // Regular from here on: blocking reads are fine (O_NONBLOCK has no effect on them).
  try {
    if (!read_bounded(fd, text, cap, static_cast<size_t>(st.st_size))) too_big(what, path, cap);
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(what, 0) == 0) throw;
    throw Error(what + " " + path + ": cannot read the file: " + e.what());
  }
  drop_bom(text);
  return text;
}

bool try_read_input_file(const std::string& path, std::string& bytes, size_t max_bytes) {
  try {
    bytes = read_input_file(path, "", max_bytes);
    return true;
  } catch (const Error&) {
    bytes.clear();
    return false;
  }
}

size_t json_nesting_depth(const std::string& t) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    else if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  return deepest;
}

size_t brace_nesting_depth(const std::string& t) {
  size_t depth = 0, deepest = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      i = t.find('\n', i);
      if (i == std::string::npos) break;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      i = t.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
    } else if (c == '"' || c == '\'') {
      for (++i; i < t.size() && t[i] != c && t[i] != '\n'; ++i)
        if (t[i] == '\\') ++i;
    } else if (c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == '}' && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace cutevis

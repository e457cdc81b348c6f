#include "app/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "app/path_text.hpp"

namespace cutevis {

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  throw OutputError("cannot write " + path + ": " + std::strerror(err));
}

// --- the temporary a signal must not leave behind --------------------------------------
// One temporary exists at a time (files are written one after another); its name lives
// in a fixed buffer so the handler only reads memory and calls unlink (async-signal-safe).
char pending_temporary[4096];
std::atomic<bool> has_pending{false};

extern "C" void remove_temporary_and_die(int sig) {
  if (has_pending.load()) ::unlink(pending_temporary);
  std::signal(sig, SIG_DFL);  // then die of the signal, as without the handler
  std::raise(sig);
}

// Installed before every temporary (three sigaction calls): a handler set in between (a
// test framework's crash reporter) would otherwise leave the temporary behind.
void install_signal_cleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup: stay ignored
    struct sigaction sa {};
    sa.sa_handler = remove_temporary_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

class PendingTemporary {
 public:
  explicit PendingTemporary(const std::string& name) {
    const size_t n = std::min(name.size(), sizeof pending_temporary - 1);  // (as long as a path may be)
    std::memcpy(pending_temporary, name.data(), n);
    pending_temporary[n] = '\0';
    has_pending.store(true);
  }
  ~PendingTemporary() { has_pending.store(false); }
  PendingTemporary(const PendingTemporary&) = delete;
  PendingTemporary& operator=(const PendingTemporary&) = delete;
};

// The descriptor a path names when it is one of this process's own streams
// (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1.  Opening or renaming
// over such a path would reach the file behind the stream (`>> log`: the log replaced);
// writing to the descriptor appends as the shell arranged.
int own_stream(const std::string& p) {
  if (p == "/dev/stdout") return STDOUT_FILENO;
  if (p == "/dev/stderr") return STDERR_FILENO;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"}) {
    const size_t n = std::strlen(prefix);
    if (p.compare(0, n, prefix) != 0 || p.size() == n || p.size() > n + 6) continue;
    int fd = 0;
    for (size_t i = n; i < p.size(); ++i) {
      if (p[i] < '0' || p[i] > '9') return -1;
      fd = fd * 10 + (p[i] - '0');
    }
    return fd;
  }
  return -1;
}

// The file a path names after following every symbolic link (the link itself stays);
// a dangling link names the file it would create.  Loops end in ELOOP.  A link to one
// of our own streams stops there (own_stream).
std::string follow_symlinks(const std::string& path) {
  std::string p = path;
  for (int hops = 0;; ++hops) {
    if (own_stream(p) >= 0) return p;
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    if (hops == 40) fail(path, ELOOP);
    std::string target;
    if (!read_symlink(p, target)) fail(path, errno);
    p = path_join(path_parent(p), target);  // (an absolute target: itself)
  }
}

mode_t current_umask() {
  static const mode_t mask = [] {
    mode_t m = ::umask(0);
    ::umask(m);
    return m;
  }();
  return mask;
}

void write_all(int fd, const std::string& bytes, const std::string& path) {
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

// Devices, FIFOs, sockets: write in place (a rename would replace /dev/null by a file).
void write_in_place(const std::string& shown, const std::string& file, const std::string& bytes) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) fail(shown, errno);
  try {
    write_all(fd, bytes, shown);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail(shown, errno);
}

}  // namespace

std::string temporary_template(const std::string& dir) { return path_join(dir, ".cutevis-tmp-XXXXXX"); }

namespace {
void write_by_rename(const std::string& path, const std::string& file, const std::string& bytes,
                     const struct stat* existing);
}  // namespace

void write_file_atomically(const std::string& path, const std::string& bytes) {
  if (path.empty()) throw OutputError("cannot write an output file with an empty name");
  const std::string file = follow_symlinks(path);
  if (const int fd = own_stream(file); fd >= 0) {
    struct stat fst {};
    if (::fstat(fd, &fst) != 0) fail(path, errno);
    return write_all(fd, bytes, path);
  }
  struct stat st {};
  const bool exists = ::stat(file.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail(path, EISDIR);
  if (exists && !S_ISREG(st.st_mode)) return write_in_place(path, file, bytes);
  write_by_rename(path, file, bytes, exists ? &st : nullptr);
}

void replace_file_atomically(const std::string& path, const std::string& bytes) {
  if (path.empty()) throw OutputError("cannot write an output file with an empty name");
  struct stat st {};
  const bool exists = ::lstat(path.c_str(), &st) == 0;  // the link itself, never its target
  if (exists && S_ISDIR(st.st_mode)) fail(path, EISDIR);
  write_by_rename(path, path, bytes, exists && S_ISREG(st.st_mode) ? &st : nullptr);
}

namespace {

// A temporary beside `file`, renamed over it (rename replaces a symbolic link, never its
// target).  `existing`: the regular file replaced, whose read and write bits are kept.
void write_by_rename(const std::string& path, const std::string& file, const std::string& bytes,
                     const struct stat* existing) {
  const std::string parent = path_parent(file);
  const std::string dir = parent.empty() ? "." : parent;
  if (const int err = make_directories(dir)) fail(path, err);  // -o a/b/c.svg creates a/b

  install_signal_cleanup();
  std::string tmpl = temporary_template(dir);
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  // Block the cleanup signals until the temporary's name is registered.
  sigset_t block, old;
  sigemptyset(&block);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, sig);
  ::sigprocmask(SIG_BLOCK, &block, &old);
  int fd = ::mkostemp(name.data(), O_CLOEXEC);
  const int mkstemp_errno = errno;
  std::optional<PendingTemporary> pending;
  if (fd >= 0) pending.emplace(name.data());
  ::sigprocmask(SIG_SETMASK, &old, nullptr);
  if (fd < 0) fail(path, mkstemp_errno);

  auto discard = [&](int err) {
    ::close(fd);
    ::unlink(name.data());
    fail(path, err);
  };
  try {
    write_all(fd, bytes, path);
  } catch (const OutputError&) {
    ::close(fd);
    ::unlink(name.data());
    throw;
  }
  // Outputs are never executable (nor set-id): an existing file keeps its read and write
  // bits only; a new one gets 0644 minus the umask.
  const mode_t mode = existing ? (existing->st_mode & 0666) : (0644 & ~current_umask());
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) discard(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(name.data());
    fail(path, err);
  }
  if (std::rename(name.data(), file.c_str()) != 0) {
    const int err = errno;
    ::unlink(name.data());
    fail(path, err);
  }
  pending.reset();
}

}  // namespace

void write_stdout(const std::string& bytes) {
  std::fwrite(bytes.data(), 1, bytes.size(), stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    int err = errno;
    std::clearerr(stdout);
    throw OutputError(std::string("cannot write to standard output: ") + std::strerror(err));
  }
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

}  // namespace cutevis

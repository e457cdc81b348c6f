// cutevis — writing results: text to stdout, files atomically.
//
// File semantics (README "Exit codes and output files"):
//   * a regular file (or a new one) is written to a temporary beside it, then renamed
//     over it, so a failure or a signal never leaves a half-written file;
//   * outputs are never executable: an existing file keeps its read/write bits only (no
//     x, no set-id); a new one gets 0644 minus the umask;
//   * this process's own streams (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
//     or a link to one) are written through the descriptor: `-o /dev/stdout >> log`
//     appends to the log, never replaces it;
//   * a symbolic link is written through (the file it points to is replaced, the
//     link stays);
//   * anything that is not a regular file (/dev/null, /dev/stdout, a FIFO) is written
//     directly, never replaced;
//   * missing parent folders are created;
//   * SIGINT, SIGTERM and SIGHUP while a temporary exists remove it before exiting.
// Every failure throws OutputError ("cannot write PATH: reason"); the CLI exits 4.
#pragma once

#include <string>

#include "lib/error.hpp"

namespace cutevis {

// An output could not be written (exit code 4, kExitIoError).
class OutputError : public Error {
 public:
  explicit OutputError(const std::string& message) : Error(message) {}
};

// Write `bytes` to `path` with the semantics above.  Throws OutputError.
void write_file_atomically(const std::string& path, const std::string& bytes);

// As write_file_atomically, but `path`'s last component is never followed: a symbolic
// link (or anything but a regular file) there is replaced by the new file, and nothing is
// written through it (batch's stamps file, in a folder a stranger's spec may have filled).
void replace_file_atomically(const std::string& path, const std::string& bytes);

// Write `bytes` to standard output and flush; a full disk, a closed stdout or a
// reader gone away (EPIPE, with SIGPIPE ignored) throws OutputError.
void write_stdout(const std::string& bytes);

// Whether standard output is a terminal (binary formats never spill onto one).
bool stdout_is_terminal();

// The name of the temporary for `target` in `dir`: short whatever the target's length,
// so a valid 255-byte file name still has a temporary that fits (mkstemp's template).
std::string temporary_template(const std::string& dir);

}  // namespace cutevis

// cutevis — reading input files with bounds: every file cutevis reads (a Markdown file,
// a batch spec, its stamps, a --from file, an existing output compared byte for byte)
// goes through here.
//
//   * regular files only, checked on the opened descriptor (opened O_NONBLOCK, so a FIFO
//     never hangs): devices (/dev/zero), FIFOs, sockets, folders and /proc or /sys files
//     (whose sizes lie) are refused by type;
//   * the size is checked before reading, and reading stops at the cap anyway;
//   * standard input ("-") is read up to the cap, then refused;
//   * a UTF-8 byte order mark at the start is dropped.
// The cap is kDefaultMaxInputBytes (16 MB; --from files 4 MB); CUTEVIS_MAX_INPUT_MB sets it.
// Errors are one line: "WHAT PATH: REASON (... CUTEVIS_MAX_INPUT_MB ...)".
#pragma once

#include <cstddef>
#include <string>

namespace cutevis {

constexpr size_t kDefaultMaxInputBytes = size_t{16} << 20;

// The cap in bytes: CUTEVIS_MAX_INPUT_MB (a whole number of MB, 1..65536) or `default_bytes`.
size_t max_input_bytes(size_t default_bytes = kDefaultMaxInputBytes);

// Whether the file's last component may be a symbolic link.  kNever opens with O_NOFOLLOW:
// a link there (batch's stamps file, planted in -C) is refused, never read through.
enum class Links { kFollow, kNever };

// The bytes of `path` ("-": standard input), at most `max_bytes` (0: max_input_bytes()).
// `what` starts the error message ("--from", "the batch spec").  Throws Error.
std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes = 0,
                            Links links = Links::kFollow);

// As read_input_file, but a missing, unreadable, special or oversized file is simply
// not there: returns false (an existing output that cannot be compared is stale).
bool try_read_input_file(const std::string& path, std::string& bytes, size_t max_bytes = 0);

// The deepest nesting of [ and { in a JSON text, outside strings (linear, no recursion).
size_t json_nesting_depth(const std::string& text);
constexpr size_t kMaxJsonDepth = 256;

// The deepest nesting of { in C++ text, outside comments, strings and character literals.
size_t brace_nesting_depth(const std::string& text);
constexpr size_t kMaxBraceDepth = 256;

}  // namespace cutevis

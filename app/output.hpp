// cutevis — writing results: text to stdout, files atomically.
#pragma once

#include <string>

namespace cutevis {

// Write `bytes` to `path` atomically: a temporary file in the same folder, then a
// rename, so a failure never leaves a half-written file.  Throws Error on failure.
void write_file_atomically(const std::string& path, const std::string& bytes);

// Whether standard output is a terminal (binary formats never spill onto one).
bool stdout_is_terminal();

}  // namespace cutevis

// cutevis — C++ text as both scanners read it (lib/lang/cpp_scanner.cpp, lib/lang/kernel_body.cpp):
// comments and literals become spaces, newlines kept, so every position stays exact.
#pragma once

#include <cstddef>
#include <string>

namespace cutevis {

// If a comment (// or /* */) or a string or character literal starts at c[i], blanks it (a
// literal's quotes stay) and returns the index after it; otherwise returns i.  A `'` after a
// hex digit is a digit separator (1'000), not a literal.
size_t blank_comment_or_literal(std::string& c, size_t i);

}  // namespace cutevis

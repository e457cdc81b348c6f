// cutevis — C++ text as both scanners read it (lib/lang/cpp_scanner.cpp, lib/lang/kernel_body.cpp):
// comments and literals become spaces, newlines kept, so every position stays exact.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace cutevis {

// If a comment (// or /* */) or a string or character literal starts at c[i], blanks it (a
// literal's quotes stay) and returns the index after it; otherwise returns i.  A `'` after a
// hex digit is a digit separator (1'000), not a literal.
size_t blank_comment_or_literal_at(std::string& c, size_t i);
inline size_t blank_comment_or_literal(std::string& c, size_t i) {  // (called for every character of a file)
  const char ch = c[i];
  return ch == '/' || ch == '"' || ch == '\'' ? blank_comment_or_literal_at(c, i) : i;
}

// Positions in a text: the byte offset of a 1-based (line, column) (clamped to the text), and back.
size_t offset_of(const std::string& text, int line, int column);
std::pair<int, int> line_column(const std::string& text, size_t offset);

// The pieces of `text` between `delimiter`s, as std::getline reads them: a trailing delimiter
// ends the last piece, it starts no empty one ("a\nb\n" and "a\nb" -> {"a", "b"}; "" -> {}).
// (No string stream: the page's .wasm (web/) carries none of libc++'s streams.)
std::vector<std::string> split_text(const std::string& text, char delimiter = '\n');

}  // namespace cutevis

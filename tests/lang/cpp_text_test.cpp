// split_text: lines (and ':'-separated lists) as std::getline reads them, which the app's
// readers relied on before they dropped string streams (app/includes.cpp, app/sources.cpp).
#include <doctest/doctest.h>

#include <sstream>

#include "lib/lang/cpp_text.hpp"

using namespace cutevis;

namespace {

// What std::getline reads from `text`: the behaviour split_text keeps.
std::vector<std::string> getline_pieces(const std::string& text, char delimiter) {
  std::vector<std::string> pieces;
  std::istringstream in(text);
  for (std::string piece; std::getline(in, piece, delimiter);) pieces.push_back(piece);
  return pieces;
}

}  // namespace

TEST_CASE("split_text: a trailing delimiter ends the last piece, empty pieces between delimiters stay") {
  using V = std::vector<std::string>;
  CHECK(split_text("") == V{});
  CHECK(split_text("a") == V{"a"});
  CHECK(split_text("a\nb") == V{"a", "b"});
  CHECK(split_text("a\nb\n") == V{"a", "b"});
  CHECK(split_text("\n") == V{""});
  CHECK(split_text("a\n\n\nb\n\n") == V{"a", "", "", "b", ""});
  CHECK(split_text("a\r\nb") == V{"a\r", "b"});  // only the delimiter splits
  CHECK(split_text("/usr/include::/opt/x:", ':') == V{"/usr/include", "", "/opt/x"});
}

TEST_CASE("split_text: the same pieces as std::getline over every short text of 'a', ':' and newline") {
  const std::string alphabet = "a:\n";
  for (size_t length = 0; length <= 6; ++length) {
    size_t count = 1;
    for (size_t k = 0; k < length; ++k) count *= alphabet.size();
    for (size_t n = 0; n < count; ++n) {
      std::string text;
      for (size_t k = 0, m = n; k < length; ++k, m /= alphabet.size()) text += alphabet[m % alphabet.size()];
      CAPTURE(text);
      CHECK(split_text(text) == getline_pieces(text, '\n'));
      CHECK(split_text(text, ':') == getline_pieces(text, ':'));
    }
  }
}

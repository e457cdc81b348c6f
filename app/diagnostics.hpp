// cutevis — how errors reach the user: one line `cutevis: error: <what>`, and for
// expression input the expression with a caret under the bad spot.
//
// Whatever the input, the message stays one short line: control bytes (newline, ESC,
// ...) and non-ASCII bytes are escaped (\n, \x1b), and a message quoting a huge input
// keeps its beginning and end with "...[N bytes]..." between, so at most about
// kMaxMessageBytes of input are echoed (a whole message stays under ~350 bytes).
#pragma once

#include <string>
#include <vector>

#include "lib/error.hpp"

namespace cutevis {

constexpr size_t kMaxMessageBytes = 200;

// An Error about the text of one flag (--threads, the tile of `tv`): its position is
// into `source`, not into the command's main expression.
class SourcedError : public Error {
 public:
  SourcedError(const std::string& flag, const std::string& source, const Error& e)
      : Error(flag + ": " + e.what(), e.position()), source_(source) {}
  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

// Rethrow an Error from parsing `text` (the value of `flag`) as a SourcedError.
template <class F>
auto with_source(const std::string& flag, const std::string& text, F&& parse) {
  try {
    return parse();
  } catch (const SourcedError&) {
    throw;
  } catch (const Error& e) {
    throw SourcedError(flag, text, e);
  }
}

// One printable line: control and non-ASCII bytes escaped, the middle of a long
// text elided ("...[N bytes]...").
std::string printable_line(const std::string& text, size_t max_bytes = kMaxMessageBytes);

// "cutevis: error: <what>\n" plus, when the error has a position into `source` (or
// into a SourcedError's own source), "  <source>\n  <spaces>^\n".
std::string format_error(const Error& error, const std::string& source = "");

// Every line of `text` longer than `max_line` bytes shortened in its middle
// ("...[N bytes]...", printable_line): a 100,000-character name is quoted, not echoed.
std::string shorten_lines(const std::string& text, size_t max_line = 400);

// A message of several lines (batch's list of errors, a docs block's error with its
// caret): "cutevis: error: " before the first, every line made printable, at most
// `max_lines` lines (then "  ... N more lines").
std::string format_error_lines(const Error& error, size_t max_lines = 40);

// CLI11's message in our words: "--atom: At Most 1 required but received 2" becomes
// "--atom is given 2 times; give it once"; unknown shapes are kept, made printable.
std::string cli_error_message(const std::string& cli11_message);

// "unknown command 'evl'; did you mean 'eval'?" (no suggestion for implausible names).
std::string unknown_command_message(const std::string& name, const std::vector<std::string>& commands);

// "unknown option '--form'; did you mean '--from'?" among a command's `options`.
std::string unknown_option_message(const std::string& option, const std::vector<std::string>& options);

}  // namespace cutevis

// cutevis — "did you mean": the known words nearest a mistyped one (names, commands, options).
#pragma once

#include <string>
#include <vector>

namespace cutevis {

// At most `max` of `words` nearest `name` by edit distance (case-insensitive), nearest first,
// none farther than max(2, |name|/3) edits, so a suggestion is never an unrelated word;
// `name` itself is never suggested.  Nothing for names longer than kMaxSuggestedNameLength.
std::vector<std::string> nearest_words(const std::string& name, const std::vector<std::string>& words, size_t max);

// A C++ keyword or CUDA run-time name (nullptr, threadIdx, uint2, ...): what a kernel computes
// with at run time, never a compile-time value a -D could give (nor a suggestion to make).
bool is_runtime_name(const std::string& name);

// A CUTLASS helper above CuTe that kernels call (ss_smem_selector, round_up, ...): the header that
// defines it, for the error of a name cutevis does not define; nullptr for any other name.
const char* cutlass_header_of(const std::string& name);
// The one-line blocker for such a helper: without its header, "ss_smem_selector is CUTLASS code:
// give -I path/to/cutlass/include"; with it read (-I) but not evaluated, which header and -D.
std::string cutlass_code_message(const std::string& name, bool header_read = false);

// "'a'", "'a' or 'b'", "'a', 'b' or 'c'": suggestions as a message lists them.
std::string quoted_alternatives(const std::vector<std::string>& words);

}  // namespace cutevis

// cutevis — one library function per sub-command; main.cpp only parses flags.
// Every function throws cutevis::Error for bad input (exit 2); the caller prints it.
#pragma once

#include <string>

namespace cutevis {

// What a command produces: text or binary bytes for stdout or a file.
struct Output {
  std::string bytes;
  bool binary = false;  // PNG/PDF: never written to a terminal
};

struct EvalOptions {
  std::string expression;
  bool json = false;
};

// `cutevis eval EXPR`: the value in CuTe's notation, or the JSON contract.
Output run_eval(const EvalOptions& options);

}  // namespace cutevis

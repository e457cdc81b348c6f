// cutevis — `cutevis copy EXPR --src T --dst T --analyze`: the inspector's CLI side (issue 9).
// Parses the tensors' text, calls atoms/analysis, prints its results; computes nothing itself.
#pragma once

#include <string>

#include "app/commands.hpp"
#include "atoms/copy_atom.hpp"

namespace cutevis {

struct InspectOptions {
  std::string src, dst;   // "[smem:|gmem:]LAYOUT", e.g. "gmem:(128,64):(64,1)"
  bool analyze = false;   // --analyze
  bool addresses = false; // --addresses: every lane's byte address in the --json per-instruction list
  std::string mma;        // --mma EXPR: check the copy's destination fragment against this TiledMMA's
  std::string operand = "A";  // --operand A|B
};

bool wants_inspection(const InspectOptions& o);  // any of --src/--dst/--analyze/--mma
// The analysis of `copy` over the tensors as text or JSON (options.json).
Output run_copy_inspection(const TiledCopy& copy, const ShowOptions& show, const InspectOptions& options);

}  // namespace cutevis

// cutevis — `cutevis check --from KERNEL.cu [-D N=V] [--sweep 'N=V1|V2'] [--json|--sarif] [--werror]`:
// every copy and gemm of a kernel's body checked without compiling it (atoms/analysis/kernel_check.hpp),
// once per configuration of a sweep, the files read and scanned once.
#pragma once

#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/sources.hpp"

namespace cutevis {

struct CheckCommandOptions {
  SourceOptions sources;
  std::vector<std::string> sweeps;  // --sweep 'NAME=V1|V2|...' (repeatable: the product)
  bool json = false, sarif = false, werror = false;
};

struct CheckOutcome {
  Output output;
  int exit_code = 0;  // 1: an error (or a warning with --werror) in some configuration
};

CheckOutcome run_check(const CheckCommandOptions& options);

// 'NAME=V1|V2|...' lists -> every combination, each as -D texts ("NAME=V1", ...).  Throws Error for a
// malformed sweep.
std::vector<std::vector<std::string>> sweep_configs(const std::vector<std::string>& sweeps);

}  // namespace cutevis

// cutevis — verify's reports as the CLI presents them: the --json contract (app/verify_json.cpp
// documents the fields) and the exit code a set of reports gives (app/exit_codes.hpp).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "atoms/verify/verify.hpp"

namespace cutevis {

nlohmann::json to_json(const VerifyReport& report);
nlohmann::json to_json(const VerifySummary& summary);

// 1 when anything disagrees, else 5 when a kernel was rejected or a launch failed, else 3
// when nothing could be checked for lack of a GPU (or the GPU runs none of them), else 0.
int verify_exit_code(const std::vector<VerifyReport>& reports);

}  // namespace cutevis

// cutevis — `cutevis verify --pipeline`: the flags read into a PipelineSpec (expressions with
// the command's --from / -D names, as `mma --smem-a/--copy-a` reads them) and verified.
#pragma once

#include "app/commands.hpp"
#include "atoms/verify/pipeline.hpp"

namespace cutevis {

// Error (exit 2) for missing or contradicting flags and for expressions that are not what the
// flag needs; the caret points into the flag's text.
PipelineSpec pipeline_spec(const VerifyOptions& options);

}  // namespace cutevis

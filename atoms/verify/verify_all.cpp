// cutevis — verify --all: every atom of the MMA and copy catalogues in one process.
#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/verify/verify.hpp"

namespace cutevis {

VerifySummary verify_all(const VerifyFilter& filter) { return verify_batch(mma_catalogue(), copy_catalogue(), filter); }

}  // namespace cutevis

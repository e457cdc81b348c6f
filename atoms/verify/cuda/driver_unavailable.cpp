// cutevis — verify's device side in a build without the CUDA toolkit (or CUTEVIS_CUDA=OFF):
// there is no device, and every call says so, so verify reports no GPU (exit 3).
#include "atoms/verify/cuda/driver.hpp"

namespace cutevis::cuda {

namespace {
const char* const kUnavailable =
    "this cutevis was built without CUDA support (no CUDA toolkit found, or CUTEVIS_CUDA=OFF)";
}

const DeviceInfo& device() {
  static const DeviceInfo info = [] {
    DeviceInfo i;
    i.message = kUnavailable;
    return i;
  }();
  return info;
}

std::vector<Module> load_modules(const std::vector<std::string>& ptx, int /*workers*/) {
  std::vector<Module> out(ptx.size());
  for (auto& m : out) m.error = kUnavailable;
  return out;
}

std::string launch(int /*module*/, const std::string& /*entry*/, int /*blocks*/, int /*threads*/,
                   std::vector<Buffer>& /*buffers*/) {
  return kUnavailable;
}

}  // namespace cutevis::cuda

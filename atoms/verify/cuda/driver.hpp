// cutevis — the device side of `verify`: the CUDA driver API, opened with dlopen at
// run time (libcuda.so.1 is never linked), so `cutevis` starts and works on machines
// with no GPU driver; PTX text is JIT-compiled by the driver, no CUDA compiler needed.
// This header is plain C++.  CMake picks its implementation: driver.cpp when the CUDA
// toolkit's headers are found, driver_unavailable.cpp (no device, every call says why) otherwise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cutevis::cuda {

struct DeviceInfo {
  bool usable = false;
  std::string message;     // why not usable, or a one-line description of the device
  std::string name;        // "NVIDIA H100 80GB HBM3"
  int sm = 0;              // compute capability major*10+minor (90)
  int driver_version = 0;  // CUDA driver API version (13000)
  int multiprocessors = 0;
};

// Open the driver and the first device once per process; never throws.
const DeviceInfo& device();

// A module JIT-compiled from PTX text; `error` holds the JIT log when it failed.
struct Module {
  int handle = -1;
  std::string error;
  double seconds = 0;
};
// Compile modules on up to `workers` threads: PTX -> cubin with nvJitLink when the
// toolkit's libnvJitLink is found (parallel; CUTEVIS_VERIFY_JIT=driver turns it off),
// else the driver's own JIT (thread-safe but serialized inside the driver).
std::vector<Module> load_modules(const std::vector<std::string>& ptx, int workers);

// A global buffer: `words` are copied in before the launch; with `read_back` the
// buffer's contents after the kernel replace them.
struct Buffer {
  std::vector<uint32_t> words;
  bool read_back = false;
};
// Run `entry` of a loaded module on `blocks` x `threads`; its parameters are the
// buffers' device pointers, in order (one reused device arena; launches serialize).  Returns "" or the driver's error
// (a sticky one leaves the device unusable for the rest of the process: `device().usable` turns false).
std::string launch(int module, const std::string& entry, int blocks, int threads, std::vector<Buffer>& buffers);

}  // namespace cutevis::cuda

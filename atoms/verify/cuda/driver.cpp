// cutevis — the CUDA driver API through dlopen (see driver.hpp).
#include "atoms/verify/cuda/driver.hpp"

#include <cuda.h>
#include <dlfcn.h>
#include <nvJitLink.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace cutevis::cuda {

namespace {

struct Api {
  void* lib = nullptr;
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_get_name = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&::cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
  decltype(&::cuModuleLoadDataEx) module_load_data_ex = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuMemAlloc) mem_alloc = nullptr;
  decltype(&::cuMemFree) mem_free = nullptr;
  decltype(&::cuMemcpyHtoD) memcpy_htod = nullptr;
  decltype(&::cuMemcpyDtoH) memcpy_dtoh = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
};

// nvJitLink (the CUDA toolkit's PTX-to-cubin library), when present: unlike the driver's
// own JIT, which serializes, it compiles modules on all threads at once.
struct JitLink {
  void* lib = nullptr;
  nvJitLinkResult (*create)(nvJitLinkHandle*, uint32_t, const char**) = nullptr;
  nvJitLinkResult (*add_data)(nvJitLinkHandle, nvJitLinkInputType, const void*, size_t, const char*) = nullptr;
  nvJitLinkResult (*complete)(nvJitLinkHandle) = nullptr;
  nvJitLinkResult (*cubin_size)(nvJitLinkHandle, size_t*) = nullptr;
  nvJitLinkResult (*cubin)(nvJitLinkHandle, void*) = nullptr;
  nvJitLinkResult (*error_log_size)(nvJitLinkHandle, size_t*) = nullptr;
  nvJitLinkResult (*error_log)(nvJitLinkHandle, char*) = nullptr;
  nvJitLinkResult (*destroy)(nvJitLinkHandle*) = nullptr;
};

struct State {
  Api api;
  JitLink jitlink;
  bool jitlink_tried = false;
  std::mutex jitlink_mutex;
  DeviceInfo info;
  CUcontext context = nullptr;
  std::mutex modules_mutex;
  std::vector<CUmodule> modules;
  std::mutex launch_mutex;  // launches share the arena: one at a time
  CUdeviceptr arena = 0;    // one device allocation reused by every launch (grown on demand)
  size_t arena_bytes = 0;
};

template <class F>
bool bind(void* lib, F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  return fn != nullptr;
}

std::string error_text(const Api& api, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.get_error_name) api.get_error_name(r, &name);
  if (api.get_error_string) api.get_error_string(r, &text);
  return std::string(name ? name : "CUDA error") + " (" + std::to_string(static_cast<int>(r)) + ")" +
         (text ? std::string(": ") + text : std::string());
}

State& state() {
  static State* s = [] {
    auto* st = new State;
    DeviceInfo& info = st->info;
    Api& api = st->api;
    api.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api.lib) {
      const char* why = dlerror();
      std::string reason = why ? why : "not found";
      api.lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
      if (!api.lib) {
        info.message = "no CUDA driver: libcuda.so.1 could not be loaded (" + reason + ")";
        return st;
      }
    }
    bool ok = bind(api.lib, api.init, "cuInit") && bind(api.lib, api.driver_get_version, "cuDriverGetVersion") &&
              bind(api.lib, api.device_get_count, "cuDeviceGetCount") && bind(api.lib, api.device_get, "cuDeviceGet") &&
              bind(api.lib, api.device_get_name, "cuDeviceGetName") &&
              bind(api.lib, api.device_get_attribute, "cuDeviceGetAttribute") &&
              bind(api.lib, api.primary_ctx_retain, "cuDevicePrimaryCtxRetain") &&
              bind(api.lib, api.ctx_set_current, "cuCtxSetCurrent") &&
              bind(api.lib, api.ctx_synchronize, "cuCtxSynchronize") &&
              bind(api.lib, api.module_load_data_ex, "cuModuleLoadDataEx") &&
              bind(api.lib, api.module_get_function, "cuModuleGetFunction") &&
              bind(api.lib, api.mem_alloc, "cuMemAlloc_v2") && bind(api.lib, api.mem_free, "cuMemFree_v2") &&
              bind(api.lib, api.memcpy_htod, "cuMemcpyHtoD_v2") && bind(api.lib, api.memcpy_dtoh, "cuMemcpyDtoH_v2") &&
              bind(api.lib, api.launch_kernel, "cuLaunchKernel") &&
              bind(api.lib, api.get_error_name, "cuGetErrorName") &&
              bind(api.lib, api.get_error_string, "cuGetErrorString");
    if (!ok) {
      info.message = "the CUDA driver (libcuda.so.1) lacks a function verify needs; it is too old";
      return st;
    }
    CUresult r = api.init(0);
    if (r != CUDA_SUCCESS) {
      info.message = "the CUDA driver did not start: " + error_text(api, r);
      return st;
    }
    api.driver_get_version(&info.driver_version);
    int count = 0;
    r = api.device_get_count(&count);
    if (r != CUDA_SUCCESS || count == 0) {
      info.message = "no CUDA GPU is visible" + (r != CUDA_SUCCESS ? ": " + error_text(api, r) : std::string());
      return st;
    }
    CUdevice dev = 0;
    api.device_get(&dev, 0);
    char name[256] = {0};
    api.device_get_name(name, sizeof name - 1, dev);
    info.name = name;
    int major = 0, minor = 0;
    api.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    api.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    api.device_get_attribute(&info.multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    info.sm = major * 10 + minor;
    r = api.primary_ctx_retain(&st->context, dev);
    if (r == CUDA_SUCCESS) r = api.ctx_set_current(st->context);
    if (r != CUDA_SUCCESS) {
      info.message = "could not open a context on " + info.name + ": " + error_text(api, r);
      return st;
    }
    info.usable = true;
    info.message = info.name + " (sm_" + std::to_string(info.sm) + ", " + std::to_string(info.multiprocessors) +
                   " SMs, CUDA driver " + std::to_string(info.driver_version / 1000) + "." +
                   std::to_string(info.driver_version % 1000 / 10) + ")";
    return st;
  }();
  return *s;
}

JitLink* open_jitlink(State& st) {
  std::lock_guard<std::mutex> lock(st.jitlink_mutex);
  if (!st.jitlink_tried) {
    st.jitlink_tried = true;
    const char* mode = std::getenv("CUTEVIS_VERIFY_JIT");
    if (mode && std::string(mode) == "driver") return nullptr;
    std::vector<std::string> names = {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"};
    for (const char* root :
         std::initializer_list<const char*>{std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH"), "/usr/local/cuda"})
      if (root) names.push_back(std::string(root) + "/lib64/libnvJitLink.so");
    JitLink& j = st.jitlink;
    for (const auto& n : names)
      if ((j.lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    bool ok =
        j.lib && bind(j.lib, j.create, "nvJitLinkCreate") && bind(j.lib, j.add_data, "nvJitLinkAddData") &&
        bind(j.lib, j.complete, "nvJitLinkComplete") && bind(j.lib, j.cubin_size, "nvJitLinkGetLinkedCubinSize") &&
        bind(j.lib, j.cubin, "nvJitLinkGetLinkedCubin") && bind(j.lib, j.error_log_size, "nvJitLinkGetErrorLogSize") &&
        bind(j.lib, j.error_log, "nvJitLinkGetErrorLog") && bind(j.lib, j.destroy, "nvJitLinkDestroy");
    if (!ok) j.lib = nullptr;
  }
  return st.jitlink.lib ? &st.jitlink : nullptr;
}

// PTX -> cubin with nvJitLink; "" and the cubin, or the error log.
std::string link_cubin(JitLink& j, const std::string& ptx, std::vector<char>& cubin) {
  size_t at = ptx.find(".target ");
  std::string target = at == std::string::npos ? "" : ptx.substr(at + 8, ptx.find_first_of(" \n", at + 8) - at - 8);
  std::string arch = "-arch=" + target;
  const char* options[] = {arch.c_str()};
  nvJitLinkHandle h = nullptr;
  if (j.create(&h, 1, options) != NVJITLINK_SUCCESS) return "nvJitLink could not start for " + target;
  std::string error;
  if (j.add_data(h, NVJITLINK_INPUT_PTX, ptx.data(), ptx.size(), "verify.ptx") != NVJITLINK_SUCCESS ||
      j.complete(h) != NVJITLINK_SUCCESS) {
    size_t n = 0;
    j.error_log_size(h, &n);
    std::string log(n, '\0');
    if (n) j.error_log(h, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    error = "PTX rejected: " + (log.empty() ? std::string("nvJitLink failed") : log);
  } else {
    size_t n = 0;
    j.cubin_size(h, &n);
    cubin.resize(n);
    j.cubin(h, cubin.data());
  }
  j.destroy(&h);
  return error;
}

Module load_one(State& st, const std::string& ptx) {
  Module m;
  auto start = std::chrono::steady_clock::now();
  st.api.ctx_set_current(st.context);
  std::vector<char> log(16384, 0);
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_OPTIMIZATION_LEVEL};
  void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(log.size() - 1)),
                    reinterpret_cast<void*>(static_cast<uintptr_t>(1))};
  CUmodule module = nullptr;
  CUresult r = CUDA_ERROR_UNKNOWN;
  if (JitLink* j = open_jitlink(st)) {
    std::vector<char> cubin;
    std::string error = link_cubin(*j, ptx, cubin);
    if (!error.empty() && error.rfind("PTX rejected", 0) == 0) {
      m.error = error;  // the same assembler the driver uses: no second opinion needed
      m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return m;
    }
    if (error.empty()) r = st.api.module_load_data_ex(&module, cubin.data(), 0, nullptr, nullptr);
  }
  if (r != CUDA_SUCCESS) r = st.api.module_load_data_ex(&module, ptx.c_str(), 3, options, values);
  if (r != CUDA_SUCCESS) {
    m.error = error_text(st.api, r) + (log[0] ? std::string(": ") + log.data() : std::string());
  } else {
    std::lock_guard<std::mutex> lock(st.modules_mutex);
    m.handle = static_cast<int>(st.modules.size());
    st.modules.push_back(module);
  }
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return m;
}

}  // namespace

const DeviceInfo& device() { return state().info; }

std::vector<Module> load_modules(const std::vector<std::string>& ptx, int workers) {
  State& st = state();
  std::vector<Module> out(ptx.size());
  if (!st.info.usable) {
    for (auto& m : out) m.error = st.info.message;
    return out;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < ptx.size(); i = next++) out[i] = load_one(st, ptx[i]);
  };
  int n = std::max(1, std::min<int>(workers, static_cast<int>(ptx.size())));
  std::vector<std::thread> threads;
  for (int i = 1; i < n; ++i) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  return out;
}

std::string launch(int module, const std::string& entry, int blocks, int threads, std::vector<Buffer>& buffers) {
  State& st = state();
  if (!st.info.usable) return st.info.message;
  std::lock_guard<std::mutex> launching(st.launch_mutex);
  Api& api = st.api;
  api.ctx_set_current(st.context);
  CUmodule mod;
  {
    std::lock_guard<std::mutex> lock(st.modules_mutex);
    if (module < 0 || module >= static_cast<int>(st.modules.size())) return "no such module";
    mod = st.modules[static_cast<size_t>(module)];
  }
  CUfunction fn = nullptr;
  CUresult r = api.module_get_function(&fn, mod, entry.c_str());
  if (r != CUDA_SUCCESS) return "kernel " + entry + " not found: " + error_text(api, r);
  std::string error;
  auto check = [&](CUresult res, const char* what) {
    if (res != CUDA_SUCCESS && error.empty()) error = std::string(what) + ": " + error_text(api, res);
    return res == CUDA_SUCCESS;
  };
  // Buffers live in one arena, 256-byte aligned: no allocation per launch.
  std::vector<size_t> offsets(buffers.size());
  size_t total = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    offsets[i] = total;
    total += (std::max<size_t>(4, buffers[i].words.size() * 4) + 255) / 256 * 256;
  }
  if (total > st.arena_bytes) {
    if (st.arena) api.mem_free(st.arena);
    st.arena = 0;
    st.arena_bytes = 0;
    if (check(api.mem_alloc(&st.arena, total), "cuMemAlloc")) st.arena_bytes = total;
  }
  std::vector<CUdeviceptr> ptrs(buffers.size(), 0);
  for (size_t i = 0; i < buffers.size() && error.empty(); ++i) {
    ptrs[i] = st.arena + offsets[i];
    if (!buffers[i].words.empty())
      check(api.memcpy_htod(ptrs[i], buffers[i].words.data(), buffers[i].words.size() * 4), "cuMemcpyHtoD");
  }
  if (error.empty()) {
    std::vector<void*> params(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) params[i] = &ptrs[i];
    if (check(api.launch_kernel(fn, static_cast<unsigned>(blocks), 1, 1, static_cast<unsigned>(threads), 1, 1, 0,
                                nullptr, params.data(), nullptr),
              "cuLaunchKernel"))
      check(api.ctx_synchronize(), "kernel");
  }
  for (size_t i = 0; i < buffers.size() && error.empty(); ++i)
    if (buffers[i].read_back && !buffers[i].words.empty())
      check(api.memcpy_dtoh(buffers[i].words.data(), ptrs[i], buffers[i].words.size() * 4), "cuMemcpyDtoH");
  if (!error.empty() && api.ctx_synchronize() != CUDA_SUCCESS) {
    st.info.usable = false;  // a sticky error: the context is lost for this process
    st.info.message = "the GPU context was lost after an error (" + error + ")";
  }
  return error;
}

}  // namespace cutevis::cuda

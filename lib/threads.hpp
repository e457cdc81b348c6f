// cutevis — the locks the engine takes because `cutevis batch` draws on several threads
// (app/batch.cpp): std::mutex and std::call_once natively.  WebAssembly built without threads
// (the page) runs one request at a time, so there they are plain flags: std::mutex::lock's error
// path (std::system_error and its messages) is what kept libc's printf in the page's .wasm.
#pragma once

#include <mutex>  // std::lock_guard, over either

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
// A thread's own scratch: `static` here (wasm-ld refuses a thread_local with a destructor
// in a module without threads).
#define CUTEVIS_THREAD_LOCAL static

namespace cutevis {

class Mutex {  // for std::lock_guard: nothing runs beside us
 public:
  void lock() {}
  void unlock() {}
};

struct OnceFlag {
  bool done = false;
};

// As std::call_once: F runs once; if it throws, the next call runs it again.
template <class F>
void call_once(OnceFlag& flag, F&& f) {
  if (flag.done) return;
  f();
  flag.done = true;
}

}  // namespace cutevis
#else
#define CUTEVIS_THREAD_LOCAL thread_local

namespace cutevis {
using Mutex = std::mutex;
using OnceFlag = std::once_flag;
using std::call_once;
}  // namespace cutevis
#endif

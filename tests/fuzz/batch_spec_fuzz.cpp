// libFuzzer: a batch spec as `cutevis batch SPEC -C DIR` reads it.  The input is the
// spec file; pictures go to a private temporary folder, emptied after every run.
// Specs whose outputs would leave that folder (absolute paths, "..") are skipped: the
// fuzzer must not write over the machine.  Only cutevis::Error may come out.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/batch.hpp"
#include "lib/error.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

bool stays_inside(const uint8_t* data, size_t size) {
  nlohmann::json spec = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (spec.is_discarded() || !spec.is_object() || !spec.contains("pictures") || !spec["pictures"].is_array())
    return true;
  for (const auto& e : spec["pictures"]) {
    if (!e.is_object() || !e.contains("output") || !e["output"].is_string()) continue;
    const fs::path out(e["output"].get<std::string>());
    if (out.is_absolute() || out.has_root_name() || out.has_root_directory()) return false;
    for (const auto& part : out)
      if (part == "..") return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!stays_inside(data, size)) return 0;
  static const fs::path dir = fs::temp_directory_path() / ("cutevis-fuzz-batch-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path spec = dir / "spec.json";
  {
    std::ofstream f(spec, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    run_batch(spec.string(), (dir / "out").string());
  } catch (const Error&) {
  }
  std::error_code ec;
  fs::remove_all(dir / "out", ec);
  return 0;
}

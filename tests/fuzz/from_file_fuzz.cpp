// libFuzzer: a kernel file as `cutevis names|eval --from FILE -D ...` reads it: the C++ or
// Python declaration scanner, the name environment (lazy resolution, cycles, -D) and the
// evaluation of an expression over it.  Input: one option byte (file language, command,
// --json, --dsl), then FILE \x1f EXPRESSION \x1f DEFINES (one NAME=VALUE per line).
// The file goes to a private temporary folder, as a user's file would.  Only
// cutevis::Error (exit 2 in the CLI) may come out; anything else is a finding.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/sources.hpp"
#include "lib/error.hpp"
#include "tests/fuzz/fuzz_options.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t opt = data[0];
  const auto fields = fuzz::split_fields(data + 1, size - 1, 3);
  static const fs::path dir = fs::temp_directory_path() / ("cutevis-fuzz-from-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / (std::string("kernel") + fuzz::pick(opt & 3, {".cu", ".hpp", ".py", ".cuh"}));
  {
    std::ofstream f(file, std::ios::binary | std::ios::trunc);
    f.write(fields[0].data(), static_cast<std::streamsize>(fields[0].size()));
  }
  SourceOptions sources;
  sources.from.push_back(file.string());
  std::istringstream defines(fields[2]);
  for (std::string line; std::getline(defines, line);)
    if (!line.empty()) sources.defines.push_back(line);
  try {
    switch ((opt >> 2) & 3) {
      case 0: run_names({sources, /*json=*/(opt & 16) != 0, nullptr}); break;
      case 1:
        run_eval({fields[1], (opt & 16) != 0, (opt & 32) ? Syntax::kDsl : Syntax::kAuto}, load_sources(sources));
        break;
      default: {  // both, over one environment: resolution state carried between them
        auto env = load_sources(sources);
        run_eval({fields[1], (opt & 16) != 0, (opt & 32) ? Syntax::kDsl : Syntax::kAuto}, env);
        run_names({sources, false, nullptr});
      }
    }
  } catch (const Error&) {
  }
  std::error_code ec;
  fs::remove(file, ec);
  return 0;
}

// libFuzzer: an expression through parse, evaluate and every text-format renderer, as
// `cutevis eval|layout|tv|mma|copy` would run it.  Input: one option byte (command,
// format, colouring), then EXPRESSION \x1f TILE (tv) \x1f THREADS (--threads).
// Only cutevis::Error (exit 2 in the CLI) may come out; anything else is a finding.
#include "app/commands.hpp"
#include "lib/error.hpp"
#include "tests/fuzz/fuzz_options.hpp"

using namespace cutevis;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t opt = data[0];
  const auto fields = fuzz::split_fields(data + 1, size - 1, 3);
  try {
    ShowOptions o;
    o.input = fields[0];
    const std::string format = fuzz::pick(opt & 7, {"", "txt", "svg", "tex", "json", "eval", "eval-json", "cute-svg"});
    if (format == "eval" || format == "eval-json") {
      run_eval({fields[0], format == "eval-json"});
      return 0;
    }
    if (format == "json") o.json = true;
    else if (format == "cute-svg") o.picture.format = parse_format("svg"), o.picture.style = Style::kCute;
    else if (!format.empty()) o.picture.format = parse_format(format);
    o.picture.color_by =
        fuzz::pick((opt >> 3) & 7, {"auto", "thread", "value", "warp", "index", "bank", "none", "auto"});
    o.picture.threads = fields[2];
    switch (opt >> 6) {
      case 0: run_layout(o); break;
      case 1: run_tv(o, fields[1].empty() ? "(8,8)" : fields[1]); break;
      case 2: run_mma(o); break;
      default: run_copy(o); break;
    }
  } catch (const Error&) {
  }
  return 0;
}

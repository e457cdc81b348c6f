// libFuzzer: atom names as `cutevis atom NAME`, `cutevis mma --atom NAME --atoms L
// --tile T`, `cutevis atom NAME --thread N` and `cutevis list PATTERN --arch A` take
// them.  Input: one option byte, then NAME \x1f SECOND (atoms layout, or arch) \x1f THIRD.
// Only cutevis::Error (exit 2 in the CLI) may come out; anything else is a finding.
#include <charconv>

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
    const std::string format = fuzz::pick((opt >> 2) & 7, {"", "txt", "svg", "tex", "json", "", "txt", "json"});
    if (format == "json") o.json = true;
    else if (!format.empty()) o.picture.format = parse_format(format);
    switch (opt & 3) {
      case 0: run_atom(o); break;
      case 1:
        o.input = mma_expression(fields[0], fields[1], fields[2]);
        run_mma(o);
        break;
      case 2: {
        int64_t thread = 0;
        std::from_chars(fields[1].data(), fields[1].data() + fields[1].size(), thread);
        o.thread = thread;
        o.picture.format.reset();
        run_atom(o);
        break;
      }
      default: run_list({fields[0], fields[1], o.json}); break;
    }
  } catch (const Error&) {
  }
  return 0;
}

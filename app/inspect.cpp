#include "app/inspect.hpp"

#include "atoms/analysis/copy_analysis.hpp"

namespace cutevis {

bool wants_inspection(const InspectOptions& o) { return o.analyze || !o.src.empty() || !o.dst.empty(); }

Output run_copy_inspection(const TiledCopy& copy, const ShowOptions& show, const InspectOptions& o) {
  if (!o.analyze) throw Error("--src/--dst place the copy over tensors for --analyze; add --analyze");
  auto [src_space, dst_space] = default_spaces(copy.atom);
  CopyAnalysis a = analyze_copy(copy, parse_copy_tensor(o.src, src_space), parse_copy_tensor(o.dst, dst_space));
  Output out;
  out.bytes = show.json ? to_json(a, o.addresses).dump() + "\n" : to_text(a);
  return out;
}

}  // namespace cutevis

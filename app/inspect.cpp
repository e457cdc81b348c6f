#include "app/inspect.hpp"

#include "atoms/analysis/copy_analysis.hpp"
#include "lib/expr.hpp"

namespace cutevis {

namespace {

// "[smem:|gmem:]LAYOUT" -> the tensor; the prefix overrides the space the atom implies.
CopyTensor parse_tensor(const std::string& text, MemorySpace implied, const char* flag) {
  CopyTensor t;
  if (text.empty()) return t;
  std::string body = text;
  t.space = implied == MemorySpace::kRmem ? MemorySpace::kSmem : implied;
  for (auto [prefix, space] : {std::pair{"smem:", MemorySpace::kSmem}, std::pair{"gmem:", MemorySpace::kGmem}}) {
    if (body.rfind(prefix, 0) == 0) {
      body = body.substr(5);
      t.space = space;
    }
  }
  Value v = evaluate_expression(body);
  if (!v.is_layout_like()) throw Error(std::string(flag) + " needs a layout (M,N) -> element offset; got " + v.describe());
  t.layout = v.to_any_layout();
  return t;
}

}  // namespace

bool wants_inspection(const InspectOptions& o) { return o.analyze || !o.src.empty() || !o.dst.empty(); }

Output run_copy_inspection(const TiledCopy& copy, const ShowOptions& show, const InspectOptions& o) {
  if (!o.analyze) throw Error("--src/--dst place the copy over tensors for --analyze; add --analyze");
  auto [src_space, dst_space] = default_spaces(copy.atom);
  CopyAnalysis a = analyze_copy(copy, parse_tensor(o.src, src_space, "--src"), parse_tensor(o.dst, dst_space, "--dst"));
  Output out;
  out.bytes = show.json ? to_json(a, o.addresses).dump() + "\n" : to_text(a);
  return out;
}

}  // namespace cutevis

#include "app/inspect.hpp"

#include <nlohmann/json.hpp>

#include "atoms/analysis/copy_analysis.hpp"
#include "atoms/analysis/partition.hpp"
#include "atoms/mma_names.hpp"
#include "lib/expr.hpp"

namespace cutevis {

bool wants_inspection(const InspectOptions& o) { return o.analyze || !o.src.empty() || !o.dst.empty() || !o.mma.empty(); }

namespace {

nlohmann::json partition_json(const ThreadPartition& p, const IntTuple& shape) {
  nlohmann::json cells = nlohmann::json::array();
  const int64_t rows = size(shape[0]);
  for (int64_t c : p.cells) cells.push_back({c % rows, c / rows});
  return {{"thread", p.thread}, {"layout", to_string(p.layout)}, {"offset", p.offset}, {"text", p.text}, {"cells", cells}, {"offsets", p.offsets}};
}

std::string partition_text(const char* name, const ThreadPartition& p, const IntTuple& shape) {
  std::string s = std::string(name) + " of thread " + std::to_string(p.thread) + " (CPY,CPY_M,CPY_N): " + p.text + "\n  (m,n)->offset:";
  const int64_t rows = size(shape[0]);
  for (size_t i = 0; i < p.cells.size(); ++i)
    s += (i % 8 == 0 ? "\n   " : "") + std::string(" (") + std::to_string(p.cells[i] % rows) + "," + std::to_string(p.cells[i] / rows) + ")->" +
         std::to_string(p.offsets[i]);
  return s + "\n";
}

}  // namespace

Output run_copy_inspection(const TiledCopy& copy, const ShowOptions& show, const InspectOptions& o) {
  if (!o.analyze && !show.thread && o.mma.empty()) throw Error("--src/--dst place the copy over tensors: add --analyze, or --thread T for that thread's partitions");
  auto [src_space, dst_space] = default_spaces(copy.atom);
  const CopyTensor src = parse_copy_tensor(o.src, src_space), dst = parse_copy_tensor(o.dst, dst_space);
  nlohmann::json j = nlohmann::json::object();
  std::string text;
  if (show.thread) {
    if (o.src.empty() && o.dst.empty()) throw Error("--thread needs --src and/or --dst: the tensors to partition");
    if (!o.src.empty()) {
      ThreadPartition p = partition_S(copy, src.layout, *show.thread);
      j["partition_S"] = partition_json(p, shape(src.layout));
      text += partition_text("partition_S", p, shape(src.layout));
    }
    if (!o.dst.empty()) {
      ThreadPartition p = partition_D(copy, dst.layout, *show.thread);
      j["partition_D"] = partition_json(p, shape(dst.layout));
      text += partition_text("partition_D", p, shape(dst.layout));
    }
  }
  if (!o.mma.empty()) {
    if (o.operand != "A" && o.operand != "B") throw Error("--operand is A or B, not " + o.operand);
    register_catalogue_names();
    Value v = evaluate_expression(o.mma);
    const TiledMma* mma = as_tiled_mma(v);
    if (mma == nullptr) throw Error("--mma needs a TiledMMA, e.g. make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}); got " + v.describe());
    FragmentCheck f = check_fragment(copy, *mma, o.operand[0]);
    j["fragment_check"] = {{"operand", f.operand}, {"matches", f.matches}, {"threads", f.threads_checked}, {"first_mismatch", f.first_mismatch}};
    text += "destination fragment vs the MMA's " + f.operand + ": " +
            (f.matches ? "matches for all " + std::to_string(f.threads_checked) + " threads\n" : "MISMATCH, " + f.first_mismatch + "\n");
  }
  if (o.analyze) {
    CopyAnalysis a = analyze_copy(copy, src, dst);
    if (show.thread) {
      j["analysis"] = to_json(a, o.addresses);
    } else {
      j = to_json(a, o.addresses);
    }
    text += to_text(a);
  }
  Output out;
  out.bytes = show.json ? j.dump() + "\n" : text;
  return out;
}

}  // namespace cutevis

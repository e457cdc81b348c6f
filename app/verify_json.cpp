// cutevis — verify reports as JSON (the --json contract of `cutevis verify`).
//
// report: {atom, kind, family, sm, instruction, device, status, reason, established,
//          anchors, checked, mismatches, seconds, operands: [operand]}
// operand: {name, storage, layout, overridden, status, cells_disagree, rows, cols,
//           row_name, col_name, wrong: [{thr, val, entry, expected, actual,
//           expected_cell, actual_cell}], cells: [{row, col, expected: [[thr,val]...],
//           actual: [[thr,val]...], wrong}] (column-major; absent when not filled)}
// summary: {device, seconds, jit_seconds, run_seconds, modules, workers,
//           counts: {agree, disagree, skipped, error, no-gpu}, exit_code, reports: [report]}
// Shared-memory entries carry thr = -1 and val = the element offset.
#include "app/verify_json.hpp"

#include "app/exit_codes.hpp"

namespace cutevis {

namespace {

nlohmann::json owners_json(const std::vector<Owner>& owners) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& o : owners) a.push_back({o.thr, o.val});
  return a;
}

nlohmann::json operand_json(const VerifyOperand& op) {
  nlohmann::json j;
  j["name"] = op.name;
  j["storage"] = op.storage;
  j["layout"] = op.layout;
  j["overridden"] = op.overridden;
  j["status"] = to_string(op.status);
  j["cells_disagree"] = op.cells_disagree;
  j["rows"] = op.rows;
  j["cols"] = op.cols;
  j["row_name"] = op.row_name;
  j["col_name"] = op.col_name;
  nlohmann::json wrong = nlohmann::json::array();
  for (const auto& e : op.wrong)
    wrong.push_back({{"thr", e.owner.thr},
                     {"val", e.owner.val},
                     {"entry", e.entry},
                     {"expected", e.expected},
                     {"actual", e.actual},
                     {"expected_cell", e.expected_cell},
                     {"actual_cell", e.actual_cell}});
  j["wrong"] = wrong;
  if (!op.cells.empty()) {
    nlohmann::json cells = nlohmann::json::array();
    for (size_t i = 0; i < op.cells.size(); ++i) {
      const auto& c = op.cells[i];
      cells.push_back({{"row", static_cast<int64_t>(i) % op.rows},
                       {"col", static_cast<int64_t>(i) / op.rows},
                       {"expected", owners_json(c.expected)},
                       {"actual", owners_json(c.actual)},
                       {"wrong", c.wrong}});
    }
    j["cells"] = cells;
  }
  return j;
}

}  // namespace

nlohmann::json to_json(const VerifyReport& r) {
  nlohmann::json j;
  j["atom"] = r.atom;
  j["kind"] = r.kind;
  j["family"] = r.family;
  j["sm"] = r.sm;
  j["instruction"] = r.instruction;
  j["device"] = r.device;
  j["status"] = to_string(r.status);
  j["reason"] = r.reason;
  j["established"] = r.established;
  j["anchors"] = r.anchors;
  j["checked"] = r.checked;
  j["mismatches"] = r.mismatches;
  j["seconds"] = r.seconds;
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : r.operands) ops.push_back(operand_json(op));
  j["operands"] = ops;
  return j;
}

nlohmann::json to_json(const VerifySummary& s) {
  nlohmann::json j;
  j["device"] = s.device;
  j["seconds"] = s.seconds;
  j["jit_seconds"] = s.jit_seconds;
  j["run_seconds"] = s.run_seconds;
  j["modules"] = s.modules;
  j["workers"] = s.workers;
  nlohmann::json counts = {{"agree", 0}, {"disagree", 0}, {"skipped", 0}, {"error", 0}, {"no-gpu", 0}};
  nlohmann::json reports = nlohmann::json::array();
  for (const auto& r : s.reports) {
    counts[to_string(r.status)] = counts[to_string(r.status)].get<int>() + 1;
    reports.push_back(to_json(r));
  }
  j["counts"] = counts;
  j["exit_code"] = verify_exit_code(s.reports);
  j["reports"] = reports;
  return j;
}

int verify_exit_code(const std::vector<VerifyReport>& reports) {
  bool any_checked = false, any_bad = false, any_error = false, any_no_gpu = false;
  for (const auto& r : reports) {
    any_checked = any_checked || r.status == VerifyStatus::kAgree || r.status == VerifyStatus::kDisagree;
    any_bad = any_bad || r.status == VerifyStatus::kDisagree;
    any_error = any_error || r.status == VerifyStatus::kError;
    any_no_gpu = any_no_gpu || r.status == VerifyStatus::kNoGpu;
  }
  if (any_bad) return kExitDisagree;
  if (any_error) return kExitEnvironment;  // the environment failed (a driver rejected a kernel): not a disagreement
  if (any_no_gpu || !any_checked) return kExitNoGpu;
  return kExitOk;
}

}  // namespace cutevis

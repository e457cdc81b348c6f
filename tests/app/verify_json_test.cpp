// verify's reports as the CLI presents them, without a GPU: clear "no GPU" reports and
// exit 3, the exit-code rule, text and JSON shapes (app/verify_json.hpp).
#include <doctest/doctest.h>

#include "app/verify_json.hpp"
#include "tests/gpu/verify_atoms.hpp"

using namespace cutevis;

TEST_CASE("verify api: without a GPU every atom reports no-gpu and exit 3") {
  GpuStatus gpu = probe_gpu();
  CHECK_FALSE(gpu.message.empty());
  if (gpu.available) return;  // the GPU tests (tests/gpu) cover this machine
  VerifyReport r = verify_mma(test::sm80_16x8x16_f32f16());
  CHECK(r.status == VerifyStatus::kNoGpu);
  CHECK(r.reason == gpu.message);
  CHECK(verify_exit_code({r}) == 3);
  CHECK(to_text(r).find("no-gpu") != std::string::npos);
  std::vector<MmaAtom> mma = {test::sm80_16x8x16_f32f16(), test::sm90_gmma_f32f16(8, true)};
  std::vector<CopyAtom> copies = {test::ldsm_n(4)};
  VerifySummary s = verify_batch(mma, copies);
  REQUIRE(s.reports.size() == 3);
  for (const auto& rep : s.reports) CHECK(rep.status == VerifyStatus::kNoGpu);
  CHECK(verify_exit_code(s.reports) == 3);
  nlohmann::json j = to_json(s);
  CHECK(j["exit_code"] == 3);
  CHECK(j["counts"]["no-gpu"] == 3);
  CHECK(to_text(s).find("total") != std::string::npos);
}

TEST_CASE("verify api: the exit-code rule") {
  VerifyReport agree, disagree, skipped, error, no_gpu;
  agree.status = VerifyStatus::kAgree;
  disagree.status = VerifyStatus::kDisagree;
  skipped.status = VerifyStatus::kSkipped;
  error.status = VerifyStatus::kError;
  no_gpu.status = VerifyStatus::kNoGpu;
  CHECK(verify_exit_code({agree}) == 0);
  CHECK(verify_exit_code({agree, skipped}) == 0);  // --all: atoms the GPU cannot run are skipped
  CHECK(verify_exit_code({skipped}) == 3);         // verify NAME of an SM100 atom on an H100
  CHECK(verify_exit_code({agree, disagree}) == 1);
  // issue 11: a kernel the driver rejected is an environment failure (5), not a disagreement
  CHECK(verify_exit_code({agree, error}) == 5);
  CHECK(verify_exit_code({error, disagree}) == 1);  // a real disagreement still wins
  CHECK(verify_exit_code({error, no_gpu}) == 5);
  CHECK(verify_exit_code({no_gpu}) == 3);
}

TEST_CASE("verify api: JSON of a disagreement carries the cells a diff picture needs") {
  VerifyReport r;
  r.atom = "X";
  r.status = VerifyStatus::kDisagree;
  VerifyOperand op;
  op.name = "A";
  op.rows = 2;
  op.cols = 1;
  op.row_name = "M";
  op.col_name = "K";
  op.status = VerifyStatus::kDisagree;
  op.cells = {{{{0, 0}}, {{1, 0}}, true}, {{{1, 0}}, {{0, 0}}, true}};
  op.cells_disagree = 2;
  op.wrong.push_back({{0, 0}, "T0 V0", 0, 1, "(M0,K0)", "(M1,K0)"});
  r.operands.push_back(op);
  nlohmann::json j = to_json(r);
  CHECK(j["status"] == "disagree");
  CHECK(j["operands"][0]["cells"][1]["row"] == 1);
  CHECK(j["operands"][0]["cells"][1]["actual"][0][0] == 0);
  CHECK(j["operands"][0]["wrong"][0]["actual"] == "(M1,K0)");
  std::string text = to_text(r);
  CHECK(text.find("T0 V0: layout (M0,K0), hardware (M1,K0)") != std::string::npos);
}

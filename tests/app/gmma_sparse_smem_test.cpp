// The SM90 sparse GMMA's shared-memory atoms (GMMA::Layout_*_SpAtom<T, S>: Sw o smem_sparse<S>_ptr[Nb](unset)
// o L, atoms/smem_atoms.cpp) and the sparse builder's A layouts against real CuTe
// (tests/data/gmma_sparse_smem_oracle.tsv: a host-only program against CUTLASS 4.7.0; outputs only).
// The builder rows are also read through CUTLASS's own sm90_sparse_gmma_builder.inl when CUTLASS_PATH
// names a checkout (else that part skips, visibly).
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "app/commands.hpp"
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Row {
  std::string config, what, cute, size, cosize;
};

std::vector<Row> oracle_rows() {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/gmma_sparse_smem_oracle.tsv");
  std::vector<Row> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Row r;
    std::getline(fields, r.config, '\t');
    std::getline(fields, r.what, '\t');
    std::getline(fields, r.cute, '\t');
    std::getline(fields, r.size, '\t');
    std::getline(fields, r.cosize, '\t');
    rows.push_back(r);
  }
  return rows;
}

json eval_json(const std::string& text) {
  EvalOptions o;
  o.expression = text;
  o.json = true;
  return json::parse(run_eval(o).bytes);
}

// The builder configurations' inputs (the -D of tests/app/cutlass_sm90_sparse_builder_test.cpp): A's atom as the
// selector picks it for BLK_K (the widest swizzle whose row divides BLK_K), and the tile (M, K).
struct BuilderConfig {
  const char* atom;
  int m, k;
};
const std::map<std::string, BuilderConfig>& builder_configs() {
  static const std::map<std::string, BuilderConfig> configs = {
      {"f16", {"GMMA::Layout_K_SW64_SpAtom<half_t, 2>{}", 128, 64}},
      {"e4m3", {"GMMA::Layout_K_SW64_SpAtom<float_e4m3_t, 2>{}", 128, 128}},
      {"f16k128", {"GMMA::Layout_K_SW128_SpAtom<half_t, 2>{}", 128, 128}},
  };
  return configs;
}

// names prints values without CuTe's static marks: (_1,_8) is (1,8) there
std::string without_static_marks(const std::string& cute) {
  std::string out;
  for (size_t i = 0; i < cute.size(); ++i)
    if (!(cute[i] == '_' && i + 1 < cute.size() && std::isdigit(static_cast<unsigned char>(cute[i + 1]))))
      out += cute[i];
  return out;
}

}  // namespace

TEST_CASE("GMMA sparse smem atoms and the sparse builder's tile_to_shape of them equal real CuTe") {
  register_catalogue_names();
  std::map<std::string, std::string> stages;  // config -> PipelineStages
  int compared = 0;
  for (const Row& r : oracle_rows()) {
    CAPTURE(r.config);
    CAPTURE(r.what);
    if (r.what == "PipelineStages") {
      stages[r.config] = r.cute;
      continue;
    }
    std::string expr;
    if (auto it = builder_configs().find(r.config); it != builder_configs().end()) {
      const BuilderConfig& c = it->second;
      const std::string tiled = "tile_to_shape(" + std::string(c.atom) + ", make_shape(Int<" + std::to_string(c.m) +
                                ">{}, Int<" + std::to_string(c.k) + ">{}, Int<" + stages.at(r.config) +
                                ">{}), Step<_1,_2,_3>{})";
      if (r.what == "SmemLayoutAtomA") expr = c.atom;
      else if (r.what == "SmemLayoutA") expr = tiled;
      else if (r.what == "take<0,2>(SmemLayoutA)") expr = "take<0,2>(" + tiled + ")";
    } else {
      const std::string element = r.config.substr(0, r.config.find(','));
      const std::string sparsity = r.config.substr(r.config.find(',') + 1);
      if (r.what == "Layout_SW64_SpAtom<MN>")
        expr = "GMMA::Layout_SW64_SpAtom<" + element + ", " + sparsity + ", GMMA::Major::MN>{}";
      else expr = "GMMA::" + r.what + "<" + element + ", " + sparsity + ">{}";
    }
    REQUIRE(!expr.empty());
    CAPTURE(expr);
    const json j = eval_json(expr);
    CHECK(j["cute"] == r.cute);
    CHECK(std::to_string(j["size"].get<int64_t>()) == r.size);
    CHECK(std::to_string(j["cosize"].get<int64_t>()) == r.cosize);
    ++compared;
  }
  CHECK(compared == 42);  // 33 atoms, 3 configurations x 3 layouts
}

TEST_CASE("GMMA sparse smem atoms: bad arguments are one-line errors") {
  register_catalogue_names();
  auto error_of = [](const std::string& expr) {
    try {
      eval_json(expr);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error_of("GMMA::Layout_K_SW64_SpAtom<half_t>{}").find("<T, S>") != std::string::npos);
  CHECK(error_of("GMMA::Layout_SW64_SpAtom<half_t, 2, 3>{}").find("GMMA::Major::K or GMMA::Major::MN") !=
        std::string::npos);
  CHECK(error_of("GMMA::Layout_K_SW64_SpAtom<half_t, 3>{}").find("multiple of the sparsity") != std::string::npos);
  // CuTe static_asserts on recasting a sparse smem layout (pointer_flagged.hpp: "Not implemented for safety")
  CHECK(error_of("upcast<2>(GMMA::Layout_K_SW64_SpAtom<half_t, 2>{})").find("CuTe refuses it") != std::string::npos);
}

TEST_CASE("CUTLASS's sm90 sparse builder with -I and -include: SmemLayoutAtomA and PipelineStages are real CuTe's") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  const std::string builder =
      std::string(cutlass ? cutlass : "") + "/include/cutlass/gemm/collective/builders/sm90_sparse_gmma_builder.inl";
  if (!cutlass || !fs::exists(builder))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass (with include/cutlass/gemm/collective)");
  std::map<std::string, std::string> atom_of, stages_of;
  for (const Row& r : oracle_rows()) {
    if (r.what == "SmemLayoutAtomA") atom_of[r.config] = r.cute;
    if (r.what == "PipelineStages") stages_of[r.config] = r.cute;
  }
  struct Config {
    const char* name;
    std::vector<std::string> defines;
  };
  const std::vector<std::string> common = {"GmemLayoutATag=cutlass::layout::RowMajor",
                                           "GmemLayoutBTag=cutlass::layout::ColumnMajor", "ElementAccumulator=float",
                                           "ClusterShape_MNK=cute::Shape<cute::_1,cute::_1,cute::_1>",
                                           "StageCountType=cutlass::gemm::collective::StageCountAuto"};
  const Config configs[] = {
      {"f16",
       {"ElementA=cutlass::half_t", "ElementB=cutlass::half_t", "AlignmentA=8", "AlignmentB=8",
        "TileShape_MNK=cute::Shape<cute::_128,cute::_128,cute::_64>",
        "KernelScheduleType=cutlass::gemm::KernelTmaWarpSpecializedCooperative"}},
      {"e4m3",
       {"ElementA=cutlass::float_e4m3_t", "ElementB=cutlass::float_e4m3_t", "AlignmentA=16", "AlignmentB=16",
        "TileShape_MNK=cute::Shape<cute::_128,cute::_128,cute::_128>",
        "KernelScheduleType=cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum"}},
  };
  int compared = 0;
  for (const Config& c : configs) {
    CAPTURE(c.name);
    // the headers its includer (collective_builder.hpp) reads first: StageCountAuto, PipelineTmaAsync
    std::vector<std::string> args{"names",    "--json",
                                  "--from",   builder,
                                  "-include", "cutlass/gemm/collective/collective_builder_decl.hpp",
                                  "-include", "cutlass/pipeline/sm90_pipeline.hpp",
                                  "-I",       std::string(cutlass) + "/include"};
    for (const auto& d : common) args.insert(args.end(), {"-D", d});
    for (const auto& d : c.defines) args.insert(args.end(), {"-D", d});
    auto r = test::run_cutevis(args, "CUTEVIS_CACHE_DIR=off");
    REQUIRE(r.exit_code == 0);
    const json names = json::parse(r.out)["names"];  // (kept: a range-for over a temporary's member dangles)
    for (const auto& n : names) {
      const std::string name = n["name"];
      const bool atom = name.size() > 17 && name.compare(name.size() - 17, 17, "::SmemLayoutAtomA") == 0;
      const bool stages = name.size() > 16 && name.compare(name.size() - 16, 16, "::PipelineStages") == 0;
      if (!atom && !stages) continue;
      CAPTURE(name);
      CAPTURE(n.value("error", ""));
      REQUIRE(n["kind"] != "unresolved");
      CHECK(n["value"] == (atom ? without_static_marks(atom_of.at(c.name)) : stages_of.at(c.name)));
      ++compared;
    }
  }
  CHECK(compared == 8);  // both configurations' two specializations (CollectiveBuilder and #2), atom and stages
}

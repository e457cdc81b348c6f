// Shared-memory descriptors (make_gmma_desc / make_umma_desc) against CuTe's.
//
// tests/data/descriptor_oracle.jsonl was produced by a host-only C++ program built against CUTLASS's
// CuTe headers (not part of this repository; see tests/data/README.md): per row either
//   - "desc": make_gmma_desc<Major>/make_umma_desc<Major> of the first `k` columns of `layout`
//     (local_tile(tensor, (M,k), (0,0))), for GMMA and UMMA, K- and MN-major, every atom, half /
//     tf32 / e4m3; or
//   - "descriptors": every (mn,k) descriptor of thr_mma.partition_fragment_A/B(tensor) of thread 0.
// On the host CuTe cannot read a shared-memory address (cast_smem_ptr_to_uint gives 0), so start
// addresses are relative to the tensor's first element, as ours are.
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "atoms/analysis/descriptor.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/expr.hpp"

using namespace cutevis;

namespace {

void register_names() {
  static const bool registered = [] {
    register_mma_names(default_registry());
    return true;
  }();
  (void)registered;
}

AnyLayout layout_of(const std::string& text) {
  register_names();
  return evaluate_expression(text).to_any_layout();
}

TiledMma mma_of(const std::string& text) {
  register_names();
  Value v = evaluate_expression(text);
  REQUIRE(as_tiled_mma(v) != nullptr);
  return *as_tiled_mma(v);
}

int bits_of(const std::string& type) { return type == "half_t" ? 16 : type == "tfloat32_t" ? 32 : 8; }

}  // namespace

TEST_CASE("descriptors equal CuTe's make_gmma_desc / make_umma_desc and partition_fragment descriptors") {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/descriptor_oracle.jsonl");
  REQUIRE(in.good());
  std::string line;
  int direct = 0, fragments = 0, blocks = 0;
  while (std::getline(in, line)) {
    const nlohmann::json c = nlohmann::json::parse(line);
    CAPTURE(line.substr(0, 300));
    const DescriptorFamily family = c["kind"] == "gmma" ? DescriptorFamily::kGmma : DescriptorFamily::kUmma;
    if (c.contains("desc")) {
      const AnyLayout full = layout_of(c["layout"]);
      const int64_t k = c["k"];
      // local_tile(tensor, (M,k), (0,0)): the first k columns
      const AnyLayout tile = composition(full, Tiler::tuple({Tiler(make_layout(shape(full)[0])), Tiler::integer(k)}));
      const OperandMajor major = c["major"] == "K" ? OperandMajor::kK : OperandMajor::kMN;
      const SmemDescriptorMatch m = make_smem_descriptor(family, major, tile, bits_of(c["type"]));
      CHECK_MESSAGE(m.ok, m.reason);
      CHECK(descriptor_hex(m.desc.bits()) == c["desc"].get<std::string>());
      // decoding gives the fields back
      const uint64_t bits = std::stoull(c["desc"].get<std::string>(), nullptr, 16);
      CHECK(decode_descriptor(bits, family).bits() == bits);
      ++direct;
    } else {
      const TiledMma mma = mma_of(c["mma"]);
      const char op = c["operand"].get<std::string>()[0];
      REQUIRE(reads_by_descriptor(mma, op));
      const OperandDescriptors d = operand_descriptors(mma, op, layout_of(c["layout"]));
      REQUIRE_MESSAGE(d.match.ok, d.match.reason);
      REQUIRE(d.blocks.size() == c["descriptors"].size());
      for (size_t i = 0; i < d.blocks.size(); ++i) {
        const nlohmann::json& want = c["descriptors"][i];
        CHECK(d.blocks[i].mn == want["mn"].get<int64_t>());
        CHECK(d.blocks[i].k == want["k"].get<int64_t>());
        CHECK(descriptor_hex(d.blocks[i].desc.bits()) == want["desc"].get<std::string>());
        ++blocks;
      }
      ++fragments;
    }
  }
  CHECK(direct == 54);
  CHECK(fragments == 21);
  CHECK(blocks > 60);
}

TEST_CASE("canonical names and the descriptor the issue quotes") {
  const TiledMma mma = mma_of("make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})");
  const OperandDescriptors a =
      operand_descriptors(mma, 'A', layout_of("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})"));
  REQUIRE(a.match.ok);
  CHECK(a.match.canonical == "K_SW128");
  REQUIRE(a.blocks.size() == 4);
  CHECK(descriptor_hex(a.blocks[0].desc.bits()) == "0x4000004000010000");
  CHECK(a.blocks[1].desc.start == 2);  // 16 half = 32 bytes further along K
  CHECK(a.blocks[0].desc.layout_name() == "B128");
  const SmemDescriptor d = decode_descriptor(0x4000004000010000ull, DescriptorFamily::kGmma);
  CHECK(d.lbo == 1);
  CHECK(d.sbo == 64);
  CHECK(d.swizzle() == Swizzle(3, 4, 3));
}

TEST_CASE("non-canonical layouts fail with CuTe's reason and a canonical atom of the same order") {
  const TiledMma mma = mma_of("make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})");
  // an unswizzled row-major tile: 128-byte rows, core matrices not 16-byte interleaved
  const OperandDescriptors a = operand_descriptors(mma, 'A', layout_of("Layout<Shape<_64,_64>,Stride<_64,_1>>{}"));
  CHECK_FALSE(a.match.ok);
  CHECK(a.match.reason.rfind("Not a canonical GMMA_K Layout: Expected stride failure.", 0) == 0);
  CHECK(a.blocks.empty());
  CHECK(a.nearest == "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})");
  // the suggestion is itself canonical
  CHECK(operand_descriptors(mma, 'A', layout_of(a.nearest)).match.ok);
  // a position-dependent swizzle (in element units) does not compile in CuTe
  const OperandDescriptors sw = operand_descriptors(
      mma, 'A', layout_of("composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_64>,Stride<_64,_1>>{})"));
  CHECK_FALSE(sw.match.ok);
  CHECK(sw.match.reason.find("smem pointer") != std::string::npos);
  // MN-major atom for a K-major MMA: wrong order
  const OperandDescriptors mn =
      operand_descriptors(mma, 'A', layout_of("tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64,_64>{})"));
  CHECK_FALSE(mn.match.ok);
  CHECK(mn.match.reason.find("Not a canonical GMMA_K Layout") == 0);
  // rows 136 bytes apart cannot be addressed in 16-byte units
  const OperandDescriptors pad = operand_descriptors(mma, 'A', layout_of("Layout<Shape<_64,_64>,Stride<_68,_1>>{}"));
  CHECK_FALSE(pad.match.ok);
}

TEST_CASE("descriptor_layout draws the canonical layout a descriptor addresses") {
  // K_SW128 half: the GMMA atom itself
  const SmemDescriptor d = decode_descriptor(0x4000004000010000ull, DescriptorFamily::kGmma);
  const AnyLayout l = descriptor_layout(d, OperandMajor::kK, 16, 64);
  const AnyLayout atom = layout_of("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})");
  const AnyLayout first_k = composition(atom, Tiler::tuple({Tiler::integer(64), Tiler::integer(16)}));
  for (int64_t i = 0; i < 64 * 16; ++i) CHECK(evaluate(l, i) == evaluate(first_k, i));
}

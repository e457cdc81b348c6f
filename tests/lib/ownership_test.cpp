// OwnershipView: every owner of every cell, threads outer and values inner (the first
// owner is print_latex's label), replicated owners kept.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "lib/ownership.hpp"

using namespace cutevis;

namespace {

// The definition: walk threads outer, values inner, append (t, v) to its cell.
std::vector<std::vector<Owner>> naive_owners(const Layout& tv, int64_t cells) {
  std::vector<std::vector<Owner>> out(static_cast<size_t>(cells));
  const int64_t T = size(tv.shape[0]), V = size(tv.shape[1]);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t v = 0; v < V; ++v)
      out[static_cast<size_t>(tv(t + T * v))].push_back(Owner{static_cast<int32_t>(t), static_cast<int32_t>(v)});
  return out;
}

void check_against_definition(const std::string& text, int64_t rows, int64_t cols) {
  INFO(text);
  Layout tv = evaluate_expression(text).to_layout();
  OwnershipView view = OwnershipView::from_tv(tv, rows, cols);
  auto expect = naive_owners(tv, rows * cols);
  for (int64_t c = 0; c < rows * cols; ++c) {
    auto got = view.owners(c);
    REQUIRE(got.size() == expect[static_cast<size_t>(c)].size());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == expect[static_cast<size_t>(c)][i]);
  }
}

}  // namespace

TEST_CASE("ownership: a cell owned by different threads at different values lists them threads first") {
  // (t,v) -> t + v: cell 1 is (t=1,v=0) and (t=0,v=1); thread 0 comes first.
  OwnershipView view = OwnershipView::from_tv(Layout(tup(2, 2), tup(1, 1)), 3, 1);
  auto owners = view.owners(1);
  REQUIRE(owners.size() == 2);
  CHECK(owners[0] == Owner{0, 1});
  CHECK(owners[1] == Owner{1, 0});
  CHECK(view.max_owners() == 2);
  CHECK(view.unowned_cells() == 0);
}

TEST_CASE("ownership: owners in the order of the definition for broadcast and mixed layouts") {
  check_against_definition("(128,(64,16)):(0,(1,64))", 64, 16);  // GMMA SS operand, 128 owners per cell
  check_against_definition("((4,8,4),(2,2,8)):((128,1,16),(64,8,512))", 64, 64);  // GMMA C, one owner
  check_against_definition("((4,2),(2,3)):((1,2),(0,4))", 8, 3);                  // value broadcast
  check_against_definition("((2,3),(3,2)):((1,3),(2,0))", 12, 1);                 // overlapping threads and values
  check_against_definition("((4,4,2),(4,(1,1))):((8,0,4),(1,(0,0)))", 8, 4);      // SM70 lanes aliasing
}

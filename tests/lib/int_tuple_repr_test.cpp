// IntTuple's flat encoding: pre-order nodes in an inline buffer, on the heap beyond
// it.  Building, copying, moving and comparing must give the same values whichever
// way a tuple was made and wherever it lives.
#include <doctest/doctest.h>

#include "lib/detail/tuple_builder.hpp"
#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"

using namespace cutevis;

namespace {

IntTuple T(const std::string& text) { return evaluate_expression(text).to_int_tuple(); }

// A tuple of n leaves 1..n nested every third mode: ((1,2,3),(4,5,6),...)
IntTuple nested(int n) {
  std::vector<IntTuple> groups, group;
  for (int i = 1; i <= n; ++i) {
    group.emplace_back(i);
    if (group.size() == 3 || i == n) {
      groups.push_back(IntTuple::tuple(group));
      group.clear();
    }
  }
  return IntTuple::tuple(groups);
}

}  // namespace

TEST_CASE("Builder, tuple() and the parser give the same tuple") {
  IntTuple::Builder b;
  b.open();
  b.leaf(4);
  b.open();
  b.leaf(2);
  b.leaf(8);
  b.close();
  b.open();
  b.close();
  b.close();
  IntTuple built = b.finish();
  CHECK(built == T("(4,(2,8),())"));
  CHECK(built == tup(4, tup(2, 8), IntTuple::tuple({})));
  CHECK(to_string(built) == "(4,(2,8),())");
  CHECK(built.rank() == 3);
  CHECK(built[1] == tup(2, 8));
  CHECK(built[2].is_tuple());
  CHECK(built[2].rank() == 0);
  CHECK(built != T("(4,(2,8))"));
  CHECK(T("(4)") != IntTuple(4));  // a rank-1 tuple is not its leaf
  CHECK(T("(4)")[0] == IntTuple(4));
  CHECK(IntTuple(4)[0] == IntTuple(4));  // get<0> of a leaf is the leaf
  CHECK_THROWS_AS(IntTuple(4)[1], Error);
  CHECK_THROWS_AS(built[3], Error);

  IntTuple::Builder unbalanced;
  unbalanced.open();
  unbalanced.leaf(1);
  CHECK_THROWS_AS(unbalanced.finish(), Error);
}

TEST_CASE("modes() walks the top modes; push_back appends one") {
  IntTuple t = T("((2,3),4,(5,(6,7)))");
  std::vector<std::string> seen;
  for (const IntTuple& m : t.modes()) seen.push_back(to_string(m));
  CHECK(seen == std::vector<std::string>{"(2,3)", "4", "(5,(6,7))"});
  CHECK(t.modes().size() == 3);
  CHECK(t.modes()[2] == T("(5,(6,7))"));
  CHECK(IntTuple(9).modes().empty());

  t.push_back(T("(8,9)"));
  CHECK(to_string(t) == "((2,3),4,(5,(6,7)),(8,9))");
  CHECK(size(t) == 2 * 3 * 4 * 5 * 6 * 7 * 8 * 9);
  IntTuple leaf(3);
  CHECK_THROWS_AS(leaf.push_back(IntTuple(1)), Error);
}

TEST_CASE("bases travel with their leaves and compare by path") {
  IntTuple t = make_basis_like(T("((2,3),4)"));
  CHECK(to_string(t) == "((1@0@0,1@1@0),1@1)");
  CHECK(t[0][1].basis() == Basis::of({0, 1}));
  CHECK(t[0][1] != IntTuple::scaled_basis(1, Basis::of({1, 0})));
  CHECK(t[0][1] == IntTuple::scaled_basis(1, Basis::of({0, 1})));
  CHECK(t[1] != IntTuple(1));
  CHECK(leaf_mul(t[1], 3) == IntTuple::scaled_basis(3, Basis::of({1})));
}

TEST_CASE("tuples past the inline buffer live on the heap and behave the same") {
  for (int n : {1, 5, 11, 12, 17, 40, 200}) {
    CAPTURE(n);
    IntTuple big = nested(n);
    std::string text = to_string(big);
    CHECK(T(text) == big);
    CHECK(static_cast<int>(flatten_values(big).size()) == n);

    IntTuple copy = big;  // copies are independent
    CHECK(copy == big);
    copy.push_back(IntTuple(7));
    CHECK(copy != big);
    CHECK(to_string(big) == text);

    IntTuple moved = std::move(copy);  // the moved-from tuple stays valid: assignable
    CHECK(moved.rank() == big.rank() + 1);
    CHECK(moved[moved.rank() - 1] == IntTuple(7));
    copy = big;
    CHECK(copy == big);

    IntTuple small(5);  // assignment in both directions
    small = big;
    CHECK(small == big);
    big = IntTuple(2);
    CHECK(big == IntTuple(2));
    CHECK(to_string(small) == text);
  }
}

TEST_CASE("a layout of many modes goes through the algebra off the inline buffer") {
  // (2,2,...,2):(1,2,4,...) over 24 modes coalesces to 2^24:1, and back by composition
  std::vector<IntTuple> s, d;
  for (int i = 0; i < 24; ++i) {
    s.emplace_back(2);
    d.emplace_back(int64_t{1} << i);
  }
  Layout l(IntTuple::tuple(s), IntTuple::tuple(d));
  CHECK(to_string(coalesce(l)) == "16777216:1");
  CHECK(composition(make_layout(IntTuple(int64_t{1} << 24)), l) == l);
  CHECK(to_string(right_inverse(l)) == "16777216:1");
  CHECK(to_string(complement(l, IntTuple(int64_t{1} << 26))) == "4:16777216");

  // reversed strides: every mode stays, and the inverse undoes it
  std::vector<IntTuple> rd(d.rbegin(), d.rend());
  Layout r(IntTuple::tuple(s), IntTuple::tuple(rd));
  CHECK(coalesce(r) == r);
  Layout inv = right_inverse(r);
  CHECK(size(inv) == size(r));
  for (int64_t i : {int64_t{0}, int64_t{1}, int64_t{12345}, (int64_t{1} << 24) - 1}) CHECK(r(inv(i)) == i);
}

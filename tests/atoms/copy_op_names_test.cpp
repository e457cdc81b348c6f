// is_copy_op_name answers names that do not begin with "SM" without building the operation
// table (atoms/copy_catalogue.cpp): that holds only while every fixed operation is SM<arch>_...
#include <doctest/doctest.h>

#include "atoms/copy_catalogue.hpp"

using namespace cutevis;

TEST_CASE("every copy operation without template parameters is named SM<arch>_..., or is a known exception") {
  const std::vector<std::string> others = {"AutoVectorizingCopy", "DefaultCopy"};
  size_t fixed = 0;
  for (const std::string& op : copy_op_names()) {
    if (op.find('<') != std::string::npos) continue;  // UniversalCopy<S>, SM80_CP_ASYNC_*<S>, Copy_Traits<...>
    CAPTURE(op);
    CHECK((op.rfind("SM", 0) == 0 || std::find(others.begin(), others.end(), op) != others.end()));
    CHECK(is_copy_op_name(op));
    CHECK(is_copy_op_name("cute::" + op));
    ++fixed;
  }
  CHECK(fixed > 148);  // the TMEM loads and stores alone are 148
  CHECK_FALSE(is_copy_op_name("SmemLayoutA"));
  CHECK_FALSE(is_copy_op_name("SM80_NOT_AN_OP"));
  CHECK_FALSE(is_copy_op_name("TiledMma"));
}

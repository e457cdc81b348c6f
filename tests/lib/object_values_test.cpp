// Objects of other modules (atoms, tilings) inside expression values: where a layout or
// an integer is expected, the error names the object on one line.
#include <doctest/doctest.h>

#include <memory>

#include "lib/lang/expr.hpp"

using namespace cutevis;

namespace {

class Thing : public Object {
 public:
  std::string kind() const override { return "thing"; }
  std::string to_string() const override { return "Thing\n  line two\n"; }  // prints like CuTe: several lines
  std::string brief() const override { return "thing #7"; }
};

class Plain : public Object {
 public:
  std::string kind() const override { return "plain"; }
  std::string to_string() const override { return "Plain\n"; }
};

std::string error_of(void (*f)(const Value&), const Value& v) {
  try {
    f(v);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("object values: errors describe an object on one line") {
  Value thing = Value::object(std::make_shared<Thing>());
  CHECK(thing.describe() == "thing #7");
  CHECK(thing.to_string() == "Thing\n  line two\n");
  CHECK(Value::object(std::make_shared<Plain>()).describe() == "plain");  // brief() defaults to kind()
  CHECK(Value::integer(4).describe() == "int 4");
  for (auto f : {+[](const Value& v) { (void)v.to_layout(); }, +[](const Value& v) { (void)v.as_int(); },
                 +[](const Value& v) { (void)v.to_int_tuple(); }, +[](const Value& v) { (void)v.to_tiler(); }}) {
    std::string e = error_of(f, thing);
    CHECK(e.find("got thing #7") != std::string::npos);
    CHECK(e.find('\n') == std::string::npos);
  }
}

#include "app/json_values.hpp"

#include <cmath>

#include "lib/lang/floating.hpp"

namespace cutevis {

Json int_tuple_to_json(const IntTuple& t) {
  if (t.is_leaf()) {
    if (t.basis().empty()) return t.value();
    return to_string(t);  // a basis element, e.g. "1@0"
  }
  Json a = Json::array();
  for (const auto& m : t.modes()) a.push_back(int_tuple_to_json(m));
  return a;
}

namespace {

Json value_fields(const Value& v);

Json layout_json(const AnyLayout& l, const char* kind) {
  Json j;
  j["kind"] = kind;
  j["text"] = to_string(l);
  j["shape"] = int_tuple_to_json(shape(l));
  if (const Layout* p = std::get_if<Layout>(&l)) j["stride"] = int_tuple_to_json(p->stride);
  j["rank"] = rank(l);
  j["depth"] = depth(l);
  j["size"] = size(l);
  const Layout* plain = std::get_if<Layout>(&l);
  if (plain && has_basis(plain->stride)) {  // a coordinate layout: values are coordinates
    j["cosize"] = nullptr;
    if (size(l) <= kMaxJsonCoordinates) {
      Json v = Json::array();
      for (int64_t i = 0; i < size(l); ++i) v.push_back(int_tuple_to_json(as_arithmetic_tuple((*plain)(IntTuple(i)))));
      j["values"] = v;
    } else {
      j["values_omitted"] = true;
    }
    return j;
  }
  j["cosize"] = cosize(l);
  if (size(l) <= kMaxJsonValues) {
    AnyLayout evaluated = as_position_independent(l);
    j["values"] = layout_values(evaluated);
    if (!(evaluated == l)) j["position_independent"] = to_string(evaluated);
  } else {
    j["values_omitted"] = true;
  }
  return j;
}

Json value_fields(const Value& v) {
  Json j;
  switch (v.kind()) {
    case Value::Kind::kInt:
      j["kind"] = "int";
      j["text"] = v.to_string();
      j["value"] = int_tuple_to_json(v.leaf());
      return j;
    case Value::Kind::kBool:
      j["kind"] = "bool";
      j["text"] = v.to_string();
      j["value"] = v.as_bool();
      return j;
    case Value::Kind::kUnderscore:
      j["kind"] = "underscore";
      j["text"] = "_";
      return j;
    case Value::Kind::kTuple: {
      j["kind"] = v.is_int_tuple() ? "tuple" : "tiler";
      j["text"] = v.to_string();
      if (v.is_int_tuple()) {
        j["value"] = int_tuple_to_json(v.to_int_tuple());
      } else {
        Json modes = Json::array();
        for (const auto& e : v.elements()) modes.push_back(value_to_json(e));
        j["modes"] = modes;
      }
      return j;
    }
    case Value::Kind::kLayout:
      return layout_json(v.any_layout(), std::holds_alternative<Layout>(v.any_layout()) ? "layout" : "composed_layout");
    case Value::Kind::kSwizzle: {
      const Swizzle& s = v.swizzle();
      j["kind"] = "swizzle";
      j["text"] = v.to_string();
      j["bits"] = s.bits;
      j["base"] = s.base;
      j["shift"] = s.shift;
      j["domain"] = s.domain();
      if (s.domain() <= kMaxJsonValues) {
        std::vector<int64_t> values;
        for (int64_t i = 0; i < s.domain(); ++i) values.push_back(s(i));
        j["values"] = values;
      }
      return j;
    }
    case Value::Kind::kType:
      j["kind"] = "type";
      j["text"] = v.type().name;
      j["bits"] = v.type().bits;
      return j;
    case Value::Kind::kTag:
      j["kind"] = "tag";
      j["text"] = v.tag();
      return j;
    case Value::Kind::kObject:
      j["kind"] = v.object()->kind();
      j["text"] = v.to_string();
      if (const FloatingValue* f = floating_of(v)) {  // its C++ type, and its exact value where JSON has one
        j["type"] = f->type().name;
        if (std::isfinite(f->value())) j["value"] = f->value();
      }
      return j;
  }
  return j;
}

}  // namespace

Json value_to_json(const Value& v) {
  Json j = value_fields(v);
  if (v.is(Value::Kind::kInt) || v.is(Value::Kind::kTuple) || v.is(Value::Kind::kLayout))
    j["cute"] = v.to_cute_string();  // CuTe's print: `_4` static, `4` dynamic
  return j;
}

}  // namespace cutevis

// A kernel names its atoms with its own parameters and aliases: UniversalFMA<TC,TA,TB>,
// SM100_MMA_F16BF16_SS<TypeA, TypeB, TypeC, 128, 256, UMMA::Major::K, UMMA::Major::K>,
// SM80_CP_ASYNC_CACHEALWAYS<TA>.  The catalogues read atom names as C++ text; these give them
// the text with each declared or -D name replaced by the type or integer it stands for.
#include "atoms/atom_template_args.hpp"

#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_catalogue.hpp"

namespace cutevis {

bool is_open_name(const Node& arg) {
  if (arg.kind != Node::Kind::kName || arg.has_template_args || arg.call != Node::Call::kNone) return false;
  if (arg.name.find("::") != std::string::npos) return false;  // UMMA::Major::K: the catalogue's own spelling
  for (const char* word : {"K", "MN", "One", "Neg", "Zero", "True", "False"})  // and its short one: _SS<K,K>
    if (arg.name == word) return false;
  ValueType t;
  if (lookup_value_type(arg.name, t)) return false;
  return !is_copy_op_name(arg.name) && !looks_like_mma_atom(arg.name);  // Copy_Traits<SM90_TMA_LOAD, 8192>
}

Node with_resolved_template_args(Evaluator& ev, const Node& name) {
  Node out = name;
  for (auto& a : out.template_args) a = resolved_template_arg(ev, a);
  return out;
}

Node resolved_template_arg(Evaluator& ev, const Node& arg) {
  if (arg.kind == Node::Kind::kName && arg.has_template_args) return with_resolved_template_args(ev, arg);
  Node out = arg;
  if (!is_open_name(arg)) return out;
  Value v = ev.eval(arg);  // an undefined name throws here: the -D it needs is named
  if (v.is(Value::Kind::kType)) {
    out.name = v.type().name;
  } else if (v.is(Value::Kind::kTag)) {  // -D ANeg=UMMA::ScaleIn::Neg, constexpr UMMA::Major UmmaMajorA = ...
    out.name = v.tag();
  } else if (v.is(Value::Kind::kInt) && v.leaf().basis().empty()) {
    out.kind = Node::Kind::kNumber;
    out.value = v.as_int();
    out.name.clear();
  }
  return out;
}

std::string resolved_template_arg_text(Evaluator& ev, const Node& arg) {
  Node r = resolved_template_arg(ev, arg);
  if (r.kind == Node::Kind::kNumber && arg.kind == Node::Kind::kName) return std::to_string(r.value);
  if (r.kind == Node::Kind::kName && r.name != arg.name && !arg.has_template_args) return r.name;
  if (arg.kind == Node::Kind::kName && arg.has_template_args) return resolved_name_text(ev, arg);
  return ev.text_of(arg);
}

std::string resolved_name_text(Evaluator& ev, const Node& name, const char* separator) {
  std::string s = name.name;
  if (!name.has_template_args) return s;
  s += "<";
  for (size_t i = 0; i < name.template_args.size(); ++i)
    s += (i ? separator : "") + resolved_template_arg_text(ev, name.template_args[i]);
  return s + ">";
}

}  // namespace cutevis

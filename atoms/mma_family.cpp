// Name parsing and the helpers every MMA family generator shares.
#include "atoms/mma_family.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "lib/element_types.hpp"
#include "lib/lang/expr.hpp"
#include "lib/stable_sort.hpp"

namespace cutevis::mma {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// Drop whitespace, keeping one space between two identifier characters ("unsigned char").
std::string squeeze(const std::string& text) {
  std::string out;
  bool pending_space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      pending_space = true;
      continue;
    }
    if (pending_space && !out.empty() && ident_char(out.back()) && ident_char(c)) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

std::string strip_cute(std::string s) {
  for (const char* p : {"::cute::", "cute::"})
    if (starts_with(s, p)) s = s.substr(std::string(p).size());
  return s;
}

// Strip trailing `{}` / `()` (a default-constructed atom).
std::string strip_call(std::string s) {
  while (ends_with(s, "{}") || ends_with(s, "()")) s.resize(s.size() - 2);
  return s;
}

// The index of the `>` closing the `<` at `open`, or npos.
size_t matching_angle(const std::string& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '<' || s[i] == '(') ++depth;
    if (s[i] == '>' || s[i] == ')') {
      if (--depth == 0) return s[i] == '>' ? i : std::string::npos;
    }
  }
  return std::string::npos;
}

// Unwrap `Outer<inner>` when s is exactly that; else "".
std::string unwrap(const std::string& s, const std::string& outer) {
  if (!starts_with(s, outer + "<")) return "";
  size_t close = matching_angle(s, outer.size());
  if (close != s.size() - 1) return "";
  return s.substr(outer.size() + 1, close - outer.size() - 1);
}

// SM90::GMMA::MMA_64x8x16_... and friends to the SM90_... spelling.
std::string fold_namespaces(std::string base) {
  static const std::pair<const char*, const char*> folds[] = {
      {"SM90::GMMA::MMA_", "SM90_"},
      {"GMMA::MMA_", "SM90_"},
      {"SM90::MMA_", "SM90_"},
      {"SM90::GMMA::SPARSE::GMMA_", "SM90_SPARSE_"},
      {"GMMA::SPARSE::GMMA_", "SM90_SPARSE_"},
      {"SPARSE::GMMA_", "SM90_SPARSE_"},
      {"SM120::BLOCKSCALED::", ""},
      {"BLOCKSCALED::", ""},
      {"SM100::", ""},
      {"SM103::", ""},
  };
  for (const auto& [from, to] : folds)
    if (starts_with(base, from)) return to + base.substr(std::string(from).size());
  return base;
}

// The atom-name tokens of the element-type table, longest first, so "BF16" is not read
// as "B" + "F16".  A complex's PTX type is its real part's: CuTe issues that instruction.
const std::vector<ElementType>& element_types() {
  static const std::vector<ElementType> t = [] {
    std::vector<ElementType> out;
    for (const auto& e : element_type_table()) {
      if (!*e.token) continue;
      const char* ptx = *e.real ? find_element_type(e.real)->ptx : e.ptx;
      out.push_back({e.token, {e.name, e.bits}, ptx});
    }
    stable_sort_by(
        out, [](const ElementType& a, const ElementType& b) { return std::strlen(a.token) > std::strlen(b.token); });
    return out;
  }();
  return t;
}

}  // namespace

std::string AtomName::text() const {
  if (!has_targs) return base;
  std::string s = base + "<";
  for (size_t i = 0; i < targs.size(); ++i) s += (i ? "," : "") + targs[i];
  return s + ">";
}

AtomName parse_atom_name(const std::string& text) {
  std::string s = strip_call(strip_cute(squeeze(text)));
  for (const char* outer : {"MMA_Atom", "MMA_Traits"}) {
    std::string inner = unwrap(s, outer);
    if (!inner.empty()) s = strip_call(strip_cute(inner));
  }
  if (s.empty()) throw Error("empty MMA atom name");
  AtomName name;
  size_t open = s.find('<');
  if (open == std::string::npos) {
    if (s.find('>') != std::string::npos) throw Error("unbalanced '>' in atom name " + s);
    name.base = fold_namespaces(s);
    return name;
  }
  size_t close = matching_angle(s, open);
  if (close == std::string::npos) throw Error("unbalanced '<' in atom name " + s);
  if (close != s.size() - 1)
    throw Error("unexpected text '" + s.substr(close + 1) + "' after the template arguments of " + s);
  name.base = fold_namespaces(s.substr(0, open));
  name.has_targs = true;
  std::string args = s.substr(open + 1, close - open - 1);
  int depth = 0;
  std::string cur;
  for (char c : args) {
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      name.targs.push_back(strip_call(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!args.empty()) name.targs.push_back(strip_call(cur));
  for (const auto& a : name.targs)
    if (a.empty()) throw Error("empty template argument in " + s);
  return name;
}

std::vector<ElementType> split_types(const std::string& types) {
  std::vector<ElementType> out;
  size_t i = 0;
  while (i < types.size()) {
    bool hit = false;
    for (const auto& e : element_types()) {
      std::string tok = e.token;
      if (types.compare(i, tok.size(), tok) == 0) {
        out.push_back(e);
        i += tok.size();
        hit = true;
        break;
      }
    }
    if (!hit) throw Error("unknown element type '" + types.substr(i) + "' in " + types);
  }
  return out;
}

ValueType value_type(const std::string& cpp_name) {
  ValueType t;
  if (!lookup_value_type(cpp_name, t)) throw Error("unknown element type " + cpp_name);
  return t;
}

std::optional<ValueType> parse_value_type(const std::string& arg) {
  ValueType t;
  if (lookup_value_type(arg, t)) return t;
  return std::nullopt;
}

std::string ptx_type(const ValueType& t) {
  const ElementTypeInfo* e = find_element_type(t.name);
  if (!e || !*e->ptx) throw Error("no PTX type for " + t.name);
  return e->ptx;
}

namespace {

// A scoped enumerator's name (GMMA::Major::MN -> "MN") when it is one of `values` and its
// scope, if written, ends in `scope`; else "".
std::string enumerator(const std::string& arg, const std::string& scope, std::initializer_list<const char*> values) {
  const size_t colon = arg.rfind(':');
  const std::string leaf = colon == std::string::npos ? arg : arg.substr(colon + 1);
  const std::string written_scope = arg.substr(0, arg.size() - leaf.size());
  if (!written_scope.empty() && !ends_with(written_scope, scope)) return "";
  for (const char* v : values)
    if (leaf == v) return leaf;
  return "";
}

}  // namespace

std::string parse_major(const std::string& arg) { return enumerator(arg, "Major::", {"K", "MN"}); }
std::string parse_scale_in(const std::string& arg) { return enumerator(arg, "ScaleIn::", {"One", "Neg"}); }
std::string parse_sparse_sel(const std::string& arg) { return enumerator(arg, "SparseSel::", {"Zero", "One"}); }
std::string parse_saturate(const std::string& arg) {
  return arg.find("Saturate") == std::string::npos ? "" : enumerator(arg, "Saturate::", {"True", "False"});
}

std::optional<int64_t> parse_int(const std::string& arg) {
  std::string s = strip_cute(strip_call(arg));
  for (const char* w : {"Int", "C"}) {
    std::string inner = unwrap(s, w);
    if (!inner.empty()) s = inner;
  }
  if (starts_with(s, "_")) s = s.substr(1);
  if (s.empty() || s.size() > 12) return std::nullopt;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  return std::stoll(s);
}

std::string tv_comment(const Layout& tv, char rows, int64_t r, char cols, int64_t c) {
  return "(T" + std::to_string(size(tv.shape[0])) + ",V" + std::to_string(size(tv.shape[1])) + ") -> (" + rows +
         std::to_string(r) + "," + cols + std::to_string(c) + ")";
}

void set_comments(MmaAtom& atom) {
  const int64_t m = atom.shape_mnk[0].value(), n = atom.shape_mnk[1].value(), k = atom.shape_mnk[2].value();
  atom.comment_a = tv_comment(atom.layout_a, 'M', m, 'K', k);
  atom.comment_b = tv_comment(atom.layout_b, 'N', n, 'K', k);
  atom.comment_c = tv_comment(atom.layout_c, 'M', m, 'N', n);
}

RegisterSpec packed_registers(const ValueType& t, int64_t values) {
  if (t.name == "float" || t.name == "double" || t.name == "complex<double>" || t.name == "GaussComplex")
    return {t.name, static_cast<int>(values)};
  const int64_t bits = checked_mul(values, t.bits);
  if (bits % 32 != 0)
    throw Error("internal: " + std::to_string(values) + " " + t.name + " values do not fill 32-bit registers");
  return {"uint32_t", static_cast<int>(bits / 32)};
}

const char* constraint(const std::string& c_type) {
  if (c_type == "float") return "f";
  if (c_type == "double") return "d";
  if (c_type == "uint64_t") return "l";
  return "r";
}

std::string operand_list(int first, int count) {
  std::string s = "{";
  for (int i = 0; i < count; ++i) s += (i ? ", %" : "%") + std::to_string(first + i);
  return s + "}";
}

void set_sync_asm(MmaAtom& atom) {
  const RegisterSpec* regs[] = {&atom.regs_d, &atom.regs_a, &atom.regs_b, &atom.regs_c};
  const char* names = "dabc";
  std::string tmpl = atom.ptx + " ";
  std::string outs, ins;
  int next = 0;
  for (int r = 0; r < 4; ++r) {
    tmpl += (r ? ", " : "") + operand_list(next, regs[r]->count);
    next += regs[r]->count;
    std::string& list = r == 0 ? outs : ins;
    for (int i = 0; i < regs[r]->count; ++i) {
      if (!list.empty()) list += ", ";
      list += std::string("\"") + (r == 0 ? "=" : "") + constraint(regs[r]->c_type) + "\"(" + names[r] +
              std::to_string(i) + ")";
    }
  }
  atom.asm_template = tmpl + ";";
  atom.asm_operands = outs + " : " + ins;
}

}  // namespace cutevis::mma

// `cutevis check`'s first half: a kernel body's statements followed to values (kernel_check.hpp).
//
// Each statement's initializer is either one of the tensor operations below, kept symbolically
// (a partition remembers its TiledCopy / TiledMMA and the tensor it partitions), or any other
// expression, evaluated by the language's evaluator with the kernel's names bound: its parameters
// (from the launch's arguments, evaluated in the launching function, or from -D) and the locals
// before it.  The thread and block indices are 0 (the analysis covers every thread anyway), loop
// variables 0, pointers their names (CuTe's layouts carry the offsets).
#include <algorithm>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "atoms/analysis/kernel_check.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/kernel_body.hpp"
#include "lib/lang/tensor.hpp"

namespace cutevis {

namespace {

// libstdc++'s std::regex recurses per character: statements longer than this are not matched
constexpr size_t kMaxMatched = 4096;

struct KVal {
  enum class Kind { kValue, kThrCopy, kThrMma, kPartition, kFragment, kRetile, kUnknown };
  Kind kind = Kind::kUnknown;
  Value value;  // kValue: the value; kThrCopy/kThrMma/kPartition/kFragment/kRetile: the TiledCopy/TiledMMA
  std::shared_ptr<const KVal> of;  // what a partition, fragment or retile was made from
  char side = 0;                   // 'S', 'D' (copy partitions), 'A', 'B', 'C' (MMA partitions, fragments)
  int rank = -1;                   // the tensor's rank, where known
  std::string name;                // the kernel's name for it
  std::string error;               // kUnknown: why
  SourceLocation error_at;         // kUnknown: the declaration the failure is in, when in a file
  bool rejected = false;           // kUnknown: CuTe itself would reject it (a divisibility check)
  SourceLocation copy_decl;        // thread slices and partitions: their TiledCopy / TiledMMA's declaration
  std::string copy_name;
  SourceLocation decl;         // the statement that defines it
  SourceLocation layout_decl;  // the declaration to change (layout, copy or MMA)
  std::string layout_name;
};
using KPtr = std::shared_ptr<const KVal>;

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Identifiers of `text` in order, with whether a `(` follows and whether a `.` precedes.
struct Ident {
  std::string name;
  bool called = false, member = false;
};
std::vector<Ident> identifiers(const std::string& text) {
  std::vector<Ident> out;
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      Ident id{text.substr(i, j - i), false, false};
      size_t k = j;
      while (k < text.size() && text[k] == ' ') ++k;
      id.called = k < text.size() && text[k] == '(';
      size_t p = i;
      while (p > 0 && text[p - 1] == ' ') --p;
      id.member = p > 0 && (text[p - 1] == '.' || (p > 1 && text[p - 1] == '>' && text[p - 2] == '-'));
      out.push_back(id);
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

// threadIdx.x -> 0; make_smem_ptr(smem.A.begin()) -> make_smem_ptr(smem_A_begin): what the
// evaluator can read, with the pointer's name kept readable.
std::string readable(const std::string& text) {
  static const std::regex index(R"(\b(threadIdx|blockIdx)\s*\.\s*[xyz]\b)");
  std::string s = text.size() > kMaxMatched ? text : std::regex_replace(text, index, "0");
  for (const char* fn : {"make_smem_ptr", "make_gmem_ptr"}) {
    size_t at = 0;
    while ((at = s.find(fn, at)) != std::string::npos) {
      size_t open = s.find('(', at);
      if (open == std::string::npos) break;
      int depth = 0;
      size_t close = open;
      for (; close < s.size(); ++close) {
        if (s[close] == '(') ++depth;
        if (s[close] == ')' && --depth == 0) break;
      }
      if (close >= s.size()) break;
      std::string inner = trim(s.substr(open + 1, close - open - 1));
      if (!is_identifier(inner)) {
        std::string name;
        for (char c : inner)
          if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') name += c;
          else if (!name.empty() && name.back() != '_') name += '_';
        while (!name.empty() && name.back() == '_') name.pop_back();
        if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name = "ptr_" + name;
        s.replace(open + 1, close - open - 1, name);
        close = open + 1 + name.size();
      }
      at = close;
    }
  }
  return s;
}

// NAME.method<...>(args) / NAME(args) / method(args)
struct CallForm {
  std::string object, method;
  std::vector<std::string> args;
};
bool method_call(const std::string& text, CallForm& out) {
  if (text.size() > kMaxMatched) return false;
  static const std::regex re(R"(^\s*([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\s*(<[^()]*>)?\s*\(([\s\S]*)\)\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return false;
  out.object = m[1];
  out.method = m[2];
  out.args = split_arguments(m[4]);
  return true;
}
bool free_call(const std::string& text, CallForm& out) {
  if (text.size() > kMaxMatched) return false;
  static const std::regex re(R"(^\s*(?:cute::)?([A-Za-z_]\w*)\s*(<[^()]*>)?\s*\(([\s\S]*)\)\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return false;
  // the outer parentheses must be one call: f(a)(b) or f(a) + g(b) are not
  const std::string inner = m[3];
  int depth = 0;
  for (char c : inner) {
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return false;
  }
  out.object.clear();
  out.method = m[1];
  out.args = split_arguments(inner);
  return true;
}

// "(BLK_M,BLK_K,k)" -> its top-level entries; "" when the comment states no shape.
std::vector<std::string> comment_shape(const std::string& comment) {
  if (comment.empty() || comment[0] != '(') return {};
  int depth = 0;
  for (size_t i = 0; i < comment.size(); ++i) {
    if (comment[i] == '(') ++depth;
    if (comment[i] == ')' && --depth == 0) return split_arguments(comment.substr(1, i - 1));
  }
  return {};
}

// An entry's number: "T32" -> 32, "_8" -> 8, "128" -> 128; -1 for names (BLK_M, k).
int64_t entry_number(const std::string& e) {
  if (e.size() > 32) return -1;
  static const std::regex re(R"(^[A-Za-z]{0,3}_?(\d+)$)");
  std::smatch m;
  if (std::regex_match(e, m, re)) return std::stoll(m[1]);
  return -1;
}

class Tracer {
 public:
  Tracer(const KernelFunction& k, Environment& env, const CheckOptions& o, std::vector<Finding>& out)
      : k_(k), env_(env), o_(o), out_(out), reg_(default_registry()) {}

  void bind_launch(const KernelLaunch* l) {
    std::string scope = l ? l->function : "";
    if (l) {  // the launching function's scope as the scanner names it (f, f#2, ...)
      for (const Declaration& d : env_.declarations())
        if (d.file == o_.file && d.line > l->function_begin_line && d.line < l->function_end_line) {
          scope = d.scope;
          break;
        }
    }
    // kernel<decltype(sA), ...>: the template arguments the launch names, evaluated where it is
    for (size_t i = 0; l && i < k_.template_params.size() && i < l->template_args.size(); ++i) {
      const std::string& name = k_.template_params[i];
      if (name.empty()) continue;
      auto v = std::make_shared<KVal>();
      v->name = name;
      v->layout_name = name;
      v->layout_decl = {o_.file, l->line, l->column};
      std::string arg = l->template_args[i];
      static const std::regex decl(R"(^\s*decltype\s*\(\s*([A-Za-z_]\w*)\s*\)\s*$)");
      std::smatch m;
      if (arg.size() < 256 && std::regex_match(arg, m, decl))
        if (const Declaration* d = env_.find(m[1], scope)) {
          v->layout_name = m[1];
          v->layout_decl = {d->file, d->line, d->column};
        }
      try {
        Evaluator ev(reg_);
        Declaration within{arg, scope, arg, SourceLanguage::kCpp, o_.file, l->line, l->column, "", {}, {}};
        ev.set_environment(&env_, &within, scope);
        ev.set_source(arg);
        Node root = parse_expression(arg);
        ev.use_literals(Literals::kAuto, root);
        v->value = ev.eval(root);
        v->kind = KVal::Kind::kValue;
        define(name, v);
      } catch (const std::exception&) {
        // a type cutevis has no value for (a pointer's element type, Alpha): left unbound
      }
    }
    for (size_t i = 0; i < k_.params.size(); ++i) {
      const std::string& p = k_.params[i];
      if (p.empty()) continue;
      auto v = std::make_shared<KVal>();
      v->name = p;
      if (l && i < l->args.size()) {
        const std::string& arg = l->args[i];
        v->layout_name = arg;
        v->layout_decl = {o_.file, l->line, l->column};
        if (is_identifier(arg))
          if (const Declaration* d = env_.find(arg, scope)) v->layout_decl = {d->file, d->line, d->column};
        try {
          Evaluator ev(reg_);
          Declaration within{arg, scope, arg, SourceLanguage::kCpp, o_.file, l->line, l->column, "", {}, {}};
          ev.set_environment(&env_, &within, scope);
          ev.set_source(arg);
          Node root = parse_expression(arg);
          ev.use_literals(Literals::kAuto, root);
          v->value = ev.eval(root);
          v->kind = KVal::Kind::kValue;
        } catch (const std::exception&) {
          // a pointer (`A`) or a run-time value: the name stays unbound, as written (make_gmem_ptr(A))
          continue;
        }
      } else if (const Declaration* d = env_.find(p, "")) {  // a -D or a file-scope name
        v->layout_name = p;
        if (!d->file.empty()) v->layout_decl = {d->file, d->line, d->column};
        evaluate_into(*v, p);
      } else {
        continue;  // unbound: a pointer keeps its name; other uses say which name is missing
      }
      define(p, v);
      // ASmemLayout sA_layout: the template parameter deduced from the argument, as C++ does
      const std::string& type = i < k_.param_types.size() ? k_.param_types[i] : "";
      if (v->kind == KVal::Kind::kValue && is_identifier(type) && !bound(type) &&
          std::find(k_.params.begin(), k_.params.end(), type) == k_.params.end())
        define(type, v);
    }
  }

  void run() {
    for (const KernelStatement& s : k_.body) {
      for (const std::string& var : s.loop_vars)
        if (!names_.count(var)) {
          auto v = std::make_shared<KVal>();
          v->kind = KVal::Kind::kValue;
          v->value = Value::dynamic_integer(0);
          v->name = var;
          define(var, v);
        }
      try {
        statement(s);
      } catch (const std::exception& e) {
        note_unresolved(s, e.what());
      }
    }
  }

 private:
  const KernelFunction& k_;
  Environment& env_;
  const CheckOptions& o_;
  std::vector<Finding>& out_;
  Registry reg_;
  std::map<std::string, KPtr> names_;
  std::optional<TiledMma> kernel_mma_;
  std::string kernel_mma_name_;
  SourceLocation kernel_mma_decl_;

  SourceLocation at(const KernelStatement& s) const { return {o_.file, s.line, s.column}; }

  // The first unknown value a KVal is made from (a partition of a tensor that failed).
  static const KVal* unknown_in(const KVal* x) {
    for (; x; x = x->of.get())
      if (x->kind == KVal::Kind::kUnknown) return x;
    return nullptr;
  }

  void unresolved(const KernelStatement& s, const KVal& u) {
    if (!u.rejected) return note_unresolved(s, "'" + u.name + "': " + u.error);
    Finding f{"error", "divisibility", u.error + " (CuTe rejects this at compile time)", "", u.error_at, {}};
    if (!f.at.known()) f.at = u.decl;
    if (u.decl.known()) f.related.push_back({u.decl, "used by " + u.name});
    f.related.push_back({at(s), "needed by this " + s.name});
    out_.push_back(std::move(f));
  }

  void note_unresolved(const KernelStatement& s, std::string why) {
    // unknown name 'M': the -D that would resolve it
    const size_t at_name = why.find("unknown name '");
    if (at_name != std::string::npos) {
      const size_t b = at_name + 14, e = why.find('\'', b);
      if (e != std::string::npos && why.find(" -D ") == std::string::npos)
        why += "; give -D " + why.substr(b, e - b) + "=...";
    }
    out_.push_back({"note", "unresolved", "not checked: " + s.name + "(...): " + why, "", at(s), {}});
  }

  void define(const std::string& name, KPtr v) {
    const bool fresh = !names_.count(name);
    names_[name] = std::move(v);
    if (!fresh) return;
    reg_.add(kMangle + name, [this, name](Evaluator& ev, const Node& n) -> Value {
      const KVal& k = *names_.at(name);
      if (k.kind != KVal::Kind::kValue)
        throw Error("'" + name + "' is " + (k.kind == KVal::Kind::kUnknown ? "not known: " + k.error : "a partition"));
      if (n.call == Node::Call::kParen && !n.args.empty()) {
        std::vector<Value> coord = ev.eval_args(n);
        Value c = coord.size() == 1 ? coord[0] : Value::tuple(coord);
        if (as_tensor(k.value)) return tensor_value(slice(*as_tensor(k.value), c));
        return Value::layout(slice(k.value.to_any_layout(), c));
      }
      return k.value;
    });
  }

  // The kernel's names are registered as kv__NAME and written so in what the evaluator reads: the
  // files' declarations of the same name elsewhere (the host's `sA`) must not answer for them.
  static constexpr const char* kMangle = "kv__";
  std::string mangled(const std::string& text) const {
    std::string out;
    out.reserve(text.size() + 16);
    for (size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
        const std::string id = text.substr(i, j - i);
        size_t p = i;
        while (p > 0 && text[p - 1] == ' ') --p;
        const bool member = p > 0 && (text[p - 1] == '.' || text[p - 1] == ':' || text[p - 1] == '>');
        const bool scoped = j + 1 < text.size() && text[j] == ':' && text[j + 1] == ':';
        if (!member && !scoped && bound(id)) out += kMangle;
        out += id;
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
          out += text[i++];
      } else {
        out += text[i++];
      }
    }
    return out;
  }

  const KVal* bound(const std::string& name) const {
    auto it = names_.find(name);
    return it == names_.end() ? nullptr : it->second.get();
  }

  void evaluate_into(KVal& v, const std::string& text) {
    const std::string plain = readable(text);
    const std::string src = mangled(plain);
    for (const Ident& id : identifiers(plain))  // a partition's name: nothing to evaluate
      if (const KVal* b = bound(id.name); b && b->kind != KVal::Kind::kValue && !id.member) {
        v.kind = KVal::Kind::kUnknown;
        v.error = b->kind == KVal::Kind::kUnknown ? b->error : "'" + id.name + "' is not a value here";
        return;
      }
    try {
      Evaluator ev(reg_);
      Declaration within{v.name, "", src, SourceLanguage::kCpp, o_.file, v.decl.line, v.decl.column, "", {}, {}};
      ev.set_environment(&env_, &within, "");
      ev.set_source(src);
      Node root = parse_expression(src);
      ev.use_literals(Literals::kDynamic, root);
      v.value = ev.eval(root);
      v.kind = KVal::Kind::kValue;
      if (v.value.is(Value::Kind::kLayout)) v.rank = static_cast<int>(rank(v.value.any_layout()));
      if (const Tensor* t = as_tensor(v.value)) v.rank = static_cast<int>(rank(t->layout));
      if (v.value.is(Value::Kind::kTuple)) v.rank = static_cast<int>(v.value.elements().size());
    } catch (const LocatedError& e) {
      fail(v, e.what());
      if (!e.spot().file.empty()) v.error_at = {e.spot().file, e.spot().line, e.spot().column};
    } catch (const std::exception& e) {
      fail(v, e.what());
    }
  }

  // CuTe's own checks (tile_to_shape, divides, products) fail at compile time: an error, not "unknown".
  static void fail(KVal& v, const std::string& why) {
    v.kind = KVal::Kind::kUnknown;
    v.error = why;
    v.rejected = why.find("not divide") != std::string::npos || why.find("divisib") != std::string::npos ||
                 why.find("not a multiple") != std::string::npos;
  }

  // Where the value a statement defines is declared: the first name it uses that is a local with
  // a declaration, a parameter, or a declaration of the files.
  void locate(KVal& v, const std::string& text) const {
    for (const Ident& id : identifiers(text)) {
      if (id.member) continue;
      if (const KVal* b = bound(id.name)) {
        if (b->kind != KVal::Kind::kUnknown && b->layout_decl.known()) {
          v.layout_decl = b->layout_decl;
          v.layout_name = b->layout_name;
          return;
        }
        continue;
      }
      if (id.called) continue;
      if (const Declaration* d = env_.find(id.name, "")) {
        if (d->file.empty()) continue;  // a -D: nothing in the files to change
        v.layout_decl = {d->file, d->line, d->column};
        v.layout_name = id.name;
        return;
      }
    }
  }

  // An argument as a KVal: a bound name, a slice of one, or a value.
  KPtr operand(const std::string& text, const KernelStatement& s) {
    const std::string t = trim(text);
    if (bound(t)) return names_.at(t);
    CallForm c;
    if (free_call(t, c) && bound(c.method) && bound(c.method)->kind != KVal::Kind::kValue) {
      auto v = std::make_shared<KVal>(*names_.at(c.method));
      if (v->rank >= 0)
        for (const std::string& a : c.args)
          if (trim(a) != "_") --v->rank;
      return v;
    }
    auto v = std::make_shared<KVal>();
    v->name = t;
    v->decl = at(s);
    evaluate_into(*v, t);
    locate(*v, t);
    return v;
  }

  static const TiledCopy* copy_of(const KVal& v) { return as_tiled_copy(v.value); }
  static const TiledMma* mma_of(const KVal& v) { return as_tiled_mma(v.value); }

  KPtr define_value(const KernelStatement& s) {
    auto v = std::make_shared<KVal>();
    v->name = s.name;
    v->decl = {o_.file, s.name_line, s.name_column};
    CallForm c;
    if (method_call(s.text, c)) {
      const KVal* obj = bound(c.object);
      const std::string& m = c.method;
      if (obj && obj->kind == KVal::Kind::kValue && (m == "get_slice" || m == "get_thread_slice")) {
        v->value = obj->value;
        v->layout_decl = obj->layout_decl;
        v->layout_name = obj->layout_name.empty() ? c.object : obj->layout_name;
        v->copy_decl = v->layout_decl;
        v->copy_name = v->layout_name;
        if (copy_of(*obj)) v->kind = KVal::Kind::kThrCopy;
        else if (mma_of(*obj)) {
          v->kind = KVal::Kind::kThrMma;
          note_mma(*obj, c.object);
        } else {
          v->error = "'" + c.object + "' is not a TiledCopy or TiledMMA";
        }
        return v;
      }
      const bool thr_copy =
          obj && (obj->kind == KVal::Kind::kThrCopy || (obj->kind == KVal::Kind::kValue && copy_of(*obj)));
      const bool thr_mma =
          obj && (obj->kind == KVal::Kind::kThrMma || (obj->kind == KVal::Kind::kValue && mma_of(*obj)));
      if (c.args.size() == 1 && (thr_copy || thr_mma)) {
        KPtr arg = operand(c.args[0], s);
        v->value = obj->value;
        v->of = arg;
        v->copy_decl = obj->kind == KVal::Kind::kValue ? obj->layout_decl : obj->copy_decl;
        v->copy_name = obj->kind == KVal::Kind::kValue ? c.object : obj->copy_name;
        v->layout_decl = arg->layout_decl;
        v->layout_name = arg->layout_name;
        auto part = [&](KVal::Kind kind, char side, int extra) {
          v->kind = kind;
          v->side = side;
          v->rank = arg->rank >= 0 ? arg->rank + extra : -1;
          return v;
        };
        if (thr_copy && (m == "partition_S" || m == "partition_D")) return part(KVal::Kind::kPartition, m.back(), 1);
        if (thr_copy && (m == "retile_D" || m == "retile_S" || m == "retile")) {
          v->layout_decl = obj->layout_decl;
          v->layout_name = obj->layout_name;
          return part(KVal::Kind::kRetile, arg->side, 0);
        }
        if (thr_mma && (m == "partition_A" || m == "partition_B" || m == "partition_C"))
          return part(KVal::Kind::kPartition, m.back(), 1);
        if (thr_mma && (m.rfind("partition_fragment_", 0) == 0 || m.rfind("make_fragment_", 0) == 0)) {
          const bool from_partition = m.rfind("make_fragment_", 0) == 0;
          return part(KVal::Kind::kFragment, m.back(), from_partition ? 0 : 1);
        }
      }
    }
    if (free_call(s.text, c) && c.args.size() == 1 &&
        (c.method == "as_position_independent_swizzle_tensor" ||
         c.method == "as_position_independent_swizzle_layout")) {
      KPtr arg = operand(c.args[0], s);  // the same elements: cutevis's swizzle acts on offsets already
      *v = *arg;
      v->name = s.name;
      return v;
    }
    if (free_call(s.text, c) && c.args.size() == 1 &&
        (c.method == "make_fragment_like" || c.method == "make_tensor_like")) {
      KPtr arg = operand(c.args[0], s);
      if (arg->kind != KVal::Kind::kValue) {
        *v = *arg;
        v->name = s.name;
        v->kind = KVal::Kind::kFragment;
        v->of = arg;
        return v;
      }
    }
    if (free_call(s.text, c) && bound(c.method) && bound(c.method)->kind != KVal::Kind::kValue) {
      KPtr sliced = operand(s.text, s);  // tXsA(_,_,_,pipe)
      *v = *sliced;
      v->name = s.name;
      return v;
    }
    v->decl = {o_.file, s.name_line, s.name_column};
    evaluate_into(*v, s.text);
    locate(*v, readable(s.text));
    const bool built_here =
        s.text.find("make_tiled_copy") != std::string::npos || s.text.find("make_tiled_mma") != std::string::npos;
    if (!v->layout_decl.known() || built_here) {  // the statement itself is what to change
      v->layout_decl = v->decl;
      v->layout_name = s.name;
    }
    if (v->kind == KVal::Kind::kValue && mma_of(*v)) note_mma(*v, s.name);
    return v;
  }

  void note_mma(const KVal& v, const std::string& name) {
    if (kernel_mma_) return;
    kernel_mma_ = *mma_of(v);
    kernel_mma_name_ = name;
    kernel_mma_decl_ = v.layout_decl;
  }

  void comment_check(const KernelStatement& s, const KVal& v) {
    std::vector<std::string> entries = comment_shape(s.comment);
    if (entries.empty() || v.rank < 0) return;
    if (static_cast<int>(entries.size()) != v.rank) {
      out_.push_back({"warning",
                      "layout-comment",
                      "the comment says " + s.name + " is (" + join(entries) + "), rank " +
                          std::to_string(entries.size()) + "; it has rank " + std::to_string(v.rank) +
                          (v.kind == KVal::Kind::kValue ? ": " + v.value.to_cute_string() : ""),
                      "update the comment",
                      SourceLocation{o_.file, s.name_line, s.name_column},
                      {}});
      return;
    }
    if (v.kind != KVal::Kind::kValue) return;
    IntTuple shp;
    if (const Tensor* t = as_tensor(v.value)) shp = shape(t->layout);
    else if (v.value.is_layout_like()) shp = shape(v.value.to_any_layout());
    else return;
    for (size_t i = 0; i < entries.size() && i < shp.rank(); ++i) {
      const int64_t n = entry_number(entries[i]);
      if (n >= 0 && n != size(shp[i])) {
        out_.push_back({"warning",
                        "layout-comment",
                        "the comment says mode " + std::to_string(i) + " of " + s.name + " is " + entries[i] + " (" +
                            std::to_string(n) + "); it has size " + std::to_string(size(shp[i])) + ": " +
                            v.value.to_cute_string(),
                        "update the comment",
                        SourceLocation{o_.file, s.name_line, s.name_column},
                        {}});
        return;
      }
    }
  }

  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
    return s;
  }

  void statement(const KernelStatement& s) {
    using K = KernelStatement::Kind;
    if (s.kind == K::kDeclare || s.kind == K::kAssign || s.kind == K::kUsing) {
      KPtr v = define_value(s);
      if (s.kind == K::kDeclare) comment_check(s, *v);
      define(s.name, v);
      return;
    }
    std::string fn = s.name;
    if (fn.rfind("cute::", 0) == 0) fn = fn.substr(6);
    if (fn == "copy" && s.args.size() == 3) copy_statement(s);
    if (fn == "gemm" && (s.args.size() == 4 || s.args.size() == 3)) gemm_statement(s);
  }

  // The (M,N) tensor a copy side moves, following partitions back to the tensor they partition.
  bool side_tensor(const KVal& v, MemorySpace implied, CheckedTensor& out, const KVal** fragment) {
    const KVal* x = &v;
    while (x && x->kind != KVal::Kind::kValue) {
      if (x->kind == KVal::Kind::kRetile || x->kind == KVal::Kind::kFragment) {
        out.tensor.space = MemorySpace::kRmem;
        while (x && x->kind == KVal::Kind::kRetile) x = x->of.get();
        if (x && x->kind == KVal::Kind::kFragment && fragment) *fragment = x;
        return true;
      }
      if (x->kind == KVal::Kind::kUnknown) return false;
      if (x->kind == KVal::Kind::kPartition && (x->side == 'A' || x->side == 'B' || x->side == 'C')) {
        if (fragment) *fragment = x;  // copying into the MMA's partition directly
      }
      x = x->of.get();
    }
    if (!x) return false;
    out.name = x->name;
    out.layout_decl = x->layout_decl;
    out.layout_name = x->layout_name;
    AnyLayout l;
    MemorySpace space = implied;
    if (const Tensor* t = as_tensor(x->value)) {
      l = t->layout;
      if (t->swizzled) l = ComposedLayout::smem(t->swizzle, t->element.bits > 0 ? t->element.bits : 16, l);
      if (t->space == Tensor::Space::kGmem) space = MemorySpace::kGmem;
      if (t->space == Tensor::Space::kSmem) space = MemorySpace::kSmem;
      if (t->space == Tensor::Space::kRmem) space = MemorySpace::kRmem;
    } else if (x->value.is_layout_like()) {
      l = x->value.to_any_layout();
    } else {
      return false;
    }
    if (rank(l) > 2) {
      std::vector<Value> coord{Value::underscore(), Value::underscore()};
      for (size_t i = 2; i < rank(l); ++i) coord.push_back(Value::integer(0));
      l = slice(l, Value::tuple(coord));
    }
    out.tensor.space = space == MemorySpace::kRmem ? MemorySpace::kSmem : space;
    out.tensor.layout = l;
    return true;
  }

  void copy_statement(const KernelStatement& s) {
    KPtr atom = operand(s.args[0], s), src = operand(s.args[1], s), dst = operand(s.args[2], s);
    const KVal* by = nullptr;  // the TiledCopy of the partitions
    for (const KVal* x : {src.get(), dst.get()})
      if (!by && (x->kind == KVal::Kind::kPartition || x->kind == KVal::Kind::kRetile) && copy_of(*x)) by = x;
    const TiledCopy* copy = by ? copy_of(*by) : copy_of(*atom);
    for (const KVal* x : {atom.get(), src.get(), dst.get()})
      if (const KVal* u = unknown_in(x)) return unresolved(s, *u);
    if (!copy) return note_unresolved(s, "no TiledCopy partitions its tensors");
    CopyEvent e;
    e.at = at(s);
    e.statement = s.text;
    e.copy = *copy;
    e.copy_name = by ? by->copy_name : atom->layout_name;
    e.copy_decl = by ? by->copy_decl : atom->layout_decl;
    auto [src_space, dst_space] = default_spaces(copy->atom);
    const KVal* fragment = nullptr;
    if (!side_tensor(*src, src_space, e.src, nullptr)) return note_unresolved(s, "cannot follow " + trim(s.args[1]));
    if (!side_tensor(*dst, dst_space, e.dst, &fragment)) return note_unresolved(s, "cannot follow " + trim(s.args[2]));
    if (fragment && mma_of(*fragment) && (fragment->side == 'A' || fragment->side == 'B')) {
      e.mma = *mma_of(*fragment);
      e.operand = fragment->side;
    }
    e.kernel_mma = kernel_mma_;
    e.kernel_mma_name = kernel_mma_name_;
    e.mma_decl = kernel_mma_decl_;
    if (o_.stats) ++o_.stats->copies;
    for (Finding& f : check_copy(e, o_.cache)) out_.push_back(std::move(f));
  }

  void gemm_statement(const KernelStatement& s) {
    KPtr mma = operand(s.args[0], s);
    if (mma->kind == KVal::Kind::kUnknown) return note_unresolved(s, "'" + mma->name + "': " + mma->error);
    const TiledMma* m = mma_of(*mma);
    if (!m) return;  // gemm of a bare MMA_Atom or a functor: nothing to check here
    note_mma(*mma, s.args[0]);
    GemmEvent e;
    e.at = at(s);
    e.mma = *m;
    e.mma_name = trim(s.args[0]);
    e.mma_decl = mma->layout_decl;
    const size_t first = s.args.size() == 4 ? 1 : 0;  // gemm(mma, A, B, C) or gemm(mma, D, A, B, C)...
    for (int i = 0; i < 3 && first + i < s.args.size(); ++i) {
      KPtr x = operand(s.args[first + i], s);
      e.names[i] = trim(s.args[first + i]);
      const KVal* y = x.get();
      while (y && (y->kind == KVal::Kind::kRetile)) y = y->of.get();
      if (y && (y->kind == KVal::Kind::kFragment || y->kind == KVal::Kind::kPartition) && mma_of(*y)) {
        e.from[i] = y->side;
        e.threads[i] = mma_of(*y)->num_threads;
      }
    }
    if (o_.stats) ++o_.stats->gemms;
    for (Finding& f : check_gemm(e)) out_.push_back(std::move(f));
  }
};

// Comments beside the files' own declarations: `auto sA = make_layout(...);  // (m,k,p) -> smem_idx`.
// (A kernel body's statements are the tracer's: comment_check, once per statement; their declarations now
// evaluate in the language too, where partitions resolve, so they are skipped here.)
void check_declaration_comments(const KernelFile& k, Environment& env, const CheckOptions& o,
                                std::vector<Finding>& out) {
  if (!o.text) return;
  auto in_kernel = [&k](int line) {
    for (const KernelFunction& kernel : k.kernels) {
      const int last = kernel.body.empty() ? kernel.line : kernel.body.back().line;
      if (line >= kernel.line && line <= last) return true;
    }
    return false;
  };
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < o.text->size(); ++i)
    if ((*o.text)[i] == '\n') starts.push_back(i + 1);
  for (const Declaration& d : env.declarations()) {
    if (d.file != o.file || d.line <= 0 || in_kernel(d.line)) continue;
    const int last = d.line + static_cast<int>(std::count(d.text.begin(), d.text.end(), '\n'));
    if (last > static_cast<int>(starts.size())) continue;
    const size_t b = starts[last - 1];
    const size_t e = static_cast<size_t>(last) < starts.size() ? starts[last] : o.text->size();
    const std::string line = o.text->substr(b, e - b);
    const size_t slash = line.find("//");
    if (slash == std::string::npos) continue;
    std::vector<std::string> entries = comment_shape(trim(line.substr(slash + 2)));
    if (entries.empty()) continue;
    Value v;
    try {
      if (env.resolve(d, default_registry(), v)) continue;
    } catch (const std::exception&) {
      continue;
    }
    int r = -1;
    if (v.is_layout_like()) r = static_cast<int>(rank(v.to_any_layout()));
    else if (const Tensor* t = as_tensor(v)) r = static_cast<int>(rank(t->layout));
    if (r < 0 || r == static_cast<int>(entries.size())) continue;
    std::string said;
    for (size_t i = 0; i < entries.size(); ++i) said += (i ? "," : "") + entries[i];
    out.push_back({"warning",
                   "layout-comment",
                   "the comment says " + d.name + " is (" + said + "), rank " + std::to_string(entries.size()) +
                       "; it has rank " + std::to_string(r) + ": " + v.to_cute_string(),
                   "update the comment",
                   SourceLocation{d.file, d.line, d.column},
                   {}});
  }
}

}  // namespace

std::vector<Finding> check_kernels(const KernelFile& k, Environment& env, const CheckOptions& o) {
  std::vector<Finding> out;
  for (const KernelFunction& kernel : k.kernels) {
    std::vector<const KernelLaunch*> launches;
    for (const KernelLaunch& l : k.launches)
      if (l.kernel == kernel.name) launches.push_back(&l);
    if (launches.empty()) launches.push_back(nullptr);
    for (const KernelLaunch* l : launches) {
      std::vector<Finding> found;
      Tracer t(kernel, env, o, found);
      t.bind_launch(l);
      t.run();
      for (Finding& f : found) {
        if (l && launches.size() > 1)
          f.related.push_back({{o.file, l->line, l->column}, "in the launch from " + l->function});
        out.push_back(std::move(f));
      }
    }
    const int last = kernel.body.empty() ? kernel.line : kernel.body.back().line;
    for (const Conditional& c : k.conditionals) {
      if (c.line < kernel.line || c.line > last || c.text.rfind("#else", 0) == 0) continue;
      const size_t space = c.text.find_first_of(" \t");
      const std::string cond = space == std::string::npos ? "" : trim(c.text.substr(space));
      if (cond == "0" || cond == "1") continue;
      out.push_back({"warning",
                     "preprocessor",
                     "'" + c.text +
                         "': inside a kernel body cutevis reads every branch (declarations outside follow --arch/-D); "
                         "findings in this kernel may come from a branch the compiler does not take",
                     "",
                     SourceLocation{o.file, c.line, 1},
                     {}});
    }
  }
  check_declaration_comments(k, env, o, out);
  // one finding per place and message (a statement seen once per launch reports once)
  std::vector<Finding> unique;
  std::set<std::string> seen;
  for (Finding& f : out) {
    std::string key = f.at.file + ":" + std::to_string(f.at.line) + ":" + f.kind + ":" + f.message;
    if (seen.insert(key).second) unique.push_back(std::move(f));
  }
  return unique;
}

}  // namespace cutevis

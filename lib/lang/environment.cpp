// Declared names: lookup, lazy evaluation with cycle detection, and the undefined-name
// report (see lib/lang/environment.hpp).
#include "lib/lang/environment.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <unordered_set>

#include "lib/lang/cpp_syntax.hpp"
#include "lib/lang/suggestions.hpp"
#include "lib/lang/tensor.hpp"
#include "lib/stable_sort.hpp"

namespace cutevis {

namespace {

constexpr size_t kMaxDeclarationDepth = 200;

// The largest value a declaration may have, in nodes (tuple elements, integer-tuple nodes,
// a layout's shape and stride).  A chain `using S1 = Shape<S0,S0>; using S2 = Shape<S1,S1>; ...`
// doubles per line: without a cap 20 lines take seconds and gigabytes.  Real kernels'
// largest values have a few hundred nodes.
constexpr size_t kMaxValueNodes = size_t{1} << 14;

// The nodes of `v`, counted until `cap` is passed.
size_t value_nodes(const Value& v, size_t cap) {
  switch (v.kind()) {
    case Value::Kind::kTuple: {
      size_t n = 1;
      for (const Value& e : v.elements())
        if ((n += value_nodes(e, cap)) > cap) break;
      return n;
    }
    case Value::Kind::kInt: return v.leaf().node_count();
    case Value::Kind::kLayout:
      if (const Layout* l = std::get_if<Layout>(&v.any_layout())) return l->shape.node_count() + l->stride.node_count();
      return 1;
    default: return 1;
  }
}

std::string base_name(const std::string& name) {
  size_t colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

// "A::B::X" for X declared in scope A::B.
std::string qualified(const Declaration& d) { return d.scope.empty() ? d.name : d.scope + "::" + d.name; }

// Does `outer` enclose `inner` (both "::"-joined scopes; "" encloses everything)?
bool encloses(const std::string& outer, const std::string& inner) {
  if (outer.empty()) return true;
  if (inner.compare(0, outer.size(), outer) != 0) return false;
  return inner.size() == outer.size() || inner.compare(outer.size(), 2, "::") == 0;
}

// Does the declaration's qualified name end in `name` at a `::` boundary?
bool qualifies(const std::string& full, const std::string& name) {
  if (full == name) return true;
  return full.size() > name.size() + 2 && full.compare(full.size() - name.size(), name.size(), name) == 0 &&
         full.compare(full.size() - name.size() - 2, 2, "::") == 0;
}

// The algebra's builtins (lib/lang/builtins.cpp, lib/lang/cpp_syntax.cpp; atoms/ and lib/lang/tensor.cpp
// wrap some for their objects) that evaluate every argument they are given and fail when
// one fails: none reads an argument's text instead, catches its failure or skips it.
// Others (make_gmem_ptr(p) keeps p's text, make_tma_copy rephrases its operation's
// failure) may succeed, or say something else, with a failed declaration as argument.
bool evaluates_every_argument(const std::string& builtin) {
  static const std::unordered_set<std::string> plain = {"Int",
                                                        "C",
                                                        "make_shape",
                                                        "make_stride",
                                                        "make_coord",
                                                        "make_step",
                                                        "make_tile",
                                                        "make_tuple",
                                                        "Shape",
                                                        "Stride",
                                                        "Step",
                                                        "Coord",
                                                        "Tile",
                                                        "tuple",
                                                        "Swizzle",
                                                        "Sw",
                                                        "S",
                                                        "get",
                                                        "structured_binding",
                                                        "layout",
                                                        "append",
                                                        "prepend",
                                                        "slice",
                                                        "dice",
                                                        "congruent",
                                                        "weakly_congruent",
                                                        "compatible",
                                                        "blocked_product",
                                                        "raked_product",
                                                        "upcast",
                                                        "downcast",
                                                        "Layout",
                                                        "make_layout",
                                                        "make_identity_layout",
                                                        "make_ordered_layout",
                                                        "make_layout_like",
                                                        "make_composed_layout",
                                                        "composition",
                                                        "size",
                                                        "cosize",
                                                        "coshape",
                                                        "rank",
                                                        "depth",
                                                        "shape",
                                                        "stride",
                                                        "select",
                                                        "take",
                                                        "group",
                                                        "flatten",
                                                        "replace",
                                                        "zip",
                                                        "crd2idx",
                                                        "idx2crd",
                                                        "ceil_div",
                                                        "shape_div",
                                                        "product_each",
                                                        "coalesce",
                                                        "filter",
                                                        "filter_zeros",
                                                        "complement",
                                                        "right_inverse",
                                                        "left_inverse",
                                                        "max_common_vector",
                                                        "max_common_layout",
                                                        "nullspace",
                                                        "tile_to_shape",
                                                        "with_shape",
                                                        "recast_layout",
                                                        "logical_divide",
                                                        "zipped_divide",
                                                        "tiled_divide",
                                                        "flat_divide",
                                                        "logical_product",
                                                        "zipped_product",
                                                        "tiled_product",
                                                        "flat_product",
                                                        "min",
                                                        "max",
                                                        "sizeof_bits",
                                                        "sizeof_bits_v",
                                                        "is_same_v",
                                                        "is_same",
                                                        "reverse",
                                                        "ComposedLayout"};
  return plain.count(builtin) != 0;
}

}  // namespace

UndefinedNames::UndefinedNames(std::vector<NameUse> uses, bool cutlass_read)
    : Error(
          [&] {
            if (uses.size() == 1 && cutlass_header_of(uses[0].name) &&
                uses[0].nearest.empty())  // not CuTe, no typo of a header's name: say so, suggest nothing
              return cutlass_code_message(uses[0].name, cutlass_read);
            if (uses.size() == 1)
              return "undefined name '" + uses[0].name + "'" +
                     (uses[0].nearest.empty() ? "" : "; did you mean " + quoted_alternatives(uses[0].nearest) + "?");
            std::string m = std::to_string(uses.size()) + " undefined names: ";
            const size_t shown = std::min<size_t>(uses.size(), 12);  // one line, whatever the text
            for (size_t i = 0; i < shown; ++i) m += (i ? ", " : "") + uses[i].name.substr(0, 60);
            if (shown < uses.size()) m += ", and " + std::to_string(uses.size() - shown) + " more";
            return m;
          }(),
          uses.empty() || !uses[0].in_expression ? kNoPosition : uses[0].position),
      uses_(std::move(uses)) {}

Environment::Environment() {
  parsers_[SourceLanguage::kCpp] = [](const std::string& text) { return parse_expression(text); };
}

void Environment::set_parser(SourceLanguage language, Parser parser) { parsers_[language] = std::move(parser); }

void Environment::add(Declaration d) {
  forget_lookups();
  declarations_.push_back(std::move(d));
  const Declaration& added = declarations_.back();
  const size_t number = next_number_++;
  by_name_[base_name(added.name)].push_back({number, &added});
  if (added.from_header && (header_files_.empty() || header_files_.back() != added.file)) {
    header_files_.push_back(added.file);
    header_file_set_.insert(added.file);
  }
  if (!added.template_scope.empty() && added.template_scope != qualified(added))  // a member, not an alias template
    if (class_templates_.emplace(added.template_scope, TemplateMember{&added, number, ""}).second)
      class_template_names_.insert(base_name(added.template_scope));
}

void Environment::add_deferred(std::shared_ptr<const DeferredDeclarations> source) {
  if (!source || source->size() == 0) return;
  forget_lookups();
  const size_t index = deferred_.size(), first = next_number_;
  next_number_ += source->size();
  for (std::string_view name : source->names()) undecoded_[name].push_back(index);
  for (std::string& f : source->files()) {  // (read_header asks whether a file was read: order aside)
    if (header_file_set_.insert(f).second) header_files_.push_back(std::move(f));
  }
  for (const auto& m : source->class_template_members()) {
    std::string scope(m.template_scope);
    if (class_templates_.emplace(scope, TemplateMember{nullptr, first + m.number, std::string(m.name)}).second)
      class_template_names_.insert(base_name(scope));
  }
  deferred_.push_back({std::move(source), first});
}

void Environment::add_parameter(Declaration d) {
  forget_lookups();
  parameters_.push_back(std::move(d));
  parameter_names_[parameters_.back().name].push_back({next_parameter_number_++, &parameters_.back()});
}

void Environment::add_deferred_parameters(std::shared_ptr<const DeferredDeclarations> source) {
  if (!source || source->parameter_count() == 0) return;
  forget_lookups();
  const size_t index = deferred_parameters_.size();
  for (std::string_view name : source->parameter_names()) undecoded_parameters_[name].push_back(index);
  deferred_parameters_.push_back({source, next_parameter_number_});
  next_parameter_number_ += source->parameter_count();
}

const std::vector<Environment::Named>* Environment::parameters_named(const std::string& name) const {
  if (!undecoded_parameters_.empty())
    if (auto it = undecoded_parameters_.find(name); it != undecoded_parameters_.end()) {
      const std::vector<size_t> sources = std::move(it->second);
      undecoded_parameters_.erase(it);  // (its key views the source's name)
      std::vector<Named>& named = parameter_names_[name];
      for (size_t index : sources) {
        const Deferred& from = deferred_parameters_[index];
        for (size_t i : from.source->parameter_numbers_named(name)) {
          decoded_.push_back(from.source->parameter(i));
          const Named n{from.first_number + i, &decoded_.back()};
          named.insert(std::upper_bound(named.begin(), named.end(), n,
                                        [](const Named& a, const Named& b) { return a.number < b.number; }),
                       n);
        }
      }
    }
  auto it = parameter_names_.find(name);
  return it == parameter_names_.end() ? nullptr : &it->second;
}

const Declaration* Environment::parameter(const std::string& name, const std::string& scope) const {
  const std::vector<Named>* named = parameters_named(name);
  if (!named) return nullptr;
  const Declaration* best = nullptr;
  for (auto it = named->rbegin(); it != named->rend(); ++it) {  // the last first
    const Declaration& p = *it->d;
    bool inside = scope.compare(0, p.scope.size(), p.scope) == 0;
    if (inside &&
        (!best || best->scope.size() < p.scope.size() || scope.compare(0, best->scope.size(), best->scope) != 0))
      best = &p;
    if (!best) best = &p;
  }
  return best;
}

void Environment::decode_named(const std::string& base) const {
  if (undecoded_.empty()) return;
  auto it = undecoded_.find(base);
  if (it == undecoded_.end()) return;
  const std::vector<size_t> sources = std::move(it->second);
  undecoded_.erase(it);  // (its key views the source's name: erased before anything else)
  std::vector<Named>& named = by_name_[base];
  for (size_t index : sources) {
    const Deferred& from = deferred_[index];
    for (size_t i : from.source->numbers_named(base)) {
      decoded_.push_back(from.source->declaration(i));
      const Named n{from.first_number + i, &decoded_.back()};
      // in order of appearance among the others of this name
      named.insert(std::upper_bound(named.begin(), named.end(), n,
                                    [](const Named& a, const Named& b) { return a.number < b.number; }),
                   n);
    }
  }
}

void Environment::add_function(FunctionDef f) {
  if (f.decl.from_header) header_file_set_.insert(f.decl.file);
  functions_.push_back(std::move(f));
  function_names_.emplace(functions_.back().decl.name, &functions_.back());
}

void Environment::add_class(ClassDef c) {
  classes_.push_back(std::move(c));
  const ClassDef* added = &classes_.back();
  class_names_.emplace(added->name, added);
  class_members_.emplace(added->members_scope, added);
}

namespace {
// The definitions of `name` (maybe qualified) among `by_name` seen from `scope`: those whose
// qualified name ends in `name`, the innermost enclosing first (then the first written).
// A header's definition (FromHeader) only where C++ finds it: from an enclosing scope or by
// qualification (a CUTLASS member function `size()` is not CuTe's size<0>(x)).
template <class Def, class ScopeOf, class NameOf, class FromHeader>
std::vector<const Def*> visible(const std::multimap<std::string, const Def*>& by_name, const std::string& name,
                                const std::string& scope, ScopeOf scope_of, NameOf name_of, FromHeader from_header) {
  std::string n = name.rfind("::", 0) == 0 ? name.substr(2) : name;
  const std::string written = n;
  for (const char* prefix : {"cute::", "cutlass::"})  // as written in CUTLASS: cute::f from inside namespace cute
    if (n.rfind(prefix, 0) == 0 && by_name.count(base_name(n)) &&
        n.find("::", std::string(prefix).size()) == std::string::npos)
      n = n.substr(std::string(prefix).size());
  auto [first, last] = by_name.equal_range(base_name(n));
  std::vector<std::pair<long, const Def*>> found;
  for (auto it = first; it != last; ++it) {
    const std::string& where = scope_of(*it->second);
    std::string full = where.empty() ? name_of(*it->second) : where + "::" + name_of(*it->second);
    if (!qualifies(full, n)) continue;
    // found by its qualification as written (cutlass::sizeof_bits, a header's, from anywhere), or
    // as seen from `scope`
    const bool by_qualification = written.find("::") != std::string::npos && qualifies(full, written);
    long score = by_qualification || n.find("::") != std::string::npos
                     ? 0
                     : (encloses(where, scope) ? static_cast<long>(where.size()) : -1);
    if (score < 0 && from_header(*it->second)) continue;
    found.emplace_back(score, it->second);
  }
  stable_sort_by(found, [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const Def*> out;
  for (const auto& [score, d] : found) out.push_back(d);
  return out;
}
}  // namespace

std::vector<const FunctionDef*> Environment::functions(const std::string& name, const std::string& scope) const {
  if (function_names_.empty() || !function_names_.count(base_name(name))) return {};  // (most names)
  return visible(
      function_names_, name, scope, [](const FunctionDef& f) -> const std::string& { return f.decl.scope; },
      [](const FunctionDef& f) -> const std::string& { return f.decl.name; },
      [](const FunctionDef& f) { return f.decl.from_header; });
}

std::vector<const ClassDef*> Environment::classes(const std::string& name, const std::string& scope) const {
  if (class_names_.empty() || !class_names_.count(base_name(name))) return {};
  return visible(
      class_names_, name, scope, [](const ClassDef& c) -> const std::string& { return c.scope; },
      [](const ClassDef& c) -> const std::string& { return c.name; },
      [&](const ClassDef& c) { return header_file_set_.count(c.file) > 0; });
}

const ClassDef* Environment::class_of_members(const std::string& members_scope) const {
  auto it = class_members_.find(members_scope);
  return it == class_members_.end() ? nullptr : it->second;
}

const Declaration* Environment::class_template(const std::string& name, const std::string& scope) const {
  if (class_templates_.empty() || !class_template_names_.count(base_name(name))) return nullptr;  // (most names)
  std::string n = name.rfind("::", 0) == 0 ? name.substr(2) : name;
  for (std::string s = scope;; s = s.substr(0, s.rfind("::") == std::string::npos ? 0 : s.rfind("::"))) {
    auto it = class_templates_.find(s.empty() ? n : s + "::" + n);
    if (it != class_templates_.end()) {
      TemplateMember& m = it->second;
      if (!m.d) {  // a deferred source's: decoded now
        decode_named(m.name);
        for (const Named& named : by_name_[m.name])
          if (named.number == m.number) m.d = named.d;
      }
      return m.d;
    }
    if (s.empty()) return nullptr;
  }
}

std::string ClassInstance::to_string() const {
  if (params_.empty()) return scope_.substr(0, scope_.find('#'));  // a plain struct: RowMajor
  std::string s = scope_.substr(0, scope_.find('#')) + "<";        // (a specialization's scope is Traits#2)
  for (size_t i = 0; i < params_.size(); ++i) {
    auto it = values_.find(params_[i]);
    s += (i ? "," : "") + (it == values_.end() ? std::string("?") : it->second.to_string());
  }
  return s + ">";
}

void Environment::define(Declaration d) {
  forget_lookups();
  defines_.push_back(std::move(d));
  by_name_[base_name(defines_.back().name)].push_back({next_number_++, &defines_.back()});
}

const Declaration* Environment::find(const std::string& name, const std::string& scope, const Declaration* self) const {
  // Each lookup walks every declaration of the name (a kernel file declares the same names in
  // each of its structs): remembered, until a declaration is added
  if (name.find("::") == std::string::npos) {
    // by scope, then name (one declaration's names are looked up from one scope in a row);
    // setting `self` aside changes the answer only when the answer is `self`
    if (!last_names_ || scope != last_scope_) {
      last_names_ = &found_in_scope_[scope];
      last_scope_ = scope;
    }
    auto [it, fresh] = last_names_->try_emplace(name, nullptr);
    if (fresh) it->second = lookup(name, scope, nullptr);
    if (!self || it->second != self) return it->second;
  }
  std::string key = name;
  key += '\n';
  key += scope;
  key.append(reinterpret_cast<const char*>(&self), sizeof self);
  auto [it, fresh] = found_.try_emplace(std::move(key), nullptr);
  if (fresh) it->second = lookup(name, scope, self);
  return it->second;
}

const Declaration* Environment::lookup(const std::string& name, const std::string& scope,
                                       const Declaration* self) const {
  // `using ns::Name;` stands for the declaration of ns::Name (none: a CuTe name, built in)
  auto follow = [&](const Declaration* d) {
    for (int hops = 0; d && d->using_declaration; ++hops) d = hops < 8 ? find_here(d->text, d->scope, d) : nullptr;
    return d;
  };
  const Declaration* d = follow(find_here(name, scope, self));
  if (d || name.find("::") == std::string::npos) return d;
  // Config::SmemLayoutA where Config names a struct (using Config = GemmConfig<half_t>; or
  // -D Config=GemmConfig): look in that struct, its template arguments set aside
  size_t colon = name.rfind("::");
  std::string owner = name.substr(0, colon);
  for (int hops = 0; hops < 8; ++hops) {
    const Declaration* alias = find_here(owner, scope, self);
    if (!alias) return nullptr;
    std::string target = alias->text;
    while (!target.empty() && std::isspace(static_cast<unsigned char>(target.back()))) target.pop_back();
    if (target.rfind("typename ", 0) == 0) target = target.substr(9);
    size_t angle = target.find('<');
    if (angle != std::string::npos) target = target.substr(0, angle);
    if (target.empty() || target == owner) return nullptr;
    for (char c : target)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':')) return nullptr;
    if ((d = follow(find_here(target + name.substr(colon), scope, self)))) return d;
    owner = target;
  }
  return nullptr;
}

const Declaration* Environment::find_here(const std::string& name, const std::string& scope,
                                          const Declaration* self) const {
  const std::string base = base_name(name);
  decode_named(base);
  auto found = by_name_.find(base);
  if (found == by_name_.end() || found->second.empty()) return nullptr;
  bool is_qualified = name.find("::") != std::string::npos;
  const Declaration* best = nullptr;
  long best_score = -2;
  for (const Named& named : found->second) {
    const Declaration* d = named.d;
    if (d == self) continue;
    long score;
    if (!is_qualified && d->name == name) {  // the common case: no strings built
      score = encloses(d->scope, scope) ? static_cast<long>(d->scope.size()) : -1;
    } else {
      std::string full = qualified(*d);
      if (!qualifies(full, name)) continue;
      std::string where =
          full.substr(0, full.size() - base_name(full).size() - (full.size() > base_name(full).size() ? 2 : 0));
      score = is_qualified ? 0 : (encloses(where, scope) ? static_cast<long>(where.size()) : -1);
    }
    // a header's declaration only where C++ finds it: from an enclosing scope or by qualification
    if (score < 0 && d->from_header) continue;
    // -D first; then the innermost enclosing scope; then any scope; ties: the last one
    if (d->file.empty()) score += 1L << 30;
    if (score >= best_score) {
      best = d;
      best_score = score;
    }
  }
  // a parameter of an enclosing function or template shadows what is farther out: it is
  // undefined (a -D gives it), not another function's variable of the same name; a parameter
  // a launch or call binds (Declaration::read_in) is that parameter, in its own scope only
  if (best && !is_qualified && best_score < (1L << 30) && (best->read_in.empty() || best_score < 0)) {
    if (const std::vector<Named>* params = parameters_named(name))
      for (const Named& p : *params)
        // (strictly farther out: a member declared in the parameter's own scope is another specialization's,
        // `template <class ElementA> struct B;` in one file, `struct B<...> { using ElementA = ...; }` in another)
        if (encloses(p.d->scope, scope) && static_cast<long>(p.d->scope.size()) > best_score) return nullptr;
  }
  return best;
}

bool Environment::read_header(const std::string& path_suffix) const {
  for (const std::string& f : header_files_)
    if (path_suffix.back() == '/'
            ? f.rfind(path_suffix, 0) == 0 || f.find("/" + path_suffix) != std::string::npos
            : f.size() >= path_suffix.size() &&
                  f.compare(f.size() - path_suffix.size(), path_suffix.size(), path_suffix) == 0 &&
                  (f.size() == path_suffix.size() || f[f.size() - path_suffix.size() - 1] == '/'))
      return true;
  return false;
}

bool Environment::is_enclosing_parameter(const std::string& name, const std::string& scope) const {
  if (const std::vector<Named>* params = parameters_named(name))
    for (const Named& p : *params)
      if (encloses(p.d->scope, scope)) return true;
  return false;
}

SourceSpot Environment::spot_of(const Declaration& d, size_t offset) {
  offset = std::min(offset, d.text.size());
  SourceSpot s;
  s.file = d.file;
  s.name = d.name;
  size_t line_start = offset == 0 ? std::string::npos : d.text.rfind('\n', offset - 1);
  size_t newlines = static_cast<size_t>(std::count(d.text.begin(), d.text.begin() + static_cast<long>(offset), '\n'));
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  s.line = d.line + static_cast<int>(newlines);
  s.column = static_cast<int>(offset - line_start) + (newlines == 0 ? d.column : 1);
  size_t line_end = d.text.find('\n', offset);
  s.excerpt = d.text.substr(line_start, (line_end == std::string::npos ? d.text.size() : line_end) - line_start);
  s.excerpt_column = offset - line_start;
  return s;
}

const Node& Environment::parsed(const Declaration& d) {
  Entry& e = entries_[&d];
  if (e.parsed) return e.root;
  auto p = parsers_.find(d.language);
  if (p == parsers_.end())
    throw LocatedError(std::string(d.language == SourceLanguage::kPython ? "CuTeDSL Python" : "these") +
                           " declarations are not supported yet",
                       spot_of(d, 0));
  if (e.parse_failure) throw *e.parse_failure;  // once: names asks again for the undefined names
  try {
    e.root = p->second(d.text);
  } catch (const Error& err) {
    e.parse_failure = std::make_shared<LocatedError>(
        err.what(), spot_of(d, err.has_position() ? static_cast<size_t>(err.position()) : 0));
    throw *e.parse_failure;
  }
  e.parsed = true;
  return e.root;
}

// How a declaration's bare integers read (CuTe's static vs dynamic): C++ source and -D
// values are C++ as written (`6` is an int, `_6` an Int<6>); a command-line snippet follows
// the expression rule; CuTeDSL's Python ints are static.
namespace {
Literals literals_of(const Declaration& d) {
  if (d.language == SourceLanguage::kPython) return Literals::kStatic;
  return d.file == kSnippetFile ? Literals::kAuto : Literals::kDynamic;
}
}  // namespace

// ` of type cutlass::PipelineState<3>` for a local the function changes whose initializer is a class
// template's instance built with no arguments (`auto write_state = cutlass::PipelineState<K_PIPE_MAX>();`):
// its type is known at compile time, its value is not; "" where the type is not that plain.
std::string Environment::runtime_type(const Declaration& d, const Registry& registry) {
  try {
    const Node& root = parsed(d);
    if (root.kind != Node::Kind::kName || !root.has_template_args || !root.args.empty() ||
        root.call == Node::Call::kNone || registry.find(root.name))
      return "";
    Evaluator ev(registry);
    ev.set_environment(this, &d, reading_scope(d));
    ev.set_source(d.text);
    std::string out = " of type " + root.name + "<";
    const std::vector<Value> args = ev.eval_template_args(root);
    for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i].to_string();
    return out + ">";
  } catch (const Error&) {
    return "";
  }
}

namespace {
const char* const kProgramDefault = "the program's default";  // (what is_run_time_read_note knows a default by)

// A default's value as the program writes it: `char transA = 'N';` holds 78, said 'N'
std::string shown(const Declaration& d, const Value& v) {
  if (d.text.size() == 3 && d.text[0] == '\'' && v.is(Value::Kind::kInt)) {
    const int64_t c = v.as_int();
    if (c > 32 && c < 127) return "'" + std::string(1, static_cast<char>(c)) + "'";
  }
  return v.to_string();
}
}  // namespace

std::string Environment::command_line_note(const Declaration& d, const Value& v) {
  return d.name + " = " + shown(d, v) + ", " + kProgramDefault + " (its initializer at line " + std::to_string(d.line) +
         "); " + d.command_line_at + " (-D " + d.name + "=N for another)";
}

std::string Environment::defaults_note(const Declaration& d, const Registry& registry) {
  std::string out;
  const std::vector<const Declaration*> defaults = defaults_read(d);
  for (const Declaration* size : defaults) {
    Value v;
    if (resolve(*size, registry, v)) continue;  // (read, so resolved: kept)
    out += (out.empty() ? std::string("at ") + kProgramDefault + " problem size: " : ", ") + size->name + " = " +
           shown(*size, v);
  }
  if (out.empty()) return out;
  return out + (defaults.size() == 1 ? " (the command line changes it; -D " + defaults[0]->name + "=N for another)"
                                     : " (the command line changes them; -D NAME=N for others)");
}

// The branch of d's if-chain (Declaration::default_branches) taken at the program's defaults: the first whose
// condition holds, its conditions read as d's text is (its scope; the defaults they read are d's); nullptr where
// none does.  A condition that does not evaluate (argc, a run-time value) or a failing branch taken is an error.
const DefaultBranch* Environment::branch_taken(const Declaration& d, const Registry& registry) {
  for (const DefaultBranch& b : d.default_branches) {
    bool holds = b.condition.empty();
    if (!holds) {
      try {
        const Node root = parsers_.at(d.language)(b.condition);
        Evaluator ev(registry);
        ev.set_environment(this, &d, reading_scope(d));
        ev.set_source(b.condition);
        ev.use_literals(literals_of(d), root);
        const Value c = ev.eval(root);
        if (c.is(Value::Kind::kBool)) holds = c.as_bool();
        else holds = c.as_int() != 0;
      } catch (const Error& err) {
        std::string written;  // (a branch that assigns it: where the change is)
        for (const DefaultBranch& w : d.default_branches)
          if (written.empty() && !w.written_at.empty()) written = w.written_at + ", ";
        throw Error(d.name + " changes at run time (" + written + "in the if at line " + std::to_string(b.line) +
                    " on `" + b.condition + "`, known only when the program runs: " + err.what() +
                    "): a run-time value" + runtime_type(d, registry) +
                    ", its initializer is only where it starts; give -D " + d.name + "=... to pick a value");
      }
    }
    if (!holds) continue;
    if (b.fails)
      throw Error(d.name + ": the branch " + (b.condition.empty() ? std::string("else") : "`" + b.condition + "`") +
                  " at line " + std::to_string(b.line) +
                  " is the one taken at these values, and it stops the program (assert(false) or throw)");
    return &b;
  }
  return nullptr;
}

std::string Environment::branch_note(const Declaration& d, const DefaultBranch* taken, const Value& v,
                                     const std::string& decided_at) {
  const std::string at = decided_at.empty() ? std::string("at the values given, not ") + kProgramDefault
                                            : std::string("at ") + kProgramDefault + " " + decided_at;
  if (!taken || taken->value.empty())
    return d.name + " = " + v.to_string() + ", its initializer at line " + std::to_string(d.line) +
           ": no branch of the if at line " + std::to_string(d.default_branches[0].line) + " assigns it " + at +
           " (-D " + d.name + "=N for another)";
  return d.name + " = " + taken->value + " = " + v.to_string() + ": the branch " +
         (taken->condition.empty() ? std::string("else") : taken->condition) + " at line " +
         std::to_string(taken->line) + ", " + at + " (-D " + d.name + "=N for another)";
}

// "transA = 'N', k = 64": the defaults d's evaluation has read so far, each with its value
std::string Environment::defaults_so_far(const Declaration& d, const Registry& registry) {
  std::string out;
  for (const Declaration* size : entries_[&d].defaults) {
    Value v;
    if (resolve(*size, registry, v)) continue;
    out += (out.empty() ? "" : ", ") + size->name + " = " + shown(*size, v);
  }
  return out;
}

bool is_default_size_note(const Warning& w) { return w.message.find(kProgramDefault) != std::string::npos; }

bool is_run_time_read_note(const Warning& w) {
  return w.message.rfind("blockIdx.", 0) == 0 || w.message.rfind("block_rank_in_cluster ", 0) == 0 ||
         is_default_size_note(w);
}

// A declaration's defaults are those of every declaration its evaluation read, fresh or already resolved.
void Environment::pass_defaults_up(const Entry& e) {
  if (stack_.empty() || e.defaults.empty()) return;
  std::vector<const Declaration*>& reader = entries_[stack_.back()].defaults;
  for (const Declaration* size : e.defaults)
    if (std::find(reader.begin(), reader.end(), size) == reader.end()) reader.push_back(size);
}

const LocatedError* Environment::resolve(const Declaration& d, const Registry& registry, Value& out) {
  if (as_declared_) {  // every entry touched now is put back afterwards; a failure may be a changed local's
    auto it = entries_.find(&d);
    if (!before_as_declared_.count(&d)) before_as_declared_[&d] = it == entries_.end() ? Entry() : it->second;
    if (it != entries_.end() && it->second.state == Entry::State::kFailed) it->second.state = Entry::State::kNew;
  }
  Entry& e = entries_[&d];
  if (e.state == Entry::State::kDone) {
    out = e.value;
    pass_defaults_up(e);
    return nullptr;
  }
  if (e.state == Entry::State::kFailed) return e.failure.get();
  if (e.state == Entry::State::kBusy) {
    std::string chain;
    for (auto it = std::find(stack_.begin(), stack_.end(), &d); it != stack_.end(); ++it) chain += (*it)->name + " -> ";
    throw Error("recursive definition: " + chain + d.name);
  }
  if (stack_.size() >= kMaxDeclarationDepth)
    throw Error("declarations nested too deeply (more than " + std::to_string(kMaxDeclarationDepth) +
                " names, each defined by the next)");
  e.state = Entry::State::kBusy;
  stack_.push_back(&d);
  try {
    if (!d.changed_at.empty() && !as_declared_) {
      Value v = value_as_declared(d, registry);
      stack_.pop_back();
      Entry& done = entries_[&d];
      done.state = Entry::State::kDone;
      done.value = v;
      out = std::move(v);
      return nullptr;
    }
    // -D NAME=N gives a command-line default's own name its value too, as it does to every reader
    const bool program_default = !d.command_line_at.empty() || !d.default_branches.empty();
    const Declaration* given = program_default ? find(d.name, reading_scope(d), &d) : nullptr;
    const Declaration& from = given && given->file.empty() ? *given : d;
    const bool at_default = program_default && &from == &d;
    // ldA = 0; if (transA == 'N') { ldA = m; } ...: the branch the chain takes at the defaults gives the text
    const DefaultBranch* taken = at_default && !d.default_branches.empty() ? branch_taken(d, registry) : nullptr;
    const std::string decided_at =  // the defaults the conditions read
        at_default && !d.default_branches.empty() ? defaults_so_far(d, registry) : "";
    std::optional<Node> assigned;
    if (taken && !taken->value.empty()) {
      try {
        assigned = parsers_.at(d.language)(taken->value);
      } catch (const Error& err) {
        throw Error(d.name + " = " + taken->value + " (line " + std::to_string(taken->line) + "): " + err.what());
      }
    }
    const Node& root = assigned ? *assigned : parsed(from);
    // A declaration that uses one already failed fails with that failure, as evaluating it
    // would, without the throw through every frame (a kernel file without -D has hundreds).
    bool stop = false;
    const LocatedError* dependency =
        failures_ && !assigned && !as_declared_ ? failed_dependency(root, from, registry, stop) : nullptr;
    if (dependency) {
      stack_.pop_back();
      Entry& failed = entries_[&d];
      failed.state = Entry::State::kFailed;
      failed.failure = std::make_shared<LocatedError>(dependency->at(Error::kNoPosition));
      return failed.failure.get();
    }
    Evaluator ev(registry);
    ev.set_environment(this, &from, reading_scope(from));
    ev.set_source(assigned ? taken->value : from.text);
    ev.use_literals(literals_of(from), root);
    Value v;
    try {
      v = ev.eval(root);
    } catch (const Error& err) {
      if (!assigned) throw;
      throw Error(d.name + " = " + taken->value + " (line " + std::to_string(taken->line) + "): " + err.what());
    }
    if (value_nodes(v, kMaxValueNodes) > kMaxValueNodes)
      throw Error(d.name + " has a value of more than " + std::to_string(kMaxValueNodes) +
                  " nodes, the limit for one declaration (a chain that doubles a shape per line?)");
    warnings_.insert(warnings_.end(), ev.warnings().begin(), ev.warnings().end());
    const std::string note = !at_default                  ? ""
                             : d.default_branches.empty() ? command_line_note(d, v)
                                                          : branch_note(d, taken, v, decided_at);
    if (at_default) warnings_.push_back(Warning{note});
    stack_.pop_back();
    Entry& done = entries_[&d];
    done.default_note = note;
    done.state = Entry::State::kDone;
    done.value = v;
    if (at_default) done.defaults.insert(done.defaults.begin(), &d);
    pass_defaults_up(done);
    done.root = Node();  // nothing reads a done declaration's tree again: its memory serves the next
    done.parsed = false;
    out = std::move(v);
    return nullptr;
  } catch (const Error& err) {
    // A failure is kept as a value: the names command asks for every declaration, hundreds of
    // which fail in a kernel file without -D, and each failure is thrown once, not per use.
    stack_.pop_back();
    Entry& failed = entries_[&d];
    failed.state = Entry::State::kFailed;
    ++failures_;
    if (const auto* located = dynamic_cast<const LocatedError*>(&err)) {
      failed.failure = std::make_shared<LocatedError>(located->at(Error::kNoPosition));
    } else {
      SourceSpot spot = spot_of(d, err.has_position() ? static_cast<size_t>(err.position()) : 0);
      failed.failure = std::make_shared<LocatedError>(err.what(), spot);
      failed.failure->set_unknown_name(dynamic_cast<const UnknownName*>(&err) != nullptr);
    }
    return failed.failure.get();
  }
}

// A local its function assigns again later (`Tensor tXsA_p = tXsA(_,_,_,pipe);` then `tXsA_p = tXsA(_,_,_,pipe);`
// in the main loop): C++ keeps its type, and a tensor's static layout is part of its type, so its layout is
// the one its initializer gives where it is declared (the locals it reads there, as their initializers say);
// its iterator moves. A slice of a tensor that does not change (`tXsA(_,_,_,pipe)`) whose layout is not
// swizzled has the layout of its `_` modes whatever the coordinate, run-time strides included (tXsA's own).
// Anything else -- an int, another tensor whose layout has run-time parts -- has no value here.
Value Environment::value_as_declared(const Declaration& d, const Registry& registry) {
  auto refuse = [&](const std::string& why) -> Error {
    return Error(d.name + " changes at run time (" + d.changed_at + "): a run-time value" + runtime_type(d, registry) +
                 why + ", its initializer is only where it starts; give -D " + d.name + "=... to pick a value");
  };
  bool slice_of_fixed_tensor = false;  // evaluated before as_declared_: its tensor is cached as it is
  try {
    const Node& root = parsed(d);
    if (root.kind == Node::Kind::kName && root.call == Node::Call::kParen && !root.args.empty() &&
        !root.has_template_args)
      if (const Declaration* base = find(root.name, reading_scope(d), &d); base && base->changed_at.empty()) {
        Value whole;
        if (!resolve(*base, registry, whole))
          if (const Tensor* t = as_tensor(whole)) slice_of_fixed_tensor = std::holds_alternative<Layout>(t->layout);
      }
  } catch (const Error&) {
  }
  const size_t failures = failures_, warnings = warnings_.size();
  as_declared_ = true;
  Value v;
  std::string error;
  try {
    const Node& root = parsed(d);
    Evaluator ev(registry);
    ev.set_environment(this, &d, reading_scope(d));
    ev.set_source(d.text);
    ev.use_literals(literals_of(d), root);
    v = ev.eval(root);
  } catch (const Error& err) {
    error = err.what();
  }
  as_declared_ = false;  // put back every entry evaluated with changed locals as their initializers
  for (auto& [declaration, entry] : before_as_declared_) entries_[declaration] = std::move(entry);
  before_as_declared_.clear();
  failures_ = failures;
  warnings_.resize(warnings);
  const Tensor* t = as_tensor(v);
  if (!error.empty() || !t) throw refuse("");
  if (!slice_of_fixed_tensor && Value::layout(t->layout).has_dynamic())
    throw refuse(" (its layout " + cutevis::to_string(t->layout, true) + " has run-time parts, which may differ)");
  Tensor as_declared = *t;
  const std::string line = d.changed_at.substr(d.changed_at.rfind("at line "));
  as_declared.note = (as_declared.note.empty() ? "" : as_declared.note + "\n  ") + d.name + " is reassigned " + line +
                     "; its layout is its type's (the iterator as declared)";
  return tensor_value(std::move(as_declared));
}

// The failure evaluating `n` certainly meets first when that is a declaration's that has
// already failed: a bare X or X{} found as eval_name finds it, reached through operands
// and the arguments of builtins only, in order.  The walk stops (nullptr) at anything that
// might fail first or be skipped: a name that is not a builtin or a done declaration, a
// resolver's name, an operand evaluated only on a condition (?:, &&, ||, conditional_t).
const LocatedError* Environment::failed_dependency(const Node& n, const Declaration& within, const Registry& registry,
                                                   bool& stop) const {
  auto walk = [&](const std::vector<Node>& nodes, bool condition_only) -> const LocatedError* {
    for (const Node& c : nodes) {
      const LocatedError* f = failed_dependency(c, within, registry, stop);
      if (f || stop) return f;
      if (condition_only) break;
    }
    stop = stop || condition_only;
    return nullptr;
  };
  switch (n.kind) {
    case Node::Kind::kNumber:
    case Node::Kind::kUnderscore:
    case Node::Kind::kSmemFlag: return nullptr;
    case Node::Kind::kTuple:
    case Node::Kind::kLayout:
    case Node::Kind::kDecltype: return walk(n.children, false);
    case Node::Kind::kOperator: return walk(n.children, n.name == "?:" || n.name == "&&" || n.name == "||");
    case Node::Kind::kScope:
      if (n.children[0].kind == Node::Kind::kName && n.children[0].has_template_args) break;  // Cfg<T>::X
      return walk(n.children, false);
    case Node::Kind::kName: {
      const Declaration* d = find(n.name, reading_scope(within), &within);
      bool bare = !n.has_template_args && n.args.empty();
      // T::L where T is an instance of a class template: its own value, not the template's (failed) member
      if (bare && d && !d->template_scope.empty() && n.name.find("::") != std::string::npos) break;
      if (bare && d) {
        auto e = entries_.find(d);
        if (e != entries_.end() && e->second.state == Entry::State::kFailed) return e->second.failure.get();
        if (e != entries_.end() && e->second.state == Entry::State::kDone) return nullptr;
        break;  // evaluated here, for the first time
      }
      if (d) break;  // an alias template, or a declared layout called
      std::string name = n.name;
      for (const char* prefix : {"cute::", "cutlass::", "std::"})  // as eval_name strips them
        if (name.rfind(prefix, 0) == 0 && registry.find(name.substr(std::string(prefix).size())))
          name = name.substr(std::string(prefix).size());
      if (!registry.find(name)) {
        ValueType t;
        if (bare && lookup_value_type(n.name, t)) return nullptr;  // half_t
        for (const Node& a : n.args)  // read_state.index() where read_state is a run-time value: that, first
          if (a.kind == Node::Kind::kName && a.args.empty() && !a.has_template_args)
            if (const Declaration* ad = find(a.name, reading_scope(within), &within); ad && !ad->changed_at.empty()) {
              auto e = entries_.find(ad);
              if (e != entries_.end() && e->second.state == Entry::State::kFailed) return e->second.failure.get();
            }
        break;  // a resolver's name, unknown
      }
      if (name == "conditional_t" || name == "conditional") return walk(n.template_args, true);
      if (!evaluates_every_argument(name)) break;
      const LocatedError* f = walk(n.children, false);
      if (f || stop) return f;
      if (n.args.empty() || n.template_args.empty()) return walk(n.args.empty() ? n.template_args : n.args, false);
      // append<R>(t, x), recast_layout<A, B>(l): builtins differ in which they evaluate first,
      // so a failure in one counts only when nothing in the other may fail
      const LocatedError* in_args = walk(n.args, false);
      bool args_stop = std::exchange(stop, false);
      const LocatedError* in_targs = walk(n.template_args, false);
      bool targs_stop = std::exchange(stop, false);
      if (in_args && !in_targs && !targs_stop) return in_args;
      if (in_targs && !in_args && !args_stop) return in_targs;
      if (!in_args && !in_targs && !args_stop && !targs_stop) return nullptr;
      break;
    }
    case Node::Kind::kComposed: break;  // evaluated out of order
  }
  stop = true;
  return nullptr;
}

Value Environment::value_of(const Declaration& d, const Registry& registry) {
  Value v;
  if (const LocatedError* failure = resolve(d, registry, v)) throw *failure;
  return v;
}

namespace {
// Evaluates `text` of declaration d with the template bindings b (errors located in d).
class InTemplate {
 public:
  InTemplate(const Registry& registry, Environment* env, const Declaration& d, const Node& use,
             std::vector<Warning>& warnings)
      : registry_(registry), env_(env), d_(d), use_(use), warnings_(warnings) {}
  template <class Bindings, class Set>
  Value operator()(const std::string& text, const std::string& what, const Bindings& b, Set set_bindings) {
    Evaluator ev(registry_);
    ev.set_environment(env_, &d_, reading_scope(d_));
    ev.set_source(text);
    set_bindings(ev, &b);
    try {
      Node root = parse_expression(text);
      ev.use_literals(literals_of(d_), root);
      Value v = ev.eval(root);
      warnings_.insert(warnings_.end(), ev.warnings().begin(), ev.warnings().end());
      return v;
    } catch (const LocatedError& err) {
      throw err.at(static_cast<int64_t>(use_.begin));
    } catch (const Error& err) {
      SourceSpot spot =
          Environment::spot_of(d_, what.empty() && err.has_position() ? static_cast<size_t>(err.position()) : 0);
      throw LocatedError(what + err.what(), spot, static_cast<int64_t>(use_.begin));
    }
  }

 private:
  const Registry& registry_;
  Environment* env_;
  const Declaration& d_;
  const Node& use_;
  std::vector<Warning>& warnings_;
};
}  // namespace

Evaluator::Bindings Evaluator::bind(const Declaration& d, const Node& use, const std::vector<Node>& targs) {
  Bindings b;
  b.scope = d.template_scope;
  b.depth = (bindings_ ? bindings_->depth : 0) + 1;
  if (b.depth > 64) fail(use, "templates instantiated more than 64 deep");
  const auto& params = d.template_params;
  if (targs.size() > params.size())
    fail(use, d.template_scope + " takes " + std::to_string(params.size()) + " template arguments, got " +
                  std::to_string(targs.size()));
  for (size_t i = 0; i < targs.size(); ++i) b.values[params[i]] = eval(targs[i]);
  InTemplate evaluate(registry_, env_, d, use, warnings_);
  for (size_t i = targs.size(); i < params.size(); ++i) {  // defaults, in order: each may use those before it
    if (d.template_defaults[i].empty())
      fail(use, "template parameter '" + params[i] + "' of " + d.template_scope + " has no default: give it, " +
                    d.template_scope + "<...>");
    b.values[params[i]] = evaluate(d.template_defaults[i], "the default of " + params[i] + ": ", b,
                                   [](Evaluator& ev, const Bindings* with) { ev.bindings_ = with; });
  }
  return b;
}

namespace {
// A class's definition as the declaration its template parameters are bound through.
Declaration as_template(const ClassDef& c) {
  Declaration d;
  d.name = c.name;
  d.scope = c.scope;
  d.file = c.file;
  d.line = c.line;
  d.column = 1;
  d.template_scope = c.members_scope;
  d.template_params = c.tparams;
  d.template_defaults = c.tdefaults;
  return d;
}

// Does the value `v` match the pattern `p` of a specialization's arguments (Sm90<S>, S, 4,
// half_t), binding its parameters `params` into `bound`?  `eval` evaluates a pattern with no parameter.
template <class Eval>
bool matches(const Node& p, const Value& v, const std::vector<std::string>& params, std::map<std::string, Value>& bound,
             Eval&& eval) {
  if (p.kind == Node::Kind::kName && !p.has_template_args && p.args.empty() &&
      std::find(params.begin(), params.end(), p.name) != params.end()) {
    auto it = bound.find(p.name);
    if (it == bound.end()) {
      bound.emplace(p.name, v);
      return true;
    }
    return it->second.to_string() == v.to_string();
  }
  const auto* instance = v.is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(v.object().get()) : nullptr;
  if (p.kind == Node::Kind::kName && p.has_template_args && p.args.empty() && instance) {
    std::string scope = instance->scope();
    scope = scope.substr(0, scope.find('#'));
    if (!qualifies(scope, p.name) && !qualifies(p.name, base_name(scope))) return false;
    if (p.template_args.size() > instance->params().size()) return false;
    for (size_t i = 0; i < p.template_args.size(); ++i) {
      auto it = instance->values().find(instance->params()[i]);
      if (it == instance->values().end() || !matches(p.template_args[i], it->second, params, bound, eval)) return false;
    }
    return true;
  }
  Value w;
  try {
    w = eval(p);
  } catch (const Error&) {
    return false;
  }
  if (w.is(Value::Kind::kInt) && v.is(Value::Kind::kInt)) return w.as_int() == v.as_int();
  if (w.is(Value::Kind::kBool) != v.is(Value::Kind::kBool)) {  // Policy<true> for a bool parameter given 1
    bool wb = w.is(Value::Kind::kBool) ? w.as_bool() : w.is(Value::Kind::kInt) && w.as_int() != 0;
    bool vb = v.is(Value::Kind::kBool) ? v.as_bool() : v.is(Value::Kind::kInt) && v.as_int() != 0;
    return (w.is(Value::Kind::kInt) || v.is(Value::Kind::kInt)) && wb == vb;
  }
  return w.to_string() == v.to_string();
}
// A specialization for a cv-qualified type (template <class T> struct sizeof_bits<T const> :
// sizeof_bits<T> {}).  cutevis's values carry no const or volatile, so such a pattern would
// match every argument (and this one would derive from itself forever): it is never chosen,
// which is what C++ does for an unqualified argument.
bool cv_qualified_pattern(const std::string& specialization) {
  auto word = [&](size_t i) {
    return std::isalnum(static_cast<unsigned char>(specialization[i])) || specialization[i] == '_';
  };
  for (const std::string cv : {"const", "volatile"})
    for (size_t at = specialization.find(cv); at != std::string::npos; at = specialization.find(cv, at + 1)) {
      const size_t end = at + cv.size();
      if ((at == 0 || !word(at - 1)) && (end == specialization.size() || !word(end))) return true;
    }
  return false;
}
}  // namespace

bool Evaluator::class_instance(const Node& node, Value& out) {
  if (!env_ || !node.has_template_args || !node.args.empty() || node.call == Node::Call::kParen) return false;
  std::vector<const ClassDef*> defs = env_->classes(node.name, scope_);
  const ClassDef* primary = nullptr;
  bool specialized = false;
  for (const ClassDef* c : defs) {
    if (c->specialization.empty() && c->is_template && !primary) primary = c;
    specialized = specialized || !c->specialization.empty();
  }
  if (specialized) {  // template <int S> struct Policy<Sm90<S>>: the first whose pattern the arguments match
    std::vector<Value> given = eval_template_args(node);
    if (primary && given.size() < primary->tparams.size()) {  // the primary's defaults fill the rest
      Bindings filled = bind(as_template(*primary), node, node.template_args);
      for (size_t i = given.size(); i < primary->tparams.size(); ++i)
        given.push_back(filled.values[primary->tparams[i]]);
    }
    // the more specialized first, as C++ picks: a full specialization, then those with fewer parameters
    stable_sort_by(defs, [](const ClassDef* a, const ClassDef* b) { return a->tparams.size() < b->tparams.size(); });
    for (const ClassDef* c : defs) {
      if (c->specialization.empty() || cv_qualified_pattern(c->specialization)) continue;
      Node pattern;
      try {
        pattern = parse_expression(c->name + "<" + c->specialization + ">");
      } catch (const Error&) {
        continue;  // written in a way cutevis does not read
      }
      if (pattern.template_args.size() != given.size()) continue;
      std::map<std::string, Value> bound;
      // a pattern is read where the specialization is written, with the parameters bound so far
      // (struct CollectiveBuilder<arch::Sm90, ..., enable_if_t<is_any_of_v<KernelScheduleType, ...>>>)
      const std::string pattern_text = c->name + "<" + c->specialization + ">";
      const Declaration where = as_template(*c);
      auto eval_pattern = [&](const Node& p) {
        Bindings with;
        with.scope = c->members_scope;
        with.values = bound;
        with.depth = (bindings_ ? bindings_->depth : 0) + 1;
        if (with.depth > 64) fail(node, "templates instantiated more than 64 deep");
        return InTemplate(registry_, env_, where, node, warnings_)(
            pattern_text.substr(p.begin, p.end - p.begin), "", with,
            [](Evaluator& ev, const Bindings* w) { ev.set_bindings(w); });
      };
      bool all = true;
      for (size_t i = 0; i < given.size() && all; ++i)
        all = matches(pattern.template_args[i], given[i], c->tparams, bound, eval_pattern);
      if (!all || bound.size() != c->tparams.size()) continue;
      out = Value::object(std::make_shared<ClassInstance>(c->members_scope, c->tparams, std::move(bound)));
      return true;
    }
  }
  const Declaration* d = env_->class_template(node.name, scope_);
  if (d) {  // a specialization's member is no primary: MMA_Traits<MyAtom> leaves CuTe's MMA_Traits<Op> alone
    const ClassDef* owner = env_->class_of_members(d->template_scope);
    if (owner && !owner->specialization.empty()) d = nullptr;
  }
  Declaration from_class;
  if (primary && (!d || d->template_scope != primary->members_scope)) {  // (one without members: Sm90<3>)
    from_class = as_template(*primary);
    d = &from_class;
  }
  if (!d) return false;
  Bindings b = bind(*d, node, node.template_args);
  out = Value::object(std::make_shared<ClassInstance>(d->template_scope, d->template_params, std::move(b.values)));
  return true;
}

bool Evaluator::member_of(const Value& owner, const std::string& member, const Node& use, Value& out, int hops) {
  const auto* instance =
      owner.is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(owner.object().get()) : nullptr;
  if (!instance) return false;
  if (hops > 16) fail(use, "base classes nested more than 16 deep");
  const ClassDef* c = env_->class_of_members(instance->scope());
  const Declaration* m = env_->find(instance->scope() + "::" + member, scope_, within_);
  if (m && m->scope != instance->scope()) m = nullptr;  // (a look-alike found through an alias)
  if (m && (c == nullptr || c->is_template) && m->template_scope == instance->scope()) {
    Bindings b;
    b.scope = instance->scope();
    b.values = instance->values();
    b.depth = (bindings_ ? bindings_->depth : 0) + 1;
    if (b.depth > 64) fail(use, "templates instantiated more than 64 deep");
    const Bindings* saved = bindings_;
    bindings_ = &b;
    try {
      out = instantiate(*m, use, nullptr);
    } catch (...) {
      bindings_ = saved;
      throw;
    }
    bindings_ = saved;
    return true;
  }
  if (m) {
    out = declared_value(*m, use);
    return true;
  }
  if (c)  // a member it inherits: struct Traits : Base<S> { ... }
    for (const std::string& base : c->bases) {
      Value b;
      const std::vector<const ClassDef*> plain = env_->classes(base, c->scope);
      if (!plain.empty() && !plain.front()->is_template) {  // a struct, not a template: no value of its own
        b = Value::object(std::make_shared<ClassInstance>(plain.front()->members_scope, std::vector<std::string>{},
                                                          std::map<std::string, Value>{}));
      } else {
        Bindings with;
        with.scope = instance->scope();
        with.values = instance->values();
        with.depth = (bindings_ ? bindings_->depth : 0) + 1;
        Declaration where = as_template(*c);
        try {
          b = InTemplate(registry_, env_, where, use, warnings_)(
              base, "the base class " + base + ": ", with,
              [](Evaluator& ev, const Bindings* w) { ev.set_bindings(w); });
        } catch (const Error&) {
          continue;  // a base cutevis cannot read (a CuTe or CUTLASS class): its members are not known
        }
      }
      if (member_of(b, member, use, out, hops + 1)) return true;
    }
  // a struct nested in it: PipelineTmaAsync<1>::SharedStorage (its members see the outer's parameters)
  for (const ClassDef* nested : env_->classes(instance->scope() + "::" + member, scope_))
    if (!nested->is_template && nested->scope == instance->scope()) {
      out = Value::object(
          std::make_shared<ClassInstance>(nested->members_scope, std::vector<std::string>{}, instance->values()));
      return true;
    }
  if (hops > 0) return false;
  fail(use, instance->to_string() + " has no member '" + member + "' that cutevis read");
}

namespace {

// A struct's layout as the Itanium C++ ABI gives it (g++, clang and nvcc on Linux): each base, then each data
// member, at the next multiple of its alignment, two subobjects of one empty type never at one address, the
// whole rounded up to its alignment.  What that cannot tell (a base's tail padding, which the ABI reuses in
// some cases) is refused, never guessed.
struct StructLayout {
  int64_t size = 1;   // sizeof
  int64_t dsize = 0;  // where its data ends (what follows a base may start there)
  int64_t align = 1;
  bool empty = false;                                    // no data: a base of it takes no room
  std::vector<std::pair<std::string, int64_t>> empties;  // its empty class subobjects: (type, offset)
};

constexpr size_t kMaxEmpties = 4096;

int64_t round_up_to(int64_t x, int64_t m) { return checked_mul(checked_add(x, m - 1) / m, m); }

class StructSizer {
 public:
  StructSizer(Evaluator& ev, const Node& use) : ev_(ev), use_(use) {}

  StructLayout of_class(const ClassInstance& instance, int hops) {
    Environment* env = ev_.environment();
    const ClassDef* c = env ? env->class_of_members(instance.scope()) : nullptr;
    const std::string what = "sizeof(" + instance.to_string() + ")";
    if (!c) ev_.fail(use_, what + ": cutevis read no definition of it");
    if (!c->unlaid.empty()) ev_.fail(use_, what + ": " + c->unlaid + ", which cutevis does not lay out");
    if (hops > 16) ev_.fail(use_, what + ": structs nested more than 16 deep");
    // its members' types are read where the struct is, with the parameters of the template it is in
    Declaration where = as_template(*c);
    where.scope = c->members_scope;  // (a member type is looked up in the struct first: ValueType barrier_;)
    const ClassDef* outer = env->class_of_members(c->scope);
    if (!c->is_template && outer && outer->is_template) where.template_scope = outer->members_scope;
    Evaluator::Bindings with;
    with.scope = where.template_scope;
    with.values = instance.values();
    with.depth = (ev_.bindings() ? ev_.bindings()->depth : 0) + hops + 1;
    std::vector<Warning> warnings;
    auto read = [&](const std::string& text, const std::string& part) {
      return InTemplate(ev_.registry(), env, where, use_, warnings)(
          text, what + ", " + part + ": ", with, [](Evaluator& e, const Evaluator::Bindings* w) { e.set_bindings(w); });
    };
    // a struct nested in the same template, named as a member's type or a base (In in[2]; in T1<N>): it sees
    // the instance's parameters, as PipelineTmaAsync<1>::SharedStorage does
    auto bound = [&](Value v) {
      const auto* inner = v.is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(v.object().get()) : nullptr;
      const ClassDef* def = inner && inner->values().empty() ? env->class_of_members(inner->scope()) : nullptr;
      const ClassDef* around = def && !def->is_template ? env->class_of_members(def->scope) : nullptr;
      if (around && around->is_template && around->members_scope == with.scope && !with.values.empty())
        v = Value::object(std::make_shared<ClassInstance>(inner->scope(), std::vector<std::string>{}, with.values));
      return v;
    };
    auto alignment = [&](const std::string& text, const std::string& part) {
      const int64_t a = read(text, part).as_int();
      if (a <= 0 || (a & (a - 1)) != 0) ev_.fail(use_, what + ": " + part + " is " + std::to_string(a));
      return a;
    };
    StructLayout out;
    out.empty = c->data_members.empty();
    std::set<std::pair<std::string, int64_t>> taken;  // the empty subobjects placed so far
    int64_t dsize = 0, end = 0, tail = 0;             // tail: a base's padding up to there (0: none)
    std::string tail_base;
    // D at the first offset from `o` (in steps of its alignment) where no empty subobject of a type meets one
    // of its own type; returns it
    auto clashes = [&](const StructLayout& d, int64_t o) {
      for (const auto& [type, at] : d.empties)
        if (taken.count({type, checked_add(o, at)})) return true;
      return false;
    };
    auto place = [&](const StructLayout& d, int64_t o, const std::string& part) {
      for (int tries = 0; clashes(d, o); o = checked_add(o, d.align))
        if (++tries > 64) ev_.fail(use_, what + ": " + part + " meets its own type at 64 offsets");
      if (!d.empty && tail > 0 && o < tail)
        ev_.fail(use_, what + ": " + part + " would sit in the tail padding of the base " + tail_base +
                           ", which C++ reuses or not by rules cutevis does not follow");
      if (out.empties.size() + d.empties.size() > kMaxEmpties) ev_.fail(use_, what + ": too many empty members");
      for (const auto& [type, at] : d.empties) {
        taken.insert({type, o + at});
        out.empties.push_back({type, o + at});
      }
      out.align = std::max(out.align, d.align);
      end = std::max(end, checked_add(o, d.size));
      return o;
    };
    for (const std::string& base : c->bases) {
      const std::string part = "the base class " + base;
      const StructLayout d = of_value(bound(read(base, part)), what, part, hops);
      if (d.empty) {  // at offset 0 if it can, else after the data (Itanium ABI 2.4 II.3)
        place(d, clashes(d, 0) ? round_up_to(dsize, d.align) : 0, part);
        continue;
      }
      out.empty = false;
      const int64_t o = place(d, round_up_to(dsize, d.align), part);
      dsize = checked_add(o, d.dsize);
      tail = d.dsize < d.size ? checked_add(o, d.size) : 0;
      tail_base = base;
    }
    for (const ClassDef::DataMember& m : c->data_members) {
      const std::string part = "the member of type " + m.type;
      StructLayout d;
      if (!m.type.empty() && m.type.back() == '*') {  // a pointer: 8 bytes on the 64-bit targets CUDA has
        d.size = d.dsize = d.align = 8;
      } else {
        d = of_value(bound(read(m.type, part)), what, part, hops);
      }
      if (!m.align.empty()) d.align = std::max(d.align, alignment(m.align, "alignas(" + m.align + ")"));
      int64_t count = 1;
      for (const std::string& x : m.extents) {
        const int64_t n = read(x, part + ", its extent " + x).as_int();
        if (n <= 0) ev_.fail(use_, what + ": " + part + " has the extent " + std::to_string(n));
        count = checked_mul(count, n);
      }
      if (count > 1) {  // an array: its elements' empty subobjects each at their place
        std::vector<std::pair<std::string, int64_t>> all;
        if (!d.empties.empty() && count * static_cast<int64_t>(d.empties.size()) > static_cast<int64_t>(kMaxEmpties))
          ev_.fail(use_, what + ": " + part + " has too many empty subobjects");
        for (int64_t i = 0; i < count && !d.empties.empty(); ++i)
          for (const auto& [type, at] : d.empties) all.push_back({type, i * d.size + at});
        d.empties = std::move(all);
        d.size = checked_mul(d.size, count);
      }
      d.dsize = d.size;  // (a member's tail padding is its own)
      d.empty = false;
      const int64_t o = place(d, round_up_to(dsize, d.align), part);
      dsize = checked_add(o, d.size);
      tail = 0;
    }
    if (!c->align.empty()) out.align = std::max(out.align, alignment(c->align, "alignas(" + c->align + ")"));
    out.dsize = dsize;
    out.size = round_up_to(std::max<int64_t>({dsize, end, 1}), out.align);
    if (out.empty) out.empties.insert(out.empties.begin(), {instance.to_string(), 0});
    return out;
  }

  StructLayout of_value(const Value& t, const std::string& what, const std::string& part, int hops) {
    if (const auto* inner = t.is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(t.object().get()) : nullptr)
      return of_class(*inner, hops + 1);
    if (const auto* a =
            t.is(Value::Kind::kObject) ? dynamic_cast<const ArrayStorageType*>(t.object().get()) : nullptr) {
      StructLayout l;  // array_aligned<T, N>: one data member, no empty subobject
      l.size = l.dsize = a->size();
      l.align = a->align();
      return l;
    }
    if (!t.is(Value::Kind::kType))
      ev_.fail(use_, what + ": " + part + " is " + t.describe() + ", no type cutevis knows the size of");
    const ValueType& v = t.type();
    if (v.bits <= 0 || v.bits % 8 != 0)
      ev_.fail(use_, what + ": " + part + " is " + v.name + ", which is no whole number of bytes");
    StructLayout l;
    l.size = l.dsize = v.bits / 8;
    if (v.name == "TmaDescriptor") {  // alignas(64) (cute/arch/copy_sm90_desc.hpp)
      l.align = 64;
    } else if (v.name.rfind("complex<", 0) == 0) {  // two of its element
      l.align = l.size / 2;
    } else if (l.size <= 16 && (l.size & (l.size - 1)) == 0) {
      l.align = l.size;
    } else {
      ev_.fail(use_, what + ": " + part + " is " + v.name + ", whose alignment cutevis does not know");
    }
    return l;
  }

 private:
  Evaluator& ev_;
  const Node& use_;
};

}  // namespace

int64_t class_size(Evaluator& ev, const ClassInstance& instance, const Node& use, int64_t& align) {
  const StructLayout l = StructSizer(ev, use).of_class(instance, 0);
  align = l.align;
  return l.size;
}

bool Evaluator::instance_member(const Node& node, Value& out) {
  if (!env_ || node.has_template_args || !node.args.empty() || node.call == Node::Call::kParen) return false;
  size_t colon = node.name.rfind("::");
  if (colon == std::string::npos || colon == 0) return false;
  const std::string owner = node.name.substr(0, colon), member = node.name.substr(colon + 2);
  Value v;
  if (bindings_ && bindings_->values.count(owner)) {
    v = bindings_->values.at(owner);
  } else if (env_->find(owner, scope_, within_)) {
    Node owner_node = node;
    owner_node.name = owner;
    owner_node.call = Node::Call::kNone;
    try {
      v = eval_name(owner_node);
    } catch (const Error&) {
      if (!env_->find(node.name, scope_, within_)) throw;  // Traits::X where Traits itself fails: that is the blocker
      return false;                                        // (the member is looked up as declared)
    }
  } else if (!env_->find(node.name, scope_, within_)) {  // Traits::X that Traits inherits
    std::vector<const ClassDef*> defs = env_->classes(owner, scope_);
    if (defs.empty() || defs.front()->is_template || defs.front()->bases.empty()) return false;
    v = Value::object(std::make_shared<ClassInstance>(defs.front()->members_scope, std::vector<std::string>{},
                                                      std::map<std::string, Value>{}));
  } else {
    return false;
  }
  return member_of(v, member, node, out);
}

Value Evaluator::instantiate(const Declaration& d, const Node& use, const std::vector<Node>* targs) {
  Bindings b;
  if (!targs) {  // a member seen from inside the same instance
    b.scope = d.template_scope;
    b.values = bindings_->values;
    b.depth = bindings_->depth + 1;
    if (b.depth > 64) fail(use, "templates instantiated more than 64 deep");
  } else {
    b = bind(d, use, *targs);
  }
  return InTemplate(registry_, env_, d, use, warnings_)(
      d.text, "", b, [](Evaluator& ev, const Bindings* with) { ev.bindings_ = with; });
}

Value Evaluator::declared_value(const Declaration& d, const Node& at) {
  Value v;
  if (const LocatedError* failure = env_->resolve(d, registry_, v))
    throw failure->at(static_cast<int64_t>(at.begin));  // the caret of the expression: where the name is used
  return v;
}

void Environment::collect_undefined(const Node& n, const std::string& source, const Declaration* within,
                                    const Registry& registry, std::vector<NameUse>& out,
                                    std::vector<const Declaration*>& visited) {
  auto descend = [&](const std::vector<Node>& nodes) {
    for (const auto& c : nodes) collect_undefined(c, source, within, registry, out, visited);
  };
  const std::string scope = within ? reading_scope(*within) : top_scope_;
  if (n.kind == Node::Kind::kName) {
    bool bare = !n.has_template_args && n.args.empty();
    if (bare) {
      if (const Declaration* d = find(n.name, scope, within)) {
        if (std::find(visited.begin(), visited.end(), d) != visited.end()) return;
        visited.push_back(d);
        auto e = entries_.find(d);
        if (e != entries_.end() && e->second.state == Entry::State::kDone)
          return;  // it evaluated: nothing undefined in it
        if (e != entries_.end() &&
            e->second.undefined_known) {  // computed before (cutevis names asks for every declaration)
          for (const auto& u : e->second.undefined)
            if (std::none_of(out.begin(), out.end(), [&](const NameUse& x) { return x.name == u.name; }))
              out.push_back(u);
          return;
        }
        if (!parse_failed(*d)) try {
            collect_undefined(parsed(*d), d->text, d, registry, out, visited);
          } catch (const Error&) {  // a declaration that does not parse has no names to give
          }
        return;
      }
    }
    size_t member = bare ? n.name.rfind("::") : std::string::npos;
    if (member != std::string::npos && member > 0 && registry.find(n.name.substr(member))) {
      Node base = n;  // TiledMma::AtomThrID (atoms/cpp_names.cpp): what TiledMma needs
      base.name = n.name.substr(0, member);
      collect_undefined(base, source, within, registry, out, visited);
      return;
    }
    if (member != std::string::npos && member > 0 && !find(n.name, scope, within))
      if (const Declaration* owner = find(n.name.substr(0, member), scope, within)) {
        auto e = entries_.find(owner);
        if (e == entries_.end() || e->second.state != Entry::State::kDone) {
          Node base = n;  // Ktraits::DTypeO where the -D Ktraits itself fails: what Ktraits needs
          base.name = n.name.substr(0, member);
          collect_undefined(base, source, within, registry, out, visited);
          return;
        }
      }
    std::string name = n.name;
    for (const char* prefix : {"cute::", "cutlass::", "std::"})
      if (name.rfind(prefix, 0) == 0 && registry.find(name.substr(std::string(prefix).size())))
        name = name.substr(std::string(prefix).size());
    ValueType t;
    bool known =
        (registry.find(name) && !(bare && n.call == Node::Call::kNone && is_enclosing_parameter(n.name, scope))) ||
        lookup_value_type(n.name, t);
    if (!known && bare) {  // (a call or template is looked into below, known or not)
      Evaluator ev(registry);
      ev.set_environment(this, within, scope);
      ev.set_source(source);
      for (const auto& r : registry.resolvers()) {
        try {
          Value v;
          known = r(ev, n, v);
        } catch (const Error&) {
          known = true;  // claimed, though wrong in some other way
        }
        if (known) break;
      }
    }
    if (!known && bare) {
      for (const auto& u : out)
        if (u.name == n.name) return;
      NameUse use;
      use.name = n.name;
      use.in_expression = within == nullptr;
      use.position = static_cast<int64_t>(n.begin);
      if (within) use.spot = spot_of(*within, n.begin);
      out.push_back(std::move(use));
      return;
    }
    descend(n.template_args);
    if (n.name != "__kernel_function") descend(n.args);  // (its arguments name the kernel and its parameters)
    return;
  }
  descend(n.children);
  descend(n.template_args);
  descend(n.args);
}

std::vector<NameUse> Environment::undefined_names_of(const Declaration& d, const Registry& registry) {
  {
    Entry& e = entries_[&d];
    if (e.undefined_known) return e.undefined;
  }
  std::vector<NameUse> out;
  std::vector<const Declaration*> visited{&d};
  if (!parse_failed(d)) try {
      collect_undefined(parsed(d), d.text, &d, registry, out, visited);
    } catch (const Error&) {
    }
  Entry& e = entries_[&d];
  e.undefined = out;
  e.undefined_known = true;
  return out;
}

Value Environment::evaluate(const Node& root, const std::string& source, const Registry& registry,
                            const std::string& scope) {
  Evaluator ev(registry);
  ev.set_environment(this, nullptr, scope);
  ev.set_source(source);
  ev.use_literals(Literals::kAuto, root);  // the expression as typed: hand-written or pasted
  top_scope_ = scope;
  auto undefined = [&] {
    std::vector<NameUse> out;
    std::vector<const Declaration*> visited;
    collect_undefined(root, source, nullptr, registry, out, visited);
    // a typo of a declared name (TiledMmma), a -D, or one of CuTe's
    std::vector<std::string> known;
    for (const auto& [name, named] : by_name_)
      if (!named.empty()) known.push_back(name);
    for (const auto& [name, sources] : undecoded_)
      if (!by_name_.count(std::string(name))) known.emplace_back(name);
    for (auto& use : out) {
      // a template parameter's fix is its -D, not its look-alike member (kNWarps = kNWarps_)
      if (parameter(use.name, scope) || is_runtime_name(use.name)) continue;
      if (const char* header = cutlass_header_of(use.name)) {  // CUTLASS's: a typo of what its headers declare,
        const size_t colon = use.name.rfind("::");  // (Builder::TiledMa), else CUTLASS code cutevis cannot read
        if (colon != std::string::npos && read_header(header))
          use.nearest = nearest_words(use.name.substr(colon + 2), known, 3);
        continue;
      }
      use.nearest = nearest_words(use.name, known, 3);  // declared names first, on a tie
      for (auto& w : registry.suggestions(use.name))
        if (std::find(use.nearest.begin(), use.nearest.end(), w) == use.nearest.end()) use.nearest.push_back(w);
      std::vector<std::pair<size_t, std::string>> scored;
      for (auto& w : use.nearest) scored.emplace_back(edit_distance(use.name, w), std::move(w));
      stable_sort_by(scored, [](const auto& a, const auto& b) { return a.first < b.first; });
      use.nearest.clear();
      for (auto& [distance, w] : scored)  // the nearest only: bm is a typo of bM, not of C or S
        if (distance == scored.front().first && use.nearest.size() < 3) use.nearest.push_back(std::move(w));
    }
    return out;
  };
  auto undefined_names = [&](std::vector<NameUse> uses) {
    const char* header = uses.size() == 1 ? cutlass_header_of(uses[0].name) : nullptr;
    return UndefinedNames(std::move(uses), header && read_header(header));
  };
  try {
    Value v = ev.eval(root);
    warnings_.insert(warnings_.end(), ev.warnings().begin(), ev.warnings().end());
    return v;
  } catch (const UnknownName&) {
    auto uses = undefined();
    if (!uses.empty()) throw undefined_names(std::move(uses));
    throw;
  } catch (const LocatedError& e) {
    if (e.unknown_name()) {
      auto uses = undefined();
      if (!uses.empty()) throw undefined_names(std::move(uses));
    }
    throw;
  }
}

}  // namespace cutevis

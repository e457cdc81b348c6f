// cutevis — the names an expression may use beyond CuTe's: declarations read from source
// files (`--from`) and snippets, and `-D NAME=VALUE` definitions.
//
//   using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{}, Shape<bM,bK>{}));
//   cutevis eval --from kernel.cu -D bM=128 -D bK=64 'SmemLayoutA{}'
//
// Language-neutral: a declaration's text is parsed by the parser of its language (C++ by
// default; CuTeDSL Python once a parser is connected) and evaluated lazily, once, when an
// expression names it.  Lookup is C++'s in spirit: a -D wins over the files; among
// declarations the innermost enclosing scope wins, then the last one declared;
// `Struct::Name` picks by qualification.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lib/error.hpp"
#include "lib/lang/declarations.hpp"
#include "lib/lang/expr.hpp"
#include "lib/lang/functions.hpp"

namespace cutevis {

// Where in a source a declaration's error is: FILE:LINE:COL (1-based), and the line of the
// declaration's text with the column of the caret in it (0-based).
struct SourceSpot {
  std::string file;  // "" for -D, "-" for standard input, kSnippetFile for a snippet's statements
  std::string name;  // the declaration the error is in
  int line = 0, column = 0;
  std::string excerpt;  // the line of the text the error is on
  size_t excerpt_column = 0;
};

inline const char* const kSnippetFile = "<expression>";

// An error inside a declaration; what() is the bare message, spot where it is.
class LocatedError : public Error {
 public:
  LocatedError(const std::string& message, SourceSpot spot, int64_t position = kNoPosition)
      : Error(message, position), spot_(std::move(spot)) {}
  const SourceSpot& spot() const { return spot_; }
  LocatedError at(int64_t position) const {
    LocatedError e(what(), spot_, position);
    e.unknown_name_ = unknown_name_;
    return e;
  }
  // Caused by a name nothing defines (then the undefined-name report replaces it).
  bool unknown_name() const { return unknown_name_; }
  void set_unknown_name(bool b) { unknown_name_ = b; }

 private:
  SourceSpot spot_;
  bool unknown_name_ = false;
};

// A name neither CuTe, the catalogue nor a declaration defines (eval_name's error).
class UnknownName : public Error {
 public:
  using Error::Error;
};

// One use of a name nothing defines.
struct NameUse {
  std::string name;
  bool in_expression = true;  // in the expression being evaluated (position) or a declaration (spot)
  int64_t position = 0;
  SourceSpot spot;
  std::vector<std::string> nearest;  // declared or CuTe names it may be a typo of (Environment::evaluate)
};

// Names nothing defines: every one of them, so that one run of the command shows all the
// -D a user needs.  what(): "undefined name 'bM'" or "3 undefined names: bM, bN, TA".
class UndefinedNames : public Error {
 public:
  // cutlass_read: a CUTLASS helper's header was read (-I), so its message does not ask for -I.
  explicit UndefinedNames(std::vector<NameUse> uses, bool cutlass_read = false);
  const std::vector<NameUse>& uses() const { return uses_; }

 private:
  std::vector<NameUse> uses_;
};

// An instance of a class template the sources declare, `Kernel_traits<128, 64, 64, 4>`: the
// template's qualified name and its parameters' values.  Its members are evaluated with them
// (Evaluator::instance_member): `using T = Kernel_traits<128, 64, 64, 4>; T::SmemLayoutQ`.
class ClassInstance : public Object {
 public:
  ClassInstance(std::string scope, std::vector<std::string> params, std::map<std::string, Value> values)
      : scope_(std::move(scope)), params_(std::move(params)), values_(std::move(values)) {}
  std::string kind() const override { return "class"; }
  std::string to_string() const override;  // Kernel_traits<128,64,64,4>
  const std::string& scope() const { return scope_; }
  const std::vector<std::string>& params() const { return params_; }
  const std::map<std::string, Value>& values() const { return values_; }

 private:
  std::string scope_;
  std::vector<std::string> params_;
  std::map<std::string, Value> values_;
};

// sizeof(instance) in bytes of a struct the sources define (its bases and data members, each at its
// alignment, in order; the whole rounded to the largest); `align` receives its alignment.
int64_t class_size(Evaluator& ev, const ClassInstance& instance, const Node& use, int64_t& align);

// Declarations kept out of the environment until a lookup names them: a header cache's entry
// (app/header_cache.cpp) holds the ~16 k declarations of a CUTLASS kernel's includes, of which a
// file names a few hundred; decoding and indexing all of them cost most of a run.  Each is
// numbered in order of appearance (0 .. size()-1), so that lookups rank them exactly as if they
// had been added one by one at the place the source was added (Environment::add_deferred).
class DeferredDeclarations {
 public:
  virtual ~DeferredDeclarations() = default;
  virtual size_t size() const = 0;
  // The unqualified names of its declarations (each once), and the numbers of those named `base`
  // (in order).  The views stay valid as long as the source.
  virtual std::vector<std::string_view> names() const = 0;
  virtual std::vector<size_t> numbers_named(std::string_view base) const = 0;
  // The declaration numbered `i`, decoded (from_header).
  virtual Declaration declaration(size_t i) const = 0;
  // The files its declarations come from (each once).
  virtual std::vector<std::string> files() const = 0;
  // The members of class templates: for each template (template_scope), its first member
  // declaration's number and unqualified name (Environment::class_template), in order.
  struct TemplateMember {
    std::string_view template_scope;
    size_t number;
    std::string_view name;
  };
  virtual std::vector<TemplateMember> class_template_members() const = 0;
  // Its template and function parameters (Environment::add_parameter), numbered apart, the same way.
  virtual size_t parameter_count() const = 0;
  virtual std::vector<std::string_view> parameter_names() const = 0;
  virtual std::vector<size_t> parameter_numbers_named(std::string_view name) const = 0;
  virtual Declaration parameter(size_t i) const = 0;
};

class Environment {
 public:
  using Parser = std::function<Node(const std::string&)>;

  Environment();  // C++ declarations parse with parse_expression
  void set_parser(SourceLanguage language, Parser parser);

  void add(Declaration d);  // from a file or snippet, in order of appearance
  // Header declarations, in order of appearance among those add()ed: decoded when first named.
  void add_deferred(std::shared_ptr<const DeferredDeclarations> source);
  void define(Declaration d);  // a -D: wins over every file's declaration of the name
  // A template or function parameter without a default: not a definition, but what a
  // -D should give (named in `cutevis names`).
  void add_parameter(Declaration d);
  // A deferred source's parameters, in order of appearance among those add_parameter()ed.
  void add_deferred_parameters(std::shared_ptr<const DeferredDeclarations> source);
  // Those add_parameter()ed (a deferred source's are not listed: they are from headers).
  const std::deque<Declaration>& parameters() const { return parameters_; }
  // The parameter `name` seen from `scope`: of the innermost enclosing entity, else the last.
  const Declaration* parameter(const std::string& name, const std::string& scope = "") const;
  // A parameter of a function or template enclosing `scope` is called `name`: in there the
  // name is that parameter (undefined without a -D), even where CuTe has a function of that
  // name (a kernel's `Layout layout` or `Tensor S` parameter).
  bool is_enclosing_parameter(const std::string& name, const std::string& scope) const;
  bool empty() const { return declarations_.empty() && defines_.empty() && deferred_.empty(); }
  // Whether a header (Declaration::from_header) whose path ends in `path_suffix` was read.
  bool read_header(const std::string& path_suffix) const;
  // Those add()ed (a deferred source's declarations are not listed: they are from headers).
  const std::deque<Declaration>& declarations() const { return declarations_; }
  const std::deque<Declaration>& defines() const { return defines_; }

  // Constexpr functions and classes the sources define (lib/lang/functions.hpp).
  void add_function(FunctionDef f);
  void add_class(ClassDef c);
  // The functions `name` (maybe qualified) may be from `scope`, the innermost first; none: empty.
  std::vector<const FunctionDef*> functions(const std::string& name, const std::string& scope) const;
  // Whether any function of the sources, in any scope, has this unqualified name (a cheap first test).
  bool has_function_named(const std::string& base) const { return function_names_.count(base) > 0; }
  // The definitions of class `name` seen from `scope` (its primary and its specializations).
  std::vector<const ClassDef*> classes(const std::string& name, const std::string& scope) const;
  // The class whose members are declared in `members_scope`; nullptr if none.
  const ClassDef* class_of_members(const std::string& members_scope) const;

  // A member of the class template `name` seen from `scope` (the innermost enclosing namespace
  // first): its template_params are the template's; nullptr if the sources declare none.
  const Declaration* class_template(const std::string& name, const std::string& scope) const;

  // The declaration `name` (maybe qualified: Struct::Name) means when used in `scope`,
  // never `self` (using X = X names another X); nullptr if none.
  const Declaration* find(const std::string& name, const std::string& scope, const Declaration* self = nullptr) const;

  // The value of a declaration, evaluated once (errors are LocatedError, also once).
  Value value_of(const Declaration& d, const Registry& registry);
  // The same without throwing for a failure: nullptr and `out` set, or the failure (kept, so
  // each declaration is evaluated once); throws only for a recursive definition.
  const LocatedError* resolve(const Declaration& d, const Registry& registry, Value& out);

  // Evaluate `root` (parsed from `source`) with these names; an unknown name becomes an
  // UndefinedNames listing every undefined name it and the declarations it uses need.
  Value evaluate(const Node& root, const std::string& source, const Registry& registry, const std::string& scope = "");

  // "Gemm_M = 512, the program's default (its initializer at line 584); argv[1] changes it at line 586 (-D
  // Gemm_M=N for another)": the note of a local only the command line changes (Declaration::command_line_at),
  // read at its initializer's value `v`.  A run-time read note, as blockIdx's (is_run_time_read_note).
  static std::string command_line_note(const Declaration& d, const Value& v);
  // The locals only the command line changes whose default a resolved declaration's value was read at,
  // through any chain of declarations (d itself among them where it is one), in the order first read.
  std::vector<const Declaration*> defaults_read(const Declaration& d) const {
    auto it = entries_.find(&d);
    return it == entries_.end() ? std::vector<const Declaration*>{} : it->second.defaults;
  }
  // The note said beside a program default's own value (command_line_note, or the if-chain branch taken: "ldA =
  // m = 512, at the program's default: the branch transA == 'N' at line 566 (...)"); "" for others.
  std::string default_note(const Declaration& d) const {
    auto it = entries_.find(&d);
    return it == entries_.end() ? "" : it->second.default_note;
  }
  // "at the program's default problem size: Gemm_M = 512, Gemm_K = 256 (...)": the note of a value read at
  // others' defaults (defaults_read), each with its value; "" for none.
  std::string defaults_note(const Declaration& d, const Registry& registry);

  // The warnings of every evaluation so far (composition's check, ...), handed over once.
  std::vector<Warning> take_warnings() { return std::exchange(warnings_, {}); }
  // A warning of reading the sources (a preprocessor condition decided without a value).
  void add_warning(Warning w) { warnings_.push_back(std::move(w)); }
  // A line for the legend of every picture drawn from these sources (an #if branch chosen
  // without --arch or -D): kept, not handed over.
  void add_source_note(std::string line) { source_notes_.push_back(std::move(line)); }
  const std::vector<std::string>& source_notes() const { return source_notes_; }

  // The undefined names `d` needs (transitively), for `cutevis names`.
  std::vector<NameUse> undefined_names_of(const Declaration& d, const Registry& registry);

  // Where `offset` into d.text is in its file.
  static SourceSpot spot_of(const Declaration& d, size_t offset);

 private:
  struct Entry {
    enum class State { kNew, kBusy, kDone, kFailed } state = State::kNew;
    Value value;
    std::shared_ptr<LocatedError> failure;
    bool parsed = false;
    Node root;
    std::shared_ptr<LocatedError> parse_failure;
    bool undefined_known = false;  // undefined_names_of, once
    std::vector<NameUse> undefined;
    std::vector<const Declaration*> defaults;  // the command-line defaults its value was read at
    std::string default_note;                  // (Environment::default_note)
  };
  const DefaultBranch* branch_taken(const Declaration& d, const Registry& registry);
  static std::string branch_note(const Declaration& d, const DefaultBranch* taken, const Value& v,
                                 const std::string& decided_at);
  std::string defaults_so_far(const Declaration& d, const Registry& registry);
  void pass_defaults_up(const Entry& e);  // to the declaration being evaluated that read e's
  const Node& parsed(const Declaration& d);
  std::string runtime_type(const Declaration& d, const Registry& registry);  // " of type X<3>" or ""
  bool parse_failed(const Declaration& d) const {  // known not to parse (parsed() would throw again)
    auto it = entries_.find(&d);
    return it != entries_.end() && it->second.parse_failure;
  }
  const LocatedError* failed_dependency(const Node& n, const Declaration& within, const Registry& registry,
                                        bool& stop) const;
  const Declaration* lookup(const std::string& name, const std::string& scope, const Declaration* self) const;
  const Declaration* find_here(const std::string& name, const std::string& scope, const Declaration* self) const;
  void collect_undefined(const Node& n, const std::string& source, const Declaration* within, const Registry& registry,
                         std::vector<NameUse>& out, std::vector<const Declaration*>& visited);

  std::deque<Declaration> declarations_, defines_, parameters_;  // deques: pointers to them stay valid
  std::vector<std::string> header_files_;                        // the headers declarations came from
  std::unordered_set<std::string> header_file_set_;              // the same, and those of functions
  // unqualified name -> declarations, in order of appearance (each with its number in that order)
  struct Named {
    size_t number;
    const Declaration* d;
  };
  mutable std::unordered_map<std::string, std::vector<Named>> by_name_;
  size_t next_number_ = 0;  // of the next declaration added (a deferred source takes size() numbers)
  // deferred sources: the first number of each, and the names not decoded yet -> their sources
  struct Deferred {
    std::shared_ptr<const DeferredDeclarations> source;
    size_t first_number;
  };
  std::vector<Deferred> deferred_;
  mutable std::unordered_map<std::string_view, std::vector<size_t>> undecoded_;  // name -> indices in deferred_
  mutable std::deque<Declaration> decoded_;  // deferred declarations decoded so far (named by a lookup)
  // Decodes the deferred declarations named `base` (once) into decoded_ and by_name_.
  void decode_named(const std::string& base) const;
  // parameters by name, in order of appearance (numbered apart from declarations), and those of
  // deferred sources not decoded yet (name -> indices in deferred_parameters_)
  mutable std::unordered_map<std::string, std::vector<Named>> parameter_names_;
  size_t next_parameter_number_ = 0;
  std::vector<Deferred> deferred_parameters_;
  mutable std::unordered_map<std::string_view, std::vector<size_t>> undecoded_parameters_;
  const std::vector<Named>* parameters_named(const std::string& name) const;  // decoded first; null: none
  // a struct template -> its first member (null: deferred, numbered `number`, named `name`)
  struct TemplateMember {
    const Declaration* d;
    size_t number;
    std::string name;
  };
  mutable std::unordered_map<std::string, TemplateMember> class_templates_;
  std::unordered_set<std::string> class_template_names_;  // their unqualified names
  std::deque<FunctionDef> functions_;
  std::deque<ClassDef> classes_;
  std::multimap<std::string, const FunctionDef*> function_names_;  // unqualified name -> definitions
  std::multimap<std::string, const ClassDef*> class_names_;
  std::unordered_map<std::string, const ClassDef*> class_members_;  // members_scope -> its class
  std::unordered_map<const Declaration*, Entry> entries_;           // (references to entries stay valid)
  // find's answers: unqualified names by scope, then name; others by name, scope and self
  mutable std::unordered_map<std::string, std::unordered_map<std::string, const Declaration*>> found_in_scope_;
  mutable std::unordered_map<std::string, const Declaration*>* last_names_ = nullptr;  // those of last_scope_
  mutable std::string last_scope_;
  mutable std::unordered_map<std::string, const Declaration*> found_;
  void forget_lookups() {
    found_in_scope_.clear();
    found_.clear();
    last_names_ = nullptr;
  }
  std::map<SourceLanguage, Parser> parsers_;
  std::vector<const Declaration*> stack_;  // declarations being evaluated, for cycles
  std::string top_scope_;                  // the scope of the expression being evaluated
  std::vector<Warning> warnings_;
  std::vector<std::string> source_notes_;
  size_t failures_ = 0;  // declarations failed so far (none: nothing to look for before evaluating)
  // Evaluating a reassigned local as declared (value_as_declared): the locals a function changes read as
  // their initializers, and every entry this touches is put back as it was when that ends.
  bool as_declared_ = false;
  std::unordered_map<const Declaration*, Entry> before_as_declared_;
  Value value_as_declared(const Declaration& d, const Registry& registry);
};

// A note that says where cutevis read a value the program knows only when it runs: blockIdx.x and
// block_rank_in_cluster() as CTA 0 (lib/lang/cpp_syntax.cpp), a problem size at its default
// (Environment::command_line_note).  `names` shows it beside the value it gave, not as a warning apart.
bool is_run_time_read_note(const Warning& w);
// The notes of a problem size read at the program's default (Environment::command_line_note, defaults_note).
bool is_default_size_note(const Warning& w);

}  // namespace cutevis

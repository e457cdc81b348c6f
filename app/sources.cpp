#include "app/sources.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "app/diagnostics.hpp"
#include "app/includes.hpp"
#include "app/input_files.hpp"
#include "app/path_text.hpp"
#include "atoms/analysis/json.hpp"
#include "lib/float_text.hpp"
#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/cpp_text.hpp"
#include "lib/lang/dsl.hpp"
#include "lib/lang/kernel_body.hpp"
#include "lib/lang/launch_binding.hpp"
#include "lib/lang/suggestions.hpp"

namespace cutevis {

namespace {

constexpr size_t kMaxSourceBytes = size_t{4} << 20;  // CUTLASS's largest header is ~0.3 MB

std::string extension_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string e = path.substr(dot);
  for (auto& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

std::string lines_after_first(const std::string& s) {
  size_t nl = s.find('\n');
  return nl == std::string::npos ? "" : s.substr(nl + 1);
}

// The caret lines format_error draws under `text` at `pos`, indented by `indent`.
std::string caret_lines(const std::string& text, size_t pos, const std::string& indent) {
  std::string lines = lines_after_first(format_error(Error("", static_cast<int64_t>(pos)), text));
  std::string out;
  for (const std::string& line : split_text(lines)) out += indent + line + "\n";
  return out;
}

std::string where(const SourceSpot& s) {
  if (s.file.empty()) return "-D " + s.name;
  return (s.file == "-" ? std::string("<stdin>") : s.file) + ":" + std::to_string(s.line) + ":" +
         std::to_string(s.column);
}

std::string kind_of(const Value& v) {
  if (v.is(Value::Kind::kTuple) && v.is_int_tuple()) return "shape";
  return v.kind_name();
}

void check_brace_depth(const std::string& text, const std::string& path) {
  if (brace_nesting_depth(text) > kMaxBraceDepth)
    throw Error("--from " + path + ": braces nested more than " + std::to_string(kMaxBraceDepth) +
                " deep; cutevis reads kernels, not generated nests");
}

}  // namespace

std::string read_source(const std::string& path) {
  // regular files (or stdin) only, the size checked before reading (app/input_files.hpp)
  std::string text = read_input_file(path, "--from", max_input_bytes(kMaxSourceBytes));
  // C++ source is text: UTF-8 (in comments and strings) without NUL or other control bytes
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    bool control = c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v';
    if (c == 0 || control)
      throw Error("--from " + path + ": not C++ source (binary data: byte 0x" + hex_text(c, 2) + " at offset " +
                  std::to_string(i) + ")");
  }
  check_brace_depth(text, path);
  return text;
}

// -D NAME=VALUE: the value is C++ (an integer, a type, an expression).
Declaration parse_define(const std::string& d) {
  size_t eq = d.find('=');
  std::string name = d.substr(0, eq);
  bool valid = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (size_t i = 0; valid && i < name.size(); ++i) {
    char c = name[i];
    if (c == ':') {
      valid = i + 2 < name.size() && name[i + 1] == ':' &&
              (std::isalpha(static_cast<unsigned char>(name[i + 2])) || name[i + 2] == '_');
      ++i;
    } else if (c == '.') {  // CuTeDSL: -D self.tile_shape=(128, 128, 64)
      valid = i + 1 < name.size() && (std::isalpha(static_cast<unsigned char>(name[i + 1])) || name[i + 1] == '_');
    } else {
      valid = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    }
  }
  if (eq == std::string::npos || !valid)
    throw Error("-D expects NAME=VALUE (e.g. -D bM=128, -D TA=half_t, -D TileShape='Shape<_128,_128,_64>'), got '" + d +
                "'");
  Declaration decl;
  decl.name = name;
  decl.text = d.substr(eq + 1);
  decl.file = "";
  decl.line = 1;
  decl.column = static_cast<int>(eq) + 2;
  if (decl.text.find_first_not_of(" \t") == std::string::npos) throw Error("-D " + name + "= has no value");
  if (looks_like_dsl(decl.text) || name.find('.') != std::string::npos) decl.language = SourceLanguage::kPython;
  return decl;
}

std::map<std::string, std::string> source_macros(const SourceOptions& o) {
  // what #if reads: the -D values and --arch's __CUDA_ARCH__ (a -D of it wins)
  std::map<std::string, std::string> macros =
      o.arch.empty() ? std::map<std::string, std::string>{} : arch_macros(o.arch);
  for (const auto& d : o.defines) {
    const Declaration decl = parse_define(d);
    macros[decl.name] = decl.text;
  }
  return macros;
}

SourceOptions resolved_sources(const SourceOptions& given) {
  SourceOptions o = given;
  std::vector<std::string> settings_defines;
  std::set<std::string> folders;
  for (const std::string& path : given.from) {
    if (path == "-") continue;
    const std::string folder = path_parent(path);
    if (!folders.insert(folder).second) continue;
    const FolderSettings s = folder_settings(folder);
    o.include_dirs.insert(o.include_dirs.end(), s.include_dirs.begin(), s.include_dirs.end());
    if (given.pre_includes.empty())  // a -include on the command line replaces the settings' list
      for (const std::string& f : s.pre_includes)
        if (std::find(o.pre_includes.begin(), o.pre_includes.end(), f) == o.pre_includes.end())
          o.pre_includes.push_back(f);
    for (const std::string& d : s.defines) {
      const std::string name = parse_define(d).name;
      const bool given_here = std::any_of(given.defines.begin(), given.defines.end(),
                                          [&](const std::string& g) { return parse_define(g).name == name; });
      if (!given_here) settings_defines.push_back(d);
    }
    if (o.arch.empty()) o.arch = s.arch;
  }
  o.defines.insert(o.defines.begin(), settings_defines.begin(), settings_defines.end());
  for (std::string& d : environment_include_dirs()) o.include_dirs.push_back(std::move(d));
  return o;
}

namespace {
// A -D that names a CUTLASS type (-D ArchTag_=cutlass::arch::Sm80) reads the header that declares it
// when the files do not #include it: FA3's mainloop_fwd_sm80.hpp reads ArchTag::kMinComputeCapability
// of an arch tag its includer's headers declare, so the file alone never reads cutlass/arch/arch.h.
void read_headers_of_defines(const std::vector<Declaration>& defines, IncludeReader& headers, Environment& env,
                             const std::map<std::string, std::string>& macros) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'; };
  for (const Declaration& d : defines) {
    const std::string& t = d.text;
    for (size_t at = t.find("cutlass::"); at != std::string::npos; at = t.find("cutlass::", at + 1)) {
      if (at > 0 && word(t[at - 1])) continue;  // (a name that only ends in cutlass::)
      size_t end = at;
      while (end < t.size() && word(t[end])) ++end;
      const std::string name = t.substr(at, end - at);
      const char* header = cutlass_header_of(name);
      if (!header || std::string(header) == "cutlass/" || env.read_header(header) ||
          headers.find(header, true, "-").empty())
        continue;
      CppScan scan = headers.scan(std::string("#include <") + header + ">\n", "-D " + d.name, macros);
      add_scan(env, std::move(scan), headers.deferred());
      env.add_warning({"-D " + d.name + "=" + t + ": " + name + " is declared in " + header +
                       ", which the files do not #include: read for this -D"});
    }
  }
}
}  // namespace

std::shared_ptr<Environment> load_sources(const SourceOptions& given) {
  if (given.empty()) return nullptr;
  const SourceOptions o = resolved_sources(given);
  IncludeReader headers(o.include_dirs);
  headers.set_pre_includes(o.pre_includes);
  headers.defer_cached_declarations(true);  // (decoded when named: a file names few of them)
  auto env = std::make_shared<Environment>();
  env->set_parser(SourceLanguage::kPython, [](const std::string& text) { return parse_dsl_expression(text); });
  const std::map<std::string, std::string> macros = source_macros(o);
  std::vector<Declaration> defines;
  for (const auto& d : o.defines) defines.push_back(parse_define(d));
  bool stdin_read = false;
  struct CalledFile {  // a file whose host functions' calls bind their parameters once every -D is in
    KernelFile functions;
    std::string text, path;
    std::map<std::string, std::vector<std::string>> templates;
  };
  std::vector<CalledFile> called;
  for (const auto& path : o.from) {
    if (path == "-") {
      if (stdin_read) throw Error("--from - (standard input) can be given once");
      stdin_read = true;
    }
    std::string ext = extension_of(path);
    if (ext == ".py" || ext == ".pyi") {
      std::string text = read_source(path);
      for (auto& d : scan_python(text, path)) env->add(std::move(d));
      continue;
    }
    std::string text = read_source(path);
    CppScan scan = headers.scan(text, path, macros);
    std::vector<PreprocessorNote> notes = std::move(scan.notes);
    const KernelFile functions = read_kernels(text, path);      // its functions, their calls and launches
    mark_changed_locals(scan.declarations, functions, path);    // `int m = 512; sscanf(..., &m)`: a run-time m
    mark_kernel_pointers(scan.declarations, functions, path);   // auto kernel_fptr = gemm_device<...>;
    std::map<std::string, std::vector<std::string>> templates;  // class templates with members here: their parameters
    for (const Declaration& d : scan.declarations)
      if (!d.from_header && !d.template_scope.empty() && d.file == path)
        templates[d.template_scope] = d.template_params;
    add_scan(*env, std::move(scan), headers.deferred());
    const std::string shown = path == "-" ? std::string("<stdin>") : path;
    if (text.find("__global__") != std::string::npos)  // a kernel's parameters, as its launch here gives them
      for (const LaunchBindingNote& n : bind_launches(*env, functions, text, path)) env->add_warning({n.message});
    called.push_back({functions, text, path, std::move(templates)});
    std::vector<const PreprocessorNote*> branches;  // #if decided without --arch/-D
    for (auto& n : notes) {
      env->add_warning({shown + ":" + std::to_string(n.line) + ": " + n.message});
      if (!n.branch.empty()) branches.push_back(&n);
    }
    if (!branches.empty()) {  // one line for the pictures' legends
      const PreprocessorNote& first = *branches.front();
      std::string condition = first.branch.size() > 90 ? first.branch.substr(0, 87) + "..." : first.branch;
      env->add_source_note("read without --arch/-D: " + shown + ":" + std::to_string(first.line) + " " + condition +
                           (branches.size() > 1 ? " (and " + std::to_string(branches.size() - 1) + " more #if)" : "") +
                           ", the host compile's branch");
    }
  }
  read_headers_of_defines(defines, headers, *env, macros);
  for (auto& d : defines) env->define(std::move(d));
  for (const CalledFile& f : called)  // a host function's parameters, from its call (after -D: overloads read them)
  {
    for (const LaunchBindingNote& n : bind_calls(*env, f.functions, f.text, f.path)) env->add_warning({n.message});
    for (const LaunchBindingNote& n : bind_class_templates(*env, f.functions, f.templates, f.text, f.path))
      env->add_warning({n.message});  // SharedStorage::A as the kernel's SharedStorage<TA, ...> reads it
  }
  return env;
}

Value evaluate_source(const std::string& text, Environment* env, Syntax syntax, std::vector<Warning>* warnings) {
  register_catalogue_names();
  std::vector<Warning> ignored;
  std::vector<Warning>& sink = warnings ? *warnings : ignored;
  bool dsl = syntax == Syntax::kDsl || (syntax == Syntax::kAuto && looks_like_dsl(text));
  bool snippet = !dsl && syntax != Syntax::kDsl && looks_like_snippet(text);
  const Syntax as = dsl ? Syntax::kDsl : Syntax::kCpp;
  Environment local;
  if (!env && !snippet) {
    try {
      return evaluate_expression(text, sink, Literals::kAuto, default_registry(), as);  // the fast path
    } catch (const UnknownName&) {  // list every undefined name, not only the first
      local.evaluate(parse_in_syntax(text, as), text, default_registry());
      throw;
    }
  }
  if (!env) env = &local;
  auto with_warnings = [&](Value v) {
    for (Warning& w : env->take_warnings()) sink.push_back(std::move(w));
    return v;
  };
  if (!snippet) return with_warnings(env->evaluate(parse_in_syntax(text, as), text, default_registry()));
  CppSnippet s = scan_cpp_snippet(text, kSnippetFile);
  for (auto& d : s.declarations) env->add(std::move(d));
  for (auto& f : s.functions) env->add_function(std::move(f));
  for (auto& c : s.classes) env->add_class(std::move(c));
  if (!s.result_name.empty()) {
    // the last statement declares: its value (errors point into the snippet)
    const Declaration* d = env->find(s.result_name, "");
    if (!d) throw Error("cannot find '" + s.result_name + "'");
    return with_warnings(env->value_of(*d, default_registry()));
  }
  // the last statement is an expression: parse it in place, so positions stay the snippet's
  std::string expr(text.size(), ' ');
  std::copy(text.begin() + static_cast<long>(s.result_begin), text.begin() + static_cast<long>(s.result_end),
            expr.begin() + static_cast<long>(s.result_begin));
  return with_warnings(env->evaluate(parse_expression(expr), text, default_registry()));
}

std::string describe_error(const Error& e, const std::string& source) {
  if (const auto* u = dynamic_cast<const UndefinedNames*>(&e)) {
    std::string out = "cutevis: error: " + std::string(e.what()) + "\n";
    std::string defines;
    const size_t kShown = 12;  // the rest are counted in the first line
    for (size_t i = 0; i < std::min(kShown, u->uses().size()); ++i) {
      const NameUse& use = u->uses()[i];
      if (use.in_expression) {
        out += caret_lines(source, static_cast<size_t>(use.position), "");
      } else if (use.spot.file == kSnippetFile) {
        out += caret_lines(source, offset_of(source, use.spot.line, use.spot.column), "");
      } else {
        out += "  " + where(use.spot) + ": '" + use.name + "' in " + use.spot.name + "\n";
        out += caret_lines(use.spot.excerpt, use.spot.excerpt_column, "  ");
      }
      if (!is_runtime_name(use.name)) defines += " -D " + use.name + "=...";  // (no -D gives nullptr, threadIdx)
    }
    if (u->uses().size() > 1) {  // (one name's suggestion is in the first line)
      std::string typos;
      for (size_t i = 0; i < std::min(kShown, u->uses().size()); ++i)
        if (!u->uses()[i].nearest.empty())
          typos += std::string(typos.empty() ? "" : " and ") + quoted_alternatives(u->uses()[i].nearest) + " for '" +
                   u->uses()[i].name + "'";
      if (!typos.empty()) out += "  did you mean " + typos + "?\n";
    }
    if (defines.empty()) return out + "  (run-time values: a layout cannot depend on them)\n";
    return out + "  give " + (u->uses().size() == 1 ? "it" : "them") + ":" + defines + "\n";
  }
  if (const auto* l = dynamic_cast<const LocatedError*>(&e)) {
    const SourceSpot& s = l->spot();
    if (s.file == kSnippetFile)
      return format_error(Error(e.what(), static_cast<int64_t>(offset_of(source, s.line, s.column))), source);
    std::string head = s.file.empty() ? "-D " + s.name + ": " : where(s) + ": ";
    std::string msg = head + e.what();
    if (s.file.empty()) return format_error(Error(msg, static_cast<int64_t>(s.excerpt_column)), s.excerpt);
    return "cutevis: error: " + msg + "\n" + caret_lines(s.excerpt, s.excerpt_column, "");
  }
  return format_error(e, source);
}

namespace {
// A JSON string of ASCII text, escaped as nlohmann's dump() escapes it.
std::string json_string(const std::string& t) {
  std::string out = "\"";
  out.reserve(t.size() + 2);
  for (size_t i = 0; i < t.size(); ++i) {
    size_t plain = i;  // a run that needs no escape, appended at once
    while (plain < t.size() && static_cast<unsigned char>(t[plain]) >= 0x20 && t[plain] != '"' && t[plain] != '\\')
      ++plain;
    out.append(t, i, plain - i);
    if ((i = plain) == t.size()) break;
    char ch = t[i];
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u" + hex_text(c, 4);
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}
}  // namespace

Output run_names(const NamesOptions& o) {
  if (o.sources.from.empty()) throw Error("cutevis names needs --from FILE");
  register_catalogue_names();
  std::shared_ptr<Environment> env = o.env ? o.env : load_sources(o.sources);
  struct Row {
    const Declaration* d;
    std::string kind, value, error;
    std::vector<std::string> needs;
    std::vector<std::string> runtime;  // run-time names it uses (nullptr, threadIdx): no -D for them
    std::string note;                  // where its value reads a run-time one (CTA 0, a default problem size)
  };
  std::vector<Row> rows;
  for (const Declaration& d : env->declarations()) {
    if (d.from_header || d.using_declaration || !d.read_in.empty())
      continue;  // the files' own names, not their headers' (read to resolve them) nor a launch's arguments
    Row r{&d, "", "", "", {}, {}, ""};
    Value v;
    const LocatedError* failure = nullptr;
    std::string other;  // a failure that is not a declaration's (recursion)
    try {
      failure = env->resolve(d, default_registry(), v);
    } catch (const Error& e) {
      other = e.what();
    }
    if (!failure && other.empty()) {
      r.kind = kind_of(v);
      // as eval prints: CuTe's print (`_0` static, `1` run-time) where the value holds a run-time integer,
      // the plain notation where every integer is static
      r.value = v.has_dynamic() ? v.to_cute_string() : v.to_string();
      // blockIdx.x, block_rank_in_cluster() read as CTA 0 (where first read), a problem size at the program's
      // default (its own row, and every row whose value was read at it): said beside the value
      std::vector<Warning> notes;
      for (Warning& w : env->take_warnings())
        if (!is_default_size_note(w)) notes.push_back(std::move(w));
      if (const auto read = env->defaults_read(d); !read.empty() && read[0] == &d)  // (a -D: none)
        notes.push_back(Warning{env->default_note(d)});
      else if (std::string n = env->defaults_note(d, default_registry()); !n.empty()) notes.push_back(Warning{n});
      for (Warning& w : notes)
        if (!is_run_time_read_note(w)) {
          env->add_warning(std::move(w));
        } else if (r.value.find("\n  " + w.message) == std::string::npos) {
          r.value += "\n  " + w.message;
          r.note += (r.note.empty() ? "" : "\n") + w.message;
        }
    } else {
      r.kind = "unresolved";
      auto uses = env->undefined_names_of(d, default_registry());
      for (const auto& u : uses)
        if (is_runtime_name(u.name)) r.runtime.push_back(u.name);        // (no -D gives nullptr or threadIdx)
        else if (!cutlass_header_of(u.name)) r.needs.push_back(u.name);  // (its blocker says -I, or which -D)
      const LocatedError* l = failure;
      r.error = !l                         ? other
                : l->spot().name != d.name ? where(l->spot()) + " (" + l->spot().name + "): " + l->what()
                                           : l->what();
    }
    rows.push_back(std::move(r));
  }
  auto qualified = [](const Declaration& d) { return d.scope.empty() ? d.name : d.scope + "::" + d.name; };
  std::vector<const Declaration*> parameters;  // the files' own
  for (const auto& p : env->parameters())
    if (!p.from_header) parameters.push_back(&p);
  if (o.json) {
    // Written directly (nlohmann's dump took a fifth of a 3,000-line file's time), byte for byte
    // what dump() writes: keys in order, the same escapes; text with non-ASCII bytes goes through
    // nlohmann, which also checks it is UTF-8.
    bool ascii = true;
    auto plain = [&](const std::string& t) {
      for (unsigned char c : t)
        if (c >= 0x80) ascii = false;
    };
    for (const auto& r : rows) {
      plain(r.d->text), plain(r.d->file), plain(r.error), plain(r.value), plain(qualified(*r.d));
      for (const auto& n : r.needs) plain(n);
    }
    for (const Declaration* p : parameters) plain(qualified(*p)), plain(p->file);
    if (ascii) {
      size_t size = 64;  // the document is written once, in place: no copy of a megabyte as it grows
      for (const auto& r : rows)
        size += r.d->text.size() + r.d->file.size() + r.d->name.size() + r.d->scope.size() + r.error.size() +
                2 * r.value.size() + 32 * r.needs.size() + 160;  // (value, and its note)
      for (const Declaration* p : parameters) size += p->file.size() + p->name.size() + p->scope.size() + 64;
      std::string out;
      out.reserve(size);
      out += "{\"names\":[";
      for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        out += (i ? ",{" : "{");
        out += "\"column\":" + std::to_string(r.d->column) + ",\"definition\":" + json_string(r.d->text);
        if (r.kind == "unresolved") out += ",\"error\":" + json_string(r.error);
        out += ",\"file\":" + json_string(r.d->file) + ",\"kind\":" + json_string(r.kind) +
               ",\"line\":" + std::to_string(r.d->line) + ",\"name\":" + json_string(qualified(*r.d));
        if (r.kind == "unresolved") {
          out += ",\"needs\":[";
          for (size_t k = 0; k < r.needs.size(); ++k) out += (k ? "," : "") + json_string(r.needs[k]);
          out += "]}";
        } else {
          if (!r.note.empty()) out += ",\"note\":" + json_string(r.note);
          out += ",\"value\":" + json_string(r.value) + "}";
        }
      }
      out += "],\"parameters\":[";
      bool first = true;
      for (const Declaration* p : parameters) {
        out += std::string(first ? "" : ",") + "{\"file\":" + json_string(p->file) +
               ",\"line\":" + std::to_string(p->line) + ",\"name\":" + json_string(qualified(*p)) + "}";
        first = false;
      }
      out += "]}\n";
      return Output{std::move(out), false};
    }
    Json names = Json::array();
    for (const auto& r : rows) {
      Json j = {{"name", qualified(*r.d)}, {"kind", r.kind},    {"definition", r.d->text},
                {"file", r.d->file},       {"line", r.d->line}, {"column", r.d->column}};
      if (r.kind == "unresolved") {
        j["error"] = r.error;
        j["needs"] = r.needs;
      } else {
        j["value"] = r.value;
        if (!r.note.empty()) j["note"] = r.note;
      }
      names.push_back(j);
    }
    Json params = Json::array();
    for (const Declaration* p : parameters)
      params.push_back({{"name", qualified(*p)}, {"file", p->file}, {"line", p->line}});
    // Declarations are the file's bytes: invalid UTF-8 becomes U+FFFD rather than an error.
    const Json all{{"names", names}, {"parameters", params}};
    return Output{all.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n", false};
  }
  size_t width = 4;
  for (const auto& r : rows) width = std::max(width, std::min<size_t>(qualified(*r.d).size(), 40));
  std::string out;
  size_t resolved = 0;
  std::vector<std::string> all_needs;
  for (const auto& r : rows) {
    std::string name = qualified(*r.d);
    std::string line = name + std::string(width > name.size() ? width - name.size() : 0, ' ') + "  ";
    std::string kind = r.kind + std::string(r.kind.size() < 15 ? 15 - r.kind.size() : 0, ' ') + "  ";
    std::string body;
    if (r.kind == "unresolved") {
      body = r.error;
      if (!r.runtime.empty()) {
        body += "; uses run-time ";
        for (size_t k = 0; k < r.runtime.size(); ++k) body += (k ? ", '" : "'") + r.runtime[k] + "'";
        body += " (not a compile-time value)";
      }
      if (!r.needs.empty()) {
        body += "; give";
        for (const auto& n : r.needs) {
          body += " -D " + n + "=...";
          if (std::find(all_needs.begin(), all_needs.end(), n) == all_needs.end()) all_needs.push_back(n);
          if (const Declaration* p = env->parameter(n, r.d->scope))
            body += " (" + std::string(p->scope.empty() ? "a parameter" : "a parameter of " + p->scope) + ")";
        }
      }
    } else {
      ++resolved;
      body = r.value;
    }
    std::string indent(line.size() + kind.size(), ' ');
    std::string shown;
    bool first = true;
    for (const std::string& l : split_text(body)) {
      shown += (first ? "" : "\n" + indent) + l;
      first = false;
    }
    out += line + kind + shown + "\n";
  }
  out += std::to_string(rows.size()) + " names, " + std::to_string(resolved) + " resolved";
  if (!all_needs.empty()) {
    out += "; to resolve more, give";
    for (const auto& n : all_needs) out += " -D " + n + "=...";
  }
  out += "\n";
  return Output{std::move(out), false};
}

}  // namespace cutevis

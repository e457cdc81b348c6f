#include "lib/lang/launch_binding.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include "lib/lang/cpp_text.hpp"
#include "lib/stable_sort.hpp"

namespace cutevis {

namespace {

// "ns::gemm_nt#2" -> "gemm_nt": the function a scope names
std::string function_of(const std::string& scope) {
  std::string s = scope.substr(0, scope.find('#'));
  size_t colon = s.rfind("::");
  return colon == std::string::npos ? s : s.substr(colon + 2);
}

// "ASmemLayout const&" -> "ASmemLayout"; "CUTLASS_GRID_CONSTANT TmaA const" -> "TmaA" (a kernel's
// __grid_constant__ parameter, as CUTLASS's tutorials pass TMA descriptors); "" where the type is more
// than a name (a pointer, a template)
std::string plain_type(const std::string& type) {
  static const std::set<std::string> qualifiers = {"const", "volatile", "__grid_constant__", "CUTLASS_GRID_CONSTANT",
                                                   "CUTE_GRID_CONSTANT"};
  std::string out;
  size_t i = 0;
  while (i < type.size()) {
    char c = type[i];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < type.size() && (std::isalnum(static_cast<unsigned char>(type[j])) || type[j] == '_')) ++j;
      std::string word = type.substr(i, j - i);
      if (!qualifiers.count(word)) {
        if (!out.empty()) return "";
        out = word;
      }
      i = j;
    } else if (c == '&' || std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else {
      return "";  // *, <, ::
    }
  }
  return out;
}

// The scope the scanner gave the function `name` whose declarations (or parameters) lie on lines
// [first, last] of `file`, the outermost such; `name` itself when it declares nothing there.
std::string scope_of_function(const Environment& env, const std::string& file, const std::string& name, int first,
                              int last) {
  std::string best;
  auto consider = [&](const Declaration& d) {
    if (d.file != file || d.line < first || d.line > last || function_of(d.scope) != name) return;
    if (best.empty() || d.scope.size() < best.size()) best = d.scope;
  };
  for (const Declaration& d : env.declarations()) consider(d);
  for (const Declaration& d : env.parameters()) consider(d);
  return best.empty() ? name : best;
}

// The kernel's scope: that of its parameters, declared on its signature's lines.
std::string scope_of_kernel(const Environment& env, const std::string& file, const KernelFunction& k) {
  std::string best;
  int distance = 0;
  for (const Declaration& p : env.parameters()) {
    if (p.file != file || function_of(p.scope) != k.name) continue;
    if (std::find(k.params.begin(), k.params.end(), p.name) == k.params.end() &&
        std::find(k.template_params.begin(), k.template_params.end(), p.name) == k.template_params.end())
      continue;
    int d = std::abs(p.line - k.line);
    if (best.empty() || d < distance) best = p.scope, distance = d;
  }
  return best.empty() ? k.name : best;
}

// The scope the scanner gave the parameters of definition `f` (f#2 for a second overload): that of its
// parameters nearest its name's line.
std::string scope_of_definition(const Environment& env, const std::string& file, const FunctionDefinition& f) {
  std::string best;
  int distance = 0;
  for (const Declaration& p : env.parameters()) {
    if (p.file != file || function_of(p.scope) != f.name || p.line > f.begin_line) continue;
    if (std::find(f.params.begin(), f.params.end(), p.name) == f.params.end() &&
        std::find(f.template_params.begin(), f.template_params.end(), p.name) == f.template_params.end())
      continue;
    int d = std::abs(p.line - f.line);
    if (best.empty() || d < distance) best = p.scope, distance = d;
  }
  return best.empty() ? f.name : best;
}

bool is_word_in(const std::string& word, const std::string& text) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    const size_t e = at + word.size();
    const bool right = e >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_');
    if (left && right) return true;
  }
  return false;
}

// "TA const*" -> "TA"; "cute::half_t const *" -> "cute::half_t"; "" unless a pointer
std::string pointee(const std::string& type) {
  if (type.find('*') == std::string::npos) return "";
  std::string out = type.substr(0, type.find('*'));
  for (const char* word : {"const", "volatile"})
    for (size_t at; (at = out.find(word)) != std::string::npos;) out.erase(at, std::string(word).size());
  out.erase(std::remove_if(out.begin(), out.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
            out.end());
  return out;
}

// A value of a parameter of scalar type (`int m`, `int stages = 4`) is a run-time int, as C++ passes it,
// even where the argument is written as a literal: int(4), not Int<4>.
std::string as_parameter(const std::string& type, const std::string& arg) {
  static const std::set<std::string> scalars = {"int",      "int32_t", "int64_t", "unsigned", "uint32_t",
                                                "uint64_t", "size_t",  "long",    "short",    "char",
                                                "bool",     "float",   "double"};
  const std::string t = plain_type(type);
  return scalars.count(t) ? t + "(" + arg + ")" : arg;
}

bool depends_on(const FunctionDefinition& f, const std::string& type) {
  for (const std::string& t : f.template_params)
    if (!t.empty() && is_word_in(t, type)) return true;
  return false;
}

// The type `type` names in `scope`, as printed ("" where it cannot be evaluated)
std::string type_in(Environment& env, const std::string& type, const std::string& scope) {
  try {
    return env.evaluate(parse_expression(type), type, default_registry(), scope).to_string();
  } catch (const Error&) {
    return "";
  }
}

}  // namespace

std::vector<LaunchBindingNote> bind_class_templates(Environment& env, const KernelFile& kernels,
                                                    const std::map<std::string, std::vector<std::string>>& templates,
                                                    const std::string& text, const std::string& file) {
  std::vector<LaunchBindingNote> notes;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (const auto& [name, params] : templates) {
    if (name.find("::") != std::string::npos || params.empty()) continue;  // (a nested template: not here)
    // its first `name<...>` inside a function's body
    for (size_t at = text.find(name + "<"); at != std::string::npos; at = text.find(name + "<", at + 1)) {
      if ((at > 0 && ident(text[at - 1])) ||
          (at >= 2 && text.compare(at - 2, 2, "::") == 0 && !(at >= 6 && text.compare(at - 6, 6, "cute::") == 0)))
        continue;
      const int line = line_column(text, at).first;
      const FunctionDefinition* in = nullptr;
      for (const FunctionDefinition& f : kernels.functions)
        if (f.begin_line <= line && line <= f.end_line) in = &f;
      if (!in) continue;
      const size_t open = at + name.size();
      int depth = 0;
      size_t close = open;
      for (; close < text.size(); ++close) {
        const char c = text[close];
        if (c == '<' || c == '(') ++depth;
        if ((c == '>' || c == ')') && --depth == 0) break;
        if (c == ';' || c == '{') break;
      }
      if (close >= text.size() || text[close] != '>') continue;
      const std::vector<std::string> args = split_arguments(text.substr(open + 1, close - open - 1));
      if (args.size() != params.size()) continue;
      const std::string where = scope_of_function(env, file, in->name, in->begin_line, in->end_line);
      for (size_t i = 0; i < params.size(); ++i) {
        Declaration d;
        d.name = params[i];
        d.scope = name;
        d.text = args[i];
        d.file = file;
        std::tie(d.line, d.column) = line_column(text, open + 1);
        d.read_in = where;
        env.add(std::move(d));
      }
      notes.push_back({name, name + "'s members are read as " + name + "<" + text.substr(open + 1, close - open - 1) +
                                 "> is instantiated in " + in->name + " (" + file + ":" + std::to_string(line) + ")"});
      break;
    }
  }
  return notes;
}

void mark_changed_locals(std::vector<Declaration>& declarations, const KernelFile& kernels, const std::string& file) {
  // the functions that write something, by their body's first line (bodies do not nest): one lookup per local
  std::map<int, const FunctionDefinition*> by_line;
  for (const FunctionDefinition& f : kernels.functions)
    if (!f.writes.empty()) by_line[f.begin_line] = &f;
  if (by_line.empty()) return;
  for (Declaration& d : declarations) {
    if (d.file != file || d.text.empty() || d.from_header) continue;
    auto it = by_line.upper_bound(d.line);
    if (it == by_line.begin()) continue;
    const FunctionDefinition& f = *std::prev(it)->second;
    if (d.line > f.end_line || function_of(d.scope) != f.name) continue;
    const LocalWrite* chain = nullptr;         // the if-chain whose branches assign it (one chain, once a branch)
    std::vector<std::string> assigned, where;  // what each of its branches assigns, and where
    for (const LocalWrite& w : f.writes) {
      if (w.name != d.name || std::make_pair(w.line, w.column) <= std::make_pair(d.line, d.column)) continue;
      if (!w.command_line.empty()) {
        if (d.command_line_at.empty())
          d.command_line_at = w.command_line + " changes it at line " + std::to_string(w.line);
        continue;
      }
      if (!w.chain.empty() &&
          (!chain || (chain->chain.front().line == w.chain.front().line && assigned[w.branch].empty()))) {
        chain = chain ? chain : &w;
        assigned.resize(w.chain.size());
        where.resize(w.chain.size());
        assigned[w.branch] = w.assigned;
        where[w.branch] = "`" + w.statement + "` at line " + std::to_string(w.line);
        continue;
      }
      // any other change: a run-time value, whatever the command line does
      d.changed_at = "`" + w.statement + "` at line " + std::to_string(w.line);
      d.command_line_at.clear();
      chain = nullptr;
      break;
    }
    if (chain)
      for (size_t i = 0; i < chain->chain.size(); ++i) {
        const IfBranch& b = chain->chain[i];
        d.default_branches.push_back(DefaultBranch{b.condition, b.line, b.fails, assigned[i], where[i]});
      }
  }
}

void mark_kernel_pointers(std::vector<Declaration>& declarations, const KernelFile& kernels, const std::string& file) {
  std::map<std::string, const KernelFunction*> by_name;
  for (const KernelFunction& k : kernels.kernels) by_name[k.name] = &k;
  if (by_name.empty()) return;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (Declaration& d : declarations) {
    if (d.file != file || d.from_header) continue;
    std::string text = d.text;
    size_t b = text.find_first_not_of(" \t\n");
    if (b != std::string::npos && text[b] == '&') ++b;
    b = text.find_first_not_of(" \t\n", b);
    if (b == std::string::npos || !word(text[b]) || std::isdigit(static_cast<unsigned char>(text[b]))) continue;
    size_t e = b;
    while (e < text.size() && word(text[e])) ++e;
    auto k = by_name.find(text.substr(b, e - b));
    const size_t open = text.find_first_not_of(" \t\n", e);
    const size_t shut = text.find_last_not_of(" \t\n");
    if (k == by_name.end() || open == std::string::npos || text[open] != '<' || text[shut] != '>') continue;
    const std::vector<std::string> targs = split_arguments(text.substr(open + 1, shut - open - 1));
    if (targs.size() > k->second->template_params.size()) continue;  // not this kernel's instance
    std::string rewritten = "__kernel_function" + text.substr(open, shut - open + 1) + "(" + k->first;
    for (size_t i = 0; i < targs.size(); ++i) rewritten += ", " + k->second->template_params[i];
    d.text = rewritten + ")";
  }
}

std::vector<LaunchBindingNote> bind_calls(Environment& env, const KernelFile& kernels, const std::string& text,
                                          const std::string& file) {
  std::vector<LaunchBindingNote> notes;
  std::set<std::string> kernel_names;
  for (const KernelFunction& k : kernels.kernels) kernel_names.insert(k.name);
  if (kernels.calls.empty()) return notes;
  std::multimap<std::string, const FunctionDefinition*> by_name;  // (a file may define thousands)
  for (const FunctionDefinition& f : kernels.functions) by_name.emplace(f.name, &f);
  auto definition_of = [&](const std::string& name, int begin_line) -> const FunctionDefinition* {
    for (auto [it, end] = by_name.equal_range(name); it != end; ++it)
      if (it->second->begin_line == begin_line) return it->second;
    return nullptr;
  };
  // binds f's parameters from the call c (its first in the file); `others`: the later calls, for the note
  auto bind_from = [&](const FunctionDefinition& f, const KernelLaunch& c,
                       const std::vector<const KernelLaunch*>& others) {
    const std::string callee = scope_of_definition(env, file, f);
    const FunctionDefinition* caller = definition_of(c.function, c.function_begin_line);
    const std::string caller_scope =
        caller ? scope_of_definition(env, file, *caller)
               : scope_of_function(env, file, c.function, c.function_begin_line, c.function_end_line);
    const size_t call_at = offset_of(text, c.line, c.column);
    auto bind = [&](const std::string& name, const std::string& arg, bool in_caller) {
      Declaration d;
      d.name = name;
      d.scope = callee;
      d.text = arg;
      d.file = file;
      size_t at = text.find(arg, call_at);
      std::tie(d.line, d.column) = line_column(text, at == std::string::npos || !in_caller ? call_at : at);
      d.read_in = in_caller ? caller_scope : callee;  // (read_in set: a binding, not a name of the file's own)
      env.add(std::move(d));
    };
    std::vector<bool> bound(f.template_params.size(), false);
    for (size_t i = 0; i < f.template_params.size() && i < c.template_args.size(); ++i)
      if (!f.template_params[i].empty() && !c.template_args[i].empty()) {
        bind(f.template_params[i], c.template_args[i], true);
        bound[i] = true;
      }
    auto deduce = [&](const std::string& param, const std::string& as) {
      auto tp = std::find(f.template_params.begin(), f.template_params.end(), param);
      if (tp == f.template_params.end() || bound[static_cast<size_t>(tp - f.template_params.begin())]) return;
      bind(param, as, true);
      bound[static_cast<size_t>(tp - f.template_params.begin())] = true;
    };
    for (size_t j = 0; j < f.params.size(); ++j) {
      if (j >= c.args.size()) {  // left out: its default, read where the function is
        if (!f.params[j].empty() && !f.param_defaults[j].empty())
          bind(f.params[j], as_parameter(f.param_types[j], f.param_defaults[j]), false);
        continue;
      }
      const std::string type = plain_type(f.param_types[j]);
      if (!type.empty()) {
        deduce(type, "decltype(" + c.args[j] + ")");
        if (!f.params[j].empty()) bind(f.params[j], as_parameter(f.param_types[j], c.args[j]), true);
        continue;
      }
      // TA const* A given the caller's `TA const* A`: TA is the caller's pointee (the pointer keeps its name)
      const std::string want = pointee(f.param_types[j]);
      // the pointer itself keeps its name, typed as declared: make_gmem_ptr(ptr_A) knows its element type
      if (!want.empty() && !f.params[j].empty() && f.param_types[j].find('*') == f.param_types[j].rfind('*'))
        bind(f.params[j], "recast_ptr<" + want + ">(" + f.params[j] + ")", false);
      if (!want.empty() && caller &&
          std::find(f.template_params.begin(), f.template_params.end(), want) != f.template_params.end())
        for (size_t i = 0; i < caller->params.size(); ++i)
          if (caller->params[i] == c.args[j] && !pointee(caller->param_types[i]).empty())
            deduce(want, pointee(caller->param_types[i]));
    }
    if (!others.empty()) {
      std::string message = c.kernel + "'s parameters are bound from its call in " + c.function + " (" + file + ":" +
                            std::to_string(c.line) + "); also called from";
      for (size_t i = 0; i < others.size(); ++i)
        message += std::string(i > 0 ? "," : "") + " " + others[i]->function + " (line " +
                   std::to_string(others[i]->line) + ")";
      notes.push_back({c.kernel, message + ", not shown: a -D of a parameter replaces the call's"});
    }
  };
  std::vector<const KernelLaunch*> calls;
  for (const KernelLaunch& c : kernels.calls)
    if (!kernel_names.count(c.kernel)) calls.push_back(&c);
  stable_sort_by(calls, [](const KernelLaunch* a, const KernelLaunch* b) {
    return std::make_pair(a->line, a->column) < std::make_pair(b->line, b->column);
  });
  auto fitting = [&](const KernelLaunch& c) {  // the overloads taking c's arguments, the more specialized first
    std::vector<const FunctionDefinition*> fit;
    for (auto [it, end] = by_name.equal_range(c.kernel); it != end; ++it) {
      const FunctionDefinition& f = *it->second;
      if (c.args.size() > f.params.size()) continue;
      size_t required = 0;
      for (size_t j = 0; j < f.params.size(); ++j)
        if (f.param_defaults[j].empty()) required = j + 1;
      if (c.args.size() >= required && c.template_args.size() <= f.template_params.size()) fit.push_back(&f);
    }
    // C++'s partial ordering: the more specialized (fewer parameters of a template parameter's type) first
    auto dependent = [](const FunctionDefinition* f) {
      size_t n = 0;
      for (const std::string& t : f->param_types) n += depends_on(*f, t) ? 1 : 0;
      return n;
    };
    stable_sort_by(
        fit, [&](const FunctionDefinition* a, const FunctionDefinition* b) { return dependent(a) < dependent(b); });
    return fit;
  };
  // Pass 1: calls with one overload that fits, bound before anything is evaluated (an evaluation is kept, so
  // pass 2's checks must see these bindings); pass 2: calls among overloads, decided by the argument types
  std::map<const FunctionDefinition*, std::vector<const KernelLaunch*>> bound_from;
  std::vector<const KernelLaunch*> undecided;
  for (const KernelLaunch* c : calls) {
    const auto fit = fitting(*c);
    if (fit.size() == 1) bound_from[fit.front()].push_back(c);
    if (fit.size() > 1) undecided.push_back(c);
  }
  for (const auto& [f, from] : bound_from)
    bind_from(*f, *from.front(), std::vector<const KernelLaunch*>(from.begin() + 1, from.end()));
  std::set<const FunctionDefinition*> done;
  for (const auto& [f, from] : bound_from) done.insert(f);
  for (const KernelLaunch* c : undecided) {
    const auto fit = fitting(*c);
    const FunctionDefinition* caller = definition_of(c->function, c->function_begin_line);
    const FunctionDefinition* chosen = nullptr;
    std::string why;
    for (const FunctionDefinition* f : fit) {
      bool viable = true, checked = true;
      for (size_t j = 0; j < c->args.size() && viable; ++j) {
        const std::string want = pointee(f->param_types[j]);
        if (want.empty() || depends_on(*f, f->param_types[j])) continue;
        std::string have;
        if (caller)
          for (size_t i = 0; i < caller->params.size(); ++i)
            if (caller->params[i] == c->args[j]) have = pointee(caller->param_types[i]);
        const std::string a =
            have.empty() || !caller ? "" : type_in(env, have, scope_of_definition(env, file, *caller));
        const std::string b = type_in(env, want, scope_of_definition(env, file, *f));
        if (a.empty() || b.empty()) {
          checked = false;
          why = "the type of its argument " + c->args[j] + " is not known here (" + f->param_types[j] + " wanted)";
        } else if (a != b) {
          viable = false;
        }
      }
      if (viable && checked) {
        chosen = f;
        break;
      }
      if (viable && !checked) break;  // the more specialized may fit: not decided
    }
    if (!chosen) {
      notes.push_back({c->kernel, "the call of " + c->kernel + " in " + c->function + " (" + file + ":" +
                                      std::to_string(c->line) + ") binds nothing: " + std::to_string(fit.size()) +
                                      " overloads take its arguments and " + (why.empty() ? "none is viable" : why)});
      continue;
    }
    if (done.insert(chosen).second) bind_from(*chosen, *c, {});
  }
  return notes;
}

std::vector<LaunchBindingNote> bind_launches(Environment& env, const KernelFile& kernels, const std::string& text,
                                             const std::string& file) {
  std::vector<LaunchBindingNote> notes;
  for (const KernelFunction& k : kernels.kernels) {
    std::vector<const KernelLaunch*> launches;
    for (const KernelLaunch& l : kernels.launches)
      if (l.kernel == k.name && !l.function.empty()) launches.push_back(&l);
    if (launches.empty()) continue;
    stable_sort_by(launches, [](const KernelLaunch* a, const KernelLaunch* b) { return a->line < b->line; });
    const KernelLaunch& l = *launches.front();  // the first in the file
    const std::string kernel_scope = scope_of_kernel(env, file, k);
    const std::string caller = scope_of_function(env, file, l.function, l.function_begin_line, l.function_end_line);
    const size_t launch_at = offset_of(text, l.line, l.column);
    auto bind = [&](const std::string& name, const std::string& arg) {
      Declaration d;
      d.name = name;
      d.scope = kernel_scope;
      d.text = arg;
      d.file = file;
      size_t at = text.find(arg, launch_at);  // where the argument is written, for errors
      std::tie(d.line, d.column) = line_column(text, at == std::string::npos ? launch_at : at);
      d.read_in = caller;
      env.add(std::move(d));
    };
    std::vector<bool> bound(k.template_params.size(), false);
    for (size_t i = 0; i < k.template_params.size() && i < l.template_args.size(); ++i)
      if (!k.template_params[i].empty() && !l.template_args[i].empty()) {
        bind(k.template_params[i], l.template_args[i]);
        bound[i] = true;
      }
    for (size_t j = 0; j < k.params.size() && j < l.args.size(); ++j) {
      const std::string type = j < k.param_types.size() ? plain_type(k.param_types[j]) : "";
      if (type.empty()) continue;  // a pointer (keeps its name) or a type cutevis does not deduce from
      // ASmemLayout sA_layout: the template parameter deduced from the argument, as C++ does
      auto tp = std::find(k.template_params.begin(), k.template_params.end(), type);
      if (tp != k.template_params.end() && !bound[static_cast<size_t>(tp - k.template_params.begin())]) {
        bind(type, "decltype(" + l.args[j] + ")");
        bound[static_cast<size_t>(tp - k.template_params.begin())] = true;
      }
      if (!k.params[j].empty()) bind(k.params[j], l.args[j]);
    }
    std::string message = k.name + "'s parameters are bound from its launch in " + l.function + " (" + file + ":" +
                          std::to_string(l.line) + ")";
    if (launches.size() > 1) {
      message += "; also launched from";
      for (size_t i = 1; i < launches.size(); ++i)
        message += std::string(i > 1 ? "," : "") + " " + launches[i]->function + " (line " +
                   std::to_string(launches[i]->line) + ")";
      message += ", not shown: a -D of a parameter replaces the launch's";
      notes.push_back({k.name, message});
    }
  }
  return notes;
}

}  // namespace cutevis

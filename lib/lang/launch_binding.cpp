#include "lib/lang/launch_binding.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <tuple>

#include "lib/lang/cpp_text.hpp"

namespace cutevis {

namespace {

// "ns::gemm_nt#2" -> "gemm_nt": the function a scope names
std::string function_of(const std::string& scope) {
  std::string s = scope.substr(0, scope.find('#'));
  size_t colon = s.rfind("::");
  return colon == std::string::npos ? s : s.substr(colon + 2);
}

// "ASmemLayout const&" -> "ASmemLayout"; "" where the type is more than a name (a pointer, a template)
std::string plain_type(const std::string& type) {
  std::string out;
  size_t i = 0;
  while (i < type.size()) {
    char c = type[i];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < type.size() && (std::isalnum(static_cast<unsigned char>(type[j])) || type[j] == '_')) ++j;
      std::string word = type.substr(i, j - i);
      if (word != "const" && word != "volatile") {
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

}  // namespace

std::vector<LaunchBindingNote> bind_launches(Environment& env, const KernelFile& kernels, const std::string& text,
                                             const std::string& file) {
  std::vector<LaunchBindingNote> notes;
  for (const KernelFunction& k : kernels.kernels) {
    std::vector<const KernelLaunch*> launches;
    for (const KernelLaunch& l : kernels.launches)
      if (l.kernel == k.name && !l.function.empty()) launches.push_back(&l);
    if (launches.empty()) continue;
    std::stable_sort(launches.begin(), launches.end(),
                     [](const KernelLaunch* a, const KernelLaunch* b) { return a->line < b->line; });
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

#include "app/includes.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "app/input_files.hpp"
#include "app/path_text.hpp"
#include "lib/error.hpp"
#include "lib/lang/cpp_text.hpp"

namespace cutevis {

namespace {

constexpr size_t kMaxHeaderBytes = size_t{4} << 20;  // as a --from file

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// System, CUDA and framework headers: never read (<cstdint>, <cuda_runtime.h>, <thrust/...>).
bool is_system_header(const std::string& name, bool angled) {
  const size_t slash = name.find('/');
  const std::string first = name.substr(0, slash);
  static const char* const libraries[] = {
      "thrust", "cub",   "cuda", "nv",  "cooperative_groups", "sys",       "bits",  "linux",  "asm",
      "crt",    "torch", "ATen", "c10", "pybind11",           "cuda_fp16", "cudnn", "cublas", "curand"};
  if (slash != std::string::npos)
    for (const char* l : libraries)
      if (first == l) return true;
  const std::string last = slash == std::string::npos ? name : name.substr(name.rfind('/') + 1);
  if (last.find('.') == std::string::npos) return true;  // <vector>, <cstdint>
  if (slash == std::string::npos && (angled || starts_with(name, "cuda") || starts_with(name, "cu") ||
                                     starts_with(name, "nv") || starts_with(name, "std")))
    return true;  // <stdint.h>, <cuda_runtime.h>, "cuda_fp16.h", "nvrtc.h"
  return false;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split_path_list(const char* value) {
  std::vector<std::string> out;
  if (!value) return out;
  for (std::string& part : split_text(value, ':'))
    if (!part.empty()) out.push_back(std::move(part));
  return out;
}

// A settings file's values: "a" or ["a", "b"] (text after the `=`, arrays joined across lines).
std::vector<std::string> settings_strings(const std::string& value, const std::string& where) {
  std::vector<std::string> out;
  std::string v = trim(value);
  const bool array = !v.empty() && v.front() == '[';
  if (array) {
    if (v.back() != ']') throw Error(where + ": an array must end with ']'");
    v = trim(v.substr(1, v.size() - 2));
  }
  size_t i = 0;
  while (i < v.size()) {
    if (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r' || (array && v[i] == ',')) {
      ++i;
      continue;
    }
    if (v[i] != '"') throw Error(where + ": expected a \"string\"" + (array ? " in the array" : ""));
    const size_t end = v.find('"', i + 1);
    if (end == std::string::npos) throw Error(where + ": a string without its closing '\"'");
    out.push_back(v.substr(i + 1, end - i - 1));
    i = end + 1;
    if (!array && v.find_first_not_of(" \t", i) != std::string::npos)
      throw Error(where + ": one \"string\" expected (or an array [\"a\", \"b\"])");
  }
  return out;
}

}  // namespace

FolderSettings folder_settings(const std::string& folder) {
  FolderSettings s;
  for (const char* name : {".cutevis", "cutevis.toml"}) {
    const std::string p = path_join(folder.empty() ? "." : folder, name);
    if (!is_regular_file(p)) continue;
    s.file = path_normal(p);
    break;
  }
  if (s.file.empty()) return s;
  const std::string text = read_input_file(s.file, "the settings file");
  std::string key, value;
  int number = 0, key_line = 0;
  auto finish = [&] {
    if (key.empty()) return;
    const std::string where = s.file + ":" + std::to_string(key_line);
    std::vector<std::string> values = settings_strings(value, where);
    if (key == "include") {
      for (auto& d : values)  // relative to the settings file's folder
        s.include_dirs.push_back(path_normal(path_join(folder.empty() ? "." : folder, d)));
    } else if (key == "define") {
      s.defines.insert(s.defines.end(), values.begin(), values.end());
    } else if (key == "pre_include") {
      s.pre_includes.insert(s.pre_includes.end(), values.begin(), values.end());
    } else if (key == "arch") {
      if (values.size() != 1) throw Error(where + ": arch is one \"smXX\"");
      s.arch = values[0];
    } else {
      throw Error(where + ": unknown key '" + key + "' (the keys are include, define, arch, pre_include)");
    }
    key.clear();
    value.clear();
  };
  bool open_array = false;
  for (std::string& line : split_text(text)) {
    ++number;
    // a comment: '#' outside a string
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"') quoted = !quoted;
      if (line[i] == '#' && !quoted) {
        line.resize(i);
        break;
      }
    }
    if (trim(line).empty()) continue;
    if (open_array) {  // an array's next lines
      value += "\n" + line;
      open_array = trim(value).back() != ']';
      if (!open_array) finish();
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string::npos)
      throw Error(s.file + ":" + std::to_string(number) +
                  ": expected KEY = VALUE (include, define, arch, pre_include)");
    key = trim(line.substr(0, eq));
    value = line.substr(eq + 1);
    key_line = number;
    const std::string v = trim(value);
    open_array = !v.empty() && v.front() == '[' && v.back() != ']';
    if (!open_array) finish();
  }
  if (open_array) throw Error(s.file + ":" + std::to_string(key_line) + ": an array without its closing ']'");
  return s;
}

std::vector<std::string> environment_include_dirs() {
  std::vector<std::string> dirs;
  for (const char* var : {"CUTEVIS_INCLUDE_PATH", "CPATH", "CPLUS_INCLUDE_PATH"})
    for (auto& d : split_path_list(std::getenv(var))) dirs.push_back(d);
  if (const char* cutlass = std::getenv("CUTLASS_PATH"); cutlass && *cutlass) {
    const std::string include = path_join(cutlass, "include");
    dirs.push_back(is_directory(include) ? include : std::string(cutlass));
  }
  return dirs;
}

std::map<std::string, std::string> compiler_macros() {
  // nvcc 12.8's host pass, C++17: what CUTLASS's headers test before they declare anything
  return {{"__cplusplus", "201703L"},     {"__CUDACC__", "1"},           {"__NVCC__", "1"},
          {"__CUDACC_VER_MAJOR__", "12"}, {"__CUDACC_VER_MINOR__", "8"}, {"__CUDACC_VER_BUILD__", "0"}};
}

IncludeReader::IncludeReader(std::vector<std::string> dirs, HeaderCache cache)
    : dirs_(std::move(dirs)), cache_(std::move(cache)) {}

std::string IncludeReader::find(const std::string& name, bool angled, const std::string& from) const {
  if (path_is_absolute(name)) return is_regular_file(name) ? name : "";
  if (!angled && from != "-") {  // "x.hpp": beside the including file first
    const std::string p = path_normal(path_join(path_parent(from), name));
    if (is_regular_file(p)) return p;
  }
  for (const std::string& d : dirs_) {
    const std::string p = path_normal(path_join(d, name));
    if (is_regular_file(p)) return p;
  }
  return "";
}

void IncludeReader::include(const std::string& name, bool angled, const std::string& from, int depth,
                            std::map<std::string, std::string>& macros) {
  if (starts_with(name, "cute/")) {  // CuTe itself is built in
    ++stats_.cute_skipped;
    return;
  }
  if (is_system_header(name, angled)) {
    ++stats_.system_skipped;
    return;
  }
  const std::string path = find(name, angled, from);
  if (path.empty()) {
    if (std::find(stats_.not_found.begin(), stats_.not_found.end(), name) == stats_.not_found.end())
      stats_.not_found.push_back(name);
    return;
  }
  const std::string canonical = real_path_or_same(path);
  if (seen_.count(canonical)) {  // once, as #pragma once or its guard would
    ++stats_.repeated;
    return;
  }
  if (depth > kMaxDepth || stats_.headers_read >= kMaxFiles || stats_.bytes_read >= kMaxBytes) {
    if (!limited_)
      limit_note_ = "#include \"" + name + "\" not read: more than " +
                    (depth > kMaxDepth                  ? std::to_string(kMaxDepth) + " headers deep"
                     : stats_.headers_read >= kMaxFiles ? std::to_string(kMaxFiles) + " headers"
                                                        : std::to_string(kMaxBytes >> 20) + " MB of headers") +
                    " (the headers after it are not read either)";
    limited_ = true;
    return;
  }
#ifndef CUTEVIS_WEB  // the page (web/CMakeLists.txt) keeps no cache: its files live as long as the page
  if (depth == 1 && cache_.enabled()) return cached_include(name, path, canonical, macros);
#endif
  seen_.insert(canonical);
  std::string text;
  if (!try_read_input_file(path, text, max_input_bytes(kMaxHeaderBytes)) ||
      brace_nesting_depth(text) > kMaxBraceDepth) {
    stats_.not_found.push_back(name + " (" + path + " cannot be read)");
    return;
  }
  read_header(path, text, depth, macros);
}

void IncludeReader::read_header(const std::string& path, const std::string& text, int depth,
                                std::map<std::string, std::string>& macros) {
  ++stats_.headers_read;
  stats_.bytes_read += text.size();
  CachedFile logged;
  logged.path = path;
  logged.canonical = real_path_or_same(path);
  HeaderCache::stat_file(path, logged.size, logged.mtime_ns);
  read_log_.push_back(std::move(logged));
  for (const auto& [macro, value] : compiler_macros()) macros.emplace(macro, value);  // (unless set)
  const IncludeHook nested = [&](const std::string& n, bool a, int, std::map<std::string, std::string>& m) {
    include(n, a, path, depth + 1, m);
  };
  CppScan s = scan_cpp(text, path, given_, &nested, &macros);
  macros = std::move(s.macros);
  for (Declaration& d : s.declarations) {
    d.from_header = true;
    declarations_.push_back(std::move(d));
  }
  for (Declaration& p : s.parameters) {
    p.from_header = true;
    parameters_.push_back(std::move(p));
  }
  for (FunctionDef& f : s.functions) {
    f.decl.from_header = true;
    functions_.push_back(std::move(f));
  }
  for (ClassDef& c : s.classes) classes_.push_back(std::move(c));
}

void IncludeReader::cached_include(const std::string& name, const std::string& path, const std::string& canonical,
                                   std::map<std::string, std::string>& macros) {
  std::string text;
  if (!try_read_input_file(path, text, max_input_bytes(kMaxHeaderBytes)) ||
      brace_nesting_depth(text) > kMaxBraceDepth) {
    stats_.not_found.push_back(name + " (" + path + " cannot be read)");
    return;
  }
  for (const auto& [macro, value] : compiler_macros()) macros.emplace(macro, value);
  // what the reading depends on: this build, the header, where headers are looked for, the
  // macros (given and in effect here) and the headers already read (they are not read again)
  auto joined = [](const auto& items) {
    std::string s;
    for (const auto& i : items) s += i + '\n';
    return s;
  };
  auto pairs = [](const std::map<std::string, std::string>& m) {
    std::string s;
    for (const auto& [k, v] : m) s += k + '=' + v + '\n';
    return s;
  };
  uint64_t key = HeaderCache::binary_stamp();
  for (const std::string& part : {canonical, text, joined(dirs_), pairs(given_), pairs(macros), joined(seen_)})
    key = fnv1a(part + '\x1f', key);
  if (std::optional<HeaderCacheEntry> e = cache_.load(key, defer_)) {
    ++stats_.cache_hits;
    for (const CachedFile& f : e->files) seen_.insert(f.canonical);
    stats_.headers_read += e->files.size();
    stats_.bytes_read += e->bytes_read;
    stats_.cute_skipped += e->cute_skipped;
    stats_.system_skipped += e->system_skipped;
    stats_.repeated += e->repeated;
    for (std::string& n : e->not_found)
      if (std::find(stats_.not_found.begin(), stats_.not_found.end(), n) == stats_.not_found.end())
        stats_.not_found.push_back(std::move(n));
    if (e->deferred) deferred_.push_back({declarations_.size(), parameters_.size(), std::move(e->deferred)});
    for (Declaration& d : e->declarations) declarations_.push_back(std::move(d));
    for (Declaration& p : e->parameters) parameters_.push_back(std::move(p));
    for (FunctionDef& f : e->functions) functions_.push_back(std::move(f));
    for (ClassDef& c : e->classes) classes_.push_back(std::move(c));
    macros = std::move(e->macros_after);
    return;
  }
  ++stats_.cache_misses;
  const IncludeStats before = stats_;
  const size_t declarations_before = declarations_.size(), parameters_before = parameters_.size();
  const size_t functions_before = functions_.size(), classes_before = classes_.size();
  const size_t log_before = read_log_.size();
  seen_.insert(canonical);
  read_header(path, text, 1, macros);
  if (limited_) return;  // an incomplete reading is not kept
  HeaderCacheEntry e;
  e.declarations.assign(declarations_.begin() + static_cast<long>(declarations_before), declarations_.end());
  e.parameters.assign(parameters_.begin() + static_cast<long>(parameters_before), parameters_.end());
  e.functions.assign(functions_.begin() + static_cast<long>(functions_before), functions_.end());
  e.classes.assign(classes_.begin() + static_cast<long>(classes_before), classes_.end());
  e.macros_after = macros;
  e.files.assign(read_log_.begin() + static_cast<long>(log_before), read_log_.end());
  e.not_found.assign(stats_.not_found.begin() + static_cast<long>(before.not_found.size()), stats_.not_found.end());
  e.bytes_read = stats_.bytes_read - before.bytes_read;
  e.cute_skipped = stats_.cute_skipped - before.cute_skipped;
  e.system_skipped = stats_.system_skipped - before.system_skipped;
  e.repeated = stats_.repeated - before.repeated;
  cache_.store(key, e);
}

void add_scan(Environment& env, CppScan scan, const std::vector<IncludeReader::DeferredAt>& deferred) {
  auto source = deferred.begin();
  for (size_t i = 0; i <= scan.declarations.size(); ++i) {  // each in its place among the others
    for (; source != deferred.end() && source->declaration == i; ++source) env.add_deferred(source->source);
    if (i < scan.declarations.size()) env.add(std::move(scan.declarations[i]));
  }
  source = deferred.begin();
  for (size_t i = 0; i <= scan.parameters.size(); ++i) {
    for (; source != deferred.end() && source->parameter == i; ++source) env.add_deferred_parameters(source->source);
    if (i < scan.parameters.size()) env.add_parameter(std::move(scan.parameters[i]));
  }
  for (auto& f : scan.functions) env.add_function(std::move(f));
  for (auto& c : scan.classes) env.add_class(std::move(c));
}

CppScan IncludeReader::scan(const std::string& text, const std::string& path,
                            const std::map<std::string, std::string>& macros) {
  declarations_.clear();
  parameters_.clear();
  functions_.clear();
  classes_.clear();
  deferred_.clear();
  given_ = macros;
  const size_t missing_before = stats_.not_found.size();
  int first_missing_line = 0;
  const IncludeHook hook = [&](const std::string& name, bool angled, int line, std::map<std::string, std::string>& m) {
    include(name, angled, path, 1, m);
    if (!first_missing_line && stats_.not_found.size() > missing_before) first_missing_line = line;
  };
  std::map<std::string, std::string> first_macros = macros;  // with the -include files' #defines
  for (const std::string& name : pre_includes_) {
    if (starts_with(name, "cute/")) {  // CuTe is built in: nothing to read
      include(name, false, path, 1, first_macros);
      continue;
    }
    const bool here = is_regular_file(name);  // gcc: the working folder first
    const std::string found = here ? path_normal(absolute_path(name)) : find(name, false, path);
    if (found.empty())
      throw Error("-include " + name + ": not found in the working folder, beside " + path +
                  " or in the include folders" + (dirs_.empty() ? " (none: give -I DIR)" : ""));
    include(found, false, path, 1, first_macros);
  }
  CppScan own = scan_cpp(text, path, first_macros, &hook);
  CppScan out;
  out.declarations = std::move(declarations_);
  for (Declaration& d : own.declarations) out.declarations.push_back(std::move(d));
  out.parameters = std::move(parameters_);
  for (Declaration& p : own.parameters) out.parameters.push_back(std::move(p));
  out.functions = std::move(functions_);
  for (FunctionDef& f : own.functions) out.functions.push_back(std::move(f));
  out.classes = std::move(classes_);
  for (ClassDef& c : own.classes) out.classes.push_back(std::move(c));
  out.notes = std::move(own.notes);
  out.macros = std::move(own.macros);
  if (stats_.not_found.size() > missing_before) {
    const size_t missing = stats_.not_found.size() - missing_before;
    std::string m = "#include \"" + stats_.not_found[missing_before] + "\"";
    for (size_t i = missing_before + 1; i < std::min(stats_.not_found.size(), missing_before + 4); ++i)
      m += ", \"" + stats_.not_found[i] + "\"";
    if (missing > 4) m += " and " + std::to_string(missing - 4) + " more";
    m += std::string(missing == 1 ? " is" : " are") + " not found in the include folders" +
         (dirs_.empty() ? " (none: give -I DIR, CUTLASS_PATH or a .cutevis file)" : "") +
         ": the declarations there are not read";
    out.notes.push_back({first_missing_line, m, ""});
  }
  if (limited_ && !limit_note_.empty()) {
    out.notes.push_back({first_missing_line ? first_missing_line : 1, limit_note_, ""});
    limit_note_.clear();
  }
  return out;
}

}  // namespace cutevis

#include "app/check.hpp"
#include "app/includes.hpp"

#include <nlohmann/json.hpp>

#include "atoms/analysis/kernel_check.hpp"
#include "lib/error.hpp"
#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/dsl.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/kernel_body.hpp"

namespace cutevis {

std::vector<std::vector<std::string>> sweep_configs(const std::vector<std::string>& sweeps) {
  std::vector<std::vector<std::string>> configs{{}};
  for (const std::string& s : sweeps) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error("--sweep expects NAME=V1|V2|... (e.g. --sweep 'bK=32|64'), got '" + s + "'");
    const std::string name = s.substr(0, eq);
    std::vector<std::string> values;
    size_t start = eq + 1;
    int depth = 0;
    for (size_t i = start; i <= s.size(); ++i) {
      const char c = i < s.size() ? s[i] : '|';
      if (c == '<' || c == '(') ++depth;
      if (c == '>' || c == ')') --depth;
      if (c == '|' && depth <= 0) {
        if (i == start) throw Error("--sweep " + name + ": an empty value in '" + s + "'");
        values.push_back(s.substr(start, i - start));
        start = i + 1;
      }
    }
    std::vector<std::vector<std::string>> next;
    for (const auto& c : configs)
      for (const auto& v : values) {
        next.push_back(c);
        next.back().push_back(name + "=" + v);
      }
    configs = std::move(next);
    if (configs.size() > 100000) throw Error("--sweep: more than 100,000 configurations");
  }
  return configs;
}

namespace {

struct SourceFile {
  std::string path, text;
  CppScan scan;
  std::vector<IncludeReader::DeferredAt> deferred;  // its headers' cached declarations (add_scan)
  KernelFile kernels;
  bool python = false;
  std::vector<Declaration> python_decls;
};

std::string location(const SourceLocation& l) {
  return (l.file.empty() ? std::string("<-D>") : l.file) + ":" + std::to_string(l.line) + ":" +
         std::to_string(l.column);
}

std::string config_text(const std::vector<std::string>& c) {
  std::string s;
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + c[i];
  return s;
}

nlohmann::json sarif(const std::vector<std::pair<Finding, std::string>>& all) {
  nlohmann::json rules = nlohmann::json::array(), results = nlohmann::json::array();
  std::vector<std::string> kinds;
  auto loc = [](const SourceLocation& l) {
    return nlohmann::json{{"physicalLocation",
                           {{"artifactLocation", {{"uri", l.file}}},
                            {"region", {{"startLine", std::max(1, l.line)}, {"startColumn", std::max(1, l.column)}}}}}};
  };
  for (const auto& [f, config] : all) {
    if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end()) {
      kinds.push_back(f.kind);
      rules.push_back({{"id", f.kind}, {"shortDescription", {{"text", "cutevis check: " + f.kind}}}});
    }
    nlohmann::json r = {{"ruleId", f.kind},
                        {"level", f.severity},
                        {"message", {{"text", f.message + (config.empty() ? "" : " (config: " + config + ")")}}},
                        {"locations", nlohmann::json::array({loc(f.at)})}};
    nlohmann::json related = nlohmann::json::array();
    int id = 1;
    for (const auto& rel : f.related) {
      nlohmann::json x = loc(rel.at);
      x["id"] = id++;
      x["message"] = {{"text", rel.message}};
      related.push_back(x);
    }
    if (!related.empty()) r["relatedLocations"] = related;
    results.push_back(r);
  }
  nlohmann::json driver = {{"name", "cutevis"}, {"rules", rules}};
  nlohmann::json run = {{"tool", {{"driver", driver}}}, {"results", results}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({run})}};
}

}  // namespace

CheckOutcome run_check(const CheckCommandOptions& o) {
  if (o.sources.from.empty()) throw Error("cutevis check needs --from KERNEL.cu (repeatable)");
  if (o.json && o.sarif) throw Error("--json and --sarif exclude each other");
  register_catalogue_names();
  // The files are read, scanned and their kernels read once; each configuration gets its own
  // environment (its -D change every value) over the same declarations.
  std::vector<SourceFile> files;
  const SourceOptions sources = resolved_sources(o.sources);  // with .cutevis's -D, --arch and include folders
  const std::map<std::string, std::string> macros = source_macros(sources);  // --arch and -D, for #if
  IncludeReader headers(sources.include_dirs);
  headers.defer_cached_declarations(true);  // (decoded when named, in each configuration's environment)
  for (const std::string& path : o.sources.from) {
    SourceFile f;
    f.path = path;
    f.text = read_source(path);
    const std::string ext = path.size() > 3 ? path.substr(path.find_last_of('.') + 1) : "";
    if (ext == "py" || ext == "pyi") {
      f.python = true;
      f.python_decls = scan_python(f.text, path);
    } else {
      f.scan = headers.scan(f.text, path, macros);
      f.deferred = headers.deferred();
      f.kernels = read_kernels(f.text, path);
    }
    files.push_back(std::move(f));
  }
  std::vector<Declaration> defines;
  for (const std::string& d : sources.defines) defines.push_back(parse_define(d));
  const std::vector<std::vector<std::string>> configs = sweep_configs(o.sweeps);

  std::vector<std::pair<Finding, std::string>> all;
  struct PerConfig {
    std::string config;
    int errors = 0, warnings = 0, notes = 0;
    CheckStats stats;
  };
  std::vector<PerConfig> per_config;
  CopyAnalysisCache cache;
  for (const auto& config : configs) {
    Environment env;
    env.set_parser(SourceLanguage::kPython, [](const std::string& text) { return parse_dsl_expression(text); });
    for (const SourceFile& f : files) {
      for (const Declaration& d : f.python_decls) env.add(d);
      add_scan(env, f.scan, f.deferred);
    }
    for (const Declaration& d : defines) env.define(d);
    for (const std::string& d : config) env.define(parse_define(d));
    PerConfig pc;
    pc.config = config_text(config);
    for (const SourceFile& f : files) {
      if (f.python) continue;
      CheckOptions co;
      co.file = f.path;
      co.text = &f.text;
      co.stats = &pc.stats;
      co.cache = &cache;
      for (Finding& finding : check_kernels(f.kernels, env, co)) {
        (finding.severity == "error" ? pc.errors : finding.severity == "warning" ? pc.warnings : pc.notes) += 1;
        all.emplace_back(std::move(finding), pc.config);
      }
    }
    if (per_config.empty())  // the preprocessor's notes (an #if decided without a value): once, they do not vary;
      for (const SourceFile& f : files)  // an #if inside a kernel body has its own warning (every branch is read)
        for (const PreprocessorNote& n : f.scan.notes) {
          const bool said = std::any_of(all.begin(), all.end(), [&](const auto& e) {
            return e.first.kind == "preprocessor" && e.first.at.file == f.path && e.first.at.line == n.line;
          });
          if (said) continue;
          Finding w;
          w.severity = "warning";
          w.kind = "preprocessor";
          w.message = n.message;
          w.at = {f.path, n.line, 1};
          ++pc.warnings;
          all.emplace_back(std::move(w), pc.config);
        }
    per_config.push_back(pc);
  }

  int errors = 0, warnings = 0, notes = 0, failing = 0, copies = 0, gemms = 0;
  for (const PerConfig& pc : per_config) {
    copies += pc.stats.copies;
    gemms += pc.stats.gemms;
    errors += pc.errors;
    warnings += pc.warnings;
    notes += pc.notes;
    failing += pc.errors > 0 || (o.werror && pc.warnings > 0);
  }
  CheckOutcome out;
  out.exit_code = failing > 0 ? 1 : 0;
  if (o.sarif) {
    out.output.bytes = sarif(all).dump(2) + "\n";
    return out;
  }
  if (o.json) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& [f, config] : all) {
      nlohmann::json related = nlohmann::json::array();
      for (const auto& r : f.related)
        related.push_back({{"file", r.at.file}, {"line", r.at.line}, {"column", r.at.column}, {"message", r.message}});
      findings.push_back({{"file", f.at.file},
                          {"line", f.at.line},
                          {"column", f.at.column},
                          {"severity", f.severity},
                          {"kind", f.kind},
                          {"message", f.message},
                          {"fix", f.fix},
                          {"config", config},
                          {"related", related}});
    }
    nlohmann::json cfgs = nlohmann::json::array();
    for (const PerConfig& pc : per_config)
      cfgs.push_back({{"config", pc.config},
                      {"errors", pc.errors},
                      {"warnings", pc.warnings},
                      {"notes", pc.notes},
                      {"copies_checked", pc.stats.copies},
                      {"gemms_checked", pc.stats.gemms},
                      {"ok", pc.errors == 0 && !(o.werror && pc.warnings > 0)}});
    nlohmann::json j = {{"findings", findings},
                        {"summary",
                         {{"errors", errors},
                          {"warnings", warnings},
                          {"notes", notes},
                          {"copies_checked", copies},
                          {"gemms_checked", gemms},
                          {"configs", cfgs},
                          {"failing_configs", failing}}}};
    out.output.bytes = j.dump() + "\n";
    return out;
  }
  std::string text;
  for (const auto& [f, config] : all) {
    text += location(f.at) + ": " + f.severity + ": " + f.message + " [" + f.kind + "]" +
            (config.empty() ? "" : " {" + config + "}") + "\n";
    if (!f.fix.empty()) text += location(f.at) + ": note: fix: " + f.fix + "\n";
    for (const auto& r : f.related) text += location(r.at) + ": note: " + r.message + "\n";
  }
  if (configs.size() > 1)
    for (const PerConfig& pc : per_config)
      text += "config " + pc.config + ": " + std::to_string(pc.errors) + " errors, " + std::to_string(pc.warnings) +
              " warnings" + (pc.errors > 0 || (o.werror && pc.warnings > 0) ? " -- do not compile" : "") + "\n";
  text += "cutevis check: " + std::to_string(copies) + " copy and " + std::to_string(gemms) +
          " gemm statements checked (once per launch and configuration): " + std::to_string(errors) +
          (errors == 1 ? " error, " : " errors, ") + std::to_string(warnings) +
          (warnings == 1 ? " warning, " : " warnings, ") + std::to_string(notes) + (notes == 1 ? " note" : " notes") +
          (configs.size() > 1
               ? " in " + std::to_string(configs.size()) + " configurations (" + std::to_string(failing) + " failing)"
               : "") +
          "\n";
  out.output.bytes = text;
  return out;
}

}  // namespace cutevis

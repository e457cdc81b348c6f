#include "app/batch.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/output.hpp"
#include "app/sources.hpp"

namespace cutevis {

namespace {

std::string field(const nlohmann::json& entry, const char* key, const std::string& fallback = "") {
  if (!entry.contains(key)) return fallback;
  if (!entry[key].is_string()) throw Error(std::string("'") + key + "' must be a string");
  return entry[key].get<std::string>();
}

// "from": "FILE" or ["FILE", ...], "defines": ["NAME=VALUE", ...]: as --from and -D.
SourceOptions entry_sources(const nlohmann::json& e) {
  SourceOptions s;
  auto strings = [&](const char* key, std::vector<std::string>& out) {
    if (!e.contains(key)) return;
    const auto& v = e[key];
    if (v.is_string()) out.push_back(v.get<std::string>());
    else if (v.is_array()) for (const auto& x : v) out.push_back(x.get<std::string>());
    else throw Error(std::string("'") + key + "' must be a string or an array of strings");
  };
  strings("from", s.from);
  strings("defines", s.defines);
  return s;
}

Output draw_entry(const nlohmann::json& e) {
  std::string command = field(e, "command");
  ShowOptions o;
  o.input = field(e, "input");
  if (o.input.empty()) throw Error("missing 'input'");
  std::string format = field(e, "format", "svg");
  if (format == "json") o.json = true;
  else o.picture.format = parse_format(format);
  o.picture.style = parse_style(field(e, "style", "default"));
  o.picture.color_by = field(e, "color_by", "auto");
  o.picture.threads = field(e, "threads");
  if (e.contains("element_bits")) o.picture.bank_element_bits = e["element_bits"].get<int>();
  o.env = load_sources(entry_sources(e));
  if (command == "layout") return run_layout(o);
  if (command == "tv") return run_tv(o, field(e, "tile"));
  if (command == "atom") return run_atom(o);
  if (command == "mma") return run_mma(o);
  if (command == "copy") return run_copy(o);
  throw Error("unknown command '" + command + "' (layout, tv, atom, mma or copy)");
}

}  // namespace

BatchResult run_batch(const std::string& spec_path, const std::string& output_dir) {
  std::ifstream in(spec_path);
  if (!in) throw Error("cannot read the batch spec " + spec_path);
  nlohmann::json spec;
  try {
    spec = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error("batch spec " + spec_path + " is not valid JSON: " + e.what());
  }
  if (!spec.is_object() || !spec.contains("pictures") || !spec["pictures"].is_array())
    throw Error("batch spec " + spec_path + " needs a \"pictures\" array");
  BatchResult result;
  std::filesystem::create_directories(output_dir.empty() ? "." : output_dir);
  const auto& pictures = spec["pictures"];
  for (size_t i = 0; i < pictures.size(); ++i) {
    const auto& e = pictures[i];
    std::string where = "pictures[" + std::to_string(i) + "]";
    try {
      if (!e.is_object()) throw Error("each picture is a JSON object");
      where += " (" + field(e, "command") + " " + field(e, "input") + ")";
      std::string out = field(e, "output");
      if (out.empty()) throw Error("missing 'output'");
      std::string path = (std::filesystem::path(output_dir) / out).string();
      Output o = draw_entry(e);
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());
      write_file_atomically(path, o.bytes);
      result.written.push_back(path);
    } catch (const Error& err) {
      throw Error(where + ": " + err.what());
    } catch (const nlohmann::json::exception& err) {
      throw Error(where + ": " + err.what());
    }
  }
  return result;
}

}  // namespace cutevis

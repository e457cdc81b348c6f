#include "app/batch.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/docs.hpp"
#include "app/input_files.hpp"
#include "app/output.hpp"
#include "app/paths.hpp"
#include "app/sources.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis {

namespace fs = std::filesystem;
using nlohmann::json;

const char* cutevis_version() { return "cutevis 0.1.0"; }

namespace {

const char* kStampFile = ".cutevis-batch.json";

struct KeyInfo {
  const char* name;
  const char* meaning;
};
const KeyInfo kKeys[] = {
    {"command", "required: layout | tv | atom | mma | copy"},
    {"input", "required: the expression or atom name, as on the command line"},
    {"output", "required: the file, relative to -C; its extension picks the format"},
    {"tile", "tv only, required there: the (M,N) tile, e.g. \"(32,4)\""},
    {"format", "optional: tex | svg | png | pdf | txt | html | json; must agree with the extension"},
    {"style", "optional: default | cute"},
    {"color_by", "optional: auto | thread | value | warp | index | bank | none"},
    {"threads", "optional: threads to highlight, e.g. \"0-3,32\""},
    {"element_bits", "optional: element width for color_by bank, a whole number 1..1024 (default 16)"},
    {"scale", "optional: size factor for PNG/PDF/SVG, a number in (0, 16]"},
    {"cell", "optional: cell size in px, a number in [2, 512]"},
    {"from",
     "optional: C++ or CuTeDSL files whose declarations the input may name (\"FILE\" or [\"FILE\", ...]), as --from"},
    {"defines", "optional: [\"NAME=VALUE\", ...], as -D"},
};

// Text from the spec as an error message shows it: control bytes as '?', at most 80
// characters (an entry's input may be a megabyte).
std::string printable(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size() && out.size() < 80; ++i) out += static_cast<unsigned char>(s[i]) < 0x20 ? '?' : s[i];
  if (out.size() < s.size()) out += "...";
  return out;
}

// FNV-1a: the stamps' hash of an entry and of a file's bytes.
uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}
std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The drawing code's identity: the version and the executable's size and time, so a
// rebuilt cutevis (a renderer changed, the version not yet) redraws everything.
const std::string& build_identity() {
  static const std::string id = [] {
    std::string s = cutevis_version();
    struct stat st {};
    if (::stat("/proc/self/exe", &st) == 0)
      s += " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
    return s;
  }();
  return id;
}

// What every entry shares: the folders it must stay in, and the sources already read
// (300 entries naming one 4 MB "from" read and scan it once).
struct BatchContext {
  fs::path out_dir;  // -C, absolute, links resolved
  fs::path root;     // "from" files stay below it
  struct Loaded {
    std::shared_ptr<Environment> env;
    // An Environment evaluates lazily and caches: not thread-safe, so the entries sharing one draw
    // one at a time (other entries stay parallel).
    std::shared_ptr<std::mutex> env_lock = std::make_shared<std::mutex>();
    uint64_t hash = 0;  // of the files' bytes, for the stamp
    std::string error;
  };
  std::unordered_map<std::string, Loaded> sources;
};

// One entry, checked: what to draw and where.
struct Entry {
  size_t index = 0;
  std::string where;  // "pictures[3] (atom SM70_...)"
  std::string command, tile, output;
  fs::path path;  // output_dir / output, lexically normal
  ShowOptions show;
  std::shared_ptr<std::mutex> env_lock;  // held while drawing when show.env is shared (BatchContext::Loaded)
  std::string stamp;                     // hash of the entry and the version
  bool valid = false;
};

// Everything wrong with entry `e`, appended to `errors`; the entry (valid when nothing was wrong).
Entry check_entry(const json& e, size_t i, const BatchOptions& opt, BatchContext& ctx,
                  std::vector<std::string>& errors) {
  Entry out;
  out.index = i;
  out.where = "pictures[" + std::to_string(i) + "]";
  if (!e.is_object()) {
    errors.push_back(out.where + ": each picture is a JSON object, not " + std::string(e.type_name()));
    return out;
  }
  const size_t before = errors.size();
  auto fail = [&](const std::string& what) { errors.push_back(out.where + ": " + what); };
  for (const auto& [key, value] : e.items()) {
    bool known = false;
    for (const KeyInfo& k : kKeys) known |= key == k.name;
    if (known) continue;
    std::string best;
    size_t best_d = 3;
    for (const KeyInfo& k : kKeys)
      if (size_t d = edit_distance(key, k.name); d < best_d) best_d = d, best = k.name;
    fail("unknown key '" + printable(key) + "'" + (best.empty() ? std::string() : " (did you mean '" + best + "'?)"));
  }
  auto string_field = [&](const char* key, bool required) -> std::string {
    if (!e.contains(key)) {
      if (required) fail(std::string("missing '") + key + "'");
      return "";
    }
    if (!e[key].is_string()) {
      fail(std::string("'") + key + "' must be a string, not " + e[key].type_name());
      return "";
    }
    std::string v = e[key].get<std::string>();
    if (required && v.empty()) fail(std::string("'") + key + "' is empty");
    return v;
  };
  out.command = string_field("command", true);
  out.show.input = string_field("input", true);
  out.output = string_field("output", true);
  if (!out.command.empty() || !out.show.input.empty())
    out.where += " (" + printable(out.command) + " " + printable(out.show.input) + ")";
  // re-prefix errors given before the name was known
  for (size_t k = before; k < errors.size(); ++k) errors[k] = out.where + errors[k].substr(errors[k].find(':'));
  static const char* commands[] = {"layout", "tv", "atom", "mma", "copy"};
  if (!out.command.empty() && std::find_if(std::begin(commands), std::end(commands),
                                           [&](const char* c) { return out.command == c; }) == std::end(commands))
    fail("unknown command '" + printable(out.command) + "' (layout, tv, atom, mma or copy)");
  out.tile = string_field("tile", out.command == "tv");
  if (out.command != "tv" && e.contains("tile")) fail("'tile' goes with command tv only");

  const std::string format = string_field("format", false);
  const std::string style = string_field("style", false);
  const std::string color_by = string_field("color_by", false);
  out.show.picture.threads = string_field("threads", false);
  auto guarded = [&](auto&& f) {
    try {
      f();
    } catch (const Error& err) {
      fail(err.what());
    }
  };
  std::optional<Format> flag;
  bool json_flag = false;
  if (format == "json") json_flag = true;
  else if (!format.empty()) guarded([&] { flag = parse_format(format); });
  if (!out.output.empty()) {
    guarded([&] {
      out.show.picture.format = format_for_output(flag, json_flag, out.output);
      out.show.json = json_flag;
      if (!out.show.picture.format && !out.show.json)
        throw Error("no format: give \"format\" or an output ending in .svg, .png, .pdf, .tex, .txt, .html or .json");
    });
  }
  if (!style.empty()) guarded([&] { out.show.picture.style = parse_style(style); });
  if (!color_by.empty())
    guarded([&] {
      parse_color_by(color_by);
      out.show.picture.color_by = color_by;
    });
  if (!out.show.picture.threads.empty()) guarded([&] { ThreadSet::parse(out.show.picture.threads); });
  if (e.contains("element_bits")) {
    const json& v = e["element_bits"];
    // Whole JSON integers only: 1.5, 1e300 (a double) and 99999999999 are refused, never truncated.
    if (!v.is_number_integer() ||
        (v.is_number_unsigned() ? v.get<uint64_t>() > 1024 : (v.get<int64_t>() < 1 || v.get<int64_t>() > 1024)))
      fail("'element_bits' must be a whole number from 1 to 1024, not " + v.dump());
    else out.show.picture.bank_element_bits = static_cast<int>(v.get<int64_t>());
  }
  auto number_field = [&](const char* key, double lo, double hi, bool open_lo, double& into) {
    if (!e.contains(key)) return;
    const json& v = e[key];
    const double d = v.is_number() ? v.get<double>() : 0;
    if (!v.is_number() || !std::isfinite(d) || d > hi || (open_lo ? d <= lo : d < lo))
      fail(std::string("'") + key + "' must be a number in " + (open_lo ? "(" : "[") +
           std::to_string(static_cast<int>(lo)) + ", " + std::to_string(static_cast<int>(hi)) + "], not " + v.dump());
    else into = d;
  };
  // "from" / "defines": the entry's --from and -D; the files' bytes join its stamp.
  SourceOptions sources;
  std::string source_bytes;
  for (auto [key, into] : {std::pair{"from", &sources.from}, std::pair{"defines", &sources.defines}}) {
    if (!e.contains(key)) continue;
    const json& v = e[key];
    const bool strings =
        v.is_string() || (v.is_array() && std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_string(); }));
    if (!strings) {
      fail(std::string("'") + key + "' must be a string or an array of strings, not " + v.dump().substr(0, 80));
      continue;
    }
    std::unordered_set<std::string> seen;   // ["k.hpp", "k.hpp", ...]: each file once
    std::vector<std::string>* list = into;  // (clang 14: a lambda cannot capture a structured binding)
    auto add = [&](std::string x) {
      if (seen.insert(x).second) list->push_back(std::move(x));
    };
    if (v.is_string()) add(v.get<std::string>());
    else
      for (const json& x : v) add(x.get<std::string>());
  }
  for (const std::string& f : sources.from) {
    const fs::path real = resolved(f);
    if (f == "-") fail("'from': - (standard input) is not for batch specs");
    else if (!opt.allow_outside && (!is_within(absolute_normal(f), ctx.root) || !is_within(real, ctx.root)))
      fail("'from' " + printable(f) + " is outside " + ctx.root.string() +
           " (--root DIR or --allow-outside permit it)");
  }
  if (!sources.empty() && errors.size() == before) {
    std::string key;
    for (const auto* list : {&sources.from, &sources.defines}) {
      for (const std::string& x : *list) key += std::to_string(x.size()) + ":" + x;
      key += "|";
    }
    auto [it, fresh] = ctx.sources.try_emplace(key);
    BatchContext::Loaded& loaded = it->second;
    if (fresh) {
      try {
        loaded.env = load_sources(sources);
        uint64_t h = fnv1a("");
        for (const std::string& f : sources.from) {
          std::string bytes;
          try_read_input_file(f, bytes);
          h = fnv1a(bytes + "\n", h);
        }
        loaded.hash = h;
      } catch (const Error& err) {
        loaded.error = err.what();
      }
    }
    if (!loaded.error.empty()) fail(loaded.error);
    out.show.env = loaded.env;
    out.env_lock = loaded.env_lock;
    source_bytes = hex(loaded.hash);
  }
  number_field("scale", 0, 16, true, out.show.picture.scale);
  number_field("cell", 2, 512, false, out.show.picture.cell);

  if (!out.output.empty()) {
    const fs::path rel = fs::path(out.output).lexically_normal();
    const bool outside = rel.is_absolute() || (!rel.empty() && *rel.begin() == "..");
    out.path = (fs::path(opt.output_dir) / rel).lexically_normal();
    // the path as written, and as the file system resolves it (a symbolic link in -C may lead out)
    const fs::path real = resolved(out.path);
    if ((outside || !is_within(real, ctx.out_dir)) && !opt.allow_outside)
      fail("output '" + printable(out.output) + "' is outside the output folder " + opt.output_dir +
           (outside ? "" : " (through a symbolic link)") + " (--allow-outside permits it)");
    else if (out.path.filename().empty() || out.output.back() == '/')
      fail("output '" + printable(out.output) + "' names a folder, not a file");
    else if (real.filename() == kStampFile || out.path.filename() == kStampFile)
      fail(std::string("output '") + printable(out.output) + "': " + kStampFile + " is the stamps file's name");
    for (const auto& part : real)
      if (part == ".git") {
        fail("output '" + printable(out.output) + "' is inside a .git folder");
        break;
      }
  }
  out.stamp = hex(fnv1a(e.dump() + "\n" + build_identity() + "\n" + source_bytes));
  out.valid = errors.size() == before;
  return out;
}

Output draw_entry(const Entry& e) {
  if (e.command == "layout") return run_layout(e.show);
  if (e.command == "tv") return run_tv(e.show, e.tile);
  if (e.command == "atom") return run_atom(e.show);
  if (e.command == "mma") return run_mma(e.show);
  return run_copy(e.show);
}

// The last run's stamps: output path (as in the spec) -> {entry hash, file hash}.
// The stamps file may not be a symbolic link or anything but a regular file (it is
// written by rename): a link planted in -C would send the stamps, or reading, elsewhere.
fs::path stamps_path(const std::string& dir) {
  const fs::path p = fs::path(dir.empty() ? "." : dir) / kStampFile;
  struct stat st {};
  if (::lstat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw Error("refusing to use the stamps file " + p.string() + ": it is " +
                (S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file") + " (remove it)");
  return p;
}

// Opened with O_NOFOLLOW (a link planted after stamps_path looked is refused, not read);
// a missing, special or oversized file is no stamps.
json read_stamps(const fs::path& path) {
  std::string text;
  try {
    text = read_input_file(path.string(), "the stamps file", 0, Links::kNever);
  } catch (const Error& e) {
    if (std::string_view(e.what()).ends_with(": a symbolic link; refused (remove it)")) throw;
    return json::object();
  }
  if (json_nesting_depth(text) > kMaxJsonDepth) return json::object();
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() ? j : json::object();
}

bool up_to_date(const json& stamps, const Entry& e) {
  auto it = stamps.find(e.output);
  if (it == stamps.end() || !it->is_object() || it->value("entry", "") != e.stamp) return false;
  std::string bytes;
  return try_read_input_file(e.path.string(), bytes) && it->value("file", "") == hex(fnv1a(bytes));
}

// -C must be a folder we can write into; a file there (or no permission) is an I/O failure.
void check_output_dir(const std::string& dir) {
  std::error_code ec;
  const fs::path d(dir.empty() ? "." : dir);
  if (fs::exists(d, ec) && !fs::is_directory(d, ec))
    throw Error("cannot write into " + dir + ": it is a file, not a folder");
  fs::create_directories(d, ec);
  if (ec) throw Error("cannot write into " + dir + ": " + ec.message());
  if (::access(d.c_str(), W_OK | X_OK) != 0) throw Error("cannot write into " + dir + ": " + std::strerror(errno));
}

}  // namespace

std::string batch_spec_help() {
  std::string s =
      "The spec is a JSON object {\"pictures\": [ENTRY, ...]} (schema: samples/batch.schema.json).  ENTRY keys:\n";
  for (const KeyInfo& k : kKeys)
    s += "  " + std::string(k.name) + std::string(14 - std::strlen(k.name), ' ') + k.meaning + "\n";
  s += "The whole spec is checked before anything is drawn; every error is listed with its entry's index and\n"
       "nothing is written (exit 2).  Pictures are drawn in parallel, then written atomically.  An entry whose\n"
       "inputs (the entry, the cutevis version and build) and file are unchanged since the last run is skipped (stamps "
       "in\n"
       "DIR/.cutevis-batch.json); --force redraws everything.  Outputs may not leave -C unless --allow-outside.";
  return s;
}

BatchResult run_batch(const std::string& spec_path, const std::string& output_dir) {
  BatchOptions o;
  o.spec_path = spec_path;
  o.output_dir = output_dir;
  return run_batch(o);
}

BatchResult run_batch(const BatchOptions& opt) {
  std::error_code ec;
  if (fs::is_directory(opt.spec_path, ec))
    throw Error("the batch spec " + opt.spec_path + " is a folder, not a JSON file");
  const std::string text = read_input_file(opt.spec_path, "the batch spec");
  if (json_nesting_depth(text) > kMaxJsonDepth)
    throw Error("batch spec " + opt.spec_path + ": JSON nested more than " + std::to_string(kMaxJsonDepth) +
                " deep (a spec needs 4)");
  json spec;
  try {
    spec = json::parse(text);
  } catch (const json::exception& e) {
    throw Error("batch spec " + opt.spec_path + " is not valid JSON: " + e.what());
  }
  if (!spec.is_object() || !spec.contains("pictures") || !spec["pictures"].is_array())
    throw Error("batch spec " + opt.spec_path + " needs a \"pictures\" array");
  std::vector<std::string> errors;
  for (const auto& [key, value] : spec.items())
    if (key != "pictures" && key != "$schema")
      errors.push_back("unknown top-level key '" + key + "' (only \"pictures\" and \"$schema\")");

  // 1. Check every entry, and that no two write the same file.
  BatchContext ctx;
  ctx.out_dir = resolved(opt.output_dir.empty() ? "." : opt.output_dir);
  ctx.root = opt.root.empty() ? repository_root(opt.spec_path == "-" ? "./-" : opt.spec_path) : resolved(opt.root);
  std::vector<Entry> entries;
  const json& pictures = spec["pictures"];
  for (size_t i = 0; i < pictures.size(); ++i) entries.push_back(check_entry(pictures[i], i, opt, ctx, errors));
  std::map<std::string, size_t> first_writer;
  for (const Entry& e : entries) {
    if (e.path.empty()) continue;
    auto [it, fresh] = first_writer.emplace(e.path.string(), e.index);
    if (!fresh)
      errors.push_back("pictures[" + std::to_string(e.index) + "]: output " + e.output +
                       " is also written by pictures[" + std::to_string(it->second) + "]");
  }
  auto report = [&] {
    std::string msg = "batch spec " + opt.spec_path + ": " + std::to_string(errors.size()) + " error" +
                      (errors.size() == 1 ? "" : "s") + ", nothing written";
    for (const std::string& e : errors) msg += "\n  " + e;
    throw Error(msg);
  };
  if (!errors.empty()) report();
  check_output_dir(opt.output_dir);

  // 2. Skip what is up to date; draw the rest in parallel, in memory.
  const fs::path stamps_file = stamps_path(opt.output_dir);
  const json old_stamps = read_stamps(stamps_file);
  const json none = json::object();
  const json& stamps = opt.force ? none : old_stamps;
  std::vector<const Entry*> todo;
  BatchResult result;
  for (const Entry& e : entries) {
    if (up_to_date(stamps, e)) result.skipped.push_back(e.path.string());
    else todo.push_back(&e);
  }
  register_catalogue_names();  // once, before the threads read the registry
  std::vector<Output> drawn(todo.size());
  std::vector<std::string> failures(todo.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next.fetch_add(1)) < todo.size();) {
      try {
        std::unique_lock<std::mutex> shared_env;
        if (todo[k]->env_lock) shared_env = std::unique_lock<std::mutex>(*todo[k]->env_lock);
        drawn[k] = draw_entry(*todo[k]);
      } catch (const std::exception& err) {
        failures[k] = todo[k]->where + ": " + err.what();
      }
    }
  };
  const unsigned hw = opt.jobs ? opt.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<size_t>(hw, todo.size()); ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  for (const std::string& f : failures)
    if (!f.empty()) errors.push_back(f);
  if (!errors.empty()) report();

  // 3. Write every file, then the stamps: the other entries' stamps (another spec sharing
  // -C) are kept, those of this spec's redrawn entries replaced.
  json new_stamps = old_stamps;
  for (size_t k = 0; k < todo.size(); ++k) {
    const Entry& e = *todo[k];
    std::error_code mk;
    fs::create_directories(e.path.parent_path().empty() ? fs::path(".") : e.path.parent_path(), mk);
    if (mk) throw Error("cannot write " + e.path.string() + ": " + mk.message());
    write_file_atomically(e.path.string(), drawn[k].bytes);
    result.written.push_back(e.path.string());
    new_stamps[e.output] = {{"entry", e.stamp}, {"file", hex(fnv1a(drawn[k].bytes))}};
  }
  if (!todo.empty() || new_stamps != old_stamps)
    replace_file_atomically(stamps_file.string(), new_stamps.dump(1) + "\n");
  return result;
}

}  // namespace cutevis

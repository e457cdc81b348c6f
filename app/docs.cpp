#include "app/docs.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>

#include "app/input_files.hpp"
#include "app/output.hpp"
#include "app/paths.hpp"
#include "lib/error.hpp"

#include <nlohmann/json.hpp>

namespace cutevis {

namespace fs = std::filesystem;

namespace {

bool is_fence(const std::string& line, std::string* info) {
  size_t i = line.find_first_not_of(' ');
  if (i == std::string::npos || i > 3 || line.compare(i, 3, "```") != 0) return false;
  if (info) {
    std::string rest = line.substr(i + 3);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.pop_back();
    *info = rest;
  }
  return true;
}

}  // namespace

std::vector<std::string> split_command_line(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word), word.clear(), in_word = false;
    } else if (c == '\'') {
      const size_t end = line.find('\'', i + 1);
      if (end == std::string::npos) throw Error("unterminated ' quote", static_cast<int64_t>(i));
      word += line.substr(i + 1, end - i - 1);
      i = end;
      in_word = true;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() && std::strchr("\"\\$`", line[j + 1])) ++j;
        word += line[j];
      }
      if (j >= line.size()) throw Error("unterminated \" quote", static_cast<int64_t>(i));
      i = j;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

std::vector<DocsCommand> docs_commands(const std::string& text, const std::string& markdown_path) {
  std::vector<DocsCommand> out;
  std::istringstream in(text);
  std::string line, info, pending;
  int number = 0, block_start = 0, pending_line = 0;
  bool in_block = false, ours = false;
  const fs::path base = fs::path(markdown_path).parent_path();
  auto where = [&](int n) { return markdown_path + ":" + std::to_string(n); };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (is_fence(line, &info)) {
      if (!in_block) {
        in_block = true;
        ours = info == "cutevis";
        block_start = number;
      } else if (info.empty()) {
        if (ours && !pending.empty()) throw Error(where(pending_line) + ": the command ends with a line continuation");
        in_block = ours = false;
      }
      continue;
    }
    if (!in_block || !ours) continue;
    std::string body = line;
    const size_t first = body.find_first_not_of(" \t");
    if (pending.empty() && (first == std::string::npos || body[first] == '#')) continue;
    if (pending.empty()) pending_line = number;
    if (!body.empty() && body.back() == '\\') {
      pending += body.substr(0, body.size() - 1) + " ";
      continue;
    }
    pending += body;
    DocsCommand cmd;
    cmd.markdown = markdown_path;
    cmd.line = pending_line;
    try {
      cmd.args = split_command_line(pending);
    } catch (const Error& e) {
      throw Error(where(pending_line) + ": " + e.what());
    }
    pending.clear();
    if (!cmd.args.empty() && cmd.args[0] == "cutevis") cmd.args.erase(cmd.args.begin());
    for (size_t i = 0; i < cmd.args.size(); ++i) {
      std::string value;
      const std::string& a = cmd.args[i];
      if ((a == "-o" || a == "--output") && i + 1 < cmd.args.size()) value = cmd.args[++i];
      else if (a.rfind("--output=", 0) == 0) value = a.substr(9);
      else if (a.rfind("-o", 0) == 0 || a.rfind("--o", 0) == 0 || a == "--output")
        throw Error(where(cmd.line) + ": write the output as -o PATH (not " + a.substr(0, 40) + ")");
      else continue;
      if (!cmd.output.empty()) throw Error(where(cmd.line) + ": more than one -o");
      cmd.output = value;
    }
    if (cmd.output.empty() || cmd.output == "-")
      throw Error(where(cmd.line) + ": a docs command writes a file: add -o PATH");
    cmd.path = (base / cmd.output).lexically_normal().string();
    out.push_back(std::move(cmd));
  }
  if (in_block && ours) throw Error(where(block_start) + ": the ```cutevis block is not closed");
  return out;
}

namespace {

uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}
std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// What a picture depends on: its command line, the --from files' bytes and the drawing
// code (this executable's size and time: a rebuilt cutevis redraws everything).
std::string entry_stamp(const DocsCommand& c) {
  static const std::string build = [] {
    struct stat st {};
    if (::stat("/proc/self/exe", &st) != 0) return std::string("?");
    return std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
  }();
  uint64_t h = fnv1a(build + "\n");
  for (size_t k = 0; k < c.args.size(); ++k) {
    h = fnv1a(c.args[k] + '\0', h);
    std::string from;
    if (c.args[k] == "--from" && k + 1 < c.args.size()) from = c.args[k + 1];
    else if (c.args[k].rfind("--from=", 0) == 0) from = c.args[k].substr(7);
    if (from.empty()) continue;
    std::string bytes;
    if (!try_read_input_file(from, bytes)) bytes = "\x01unreadable";
    h = fnv1a(bytes + '\0', h);
  }
  return hex(h);
}

// The first argument of a command docs runs: drawing and reading commands only.
bool allowed_command(const std::string& c) {
  static const char* ok[] = {"eval", "layout", "tv", "atom", "mma", "copy", "list", "names"};
  for (const char* k : ok)
    if (c == k) return true;
  return false;
}

}  // namespace

std::string contained_output(const fs::path& root, const fs::path& wanted, const std::vector<fs::path>& protect,
                             bool allow_outside) {
  const fs::path literal = absolute_normal(wanted);
  const fs::path real = resolved(wanted);
  auto refuse = [&](const std::string& why) -> std::string {
    throw Error("refusing to write " + wanted.string() + ": " + why);
  };
  if (!allow_outside && (!is_within(literal, root) || !is_within(real, root)))
    refuse(std::string(is_within(literal, root) ? "a symbolic link leads" : "it is") + " outside the repository " +
           root.string() + " (--root DIR or --allow-outside permit it)");
  for (const fs::path& p : {literal, real})
    for (const auto& part : p)
      if (part == ".git") refuse("it is inside a .git folder");
  for (const fs::path& m : protect)
    if (real == m) refuse("it is the Markdown file itself");
  struct stat st {};
  if (::stat(real.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) refuse("it exists and is not a regular file");
  return real.string();
}

std::string default_docs_cache() {
  if (const char* off = std::getenv("CUTEVIS_NO_CACHE"); off && *off) return "";
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/cutevis/docs-stamps.json";
  if (home && *home == '/') return std::string(home) + "/.cache/cutevis/docs-stamps.json";
  return "";
}

DocsResult run_docs(const DocsOptions& opt) {
  if (opt.files.empty()) throw Error("cutevis docs needs at least one Markdown file");
  if (!opt.runner) throw Error("cutevis docs: no command runner");
  std::vector<DocsCommand> commands;
  std::vector<fs::path> markdown_files;
  for (const std::string& f : opt.files) markdown_files.push_back(resolved(f));
  const fs::path given_root = opt.root.empty() ? fs::path() : resolved(opt.root);
  if (!opt.root.empty()) {
    std::error_code ec;
    if (!fs::is_directory(given_root, ec)) throw Error("--root " + opt.root + ": not a folder");
  }
  for (const std::string& f : opt.files) {
    const std::string text = read_input_file(f, "docs");
    const fs::path root = opt.root.empty() ? repository_root(f) : given_root;
    for (DocsCommand& c : docs_commands(text, f)) {
      const std::string at = c.markdown + ":" + std::to_string(c.line) + ": ";
      if (c.args.empty() || !allowed_command(c.args[0]))
        throw Error(at + "docs runs eval, layout, tv, atom, mma, copy, list and names, not '" +
                    (c.args.empty() ? std::string() : c.args[0].substr(0, 40)) + "'");
      try {
        c.target = contained_output(root, fs::path(c.path), markdown_files, opt.allow_outside);
      } catch (const Error& e) {
        throw Error(at + e.what());
      }
      for (size_t k = 0; k < c.args.size(); ++k) {
        std::string from;
        if (c.args[k] == "--from" && k + 1 < c.args.size()) from = c.args[k + 1];
        else if (c.args[k].rfind("--from=", 0) == 0) from = c.args[k].substr(7);
        else continue;
        if (from == "-") throw Error(at + "--from - (standard input) is not for docs blocks");
        const fs::path real = resolved(from);
        if (!opt.allow_outside && (!is_within(absolute_normal(from), root) || !is_within(real, root)))
          throw Error(at + "--from " + from.substr(0, 200) + " is outside the repository " + root.string() +
                      " (--root DIR or --allow-outside permit it)");
      }
      commands.push_back(std::move(c));
    }
  }
  for (size_t i = 0; i < commands.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (commands[i].target == commands[j].target)
        throw Error(commands[i].markdown + ":" + std::to_string(commands[i].line) + ": " + commands[i].output +
                    " is also written at " + commands[j].markdown + ":" + std::to_string(commands[j].line));

  // The stamps cache (outside the repository): a picture whose command, --from files and
  // cutevis build are those of the last time its file was seen current, and whose file
  // is unchanged, is current without drawing it.
  nlohmann::json cache = nlohmann::json::object();
  if (!opt.cache_file.empty()) {
    std::string text;
    if (try_read_input_file(opt.cache_file, text, size_t{4} << 20) && json_nesting_depth(text) <= kMaxJsonDepth) {
      cache = nlohmann::json::parse(text, nullptr, false);
      if (!cache.is_object()) cache = nlohmann::json::object();
    }
  }
  bool cache_changed = false;
  auto remember = [&](const DocsCommand& c, const std::string& stamp, const std::string& bytes) {
    nlohmann::json v = {{"entry", stamp}, {"file", hex(fnv1a(bytes))}};
    if (cache.value(c.target, nlohmann::json()) != v) cache[c.target] = v, cache_changed = true;
  };

  DocsResult result;
  int stale = 0, written = 0, current = 0;
  for (const DocsCommand& c : commands) {
    const std::string stamp = opt.cache_file.empty() ? std::string() : entry_stamp(c);
    std::string old;
    const bool old_ok = try_read_input_file(c.target, old);
    if (!stamp.empty() && old_ok) {
      auto it = cache.find(c.target);
      if (it != cache.end() && it->is_object() && it->value("entry", "") == stamp &&
          it->value("file", "") == hex(fnv1a(old))) {
        ++current;
        continue;
      }
    }
    std::string fresh, err;
    const int status = opt.runner(c.args, fresh, err);
    if (status != 0) {
      while (!err.empty() && err.back() == '\n') err.pop_back();
      throw Error(c.markdown + ":" + std::to_string(c.line) + ": cutevis " + c.args[0] + " ... exited " +
                  std::to_string(status) + (err.empty() ? std::string() : ":\n" + err));
    }
    if (old_ok && old == fresh) {
      ++current;
      if (!stamp.empty()) remember(c, stamp, fresh);
      continue;
    }
    const std::string state = old_ok ? "stale" : "missing";
    if (opt.check) {
      ++stale;
      result.report += state + ": " + c.path + " (" + c.markdown + ":" + std::to_string(c.line) + ")\n";
    } else {
      write_file_atomically(c.target, fresh);  // creates the parent folders (inside the root, checked above)
      if (!stamp.empty()) remember(c, stamp, fresh);
      ++written;
      result.report += "wrote " + c.path + " (was " + state + ")\n";
    }
  }
  if (cache_changed) {
    try {
      write_file_atomically(opt.cache_file, cache.dump(1) + "\n");
    } catch (const Error&) {  // a cache that cannot be written is no cache
    }
  }
  if (opt.check) {
    result.report += "cutevis docs --check: " + std::to_string(commands.size()) + " pictures, " +
                     std::to_string(current) + " up to date, " + std::to_string(stale) + " stale or missing" +
                     (stale ? " (run cutevis docs to redraw them)" : "") + "\n";
    result.exit_code = stale ? 1 : 0;
  } else {
    result.report += "cutevis docs: " + std::to_string(commands.size()) + " pictures, " + std::to_string(written) +
                     " written, " + std::to_string(current) + " up to date\n";
  }
  return result;
}

}  // namespace cutevis

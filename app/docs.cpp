#include "app/docs.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/output.hpp"
#include "lib/error.hpp"

extern char** environ;

namespace cutevis {

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

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

// A temporary folder removed when it goes out of scope.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "cutevis-docs-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw Error(std::string("cannot write a temporary folder: ") + std::strerror(errno));
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Runs `binary args...` with stderr captured; returns its exit status and stderr.
int run(const std::string& binary, const std::vector<std::string>& args, const fs::path& err_file, std::string& err) {
  std::vector<char*> argv;
  std::string argv0 = "cutevis";
  argv.push_back(argv0.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error("cannot run " + binary + ": " + std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  bool ok = false;
  err = slurp(err_file, ok);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
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
      if ((cmd.args[i] == "-o" || cmd.args[i] == "--output") && i + 1 < cmd.args.size()) value = cmd.args[i + 1];
      else if (cmd.args[i].rfind("--output=", 0) == 0) value = cmd.args[i].substr(9);
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

DocsResult run_docs(const DocsOptions& opt) {
  if (opt.files.empty()) throw Error("cutevis docs needs at least one Markdown file");
  std::vector<DocsCommand> commands;
  for (const std::string& f : opt.files) {
    std::error_code ec;
    if (fs::is_directory(f, ec)) throw Error(f + " is a folder, not a Markdown file");
    bool ok = false;
    const std::string text = slurp(f, ok);
    if (!ok) throw Error("cannot read " + f + ": " + std::strerror(errno));
    for (DocsCommand& c : docs_commands(text, f)) commands.push_back(std::move(c));
  }
  for (size_t i = 0; i < commands.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (commands[i].path == commands[j].path)
        throw Error(commands[i].markdown + ":" + std::to_string(commands[i].line) + ": " + commands[i].output +
                    " is also written at " + commands[j].markdown + ":" + std::to_string(commands[j].line));

  const std::string binary = opt.cutevis.empty() ? fs::read_symlink("/proc/self/exe").string() : opt.cutevis;
  TempDir tmp;
  DocsResult result;
  int stale = 0, written = 0, current = 0;
  for (size_t i = 0; i < commands.size(); ++i) {
    const DocsCommand& c = commands[i];
    const fs::path out_name = tmp.path / (std::to_string(i) + fs::path(c.output).extension().string());
    std::vector<std::string> args = c.args;
    for (size_t k = 0; k < args.size(); ++k) {
      if ((args[k] == "-o" || args[k] == "--output") && k + 1 < args.size()) args[k + 1] = out_name.string();
      else if (args[k].rfind("--output=", 0) == 0) args[k] = "--output=" + out_name.string();
    }
    std::string err;
    const int status = run(binary, args, tmp.path / "stderr", err);
    if (status != 0) {
      while (!err.empty() && err.back() == '\n') err.pop_back();
      throw Error(c.markdown + ":" + std::to_string(c.line) + ": cutevis " + (args.empty() ? "" : args[0]) +
                  " ... exited " + std::to_string(status) + (err.empty() ? std::string() : ":\n" + err));
    }
    bool fresh_ok = false, old_ok = false;
    const std::string fresh = slurp(out_name, fresh_ok);
    if (!fresh_ok) throw Error(c.markdown + ":" + std::to_string(c.line) + ": the command wrote no file");
    const std::string old = slurp(c.path, old_ok);
    if (old_ok && old == fresh) {
      ++current;
      continue;
    }
    const std::string state = old_ok ? "stale" : "missing";
    if (opt.check) {
      ++stale;
      result.report += state + ": " + c.path + " (" + c.markdown + ":" + std::to_string(c.line) + ")\n";
    } else {
      std::error_code ec;
      const fs::path parent = fs::path(c.path).parent_path();
      if (!parent.empty()) fs::create_directories(parent, ec);
      if (ec) throw Error("cannot write " + c.path + ": " + ec.message());
      write_file_atomically(c.path, fresh);
      ++written;
      result.report += "wrote " + c.path + " (was " + state + ")\n";
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

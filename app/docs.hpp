// cutevis — `cutevis docs FILE.md...`: the pictures a Markdown file documents itself with.
//
// Every fenced block whose info string is `cutevis` holds command lines, one per line,
// without the word cutevis (a trailing backslash continues a line; # starts a
// comment).  Each line must write a file with -o PATH, relative to the Markdown
// file's folder:
//
//   ```cutevis
//   atom SM70_8x8x4_F32F16F16F32_NT -o samples/sm70_8x8x4_nt.png
//   ```
//
// Each command is run in this same process (DocsOptions::runner, the CLI), its output
// kept in memory and compared with PATH byte for byte: docs writes the files that are
// missing or differ; docs --check writes nothing and lists them (exit 1), the CI gate
// that keeps pictures in step with the code and the text.
//
// Containment (Markdown from a pull request is a stranger's): every PATH must stay
// inside the repository root (the nearest folder above the Markdown file holding .git,
// or --root DIR) after every symbolic link is resolved; nothing under .git/, never the
// Markdown file itself, never an existing non-regular file; --from files must lie below
// the root too (and never "-").  Only eval, layout, tv, atom, mma, copy, list and names
// run.  --allow-outside lifts the root check only.  A refusal is exit 2, nothing written.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cutevis {

struct DocsCommand {
  std::string markdown;           // the file it came from
  int line = 0;                   // 1-based line of the command in that file
  std::vector<std::string> args;  // the command line, split as a shell would
  std::string output;             // the -o path, as written
  std::string path;               // the -o path, resolved against the Markdown file's folder
  std::string target;             // `path` with its symbolic links resolved, checked (run_docs)
};

// The commands of every ```cutevis block of `markdown_text`; throws Error naming the
// line for a line without -o, an unterminated quote or an unterminated block.
std::vector<DocsCommand> docs_commands(const std::string& markdown_text, const std::string& markdown_path);

// Splits a command line as a POSIX shell would for words: 'single', "double" (with \" \\ \$ \`) and \x.
std::vector<std::string> split_command_line(const std::string& line);

// Runs one command line (without the word cutevis) and returns its exit code; the bytes
// it would have written to its -o file go to `output`, its messages to `errors`.
using DocsRunner = std::function<int(const std::vector<std::string>& args, std::string& output, std::string& errors)>;

struct DocsOptions {
  std::vector<std::string> files;
  bool check = false;
  std::string root;            // --root DIR: the folder outputs must stay in (default: the repository)
  bool allow_outside = false;  // --allow-outside: outputs and --from may leave the root
  DocsRunner runner;           // the CLI, in process (app/main.cpp)
  std::string cache_file;      // stamps of pictures seen current ("": none; see default_docs_cache)
};

// $XDG_CACHE_HOME/cutevis/docs-stamps.json (else ~/.cache/...); "" when CUTEVIS_NO_CACHE is
// set.  Outside the repository: `docs --check` writes nothing there.  A picture whose
// command line, --from files and cutevis build (the executable's size and time) match
// the stamp recorded when its file was last seen current, and whose file's hash is
// unchanged, is current without drawing.
std::string default_docs_cache();

// `wanted` checked as docs checks every -o (see above) and resolved; throws Error "refusing to write ...".
// `protect`: files never written (the Markdown files, resolved).
std::string contained_output(const std::filesystem::path& root, const std::filesystem::path& wanted,
                             const std::vector<std::filesystem::path>& protect, bool allow_outside);

struct DocsResult {
  int exit_code = 0;   // 0 ok; 1 --check found stale or missing pictures
  std::string report;  // one line per picture written or out of date, then a summary
};

// Throws Error (exit 2) for a bad block or a command that fails (with its message).
DocsResult run_docs(const DocsOptions& options);

}  // namespace cutevis

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
// Each command is run by this same binary into a temporary file and compared with
// PATH byte for byte: docs writes the files that are missing or differ; docs --check
// writes nothing and lists them (exit 1), the CI gate that keeps pictures in step
// with the code and the text.
#pragma once

#include <string>
#include <vector>

namespace cutevis {

struct DocsCommand {
  std::string markdown;           // the file it came from
  int line = 0;                   // 1-based line of the command in that file
  std::vector<std::string> args;  // the command line, split as a shell would
  std::string output;             // the -o path, as written
  std::string path;               // the -o path, resolved against the Markdown file's folder
};

// The commands of every ```cutevis block of `markdown_text`; throws Error naming the
// line for a line without -o, an unterminated quote or an unterminated block.
std::vector<DocsCommand> docs_commands(const std::string& markdown_text, const std::string& markdown_path);

// Splits a command line as a POSIX shell would for words: 'single', "double" (with \" \\ \$ \`) and \x.
std::vector<std::string> split_command_line(const std::string& line);

struct DocsOptions {
  std::vector<std::string> files;
  bool check = false;
  std::string cutevis;  // the binary that draws (default: this process, /proc/self/exe)
};

struct DocsResult {
  int exit_code = 0;   // 0 ok; 1 --check found stale or missing pictures
  std::string report;  // one line per picture written or out of date, then a summary
};

// Throws Error (exit 2) for a bad block or a command that fails (with its message).
DocsResult run_docs(const DocsOptions& options);

}  // namespace cutevis

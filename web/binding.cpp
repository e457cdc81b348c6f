// The page's one entry into the engine: argv as the CLI takes it (the words without the
// word cutevis, each ended by a NUL byte) -> the exit code, and the bytes the CLI would have
// written to stdout and stderr.  web/cli_main.cpp is app/main.cpp under another name.
//
//   cutevis_run("eval\0composition((4,8):(1,4),(2,2):(1,2))\0", 44) -> 0
//   cutevis_stdout() -> "(2,2):(1,2)\n"
//
// A file the command reads with --from is written first with cutevis_file(path, text)
// (emscripten's in-memory file system).  No JSON here: the words need no parser, and
// nlohmann_json's parser is otherwise not linked (the app only writes JSON).
//
// stdout and stderr are redirected to files of emscripten's in-memory file system for
// the call, so output is byte for byte what the native CLI prints.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int cli_main_reused(int argc, char** argv);  // app/main.cpp: one parser for every request

namespace {

constexpr const char* kStdoutPath = "/tmp/cutevis.stdout";
constexpr const char* kStderrPath = "/tmp/cutevis.stderr";
constexpr int kExitIoError = 4;  // app/exit_codes.hpp

std::string captured_stdout, captured_stderr;

std::string slurp(const char* path) {  // in one read: a stream's rdbuf() copies byte by byte
  std::string bytes;
  if (std::FILE* f = std::fopen(path, "rb")) {
    std::fseek(f, 0, SEEK_END);
    bytes.resize(static_cast<size_t>(std::max(0L, std::ftell(f))));
    std::fseek(f, 0, SEEK_SET);
    bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
    std::fclose(f);
  }
  return bytes;
}

}  // namespace

extern "C" {

// Writes TEXT to PATH (its folders made): 0, or 4 with the error as cutevis_stderr() says it.
int cutevis_file(const char* path, const char* text) {
  const std::string p = path;
  for (size_t slash = p.find('/', 1); slash != std::string::npos; slash = p.find('/', slash + 1))
    mkdir(p.substr(0, slash).c_str(), 0755);  // (an existing folder: EEXIST, fine)
  const size_t n = std::char_traits<char>::length(text);
  std::FILE* f = std::fopen(path, "wb");
  bool ok = f && std::fwrite(text, 1, n, f) == n;
  if (f) ok = std::fclose(f) == 0 && ok;
  if (ok) return 0;
  captured_stdout.clear();
  captured_stderr = "cutevis: error: cannot write " + p + "\n";
  return kExitIoError;
}

// Runs one command: WORDS holds SIZE bytes, the argv words each ended by a NUL byte (so that
// an empty last word is a word); its output is read with cutevis_stdout() / cutevis_stderr().
int cutevis_run(const char* words, size_t size) {
  if (!std::freopen(kStdoutPath, "w", stdout) || !std::freopen(kStderrPath, "w", stderr)) return kExitIoError;
  std::vector<std::string> storage{"cutevis"};
  for (size_t at = 0; at < size;) {
    const size_t end = std::find(words + at, words + size, '\0') - words;
    storage.emplace_back(words + at, end - at);
    at = end + 1;
  }
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  int code = 2;  // kExitBadInput
  try {
    code = cli_main_reused(static_cast<int>(storage.size()), argv.data());
  } catch (const std::exception& e) {  // what the CLI would not catch either (e.g. out of memory)
    std::fputs((std::string("cutevis: error: ") + e.what() + "\n").c_str(), stderr);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  captured_stdout = slurp(kStdoutPath);
  captured_stderr = slurp(kStderrPath);
  return code;
}

const char* cutevis_stdout() { return captured_stdout.c_str(); }
const char* cutevis_stderr() { return captured_stderr.c_str(); }
size_t cutevis_stdout_size() { return captured_stdout.size(); }

}  // extern "C"

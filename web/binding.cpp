// The page's one entry into the engine: argv as the CLI takes it (a JSON array of
// strings, without the word cutevis) -> the exit code, and the bytes the CLI would have
// written to stdout and stderr.  web/cli_main.cpp is app/main.cpp under another name.
//
//   cutevis_run('["eval","composition((4,8):(1,4),(2,2):(1,2))"]') -> 0
//   cutevis_stdout() -> "(2,2):(1,2)\n"
//
// A request may also be {"argv": [...], "files": {"/input/kernel.hpp": "..."}}: the files
// are written first (emscripten's in-memory file system), for --from.
//
// stdout and stderr are redirected to files of emscripten's in-memory file system for
// the call, so output is byte for byte what the native CLI prints.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

int cli_main_reused(int argc, char** argv);  // app/main.cpp: one parser for every request

namespace {

constexpr const char* kStdoutPath = "/tmp/cutevis.stdout";
constexpr const char* kStderrPath = "/tmp/cutevis.stderr";

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

// Writes the request's files; false (and a line on stderr) when one cannot be written.
bool write_files(const nlohmann::json& files) {
  for (const auto& [path, text] : files.items()) {
    std::string dir = path.substr(0, path.rfind('/'));
    if (!dir.empty()) std::filesystem::create_directories(dir);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text.get<std::string>();
    if (!out) {
      std::fprintf(stderr, "cutevis: error: cannot write %s\n", path.c_str());
      return false;
    }
  }
  return true;
}

int run(const std::vector<std::string>& args) {
  std::vector<std::string> storage{"cutevis"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  return cli_main_reused(static_cast<int>(storage.size()), argv.data());
}

}  // namespace

extern "C" {

// Runs one command; its output is read with cutevis_stdout() / cutevis_stderr().
int cutevis_run(const char* request) {
  if (!std::freopen(kStdoutPath, "w", stdout) || !std::freopen(kStderrPath, "w", stderr)) return 4;
  int code = 2;
  try {
    nlohmann::json r = nlohmann::json::parse(request);
    if (r.is_array()) code = run(r.get<std::vector<std::string>>());
    else
      code = write_files(r.value("files", nlohmann::json::object())) ? run(r.at("argv").get<std::vector<std::string>>())
                                                                     : 4;  // kExitIoError
  } catch (const std::exception& e) {  // a malformed request: the page's bug, said like the CLI says it
    std::fprintf(stderr, "cutevis: error: bad request from the page: %s\n", e.what());
  }
  std::cout.flush();  // CLI11's --help writes through std::cout
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

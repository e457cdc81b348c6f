// Access to ../shared/reference (CuTe's own answers) for golden tests.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutevis::test {

inline std::string reference_dir() {
  if (const char* env = std::getenv("CUTEVIS_REFERENCE_DIR")) return env;
  return CUTEVIS_REFERENCE_DIR;
}

// Every row of a .jsonl file under the reference directory; empty if missing.
inline std::vector<nlohmann::json> read_jsonl(const std::string& name) {
  std::vector<nlohmann::json> rows;
  std::ifstream in(reference_dir() + "/" + name);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace cutevis::test

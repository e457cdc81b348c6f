// Access to what real CuTe printed (tests/data/reference, described in tests/data/README.md) for
// golden tests. CUTEVIS_REFERENCE_DIR (CMake cache or environment) points them elsewhere.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutevis::test {

inline std::string reference_dir() {
  if (const char* env = std::getenv("CUTEVIS_REFERENCE_DIR")) return env;
  return CUTEVIS_REFERENCE_DIR;
}

// Every row of a .jsonl file under the reference directory. The data is part of the tree, so a
// missing file fails the test that reads it (an exception doctest reports), never skips it.
inline std::vector<nlohmann::json> read_jsonl(const std::string& name) {
  std::vector<nlohmann::json> rows;
  std::ifstream in(reference_dir() + "/" + name);
  if (!in) throw std::runtime_error("reference data missing: " + reference_dir() + "/" + name);
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

// A real-CuTe oracle kept as `key<TAB>value` lines (tests/data/kernels/*_oracle.tsv: outputs only; `#` lines say
// what produced them), read into a map.
#pragma once

#include <fstream>
#include <map>
#include <string>

namespace cutevis::test {

// The oracle at PATH, relative to the source tree.
inline std::map<std::string, std::string> tsv_oracle(const std::string& path) {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/" + path);
  std::map<std::string, std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

}  // namespace cutevis::test

// A scratch folder for one test, removed with everything in it at the end of the test.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace cutevis::test {

struct Scratch {
  std::filesystem::path dir;
  explicit Scratch(const std::string& tag = "cutevis") {
    static int n = 0;
    dir = std::filesystem::temp_directory_path() / (tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;  // a test may have made a folder read-only: give it back first
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  // Write `text` to NAME in the folder; its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

}  // namespace cutevis::test

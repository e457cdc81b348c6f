// app/path_text: the string paths includes and output use, against std::filesystem's own answers
// on every short path of a few names, and on a folder with files and links.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/path_text.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

// Every path of up to `length` pieces from a small alphabet of names and separators.
std::vector<std::string> short_paths(size_t length) {
  const std::vector<std::string> pieces = {"a", "bc", ".", "..", "/", "//"};
  std::vector<std::string> out = {""}, last = {""};
  for (size_t n = 0; n < length; ++n) {
    std::vector<std::string> next;
    for (const std::string& p : last)
      for (const std::string& piece : pieces) next.push_back(p + piece);
    out.insert(out.end(), next.begin(), next.end());
    last = std::move(next);
  }
  return out;
}

struct Folder {  // a fresh folder, removed at the end
  fs::path root;
  Folder() {
    static int counter = 0;
    root = fs::temp_directory_path() /
           ("cutevis_path_text_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string operator/(const std::string& name) const { return (root / name).string(); }
};

}  // namespace

TEST_CASE("path_join, path_parent and path_normal answer as std::filesystem::path does") {
  const std::vector<std::string> paths = short_paths(5);  // 9,331 paths
  size_t checked = 0;
  for (const std::string& p : paths) {
    CAPTURE(p);
    CHECK(path_parent(p) == fs::path(p).parent_path().string());
    CHECK(path_normal(p) == fs::path(p).lexically_normal().string());
    CHECK(path_is_absolute(p) == fs::path(p).is_absolute());
    ++checked;
  }
  CHECK(checked == paths.size());
  const std::vector<std::string> some = short_paths(3);
  for (const std::string& a : some)
    for (const std::string& b : some) {
      CAPTURE(a);
      CAPTURE(b);
      CHECK(path_join(a, b) == (fs::path(a) / fs::path(b)).string());
    }
  // the cases that are easy to get wrong, spelled out
  CHECK(path_normal("a/b/..") == "a/");
  CHECK(path_normal("a/..") == ".");
  CHECK(path_normal("../a/..") == "..");
  CHECK(path_normal("/../a") == "/a");
  CHECK(path_normal("a/./") == "a/");
  CHECK(path_parent("/a") == "/");
  CHECK(path_parent("a/b/") == "a/b");
  CHECK(path_parent("a") == "");
}

TEST_CASE("files, folders, links and absolute paths answer as std::filesystem does") {
  Folder f;
  std::ofstream(f / "file.txt") << "x";
  fs::create_directories(f.root / "dir" / "sub");
  fs::create_symlink("file.txt", f.root / "link");
  fs::create_symlink(f / "dir", f.root / "dirlink");
  fs::create_symlink("missing.txt", f.root / "dangling");
  for (const std::string name : {"file.txt", "dir", "dir/sub", "link", "dirlink", "dangling", "none", "dir/../file.txt",
                                 "dirlink/sub/../../link"}) {
    CAPTURE(name);
    const std::string p = f / name;
    std::error_code ec;
    CHECK(is_regular_file(p) == fs::is_regular_file(p, ec));
    CHECK(is_directory(p) == fs::is_directory(p, ec));
    if (fs::exists(p, ec)) CHECK(real_path_or_same(p) == fs::weakly_canonical(p).string());
    std::string target;
    const bool is_link = fs::is_symlink(fs::symlink_status(p, ec));
    CHECK(read_symlink(p, target) == is_link);
    if (is_link) CHECK(target == fs::read_symlink(p).string());
  }
  CHECK(real_path_or_same(f / "none") == f / "none");
  std::string target;
  errno = 0;
  CHECK_FALSE(read_symlink(f / "file.txt", target));
  CHECK(errno == EINVAL);  // not a link
  CHECK(absolute_path("x/y") == (fs::current_path() / "x/y").string());
  CHECK(absolute_path("/x/y") == "/x/y");
}

TEST_CASE("make_directories makes every missing folder, and says why it cannot") {
  Folder f;
  CHECK(make_directories(f / "a/b//c/") == 0);
  CHECK(fs::is_directory(f.root / "a/b/c"));
  CHECK(make_directories(f / "a/b") == 0);  // already there
  CHECK(make_directories(f / "a/./b/../b/d") == 0);
  CHECK(fs::is_directory(f.root / "a/b/d"));
  std::ofstream(f / "plain") << "x";
  CHECK(make_directories(f / "plain/sub") == ENOTDIR);  // a file in the way
  CHECK(make_directories(f / "plain") == ENOTDIR);
  CHECK(make_directories("/") == 0);
  CHECK(make_directories(".") == 0);
  if (::geteuid() != 0) {  // (root may write anywhere)
    fs::create_directories(f.root / "locked");
    ::chmod((f / "locked").c_str(), 0555);
    CHECK(make_directories(f / "locked/new") == EACCES);
    ::chmod((f / "locked").c_str(), 0755);
  }
}

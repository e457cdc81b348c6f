// libFuzzer: a Markdown file as `cutevis docs FILE.md --check` reads it, from a stranger's
// pull request.  The file lies in a private folder that holds .git (the repository
// root).  Every command's -o goes through the containment check; an output it accepts
// that lies outside the root, under .git or on the Markdown file is a bug (abort).
// Blocks are not drawn (the expression harnesses do that): the runner echoes the
// command line, so --check compares, and nothing is ever written.  Only cutevis::Error
// may come out.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/docs.hpp"
#include "lib/error.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

bool inside(const fs::path& p, const fs::path& root) {
  auto i = p.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++i)
    if (i == p.end() || *i != *r) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path root = [] {
    const fs::path d = fs::temp_directory_path() / ("cutevis-fuzz-docs-" + std::to_string(::getpid()));
    fs::create_directories(d / ".git");
    fs::create_directories(d / "pics");
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(fs::temp_directory_path() / ("cutevis-fuzz-docs-" + std::to_string(::getpid())), ec);
    });
    return fs::canonical(d);
  }();
  const fs::path md = root / "README.md";
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    std::ofstream f(md, std::ios::binary | std::ios::trunc);
    f << text;
  }
  try {
    for (const DocsCommand& c : docs_commands(text, md.string())) {
      std::string target;
      try {
        target = contained_output(root, fs::path(c.path), {md}, false);
      } catch (const Error&) {
        continue;  // refused: fine
      }
      const fs::path t(target);
      bool git = false;
      for (const auto& part : t) git |= part == ".git";
      if (!inside(t, root) || git || t == md) std::abort();  // containment broken
    }
  } catch (const Error&) {
  }
  DocsOptions o;
  o.files = {md.string()};
  o.check = true;
  o.runner = [](const std::vector<std::string>& args, std::string& out, std::string&) {
    for (const std::string& a : args) out += a + '\n';
    return 0;
  };
  try {
    run_docs(o);
  } catch (const Error&) {
  }
  return 0;
}

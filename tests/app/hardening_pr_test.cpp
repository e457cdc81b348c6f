// issue 23 ("safe to run on a pull request"): the security review's cases, each as a
// test.  docs/batch on a stranger's Markdown or spec: nothing written outside the root,
// no crash, bounded time and memory, one-line errors.  Through the binary.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "app/diagnostics.hpp"
#include "app/exit_codes.hpp"
#include "app/input_files.hpp"
#include "app/output.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

// A fresh folder that looks like a repository (it holds .git), with a Markdown file.
struct Repo {
  fs::path dir, outside;
  explicit Repo(const std::string& name) {
    const std::string tag = std::to_string(::getpid()) + "_" + name;
    dir = fs::temp_directory_path() / ("cutevis_pr_" + tag);
    outside = fs::temp_directory_path() / ("cutevis_pr_out_" + tag);
    fs::remove_all(dir);
    fs::remove_all(outside);
    fs::create_directories(dir / ".git");
    fs::create_directories(outside);
    write(".git/config", "[core]\n");
  }
  ~Repo() {
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::remove_all(outside, ec);
  }
  std::string write(const std::string& rel, const std::string& text) const {
    const fs::path p = dir / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string md(const std::string& block) const {
    return write("README.md", "# t\n\n```cutevis\n" + block + "\n```\n");
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int shell(const std::string& cmd) {
  int status = std::system(("bash -c " + test::shell_quote(cmd)).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string bin() { return test::shell_quote(test::cutevis_binary()); }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool one_line_error(const test::RunResult& r) {
  return r.err.rfind("cutevis: error: ", 0) == 0 && r.err.find('\n') == r.err.size() - 1;
}

// Whether `s` is valid UTF-8 without control characters other than \n, \r and \t.
bool clean_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
    if (c == 0x7f) return false;
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

const char* kLayout = "layout '(4,8):(1,4)'";

}  // namespace

// --- 1. containment -------------------------------------------------------------------------

TEST_CASE("issue 23.1: docs refuses every -o that leaves the repository, enters .git or names the Markdown file") {
  Repo r("escape");
  const std::string outside_abs = (r.outside / "abs.svg").string();
  for (const std::string& o : {std::string("-o ../x.svg"), "-o " + outside_abs, std::string("--output=../y.svg"),
                               std::string("-o README.md"), std::string("-o .git/config"),
                               std::string("-o pics/../../z.svg"), std::string("-o .git/hooks/pre-commit.svg")}) {
    CAPTURE(o);
    const std::string md = r.md(std::string(kLayout) + " " + o);
    const std::string before = slurp(md);
    auto res = test::run_cutevis({"docs", md});
    CHECK(res.exit_code == kExitBadInput);
    CHECK(res.err.find("refusing to write") != std::string::npos);
    CHECK(slurp(md) == before);
    CHECK(slurp(r.dir / ".git/config") == "[core]\n");
    CHECK(!fs::exists(r.dir.parent_path() / "x.svg"));
    CHECK(!fs::exists(r.dir.parent_path() / "y.svg"));
    CHECK(!fs::exists(r.outside / "abs.svg"));
  }
  // inside is fine, and --root / --allow-outside are explicit
  auto ok = test::run_cutevis({"docs", r.md(std::string(kLayout) + " -o pics/in.svg")});
  CHECK(ok.exit_code == kExitOk);
  CHECK(fs::exists(r.dir / "pics/in.svg"));
  const std::string md = r.md(std::string(kLayout) + " -o " + outside_abs);
  CHECK(test::run_cutevis({"docs", md, "--allow-outside"}).exit_code == kExitOk);
  CHECK(fs::exists(r.outside / "abs.svg"));
}

TEST_CASE("issue 23.1: a symbolic link inside the repository that leads out is refused (docs and batch)") {
  Repo r("symlink");
  fs::create_directory_symlink(r.outside, r.dir / "link");
  auto res = test::run_cutevis({"docs", r.md(std::string(kLayout) + " -o link/x.svg")});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("symbolic link") != std::string::npos);
  CHECK(!fs::exists(r.outside / "x.svg"));
  // an output file that is a link leading out
  fs::create_symlink(r.outside / "victim.svg", r.dir / "v.svg");
  CHECK(test::run_cutevis({"docs", r.md(std::string(kLayout) + " -o v.svg")}).exit_code == kExitBadInput);
  CHECK(!fs::exists(r.outside / "victim.svg"));

  // batch: -C holds a link leading out
  fs::create_directories(r.dir / "out");
  fs::create_directory_symlink(r.outside, r.dir / "out/link");
  const std::string spec = r.write(
      "spec.json", R"J({"pictures": [{"command": "layout", "input": "(4,8):(1,4)", "output": "link/x.svg"}]})J");
  res = test::run_cutevis({"batch", spec, "-C", (r.dir / "out").string()});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("outside the output folder") != std::string::npos);
  CHECK(!fs::exists(r.outside / "x.svg"));
  // a stamps file that is a link is refused, never followed
  fs::create_symlink(r.outside / "stamps.json", r.dir / "out/.cutevis-batch.json");
  const std::string good =
      r.write("good.json", R"J({"pictures": [{"command": "layout", "input": "(4,8):(1,4)", "output": "a.svg"}]})J");
  res = test::run_cutevis({"batch", good, "-C", (r.dir / "out").string()});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("symbolic link") != std::string::npos);
  CHECK(!fs::exists(r.outside / "stamps.json"));
}

TEST_CASE("issue 23.1: --from in docs and batch only below the root; docs runs drawing commands only") {
  Repo r("from");
  std::ofstream(r.outside / "secret.hpp") << "using Secret = Layout<Shape<_4>>;\n";
  const std::string secret = (r.outside / "secret.hpp").string();
  auto res = test::run_cutevis({"docs", r.md("eval --from " + secret + " 'Secret{}' -o a.txt")});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("outside the repository") != std::string::npos);
  CHECK(!fs::exists(r.dir / "a.txt"));
  CHECK(test::run_cutevis({"docs", r.md("eval --from - '1' -o a.txt")}).exit_code == kExitBadInput);
  for (const char* cmd : {"docs README.md -o a.txt", "batch spec.json -o a.txt", "verify X -o a.txt"})
    CHECK(test::run_cutevis({"docs", r.md(cmd)}).exit_code == kExitBadInput);
  const std::string spec = r.write(
      "spec.json", R"J({"pictures": [{"command": "layout", "input": "Secret{}", "output": "a.svg", "from": ")J" +
                       secret + R"J("}]})J");
  res = test::run_cutevis({"batch", spec, "-C", (r.dir / "out").string()});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("is outside") != std::string::npos);
  CHECK(!fs::exists(r.dir / "out/a.svg"));
}

TEST_CASE("issue 23.1: outputs are never executable") {
  Repo r("mode");
  const fs::path exe = r.dir / "tool.svg";
  std::ofstream(exe) << "#!/bin/sh\necho hi\n";
  fs::permissions(exe, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  CHECK(test::run_cutevis({"layout", "(4,8):(1,4)", "-o", exe.string()}).exit_code == kExitOk);
  struct stat st {};
  REQUIRE(::stat(exe.c_str(), &st) == 0);
  CHECK((st.st_mode & 0111) == 0);
  CHECK(test::run_cutevis({"layout", "(4,8):(1,4)", "-o", (r.dir / "new.svg").string()}).exit_code == kExitOk);
  REQUIRE(::stat((r.dir / "new.svg").c_str(), &st) == 0);
  CHECK((st.st_mode & 0111) == 0);
  CHECK((st.st_mode & 0022) == 0);  // 0644 at most
}

// --- 2. bounds ------------------------------------------------------------------------------

TEST_CASE("issue 23.2: devices, FIFOs, /proc files and folders are refused by type, quickly") {
  Repo r("types");
  const std::string fifo = (r.dir / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string spec =
      r.write("spec.json", R"J({"pictures": [{"command": "layout", "input": "(4,8):(1,4)", "output": "a.svg"}]})J");
  for (const std::string& path : {std::string("/dev/zero"), fifo, std::string("/proc/self/maps"), r.dir.string()}) {
    CAPTURE(path);
    const auto t0 = std::chrono::steady_clock::now();
    auto from = test::run_cutevis({"eval", "--from", path, "1"});
    CHECK(from.exit_code == kExitBadInput);
    CHECK(one_line_error(from));
    CHECK(from.err.find("MB") == std::string::npos);  // no "8796093022207 MB"
    CHECK(test::run_cutevis({"docs", path}).exit_code == kExitBadInput);
    CHECK(test::run_cutevis({"batch", path}).exit_code == kExitBadInput);
    CHECK(seconds_since(t0) < 6);
  }
  // endless standard input: bounded
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(shell("yes 'using A = int;' | " + bin() + " eval --from - 1 2>/dev/null") == kExitBadInput);
  CHECK(seconds_since(t0) < 4);
  // a stamps file that is a FIFO: refused, not read
  fs::create_directories(r.dir / "out");
  REQUIRE(::mkfifo((r.dir / "out/.cutevis-batch.json").c_str(), 0600) == 0);
  CHECK(test::run_cutevis({"batch", spec, "-C", (r.dir / "out").string()}).exit_code == kExitBadInput);
}

TEST_CASE("issue 23.2: a batch spec nested 100,000 deep is one line, no crash") {
  Repo r("deep");
  const std::string spec = r.write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  auto res = test::run_cutevis({"batch", spec, "-C", (r.dir / "out").string()});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(one_line_error(res));
  CHECK(res.err.find("nested") != std::string::npos);
  CHECK(json_nesting_depth(R"J({"a": "[[[[", "b": [[1]]})J") == 3);
}

TEST_CASE("issue 23.2: a declaration chain that doubles per line stops at the value cap, in bounded time") {
  std::string text = "using S0 = Shape<_2,_2>; ";
  for (int i = 1; i <= 24; ++i)
    text += "using S" + std::to_string(i) + " = Shape<S" + std::to_string(i - 1) + ",S" + std::to_string(i - 1) + ">; ";
  text += "S24{}";
  const auto t0 = std::chrono::steady_clock::now();
  auto res = test::run_cutevis({"eval", text});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("nodes") != std::string::npos);
  CHECK(seconds_since(t0) < 2);
}

TEST_CASE("issue 23.2: copy and mma --analyze over 4096x4096 are refused with the limit") {
  const auto t0 = std::chrono::steady_clock::now();
  auto res =
      test::run_cutevis({"copy",
                         "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>>{}, "
                         "Layout<Shape<_1,_8>>{})",
                         "--src", "gmem:(4096,4096):(4096,1)", "--dst", "smem:(4096,4096):(4096,1)", "--analyze"});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("1048576") != std::string::npos);
  res = test::run_cutevis(
      {"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--smem-a", "(4096,4096):(4096,1)", "--analyze"});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("1048576") != std::string::npos);
  CHECK(seconds_since(t0) < 2);
}

TEST_CASE("issue 23.2: 20k nested structs in --from are refused at once") {
  Repo r("nest");
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "struct a" + std::to_string(i) + " {";
  for (int i = 0; i < 20000; ++i) text += "};";
  const std::string f = r.write("nest.hpp", text);
  const auto t0 = std::chrono::steady_clock::now();
  auto res = test::run_cutevis({"eval", "--from", f, "1"});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("256") != std::string::npos);
  CHECK(seconds_since(t0) < 2);
}

TEST_CASE("issue 23.2: 300 entries naming one large \"from\" read it once") {
  Repo r("dedupe");
  std::string decls;
  for (int i = 0; decls.size() < (size_t{1} << 20); ++i)
    decls += "using A" + std::to_string(i) + " = Int<" + std::to_string(i) + ">;\n";
  decls += "using L = Layout<Shape<_4,_8>>;\n";
  r.write("k.hpp", decls);
  std::string spec = R"J({"pictures": [)J";
  for (int i = 0; i < 300; ++i)
    spec += std::string(i ? "," : "") + R"J({"command": "layout", "input": "L{}", "output": "p)J" + std::to_string(i) +
            R"J(.txt", "from": ["k.hpp", "k.hpp"]})J";
  spec += "]}";
  const std::string path = r.write("spec.json", spec);
  const auto t0 = std::chrono::steady_clock::now();
  const int rc =
      shell("cd " + test::shell_quote(r.dir.string()) + " && " + bin() + " batch spec.json -C out >/dev/null");
  CHECK(rc == kExitOk);
  CHECK(seconds_since(t0) < 10);  // 45 s before (each entry read and scanned its file)
  CHECK(fs::exists(r.dir / "out/p299.txt"));
  MESSAGE("300 entries sharing a 1 MB from: " << seconds_since(t0) << " s");
}

// --- 3. files -------------------------------------------------------------------------------

TEST_CASE("issue 23.3: -o /dev/stdout with >> log appends to the log; -o - is standard output") {
  Repo r("stdout");
  const std::string log = (r.dir / "log").string();
  std::ofstream(log) << "first line\n";
  CHECK(shell(bin() + " layout '(2,2):(1,2)' --txt -o /dev/stdout >> " + test::shell_quote(log)) == 0);
  const std::string text = slurp(log);
  CHECK(text.rfind("first line\n", 0) == 0);
  CHECK(text.size() > 20);
  auto res = test::run_cutevis({"layout", "(2,2):(1,2)", "--txt", "-o", "-"});
  CHECK(res.exit_code == kExitOk);
  CHECK(!res.out.empty());
}

TEST_CASE("issue 23.3: the stamps file's name is reserved; specs sharing -C keep each other's stamps") {
  Repo r("stamps");
  const std::string bad =
      r.write("bad.json",
              R"J({"pictures": [{"command": "layout", "input": "(4,8):(1,4)", "output": ".cutevis-batch.json"}]})J");
  auto res = test::run_cutevis({"batch", bad, "-C", (r.dir / "out").string()});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("stamps") != std::string::npos);
  const std::string a =
      r.write("a.json", R"J({"pictures": [{"command": "layout", "input": "(4,8):(1,4)", "output": "a.svg"}]})J");
  const std::string b =
      r.write("b.json", R"J({"pictures": [{"command": "layout", "input": "(2,8):(1,2)", "output": "b.svg"}]})J");
  const std::string out = (r.dir / "out").string();
  CHECK(test::run_cutevis({"batch", a, "-C", out}).exit_code == kExitOk);
  CHECK(test::run_cutevis({"batch", b, "-C", out}).exit_code == kExitOk);
  res = test::run_cutevis({"batch", a, "-C", out});
  CHECK(res.exit_code == kExitOk);
  CHECK(res.out.find("wrote 0 files, 1 up to date") != std::string::npos);
}

TEST_CASE("issue 23.3: a stamps file that is a symbolic link is refused (exit 2), nothing written through it") {
  Repo r("nofollow");
  const std::string spec =
      r.write("spec.json", R"J({"pictures": [{"command": "layout", "input": "(4,8):(1,4)", "output": "a.svg"}]})J");
  const fs::path out = r.dir / "out";
  fs::create_directories(out);
  // a link to a file outside, one inside -C, and a dangling one: each refused, the target untouched
  std::ofstream(r.outside / "victim.json") << "{\"keep\": 1}\n";
  std::ofstream(out / "inside.json") << "{}\n";
  for (const fs::path& target : {r.outside / "victim.json", out / "inside.json", r.outside / "none.json"}) {
    CAPTURE(target);
    fs::remove(out / ".cutevis-batch.json");
    fs::create_symlink(target, out / ".cutevis-batch.json");
    auto res = test::run_cutevis({"batch", spec, "-C", out.string()});
    CHECK(res.exit_code == kExitBadInput);
    CHECK(one_line_error(res));
    CHECK(res.err.find("symbolic link") != std::string::npos);
    CHECK(!fs::exists(out / "a.svg"));  // refused before anything is drawn
    CHECK(fs::is_symlink(out / ".cutevis-batch.json"));
  }
  CHECK(slurp(r.outside / "victim.json") == "{\"keep\": 1}\n");
  CHECK(slurp(out / "inside.json") == "{}\n");
  CHECK(!fs::exists(r.outside / "none.json"));

  // Underneath, as when a link is planted between the check and the use: the stamps are
  // read with O_NOFOLLOW (refused) and written by a rename that replaces the link itself.
  const std::string link = (out / ".cutevis-batch.json").string();
  fs::remove(link);
  fs::create_symlink(r.outside / "victim.json", link);
  try {
    (void)read_input_file(link, "the stamps file", 0, Links::kNever);
    FAIL("a symbolic link was read");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("a symbolic link; refused") != std::string::npos);
  }
  CHECK(read_input_file(link, "x").find("keep") != std::string::npos);  // followed where links are allowed
  replace_file_atomically(link, "{}\n");
  CHECK(!fs::is_symlink(link));
  CHECK(slurp(link) == "{}\n");
  CHECK(slurp(r.outside / "victim.json") == "{\"keep\": 1}\n");
  struct stat st {};
  REQUIRE(::stat(link.c_str(), &st) == 0);
  CHECK((st.st_mode & 0111) == 0);
  // and batch runs again once the link is gone
  CHECK(test::run_cutevis({"batch", spec, "-C", out.string()}).exit_code == kExitOk);
  CHECK(fs::exists(out / "a.svg"));
}

TEST_CASE("issue 23.3: SIGTERM to docs leaves no child and no temporary folder") {
  Repo r("sigterm");
  std::string block;
  for (int i = 0; i < 12; ++i)
    block += "mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})' -o p" +
             std::to_string(i) + ".png\n";
  const std::string md = r.md(block);
  auto temporaries = [] {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
      n += e.path().filename().string().rfind("cutevis-docs-", 0) == 0;
    return n;
  };
  const size_t before = temporaries();
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::execl(test::cutevis_binary().c_str(), "cutevis", "docs", md.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::usleep(150000);
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(temporaries() == before);
  // no process left running `cutevis ... md` (docs runs its blocks in process: no children)
  size_t left = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string cmdline = slurp(e.path() / "cmdline");
    left += cmdline.rfind("cutevis", 0) == 0 && cmdline.find(md) != std::string::npos;
  }
  CHECK(left == 0);
  for (const auto& e : fs::directory_iterator(r.dir))
    CHECK(e.path().filename().string().find("tmp") == std::string::npos);
}

// --- 4. text --------------------------------------------------------------------------------

TEST_CASE("issue 23.4: invalid UTF-8 and control characters never reach SVG, HTML, TikZ or text output") {
  const std::string expr = "(4,8):(1,4) /* \xff\xfe bad \x1b[31m red \x07 bell \xc2\x85 */";
  for (const char* f : {"--svg", "--html", "--tex", "--txt"}) {
    CAPTURE(f);
    auto res = test::run_cutevis({"layout", expr, f});
    CHECK(res.exit_code == kExitOk);
    CHECK(clean_utf8(res.out));
    CHECK(res.out.find('\x1b') == std::string::npos);
  }
}

TEST_CASE("issue 23.4: a 100,000-character undefined name is shortened, with its length") {
  auto res = test::run_cutevis({"eval", std::string(100000, 'x')});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.size() < 2000);
  CHECK(res.err.find("bytes]") != std::string::npos);
}

TEST_CASE("issue 23.4: #define lines are reported at their line; a UTF-8 BOM hides nothing") {
  Repo r("define");
  const std::string f = r.write("d.hpp", "// one\n#define A 4\n\n#define C (A*\nusing L = Layout<Shape<_4>>;\n");
  auto res = test::run_cutevis({"names", "--from", f});
  CHECK(res.exit_code == kExitOk);
  res = test::run_cutevis({"eval", "--from", f, "C"});
  CHECK(res.err.find("d.hpp:4:") != std::string::npos);  // was 1: every #define at line 1
  const std::string bom = r.write("bom.hpp", "\xEF\xBB\xBFusing First = Layout<Shape<_4>>;\n");
  res = test::run_cutevis({"eval", "--from", bom, "First{}"});
  CHECK(res.exit_code == kExitOk);
  CHECK(res.out == "(4):(1)\n");
}

// --- 5. CLI edges ---------------------------------------------------------------------------

TEST_CASE("issue 23.5: unknown output extensions are exit 2 with the known list, nothing written") {
  Repo r("ext");
  for (const char* name : {"x.jpg", "t.pgn"}) {
    const std::string path = (r.dir / name).string();
    auto res = test::run_cutevis({"layout", "(4,8):(1,4)", "-o", path});
    CHECK(res.exit_code == kExitBadInput);
    CHECK(res.err.find(".png .svg .tex .pdf .txt .html .json") != std::string::npos);
    CHECK(!fs::exists(path));
  }
}

TEST_CASE("issue 23.5: docs and batch errors keep real lines and the caret") {
  Repo r("caret");
  auto res = test::run_cutevis({"docs", r.md("layout '(4,8):(1,4,2)' -o x.svg")});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("\\n") == std::string::npos);
  CHECK(res.err.find("\n  ") != std::string::npos);
  CHECK(res.err.find('^') != std::string::npos);
}

TEST_CASE("issue 23.5: CLI11's wording never leaks; integer options refused out of range; no-effect warnings") {
  auto res = test::run_cutevis({"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atom", "X"});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("At Most") == std::string::npos);
  CHECK(res.err.find("--atom is given 2 times") != std::string::npos);
  res = test::run_cutevis({"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "99999999999999999999"});
  CHECK(res.exit_code == kExitBadInput);
  CHECK(res.err.find("9223372036854775807") == std::string::npos);
  CHECK(res.err.find("99999999999999999999") != std::string::npos);
  res = test::run_cutevis({"layout", "(4,8):(1,4)", "--svg", "--png"});
  CHECK(res.err.find("give at most one of") != std::string::npos);
  res = test::run_cutevis({"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--threads", "0-3"});
  CHECK(res.exit_code == kExitOk);
  CHECK(res.err.find("warning: --threads has no effect") != std::string::npos);
  res = test::run_cutevis({"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--threads", "0-3,200", "--txt"});
  CHECK(res.exit_code == kExitOk);
  CHECK(res.err.find("warning: --threads 0-3,200 names threads past the tiling's 32") != std::string::npos);
  res = test::run_cutevis({"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--threads", "0-3", "--txt"});
  CHECK(res.err.empty());
  CHECK(cli_error_message("--atom: At Most 1 required but received 2") == "--atom is given 2 times; give it once");
  CHECK(cli_error_message("Could not convert: --scale = abc") == "--scale: 'abc' is not a valid value");
}

// --- 7. docs --check speed: stamps outside the repository, never trusted over the file ------

TEST_CASE("issue 23.7: docs --check skips drawing only while the file and the command are unchanged") {
  Repo r("cache");
  const std::string env = "XDG_CACHE_HOME=" + test::shell_quote((r.outside / "cache").string());
  const std::string md = r.md(std::string(kLayout) + " -o a.svg");
  CHECK(test::run_cutevis({"docs", md}, env).exit_code == kExitOk);
  CHECK(fs::exists(r.outside / "cache/cutevis/docs-stamps.json"));
  CHECK(test::run_cutevis({"docs", md, "--check"}, env).exit_code == kExitOk);
  // the picture edited by hand: stale, whatever the stamps say
  const std::string good = slurp(r.dir / "a.svg");
  std::ofstream(r.dir / "a.svg", std::ios::app) << "<!-- edited -->";
  CHECK(test::run_cutevis({"docs", md, "--check"}, env).exit_code == 1);
  CHECK(test::run_cutevis({"docs", md}, env).exit_code == kExitOk);
  CHECK(slurp(r.dir / "a.svg") == good);
  CHECK(test::run_cutevis({"docs", md, "--check"}, env).exit_code == kExitOk);
  // the command changed: drawn and compared again
  r.md("layout '(4,8):(8,1)' -o a.svg");
  CHECK(test::run_cutevis({"docs", md, "--check"}, env).exit_code == 1);
}

// issue 11 (hardening): the audit's reproducers, each as a test.  CLI behaviour is
// tested through the binary (tests/support/run.hpp); a few bounds through the library.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/diagnostics.hpp"
#include "app/exit_codes.hpp"
#include "app/output.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

// A fresh empty folder under /tmp for one test.
fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("cutevis_hardening_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs a shell command line; returns its exit status (-1: killed by a signal).
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

std::vector<std::string> temporaries_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find("tmp") != std::string::npos) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace

// --- 1. the SEGV --------------------------------------------------------------------------

TEST_CASE("issue 11.1: --color-by bank on a coordinate layout is an error, not a SEGV") {
  for (const char* format : {"--txt", "--svg", "--tex"}) {
    CAPTURE(format);
    auto r = test::run_cutevis({"layout", "(4,8):(1@0,1@1)", "--color-by", "bank", format});
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.out.empty());
    CHECK(r.err.find("bank") != std::string::npos);
  }
  CHECK(test::run_cutevis({"layout", "(4,8):(1@0,1@1)", "--banks"}).exit_code == kExitBadInput);
  CHECK(test::run_cutevis({"layout", "(4,8):(1@0,1@1)"}).exit_code == kExitOk);  // still drawn without banks
}

// --- 2. write failures --------------------------------------------------------------------

TEST_CASE("issue 11.2: stdout that cannot be written is exit 4, not silence") {
  const std::string cmd = bin() + " list --json";
  CHECK(shell(cmd + " >/dev/full 2>/dev/null") == kExitIoError);
  CHECK(shell(cmd + " >&- 2>/dev/null") == kExitIoError);
  CHECK(shell(bin() + " --help >/dev/full 2>/dev/null") == kExitIoError);
  CHECK(shell(bin() + " help >/dev/full 2>/dev/null") == kExitIoError);
  // A reader that is gone, with SIGPIPE ignored (as under some supervisors): EPIPE.
  const fs::path dir = scratch("epipe");
  shell("trap '' PIPE; { sleep 0.3; " + cmd + " 2>" + (dir / "err").string() + "; echo $? >" + (dir / "rc").string() +
        "; } | true");
  CHECK(slurp(dir / "rc") == "4\n");
  CHECK(slurp(dir / "err").rfind("cutevis: error: cannot write to standard output", 0) == 0);
  // -o onto a device that is full
  auto full = test::run_cutevis({"eval", "4:1", "-o", "/dev/full"});
  CHECK(full.exit_code == kExitIoError);
  CHECK(one_line_error(full));
  fs::remove_all(dir);
}

TEST_CASE("issue 11.2/11.8: -o onto a non-regular file writes into it and never replaces it") {
  const fs::path dir = scratch("fifo");
  const fs::path fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // the reader drains the FIFO into a file; cutevis writes into the FIFO itself
  CHECK(shell("cat " + fifo.string() + " >" + (dir / "got").string() + " & " + bin() + " eval '(4,8):(1,4)' -o " +
              fifo.string() + "; rc=$?; wait; exit $rc") == kExitOk);
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(slurp(dir / "got") == "(4,8):(1,4)\n");
  CHECK(temporaries_in(dir).empty());
  // /dev/null stays a character device (the old temp + rename replaced it when run as root)
  CHECK(test::run_cutevis({"eval", "4:1", "-o", "/dev/null"}).exit_code == kExitOk);
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  fs::remove_all(dir);
}

// --- 3. signals ---------------------------------------------------------------------------

TEST_CASE("issue 11.3: SIGINT, SIGTERM and SIGHUP while writing leave no temporary file") {
  const std::string big(std::size_t{96} << 20, 'x');  // big enough to be caught mid-write
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    CAPTURE(sig);
    const fs::path dir = scratch("signal" + std::to_string(sig));
    int caught = 0;
    for (int attempt = 0; attempt < 20 && caught < 2; ++attempt) {
      pid_t child = ::fork();
      REQUIRE(child >= 0);
      if (child == 0) {
        try {
          write_file_atomically((dir / "out.bin").string(), big);
        } catch (...) {
        }
        ::_exit(0);
      }
      bool seen = false;  // signal the child as soon as its temporary exists
      for (int i = 0; i < 20000 && !seen; ++i) {
        seen = !temporaries_in(dir).empty();
        if (!seen) ::usleep(50);
      }
      ::kill(child, sig);
      int status = 0;
      ::waitpid(child, &status, 0);
      if (seen && WIFSIGNALED(status)) {
        ++caught;
        CHECK(WTERMSIG(status) == sig);  // it still dies of the signal
      }
      CHECK(temporaries_in(dir).empty());
      fs::remove(dir / "out.bin");
    }
    CHECK(caught > 0);
    fs::remove_all(dir);
  }
}

// --- 4. CPU on bad names ------------------------------------------------------------------

TEST_CASE("issue 11.4: a huge bad name or pattern answers fast, without suggestions") {
  auto t0 = std::chrono::steady_clock::now();
  auto r = test::run_cutevis({"atom", "SM80_" + std::string(130000, 'X')});  // was 184 s
  CHECK(seconds_since(t0) < 10);
  CHECK(r.exit_code == kExitBadInput);
  CHECK(one_line_error(r));
  CHECK(r.err.size() < 600);  // at most ~200 bytes of the input echoed

  t0 = std::chrono::steady_clock::now();
  auto l = test::run_cutevis({"list", std::string(130000, '*') + "Q"});  // was 18 s
  CHECK(seconds_since(t0) < 10);
  CHECK(l.exit_code == kExitBadInput);
  CHECK(one_line_error(l));

  // a megabyte-long unknown identifier (batch specs and --from files have no ARG_MAX)
  t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(run_eval({"size(" + std::string(1 << 20, 'q') + ")", false}), Error);  // was 34 s
  CHECK(seconds_since(t0) < 10);

  // plausible typos still get their suggestion
  auto typo = test::run_cutevis({"atom", "SM80_16x8x16_F32F16F16F32_TX"});
  CHECK(typo.err.find("did you mean") != std::string::npos);
  auto fn = test::run_cutevis({"eval", "compositon(4:1, 2:1)"});
  CHECK(fn.err.find("did you mean 'composition'") != std::string::npos);
}

TEST_CASE("issue 11.4: hundreds of bad atom names in one file: suggestions for the first ones only") {
  // Found by tests/fuzz/from_file_fuzz.cpp: each search reads all 8,771 names, so 600 bad
  // names cost 2.1 s of suggestions in `names --from`.  A run spends a bounded budget.
  const fs::path dir = scratch("many_bad_atoms");
  std::ofstream file(dir / "many.cu");
  for (int i = 0; i < 600; ++i) file << "using A" << i << " = MMA_Atom<SM80_16x8x16_F32F16F16F32_T" << i << ">;\n";
  file.close();
  auto r = test::run_cutevis({"names", "--from", (dir / "many.cu").string(), "--json"});
  REQUIRE(r.exit_code == 0);
  auto names = nlohmann::json::parse(r.out)["names"];
  REQUIRE(names.size() == 600);
  const auto suggested = [&](size_t i) {
    return names[i]["error"].get<std::string>().find("did you mean") != std::string::npos;
  };
  CHECK(suggested(0));
  CHECK_FALSE(suggested(599));
  size_t with = 0;
  for (size_t i = 0; i < names.size(); ++i) with += suggested(i);
  CHECK(with < 100);
  fs::remove_all(dir);
}

// --- 5. JSON memory -----------------------------------------------------------------------

TEST_CASE("issue 11.5: --json of a huge tiling is a clear error, not 1 GB") {
  for (const char* atoms : {"(300,300,1)", "(1000,1000,1)"}) {
    CAPTURE(atoms);
    auto t0 = std::chrono::steady_clock::now();
    auto r = test::run_cutevis({"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atoms", atoms, "--json"});
    CHECK(seconds_since(t0) < 10);
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.out.empty());
    CHECK(r.err.find("at most") != std::string::npos);
  }
  CHECK(test::run_cutevis({"tv", "(4096,4096):(4096,1)", "(4096,4096)", "--json"}).exit_code == kExitBadInput);
  // a large but sane tiling still works
  auto ok = test::run_cutevis({"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atoms", "(4,4,1)", "--json"});
  CHECK(ok.exit_code == kExitOk);
  CHECK(nlohmann::json::parse(ok.out)["num_threads"] == 512);
}

TEST_CASE("issue 11.5: eval --json lists coordinate values only up to a bound") {
  nlohmann::json small = nlohmann::json::parse(run_eval({"make_identity_layout((512,512))", true}).bytes);
  CHECK(small["values"].size() == 512 * 512);
  CHECK(small["values"][513] == nlohmann::json::array({1, 1}));
  nlohmann::json big =
      nlohmann::json::parse(run_eval({"make_identity_layout((2048,2048))", true}).bytes);  // was 0.9 GB
  CHECK(!big.contains("values"));
  CHECK(big["values_omitted"] == true);
  nlohmann::json plain = nlohmann::json::parse(run_eval({"(2048,2048):(2048,1)", true}).bytes);
  CHECK(plain["values"].size() == 2048 * 2048);  // plain indices keep the 2^22 bound
}

// --- found by fuzzing (tests/fuzz/corpus) ---------------------------------------------------

TEST_CASE("fuzz: a tuple with a negative extent used as a layout is bad input, not std::length_error") {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"tv", "((4), (-2))", "(8,8)", "--json"}, {"tv", "(4,-2)", "(8,8)"}, {"layout", "(4,-2)"}}) {
    auto r = test::run_cutevis(args);
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.err.find("negative extent -2") != std::string::npos);
  }
}

TEST_CASE("fuzz: a picture of millions of cells is refused at once (was 18 s and 2.3 GB of SVG)") {
  for (const char* format : {"--svg", "--txt", "--tex"}) {
    CAPTURE(format);
    auto t0 = std::chrono::steady_clock::now();
    auto r = test::run_cutevis({"layout", "2111411", format});
    CHECK(seconds_since(t0) < 10);
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.err.find("too large to draw") != std::string::npos);
  }
  CHECK(test::run_cutevis({"layout", "(512,512):(512,1)", "--txt"}).exit_code == kExitOk);  // 2^18 cells still drawn
}

// --- 7. exit codes ------------------------------------------------------------------------

TEST_CASE("issue 11.7: verify NAME --svg without a GPU exits 3 and writes nothing") {
  auto text = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN"});
  if (text.exit_code != kExitNoGpu) return;  // a machine with a GPU: nothing to check here
  const fs::path dir = scratch("verify_svg");
  auto r = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN", "--svg", "-o", (dir / "v.svg").string()});
  CHECK(r.exit_code == kExitNoGpu);
  CHECK(!fs::exists(dir / "v.svg"));
  CHECK(r.err.find("no usable GPU") != std::string::npos);
  fs::remove_all(dir);
}

// --- 8. output-file semantics -------------------------------------------------------------

TEST_CASE("issue 11.8: -o keeps the target's mode, honours the umask, writes through symlinks") {
  const fs::path dir = scratch("modes");
  const fs::path secret = dir / "secret.txt";
  { std::ofstream(secret) << "old"; }
  ::chmod(secret.c_str(), 0600);
  CHECK(test::run_cutevis({"eval", "4:1", "-o", secret.string()}).exit_code == kExitOk);
  struct stat st {};
  REQUIRE(::stat(secret.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);  // was 0644: world-readable
  CHECK(slurp(secret) == "4:1\n");

  CHECK(shell("umask 077; " + bin() + " eval 4:1 -o " + (dir / "new077.txt").string()) == kExitOk);
  REQUIRE(::stat((dir / "new077.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(shell("umask 002; " + bin() + " eval 4:1 -o " + (dir / "new002.txt").string()) == kExitOk);
  REQUIRE(::stat((dir / "new002.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);  // issue 23: new outputs 0644 minus the umask

  // a symlink is written through: the link stays, the file it names changes
  fs::create_directories(dir / "real");
  { std::ofstream(dir / "real" / "target.txt") << "old"; }
  fs::create_symlink("real/target.txt", dir / "link.txt");
  CHECK(test::run_cutevis({"eval", "8:2", "-o", (dir / "link.txt").string()}).exit_code == kExitOk);
  CHECK(fs::is_symlink(dir / "link.txt"));
  CHECK(slurp(dir / "real" / "target.txt") == "8:2\n");
  CHECK(temporaries_in(dir / "real").empty());
  // a dangling symlink creates the file it names
  fs::create_symlink("real/made.txt", dir / "dangling.txt");
  CHECK(test::run_cutevis({"eval", "2:1", "-o", (dir / "dangling.txt").string()}).exit_code == kExitOk);
  CHECK(slurp(dir / "real" / "made.txt") == "2:1\n");
  CHECK(fs::is_symlink(dir / "dangling.txt"));
  // a directory is not overwritten
  auto d = test::run_cutevis({"eval", "2:1", "-o", (dir / "real").string()});
  CHECK(d.exit_code == kExitIoError);
  CHECK(one_line_error(d));
  fs::remove_all(dir);
}

TEST_CASE("issue 11.8: a valid 250-byte file name is written; missing folders are created") {
  const fs::path dir = scratch("names");
  const std::string long_name = std::string(246, 'n') + ".txt";  // 250 bytes; NAME_MAX is 255
  auto r = test::run_cutevis({"eval", "4:1", "-o", (dir / long_name).string()});
  CHECK(r.exit_code == kExitOk);
  CHECK(slurp(dir / long_name) == "4:1\n");
  // issue 12: -o creates missing parent folders
  CHECK(test::run_cutevis({"eval", "4:1", "-o", (dir / "a" / "b" / "c.txt").string()}).exit_code == kExitOk);
  CHECK(slurp(dir / "a" / "b" / "c.txt") == "4:1\n");
  // ... but a parent that is a file is exit 4
  auto f = test::run_cutevis({"eval", "4:1", "-o", (dir / long_name / "x.txt").string()});
  CHECK(f.exit_code == kExitIoError);
  CHECK(one_line_error(f));
  fs::remove_all(dir);
}

// --- 9. errors that are one clear line ------------------------------------------------------

TEST_CASE("issue 11.9: CLI11's errors are one line; unknown commands get a suggestion") {
  auto flag = test::run_cutevis({"eval", "4:1", "--frobnicate"});
  CHECK(flag.exit_code == kExitBadInput);
  CHECK(one_line_error(flag));
  CHECK(flag.err.find("--frobnicate") != std::string::npos);

  auto evl = test::run_cutevis({"evl", "4:1"});
  CHECK(evl.exit_code == kExitBadInput);
  CHECK(one_line_error(evl));
  CHECK(evl.err.find("did you mean 'eval'") != std::string::npos);

  auto none = test::run_cutevis({});
  CHECK(none.exit_code == kExitBadInput);
  CHECK(one_line_error(none));

  auto missing = test::run_cutevis({"tv", "(4,8):(8,1)"});
  CHECK(missing.exit_code == kExitBadInput);
  CHECK(one_line_error(missing));
}

TEST_CASE("issue 11.9: help and version as commands and flags") {
  for (const auto& args : std::vector<std::vector<std::string>>{{"version"}, {"--version"}}) {
    auto v = test::run_cutevis(args);
    CHECK(v.exit_code == kExitOk);
    CHECK(v.out == "cutevis 0.1.0\n");
  }
  auto help = test::run_cutevis({"help"});
  CHECK(help.exit_code == kExitOk);
  CHECK(help.out.find("Exit codes") != std::string::npos);
  auto help_eval = test::run_cutevis({"help", "eval"});
  CHECK(help_eval.exit_code == kExitOk);
  CHECK(help_eval.out.find("--json") != std::string::npos);
  auto help_bad = test::run_cutevis({"help", "evl"});
  CHECK(help_bad.exit_code == kExitBadInput);
  CHECK(help_bad.err.find("did you mean 'eval'") != std::string::npos);
}

TEST_CASE("issue 11.9: --arch, --thread, --threads and the tv tile answer precisely") {
  auto arch = test::run_cutevis({"list", "--arch", "sm99999999999999999999"});
  CHECK(arch.exit_code == kExitBadInput);
  CHECK(arch.err.find("--arch expects") != std::string::npos);  // was "stoi"

  const std::string atom = "SM80_16x8x16_F32F16F16F32_TN";
  auto neg = test::run_cutevis({"atom", atom, "--thread", "-5"});
  CHECK(neg.exit_code == kExitBadInput);  // was ignored, exit 0
  CHECK(neg.err.find("thread -5") != std::string::npos);
  CHECK(test::run_cutevis({"atom", atom, "--thread", "40"}).exit_code == kExitBadInput);
  auto faded = test::run_cutevis({"atom", atom, "--svg", "--threads", "40"});
  CHECK(faded.exit_code == kExitBadInput);  // was a picture with everything faded
  CHECK(faded.err.find("--threads 40") != std::string::npos);
  CHECK(test::run_cutevis({"atom", atom, "--svg", "--threads", "31,40"}).exit_code == kExitOk);

  // the caret goes under the bad spot of --threads, not under the atom name
  auto threads = test::run_cutevis({"atom", atom, "--txt", "--threads", "0,a-b"});
  CHECK(threads.exit_code == kExitBadInput);
  CHECK(threads.err.find("--threads: ") != std::string::npos);
  CHECK(threads.err.find("\n  0,a-b\n    ^\n") != std::string::npos);

  // the caret of a bad tile goes under the tile, not under the TV layout
  auto tile = test::run_cutevis({"tv", "((4,8),4):((8,1),32)", "(32,4"});
  CHECK(tile.exit_code == kExitBadInput);
  CHECK(tile.err.find("\n  (32,4\n  ^\n") != std::string::npos);
}

TEST_CASE("issue 11.9: control bytes are escaped and long inputs are not echoed whole") {
  auto esc = test::run_cutevis({"eval", "frob\x1b[31mnicate\nx(4:1)"});
  CHECK(esc.exit_code == kExitBadInput);
  CHECK(esc.err.find('\x1b') == std::string::npos);
  const std::string first_line = esc.err.substr(0, esc.err.find('\n'));
  CHECK(first_line.find("\\x1b") != std::string::npos);

  auto big = test::run_cutevis({"eval", "(" + std::string(120000, '4') + ")"});
  CHECK(big.exit_code == kExitBadInput);
  CHECK(big.err.size() < 1000);  // was the whole input

  CHECK(printable_line(std::string("a\0b\nc\x7f", 6)) == "a\\0b\\nc\\x7f");
  const std::string elided = printable_line(std::string(5000, 'z'));
  CHECK(elided.size() < 260);
  CHECK(elided.find("bytes]") != std::string::npos);
}

TEST_CASE("issue 11.9: the nesting message names the limit it enforces") {
  auto nested = [](int levels) {
    return std::string(static_cast<size_t>(levels), '(') + "4" + std::string(static_cast<size_t>(levels), ')');
  };
  CHECK_NOTHROW(run_eval({nested(100), false}));
  try {
    run_eval({nested(101), false});
    FAIL("101 levels parsed");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("more than 100 levels") != std::string::npos);
  }
}

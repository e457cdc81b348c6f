// Whole-process wall time of cutevis commands (the figures issues name are for the
// whole process, start-up included).  Runs each command N times (posix_spawn, output
// to /dev/null) after warm-ups and prints min / median / p90 in milliseconds.
//
//   cutevis_cli_bench [--runs N] [--cutevis PATH]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct Case {
  const char* what;
  std::vector<std::string> args;
  double goal_ms;
};

double run_once(const std::string& exe, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid;
  if (posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ) != 0) {
    std::perror("posix_spawn");
    std::exit(1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  auto t1 = std::chrono::steady_clock::now();
  posix_spawn_file_actions_destroy(&fa);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "command failed: %s\n", args.empty() ? "" : args[0].c_str());
    std::exit(1);
  }
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 50;
  std::string exe = CUTEVIS_BINARY;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--cutevis") && i + 1 < argc) exe = argv[++i];
  }
  const std::string gmma = "SM90_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>";
  const std::string gmma2x2 = "make_tiled_mma(" + gmma + "{}, Layout<Shape<_2,_2,_1>>{})";
  std::vector<Case> cases = {
      {"eval of a layout", {"eval", "((4,2),4):((8,4),1)"}, 10},
      {"atom SM70_8x8x4_F32F16F16F32_NT --svg", {"atom", "SM70_8x8x4_F32F16F16F32_NT", "--svg"}, 10},
      {"atom SM70_8x8x4_F32F16F16F32_NT --tex --style cute",
       {"atom", "SM70_8x8x4_F32F16F16F32_NT", "--tex", "--style", "cute"},
       10},
      {"atom 64x256x16 GMMA --json", {"atom", gmma, "--json"}, 20},
      {"mma 2x2 64x256x16 GMMA --svg", {"mma", gmma2x2, "--svg"}, 300},
      {"mma 2x2 64x256x16 GMMA --png", {"mma", gmma2x2, "--png", "-o", "/tmp/cutevis_bench.png"}, 1000},
      {"mma 2x2 64x256x16 GMMA --tex", {"mma", gmma2x2, "--tex"}, 0},
      // issue 9: the inspector on a 128x128 tile with a 128-thread TiledCopy (gmem -> SW128 smem)
      {"copy 128x128, 128 threads --analyze --json",
       {"copy",
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
        "Layout<Shape<_1,_8>>{})",
        "--src", "gmem:(128,128):(128,1)", "--dst",
        "smem:tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_128>{})", "--analyze", "--json"},
       20},
      // issue 9: one thread's partitions of a 2x2 SM80 TiledMMA over 128x64 A/B, with retile_D of the LDSM copies
      {"mma --thread 5 partitions + retile_D --json",
       {"mma", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})", "--thread", "5", "--smem-a",
        "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})", "--smem-b", "(128,64):(64,1)",
        "--copy-a", "SM75_U32x4_LDSM_N", "--copy-b", "SM75_U32x2_LDSM_N", "--json"},
       0},
  };
  std::printf("%-52s %8s %8s %8s %8s\n", "command (whole process)", "min ms", "median", "p90", "goal");
  for (const auto& c : cases) {
    int n = c.goal_ms >= 100 ? std::max(5, runs / 5) : runs;
    for (int w = 0; w < 2; ++w) run_once(exe, c.args);
    std::vector<double> t;
    for (int i = 0; i < n; ++i) t.push_back(run_once(exe, c.args));
    std::sort(t.begin(), t.end());
    double median = t[t.size() / 2], p90 = t[std::min(t.size() - 1, t.size() * 9 / 10)];
    std::printf("%-52s %8.2f %8.2f %8.2f %8s\n", c.what, t.front(), median, p90,
                c.goal_ms > 0 ? ("<" + std::to_string(static_cast<int>(c.goal_ms))).c_str() : "-");
  }
  return 0;
}

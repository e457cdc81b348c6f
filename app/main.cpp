// cutevis — the command line.  Parses flags (CLI11) and calls one library function
// per sub-command (app/commands.hpp); prints errors as `cutevis: error: ...`.
// With CUTEVIS_CLI_LITE (the page, web/cli_main.cpp) the same declarations build app/cli_lite's
// parser, which answers as CLI11 does (tests/app/cli_lite_test.cpp) at a tenth of its size.
#ifdef CUTEVIS_CLI_LITE
#include "app/cli_lite.hpp"
namespace CLI = cutevis::cli_lite;
#else
#include <CLI/CLI.hpp>
#endif

#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "app/batch.hpp"
#include "app/check.hpp"
#include "app/commands.hpp"
#include "app/diagnostics.hpp"
#include "app/docs.hpp"
#include "app/exit_codes.hpp"
#include "app/inspect.hpp"
#include "app/output.hpp"
#include "app/sf_command.hpp"
#include "app/sources.hpp"
#include "app/tmem_command.hpp"

using namespace cutevis;

namespace {

// `cutevis docs` runs its blocks in this process: while a capture is set, a command's
// output file and its messages go here instead of to the file and to stderr.
struct Capture {
  std::string* output = nullptr;
  std::string* errors = nullptr;
};
Capture capture;

void report(const std::string& text_in) {
  const std::string text = shorten_lines(text_in);  // a long name is quoted with its length, not echoed
  if (capture.errors) *capture.errors += text;
  else std::fputs(text.c_str(), stderr);
}

// An integer option checked as text before CLI11 converts it (which would saturate
// 99999999999999999999 to INT64_MAX): a whole number in [lo, hi].
CLI::Validator whole_number(int64_t lo, int64_t hi, const std::string& what) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        int64_t v = 0;
        const char* end = text.data() + text.size();
        auto [p, ec] = std::from_chars(text.data() + (text.size() > 1 && text[0] == '+'), end, v);
        if (ec == std::errc() && p == end && v >= lo && v <= hi) return "";
        return "'" + printable_line(text, 40) + "' is not " + what + " (a whole number from " + std::to_string(lo) +
               " to " + std::to_string(hi) + ")";
      },
      "INT", "whole_number");
}

// -o NAME.EXT: an extension cutevis does not write (x.jpg, the typo t.pgn) is an error,
// never a text table under a picture's name.  No extension: the flags pick the format.
void check_output_extension(const std::string& path) {
  if (path.empty() || path == "-") return;
  const size_t slash = path.find_last_of('/');
  const std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return;
  std::string ext = name.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* known : {"png", "svg", "tex", "pdf", "txt", "html"})
    if (ext == known) return;
  if (name.substr(dot + 1) == "json") return;
  throw Error("-o " + path + ": unknown extension '." + name.substr(dot + 1) +
              "'; cutevis writes .png .svg .tex .pdf .txt .html .json (-o - for standard output)");
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  names.push_back("help");
  names.push_back("version");
  return names;
}

CLI::App* find_command(CLI::App& app, const std::string& name) {  // CLI11 2.1 has no get_subcommand_no_throw
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

// Where a command's output goes: stdout, or a file written atomically with -o.
int emit(const Output& out, const std::string& path) {
  for (const std::string& w : take_warnings()) report("cutevis: warning: " + printable_line(w, 400) + "\n");
  if (capture.output) {
    *capture.output = out.bytes;
    return kExitOk;
  }
  if (!path.empty() && path != "-") {
    write_file_atomically(path, out.bytes);
    return out.exit_code;
  }
  if (out.binary && stdout_is_terminal())
    throw Error("refusing to write binary output to a terminal; use -o FILE or redirect stdout");
  write_stdout(out.bytes);  // a full disk or a closed pipe is exit 4, not silence
  return out.exit_code;
}

// The picture flags every drawing command takes.
struct PictureFlags {
  bool tex = false, svg = false, png = false, pdf = false, txt = false, html = false;
  double scale = 1.0, cell = 0;
  std::string style = "default";
  std::string color_by = "auto";
  std::string threads;
  int element_bits = 16;
  bool banks = false;

  // The formats are the command's own flags, at most one given (check_one_format), not a CLI11
  // option group: CLI11 2.1 never returns from `layout X '' --output=-` (an empty word no
  // positional takes is read as the name of the group, which then loops on the option).
  static constexpr const char* kFormats[] = {"--tex", "--svg", "--png", "--pdf", "--txt", "--html"};
  void add_to(CLI::App* cmd) {
    cmd->add_flag("--tex", tex,
                  "TikZ (a standalone LaTeX document for pdflatex); the picture formats (--tex --svg --png --pdf "
                  "--txt --html): one at most");
    cmd->add_flag("--svg", svg, "SVG (with tooltips)");
    cmd->add_flag("--png", png, "PNG (Cairo)");
    cmd->add_flag("--pdf", pdf, "PDF (Cairo)");
    cmd->add_flag("--txt", txt, "text table (ANSI colour on a terminal; honours NO_COLOR)");
    cmd->add_flag("--html", html, "one self-contained interactive page: hover, thread highlighting, zoom");
    cmd->add_option("--scale", scale, "size factor for PNG (pixels), PDF and SVG, e.g. 2 for a 2x PNG")
        ->capture_default_str();
    cmd->add_option("--cell", cell, "cell size in px (default: from the longest label, every label at >= 9 px)");
    cmd->add_option("--style", style, "default | cute (CuTe's print_latex / print_svg, byte for byte)")
        ->capture_default_str();
    cmd->add_option("--color-by", color_by, "auto | thread | value | warp | index | bank | none")
        ->capture_default_str();
    cmd->add_option("--threads", threads, "highlight these threads, fade the rest: 0,5,32-35");
  }

  PictureOptions options(const std::string& output_path) const {
    PictureOptions p;
    if (tex) p.format = Format::kTex;
    if (svg) p.format = Format::kSvg;
    if (png) p.format = Format::kPng;
    if (pdf) p.format = Format::kPdf;
    if (txt) p.format = Format::kTxt;
    if (html) p.format = Format::kHtml;
    p.style = parse_style(style);
    p.scale = scale;
    p.cell = cell;
    p.color_by = banks ? "bank" : color_by;
    p.threads = threads;
    p.bank_element_bits = element_bits;
    bool to_terminal = (output_path.empty() || output_path == "-") && stdout_is_terminal();
    p.ansi_color = to_terminal && terminal_wants_color(STDOUT_FILENO);
    return p;
  }
};

// The options a command takes, as typed: --from, -o.
std::vector<std::string> option_names(const CLI::App& cmd) {
  std::vector<std::string> out;
  for (const CLI::Option* o : cmd.get_options()) {
    for (const auto& l : o->get_lnames()) out.push_back("--" + l);
    for (const auto& s : o->get_snames()) out.push_back("-" + s);
  }
  return out;
}

// CLI11's own errors as one line: "cutevis: error: <what> (see cutevis CMD --help)".
int parse_error(const CLI::App& app, const CLI::ParseError& e) {
  std::string what = cli_error_message(e.what());
  std::string where = "cutevis";
  const CLI::App* cmd = &app;
  for (const CLI::App* sub : app.get_subcommands()) where += " " + (cmd = sub)->get_name();
  if (dynamic_cast<const CLI::ExtrasError*>(&e))  // --form FILE: the option a typo meant
    for (const std::string& arg : app.remaining(true))
      if (arg.size() > 1 && arg[0] == '-' && !std::isdigit(static_cast<unsigned char>(arg[1]))) {
        std::vector<std::string> options = option_names(*cmd);
        if (cmd != &app)
          for (const auto& n : option_names(app)) options.push_back(n);  // --help, --version
        std::string message = unknown_option_message(arg, options);
        if (message.find("did you mean") == std::string::npos) message += " (see " + where + " --help)";
        report(format_error(Error(message)));
        return kExitBadInput;
      }
  report(format_error(Error(what + " (see " + where + " --help)")));
  return kExitBadInput;
}

// At most one picture format (PictureFlags::kFormats) on the command given: CLI11's own words for
// it, as its option group said them.
void check_one_format(const CLI::App& app) {
  for (const CLI::App* cmd : app.get_subcommands()) {
    if (!cmd->get_option_no_throw(PictureFlags::kFormats[0])) continue;
    size_t given = 0;
    std::string names;
    for (const char* f : PictureFlags::kFormats) {
      given += cmd->count(f) > 0;
      names += (names.empty() ? "" : ",") + std::string(f);
    }
    if (given > 1) throw CLI::ParseError("Requires at most 1 options be given from [" + names + "]", 106);
  }
}

// `cutevis help [CMD]`, `cutevis version`, and "did you mean" for an unknown command,
// before CLI11 (which would only say "A subcommand is required").  -1: not handled.
int before_parse(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return -1;
  const std::string first = argv[1];
  if (first == "version") {
    write_stdout(app.version() + "\n");
    return kExitOk;
  }
  if (first == "help") {
    const CLI::App* about = &app;
    if (argc > 2) {
      about = find_command(app, argv[2]);
      if (!about) throw Error("help: " + unknown_command_message(argv[2], command_names(app)));
    }
    write_stdout(about->help());
    return kExitOk;
  }
  if (!find_command(app, first)) throw Error(unknown_command_message(first, command_names(app)));
  return -1;
}

// `cutevis dsl FILE.py --call EXPR [--setup M] [NAME ...]`: CuTeDSL read by running it, in Python
// (python/cutevis/dsl.py).  Replaces this process with `PYTHON -m cutevis.dsl ARGS`: PYTHON is
// $CUTEVIS_PYTHON, else Debian's /usr/bin/python3; the package is the installed one, or the build
// tree's (build/python, beside build/bin).  Returns only when Python cannot be started (exit 2).
int run_dsl_command(int argc, char** argv) {
  const char* env_python = std::getenv("CUTEVIS_PYTHON");
  std::string python = env_python && *env_python               ? env_python
                       : access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3"
                                                               : "python3";
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    std::string dir(self, static_cast<size_t>(n));
    dir = dir.substr(0, dir.rfind('/'));
    const std::string tree = dir + "/../python";
    if (access((tree + "/cutevis/__init__.py").c_str(), R_OK) == 0) {
      const char* old = std::getenv("PYTHONPATH");
      setenv("PYTHONPATH", (tree + (old && *old ? ":" + std::string(old) : "")).c_str(), 1);
    }
  }
  std::vector<std::string> args = {python, "-m", "cutevis.dsl"};
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  std::vector<char*> c_args;
  for (auto& a : args) c_args.push_back(a.data());
  c_args.push_back(nullptr);
  execvp(c_args[0], c_args.data());
  std::cerr << "cutevis: error: dsl runs Python (" << python
            << "), which could not be started; install python3 and the cutevis package (pip install .)\n";
  return kExitBadInput;
}

// The last command's environment, never destroyed: freeing one read through CUTLASS's headers
// (its declarations, parsed trees and remembered lookups) took 6 ms of an 80 ms `names` run, at
// the end of the process, for nothing.  Held by a reachable pointer (LeakSanitizer does not call
// it a leak); the next command of the process (`cutevis docs`, the web page) frees the one before.
void keep_until_exit(std::shared_ptr<Environment> env) {
  static auto* kept = new std::shared_ptr<Environment>();
  *kept = std::move(env);
}

// Every variable a flag writes, as a command line starts: one parser (Cli) binds its flags
// to these, and the page resets them to these values between requests (cli_main_reused).
struct CliValues {
  std::string output_path;
  std::string source;     // the expression being evaluated, for the caret under errors
  SourceOptions sources;  // --from FILE, -D NAME=VALUE (app/sources.hpp)
  EvalOptions eval;
  ShowOptions show;
  PictureFlags flags;
  std::string tile;
  int64_t thread = -1;
  std::string mma_atom, mma_atoms, mma_tile;
  bool mma_sf = false;  // app/sf_command.hpp
  SfOptions sf_options;
  WhoOptions who;  // --who / --feeds on atom, mma, copy
  MmaInspectOptions mma_inspect;
  InspectOptions inspect;
  DescOptions desc;
  TmemOptions tmem;  // app/tmem_command.hpp
  ListOptions list;
  VerifyOptions verify;
  PictureFlags verify_flags;
  NamesOptions names;
  CheckCommandOptions check;
  BatchOptions batch;
  DocsOptions docs;
  bool dsl = false;  // --dsl on every command that reads an expression (else detected, lib/lang/dsl.hpp)
};

// The CLI11 parser over CliValues: built once (the constructor), then run() for one command line.
class Cli : CliValues {
 public:
  Cli();
  Cli(const Cli&) = delete;  // the parser holds the addresses of its values
  Cli& operator=(const Cli&) = delete;
  int run(int argc, char** argv);
  // Back to the values a fresh Cli has, and no flag seen: the next run() parses as a new process would.
  void reset() {
    static_cast<CliValues&>(*this) = CliValues{};
    wire();
    app.clear();
  }

 private:
  void wire();  // the values that point at others, and docs' defaults
  CLI::App app;
  CLI::App *eval_cmd = nullptr, *layout_cmd = nullptr, *tv_cmd = nullptr, *atom_cmd = nullptr, *mma_cmd = nullptr,
           *copy_cmd = nullptr, *desc_cmd = nullptr, *tmem_cmd = nullptr, *list_cmd = nullptr, *verify_cmd = nullptr,
           *names_cmd = nullptr, *check_cmd = nullptr, *batch_cmd = nullptr, *docs_cmd = nullptr;
};

}  // namespace

int cli_main(int argc, char** argv);
int cli_main_reused(int argc, char** argv);

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "dsl") return run_dsl_command(argc, argv);
#ifdef __GLIBC__
  // A short-lived process: memory freed is kept for the next allocation, not handed back to the
  // kernel and faulted in again (a page fault costs microseconds here; `names` on a 3,000-line
  // file touched 430 pages fewer)
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // ... and in 2 MB pages where the kernel gives them on request (transparent huge pages
  // "madvise", the common default): `names` through CUTLASS's headers faulted in 3,500 pages,
  // 1,100 so, and took 8 ms (12%) less CPU.  (glibc does it with GLIBC_TUNABLES=
  // glibc.malloc.hugetlb=1, which a program cannot set for itself.)  The heap grows by 48 MB of
  // address space, not memory: advised, then freed to the heap's top, where the next
  // allocations take it.
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  if (void* pad = std::malloc(size_t{48} << 20)) {
    const uintptr_t from = (reinterpret_cast<uintptr_t>(pad) + kHugePage - 1) & ~(kHugePage - 1);
    const uintptr_t to = (reinterpret_cast<uintptr_t>(pad) + (uintptr_t{48} << 20)) & ~(kHugePage - 1);
    madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);  // (failing: 4 KB pages, as before)
    std::free(pad);
  }
#endif
  return cli_main(argc, argv);
}

// One command line, start to end, with a parser of its own; `cutevis docs` calls it again for
// each block (with a capture).
int cli_main(int argc, char** argv) {
  Cli cli;
  return cli.run(argc, argv);
}

// One command line after another in one process (the page: web/binding.cpp): the parser is built
// once and its values reset before each line, so a line runs as cli_main would run it
// (tests/app/cli_reuse_test.cpp).  Building the parser was about 70% of a short request's time
// (and about 45% of a picture's) under the page.
int cli_main_reused(int argc, char** argv) {
  static Cli* cli = new Cli();  // never destroyed: lives as long as the page
  cli->reset();
  return cli->run(argc, argv);
}

void Cli::wire() {
  show.mma_inspect = &mma_inspect;
  show.inspect = &inspect;
#ifndef CUTEVIS_WEB  // (the page runs no docs)
  docs.cache_file = default_docs_cache();
  docs.runner = [](const std::vector<std::string>& args, std::string& output, std::string& errors) {
    std::vector<std::string> words{"cutevis"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const Capture saved = capture;
    capture = Capture{&output, &errors};
    int code = kExitBadInput;
    try {
      code = cli_main(static_cast<int>(words.size()), argv.data());
    } catch (...) {
      capture = saved;
      throw;
    }
    capture = saved;
    return code;
  };
#endif
}

Cli::Cli() {
  wire();
  app.description("cutevis: CuTe layouts, TV layouts, MMA and copy atoms from text -- pictures, JSON, and GPU checks");
  app.require_subcommand(1);
  app.set_version_flag("--version", "cutevis 0.1.0");  // also `cutevis version`
  app.footer(
      "Exit codes: 0 ok, 1 verify found a disagreement, 2 bad input, 3 no usable GPU/CUDA, 4 output not written,\n"
      "5 the GPU environment failed (a driver rejected a kernel).  `cutevis help CMD` for a command's flags.\n"
      "Expressions take CuTe's printed notation ((4,2),4):((8,4),1), S<3,4,3> o 0 o (8,64):(64,1)\n"
      "or its C++ syntax Layout<Shape<_4,_8>,Stride<_1,_4>>{}, make_layout(make_shape(4,8), LayoutRight{})\n"
      "or CuTeDSL's Python cute.make_layout((4, 8), stride=(1, 4)) (detected; --dsl forces it).");

  auto add_output = [&](CLI::App* cmd) {
    cmd->add_option("-o,--output", output_path,
                    "write to FILE (atomically) instead of stdout; its extension (.png .svg .tex .pdf .txt .html "
                    ".json) picks the format");
  };
  auto add_sources = [&](CLI::App* cmd) {
    cmd->add_option("--from", sources.from,
                    "read the declarations of a C++ file (repeatable; - is stdin): using X = ..., auto x = ..., ...")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("-D", sources.defines,
                    "define a name the text leaves open: -D bM=128 -D TA=half_t (repeatable; wins over files); "
                    "-D threadIdx.x=N, -D blockIdx.x=N, -D block_rank_in_cluster=N: whose partitions and tile are "
                    "shown (0 unless given); -D Gemm_M=N: a problem size the program reads from argv (its "
                    "initializer, the default, unless given)")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("-I", sources.include_dirs,
                    "a folder #include looks in (repeatable), e.g. -I ~/cutlass/include: the files' CUTLASS and "
                    "project headers are read (CuTe's and system headers are not); also CUTLASS_PATH, CPATH, .cutevis")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--include", sources.pre_includes,
                    "(also -include FILE) read FILE before each --from file, as gcc's -include does (repeatable): a "
                    "header the --from file relies on "
                    "its includer for, e.g. -include cutlass/gemm/collective/collective_builder_decl.hpp; looked for "
                    "in the working folder, beside the file, then the -I folders")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    if (!cmd->get_option_no_throw("--arch"))  // (verify's --arch serves both)
      cmd->add_option("--arch", sources.arch,
                      "read the files' #if as a compile for this architecture does: --arch sm80 defines "
                      "__CUDA_ARCH__=800");
  };

  eval_cmd = app.add_subcommand("eval",
                                "Evaluate a layout-algebra expression and print the result (as CuTe prints "
                                "it, _8 vs 8, when it holds a dynamic integer)");
  eval_cmd
      ->add_option(
          "expression", eval.expression,
          "e.g. 'composition((4,8):(1,4), (2,2):(1,2))', or a snippet 'using A = Layout<Shape<_4,_8>>; coalesce(A{})'")
      ->required();
  eval_cmd->add_flag("--json", eval.json,
                     "one JSON object: kind, text, cute (CuTe's print), and size/cosize/values for layouts");
  add_output(eval_cmd);
  add_sources(eval_cmd);

  layout_cmd = app.add_subcommand("layout", "Draw a layout: the index at every coordinate (default: a text table)");
  layout_cmd->add_option("expression", show.input, "e.g. '((4,2),4):((8,4),1)' or 'S<3,4,3> o 0 o (8,64):(64,1)'")
      ->required();
  layout_cmd->add_flag("--json", show.json, "the eval --json object instead of a picture");
  layout_cmd->add_flag("--banks", flags.banks, "colour by shared-memory bank (32 banks of 4 bytes)");
  layout_cmd->add_option("--element-bits", flags.element_bits, "element width for --banks (default 16)");
  flags.add_to(layout_cmd);
  add_output(layout_cmd);
  add_sources(layout_cmd);

  tv_cmd = app.add_subcommand("tv", "Draw a TV layout over a tile: every (thread, value) owner of every cell");
  tv_cmd->add_option("tv_layout", show.input, "(thr,val) -> m + M*n, e.g. '((4,8),4):((8,1),32)'")->required();
  tv_cmd->add_option("tile", tile, "the (M,N) tile, e.g. '(8,16)'")->required();
  tv_cmd->add_flag("--json", show.json, "owners of every cell as JSON");
  flags.add_to(tv_cmd);
  add_output(tv_cmd);
  add_sources(tv_cmd);

  atom_cmd = app.add_subcommand("atom", "An MMA or copy atom by name: CuTe's print, --json, or a picture");
  atom_cmd->add_option("name", show.input, "e.g. SM70_8x8x4_F32F16F16F32_NT, 'SM90_64x128x16_F32F16F16_SS<K,K>'")
      ->required();
  atom_cmd->add_flag("--json", show.json, "atom, its 1x1x1 tiling and every owner as JSON");
  atom_cmd->add_option("--thread", thread,
                       "one thread's slice (ThrMMA): its (V,M,N,K) coordinate and its cells of A, B, C");
  flags.add_to(atom_cmd);
  add_output(atom_cmd);

  mma_cmd = app.add_subcommand("mma", "A TiledMMA: CuTe's print, --json, or a picture (C, A to the left, B above)");
  mma_cmd->add_option("expression", show.input,
                      "e.g. 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})'");
  mma_cmd->add_option("--atom", mma_atom, "build make_tiled_mma(ATOM{}, ATOMS, TILE) instead of an expression");
  mma_cmd->add_option("--atoms", mma_atoms, "the atom layout, e.g. 'Layout<Shape<_2,_2,_1>>{}' or '(2,2,1)'");
  mma_cmd->add_option("--tile", mma_tile, "the permutation tile, e.g. 'Tile<_32,_32,_16>{}'");
  mma_cmd->add_flag("--json", show.json, "the tiling and every owner as JSON");
  mma_cmd->add_flag("--sf", mma_sf, "a block-scaled UMMA's scale factors: which SF serves each A/B element");
  mma_cmd->add_option("--sf-tile", sf_options.tile,
                      "with --sf: the CTA tile MxNxK (default: the MMA's, 4 SFs per row)");
  mma_cmd->add_option("--sf-problem", sf_options.problem,
                      "with --sf: the problem MxNxK[xL] the gmem SF layouts cover (default: the tile)");
  mma_cmd->add_option("--sf-coord", sf_options.coord, "with --sf and --sf-problem: the tile's coordinate m,n,k,l");
  mma_cmd->add_option(
      "--thread", thread,
      "one thread's slice (ThrMMA): its (V,M,N,K) coordinate and its cells of A, B, C; with --smem-a/--smem-b its "
      "partition_A/B/C, fragments and retile_D; with --svg/--png/--html/... drawn");
  for (CLI::App* cmd : {atom_cmd, mma_cmd}) {
    cmd->add_option("--who", who.who, "every (thread, value) owning a cell and its register, e.g. 'A(5,3)' (A, B, C)");
    cmd->add_option("--feeds", who.feeds, "the A and B cells, threads and registers feeding a C cell, e.g. 'C(9,4)'");
  }
  mma_cmd->add_option("--smem-a", mma_inspect.smem_a,
                      "with --analyze or --thread: A's (M,K) shared-memory layout, e.g. "
                      "'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_32,_64>{})'");
  mma_cmd->add_option("--smem-b", mma_inspect.smem_b, "with --analyze: B's (N,K) shared-memory layout");
  mma_cmd->add_option(
      "--copy-a", mma_inspect.copy_a,
      "the S2R copy atom of A for make_tiled_copy_A, e.g. SM75_U32x4_LDSM_N (default: copy() of the MMA's partition)");
  mma_cmd->add_option("--copy-b", mma_inspect.copy_b,
                      "the S2R copy atom of B for make_tiled_copy_B (with --thread: its retile_D)");
  mma_cmd->add_flag("--analyze", mma_inspect.analyze, "cost the operands' shared-memory loads (see copy --analyze)");
  mma_cmd->add_flag("--instructions", mma_inspect.instructions, "with --analyze: every instruction's line");
  mma_cmd->add_flag("--suggest", mma_inspect.suggest,
                    "with --analyze: smem layouts that cost less under the operand's copies (canonical ones where a "
                    "descriptor reads it)");
  mma_cmd->add_option("--also", mma_inspect.also, "with --suggest: a G2S TiledCopy writing the operand (repeatable)");
  mma_cmd->add_option("--also-gmem", mma_inspect.also_gmem, "the global side of the --also copies");
  flags.add_to(mma_cmd);
  add_output(mma_cmd);
  add_sources(mma_cmd);

  copy_cmd = app.add_subcommand("copy", "A TiledCopy: CuTe's print, --json, or a picture (source and destination)");
  copy_cmd
      ->add_option("expression", show.input,
                   "e.g. 'make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, "
                   "Layout<Shape<_4,_1>>{})'")
      ->required();
  copy_cmd->add_flag("--json", show.json, "the tiling and every owner as JSON");
  copy_cmd->add_option("--src", inspect.src, "the source tensor [smem:|gmem:]LAYOUT, e.g. 'gmem:(128,64):(64,1)'");
  copy_cmd->add_option(
      "--dst", inspect.dst,
      "the destination tensor, e.g. 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})'");
  copy_cmd->add_flag("--analyze", inspect.analyze,
                     "cost every instruction: smem wavefronts and bank conflicts, gmem sectors, vectorization");
  copy_cmd->add_flag("--addresses", inspect.addresses,
                     "with --analyze --json: every lane's byte address per instruction");
  copy_cmd->add_option("--mma", inspect.mma,
                       "check that the copy's destination fragment is this TiledMMA's A/B fragment, thread by thread");
  copy_cmd->add_option("--operand", inspect.operand, "with --mma: A (default) or B");
  copy_cmd->add_flag("--instructions", inspect.instructions,
                     "with --analyze: every instruction's line (default: identical ones collapsed)");
  copy_cmd->add_flag("--suggest", inspect.suggest,
                     "with --analyze: shared-memory layouts (swizzles, GMMA atoms, padding) that cost less under "
                     "every copy of the tensor, as C++ to paste");
  copy_cmd->add_option("--also", inspect.also,
                       "with --suggest: another TiledCopy of the same shared-memory tensor (repeatable)");
  copy_cmd->add_option("--also-gmem", inspect.also_gmem,
                       "the global side of the --also copies (default: row-major (M,N))");
  copy_cmd->add_option("--thread", thread,
                       "with --src/--dst: that thread's partition_S / partition_D (CPY,CPY_M,CPY_N) of the tensors; "
                       "with --svg/--png/--html/... drawn");
  copy_cmd->add_option("--who", who.who, "every (thread, value) owning a cell of the tile: 'S(m,n)' or 'D(m,n)'");
  flags.add_to(copy_cmd);
  add_output(copy_cmd);
  add_sources(copy_cmd);

  desc_cmd = app.add_subcommand(
      "desc", "Decode a wgmma (GMMA) or tcgen05.mma (UMMA) shared-memory descriptor; draw the core matrices it reads");
  desc_cmd->add_option("descriptor", desc.value, "the 64-bit descriptor, e.g. 0x4000004000010000")->required();
  desc_cmd->add_flag("--gmma", desc.gmma, "an SM90 GmmaDescriptor (default unless the version bits say UMMA)");
  desc_cmd->add_flag("--umma", desc.umma, "an SM100 UMMA::SmemDescriptor");
  desc_cmd->add_option("--type", desc.type, "the element type it addresses (default half_t)");
  desc_cmd->add_option("--major", desc.major, "K (default) or MN");
  desc_cmd->add_option("--mn", desc.mn, "rows of M or N to draw (default 64)");
  desc_cmd->add_flag("--json", show.json, "the fields as JSON");
  flags.add_to(desc_cmd);
  add_output(desc_cmd);
  tmem_cmd = app.add_subcommand(
      "tmem",
      "An UMMA accumulator in tensor memory and the tcgen05.ld/st copy that moves it (lanes, warps, registers)");
  tmem_cmd->add_option("expression", tmem.expression,
                       "e.g. 'make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)' (tCtAcc: the accumulator)");
  tmem_cmd->add_option("--mma", tmem.mma, "the UMMA whose accumulator tCtAcc is, e.g. SM100_MMA_F16BF16_SS<...>");
  tmem_cmd->add_option("--acc", tmem.acc, "the accumulator MxN (the MMA's M; default 128x256)");
  tmem_cmd->add_option("--cta-group", tmem.cta_group, "1, or 2 for a CTA pair (SM100_MMA_*_2x1SM_*)");
  tmem_cmd->add_option("--type", tmem.type, "the accumulator type: float (default) or half_t");
  tmem_cmd->add_flag("--choose", tmem.choose, "list the tcgen05.ld atoms that fit the accumulator");
  tmem_cmd->add_flag("--store", tmem.store, "with --choose: tcgen05.st atoms");
  tmem_cmd->add_option("--epilogue-threads", tmem.threads, "with --choose: the epilogue's threads (a multiple of 128)");
  tmem_cmd->add_flag("--json", tmem.json, "every (m,n) with its lane, column, thread and register");
  flags.add_to(tmem_cmd);
  add_output(tmem_cmd);
  add_sources(tmem_cmd);

  app.add_subcommand(
         "dsl",
         "CuTeDSL by running it: dsl FILE.py --call 'Gemm(cutlass.Float32, (128, 128))' [--setup M] [NAME ...] "
         "(python3 -m cutevis.dsl --help)")
      ->allow_extras();
  list_cmd = app.add_subcommand("list", "The atom catalogue, with shapes and types");
  list_cmd->add_option("pattern", list.pattern, "substring or glob, e.g. 'SM90_64x*_F32F16F16_SS*'");
  list_cmd->add_option("--arch", list.arch, "only this architecture, e.g. sm80");
  list_cmd->add_flag("--json", list.json, "one JSON array");
  add_output(list_cmd);

  verify_cmd = app.add_subcommand("verify",
                                  "Run the atom's real instruction on the GPU and check who owns what (exit 0 agree, 1 "
                                  "disagree, 3 no GPU); --pipeline: a kernel's smem -> register -> MMA path");
#ifdef CUTEVIS_WEB
  // The page runs none of verify, check, batch and docs (a GPU, a kernel's files, files written):
  // each takes any words and run() says to use the command-line cutevis; their flags, the flags'
  // help and batch's spec text are left out (3 KB of the .wasm gzipped).
  verify_cmd->allow_extras();
#else
  verify_cmd->add_option(
      "name", verify.name,
      "an MMA or copy atom, e.g. SM80_16x8x16_F32F16F16F32_TN, 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>'");
  verify_cmd->add_option("--layout-a", verify.layout_a,
                         "a hand-written A TV layout (thr,val) -> (M,K) in place of the catalogue's");
  verify_cmd->add_option("--layout-b", verify.layout_b, "a hand-written B TV layout (thr,val) -> (N,K)");
  verify_cmd->add_option("--layout-c", verify.layout_c, "a hand-written C TV layout (thr,val) -> (M,N)");
  verify_cmd->add_option("--thr-id", verify.thr_id, "a hand-written ThrID");
  verify_cmd->add_option("--layout-src", verify.layout_src,
                         "copy atoms: a hand-written source TV layout (thr,val) -> value index");
  verify_cmd->add_option("--layout-dst", verify.layout_dst, "copy atoms: a hand-written destination TV layout");
  verify_cmd->add_option("--smem-layout", verify.smem_layout,
                         "GMMA shared-memory operands: INTER, SW32, SW64 or SW128");
  verify_cmd->add_flag("--all", verify.all, "check the whole runnable catalogue in one process");
  verify_cmd->add_option("--arch", verify.arch, "with --all: only this architecture, e.g. sm90");
  verify_cmd->add_option("--contains", verify.contains, "with --all: only atoms whose name contains this");
  verify_cmd->add_flag("--every", verify.every, "with --all: a line for every atom, not only per family");
  verify_cmd->add_flag("--json", verify.json, "the report as JSON");
  // --pipeline: G2S -> smem -> S2R -> MMA of a hand-written kernel, with the real instructions
  VerifyPipelineOptions& vp = verify.pipeline_flags;
  verify_cmd->add_flag("--pipeline", vp.on,
                       "check a kernel's smem -> register -> MMA path: --mma, --smem-a/-b, --copy-a/-b [--g2s]");
  verify_cmd->add_option(
      "--mma", vp.mma,
      "--pipeline: the TiledMMA, e.g. 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})'");
  verify_cmd->add_option("--smem-a", vp.smem_a,
                         "--pipeline: A's (M,K) shared-memory layout, e.g. "
                         "'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})'");
  verify_cmd->add_option("--smem-b", vp.smem_b, "--pipeline: B's (N,K) shared-memory layout");
  verify_cmd->add_option(
      "--data-a", vp.data_a,
      "--pipeline: where A's data really is in shared memory (the producer's layout; default --smem-a)");
  verify_cmd->add_option("--data-b", vp.data_b, "--pipeline: where B's data really is (default --smem-b)");
  verify_cmd->add_option("--copy-a", vp.copy_a,
                         "--pipeline: A's S2R copy atom for make_tiled_copy_A, e.g. SM75_U32x4_LDSM_N (mma.sync)");
  verify_cmd->add_option("--copy-b", vp.copy_b,
                         "--pipeline: B's S2R copy atom for make_tiled_copy_B, e.g. SM75_U32x2_LDSM_N");
  verify_cmd->add_option(
      "--g2s", vp.g2s, "--pipeline: a G2S TiledCopy (cp.async or UniversalCopy) filling sA and sB from global memory");
  verify_cmd->add_option("--g2s-a", vp.g2s_a, "--pipeline: A's G2S TiledCopy (in place of --g2s)");
  verify_cmd->add_option("--g2s-b", vp.g2s_b, "--pipeline: B's G2S TiledCopy (in place of --g2s)");
  verify_cmd->add_option("--gmem-a", vp.gmem_a,
                         "--pipeline with --g2s: A's (M,K) global layout (default K-major (M,K):(K,1))");
  verify_cmd->add_option("--gmem-b", vp.gmem_b, "--pipeline with --g2s: B's (N,K) global layout (default (N,K):(K,1))");
  verify_flags.add_to(verify_cmd);
  add_output(verify_cmd);
  add_sources(verify_cmd);
#endif

  names_cmd =
      app.add_subcommand("names", "Every name a C++ file declares: its kind and CuTe print, or what is missing (-D)");
  names_cmd->add_flag("--json", names.json,
                      "one JSON object: names (name, kind, value or error and needs), parameters");
  add_output(names_cmd);
  add_sources(names_cmd);

  check_cmd = app.add_subcommand(
      "check",
      "Check a kernel's copies and gemms without compiling it: errors (exit 1) and warnings, per --sweep config");
#ifdef CUTEVIS_WEB
  check_cmd->allow_extras();
#else
  check_cmd->add_flag("--json", check.json,
                      "one JSON object: findings (file, line, column, severity, kind, ...), summary");
  check_cmd->add_flag("--sarif", check.sarif, "a SARIF 2.1.0 document (GitHub code scanning)");
  check_cmd->add_flag("--werror", check.werror, "warnings fail too (exit 1)");
  check_cmd->add_option("--sweep", check.sweeps, "NAME=V1|V2|... : check every value (repeatable: every combination)");
  add_output(check_cmd);
  add_sources(check_cmd);
#endif

  batch_cmd =
      app.add_subcommand("batch", "Draw every picture of a JSON batch spec in one process (see samples/docs.json)");
#ifdef CUTEVIS_WEB
  batch_cmd->allow_extras();
#else
  batch_cmd->add_option("spec", batch.spec_path, "the batch spec (JSON)")->required();
  batch_cmd->add_option("-C,--directory", batch.output_dir, "write the pictures under this folder")
      ->capture_default_str();
  batch_cmd->add_flag("--force", batch.force, "redraw every entry, even those up to date");
  batch_cmd->add_flag("--allow-outside", batch.allow_outside, "let outputs leave the -C folder (../x.svg, /abs/x.svg)");
  batch_cmd->add_option("-j,--jobs", batch.jobs, "pictures drawn at once (default: one per hardware thread)")
      ->check(whole_number(0, 1024, "a number of jobs"));
  batch_cmd->add_option("--root", batch.root,
                        "\"from\" files must lie below this folder (default: the repository holding the spec)");
  batch_cmd->footer(batch_spec_help());
#endif

  docs_cmd = app.add_subcommand(
      "docs", "Draw the pictures of every ```cutevis block of Markdown files (--check: list stale ones, exit 1)");
#ifdef CUTEVIS_WEB
  docs_cmd->allow_extras();
#else
  docs_cmd->add_option("files", docs.files, "Markdown files, e.g. README.md")->required();
  docs_cmd->add_flag("--check", docs.check,
                     "write nothing; list pictures that are missing or differ and exit 1 if any (a CI gate)");
  docs_cmd->add_option("--root", docs.root,
                       "outputs and --from files must stay in this folder (default: the repository, the nearest "
                       "folder above the Markdown file holding .git)");
  docs_cmd->add_flag("--allow-outside", docs.allow_outside, "let outputs and --from files leave the root");
  docs_cmd->footer(
      "A ```cutevis block holds command lines without the word cutevis, each writing one file with -o PATH\n"
      "(relative to the Markdown file's folder), e.g.\n"
      "  ```cutevis\n  atom SM70_8x8x4_F32F16F16F32_NT -o samples/sm70_8x8x4_nt.png\n  ```");
#endif

  for (CLI::App* cmd : {atom_cmd, mma_cmd, copy_cmd})
    cmd->get_option("--thread")->check(whole_number(-2147483647, 2147483647, "a thread index"));

  for (CLI::App* cmd : {eval_cmd, layout_cmd, tv_cmd, mma_cmd, copy_cmd})
    cmd->add_flag(
        "--dsl", dsl,
        "read the expression as CuTeDSL (Python): cute.make_layout((4, 8), stride=(1, 4)); detected without it");
}

int Cli::run(int argc, char** argv) {
  try {
    if (int code = before_parse(app, argc, argv); code >= 0) return code;
    // gcc's spelling -include FILE is --include FILE (CLI11's one-dash options are one letter)
    std::vector<std::string> words(argv, argv + argc);
    std::vector<char*> spelled;
    for (std::string& w : words) spelled.push_back(w == "-include" ? const_cast<char*>("--include") : w.data());
    app.parse(argc, spelled.data());
    check_one_format(app);
  } catch (const CLI::Success& e) {  // --help, --version
    if (capture.output) {
      report("cutevis: error: --help and --version print no picture\n");
      return kExitBadInput;
    }
    int code = app.exit(e) == 0 ? kExitOk : kExitBadInput;
    try {
      write_stdout("");  // flushes: `cutevis --help >/dev/full` is exit 4 too
    } catch (const OutputError& err) {
      std::fputs(format_error(err).c_str(), stderr);
      return kExitIoError;
    }
    return code;
  } catch (const CLI::ParseError& e) {
    return parse_error(app, e);
  } catch (const OutputError& e) {
    report(format_error(e));
    return kExitIoError;
  } catch (const Error& e) {
    report(format_error(e));
    return kExitBadInput;
  }

  try {
    check_output_extension(output_path);
    if (dsl) eval.syntax = show.syntax = Syntax::kDsl;
    if (sources.arch.empty() && verify_cmd->parsed()) sources.arch = verify.arch;
    if (check_cmd->parsed()) {  // reads its files itself: once for every --sweep configuration
#ifdef CUTEVIS_WEB  // the page leaves check's kernel reader and std::regex out: 108 KB of the .wasm, 44 KB gzipped
      throw Error("cutevis check reads a kernel's files: use the command-line cutevis");
#else
      check.sources = sources;
      CheckOutcome r = run_check(check);
      emit(r.output, output_path);
      return r.exit_code;
#endif
    }
    std::shared_ptr<Environment> env = load_sources(sources);
    keep_until_exit(env);
    if (env)  // the preprocessor's notes (an #if decided without a value), before any answer
      for (const Warning& w : env->take_warnings())
        std::fputs(("cutevis: warning: " + w.message + "\n").c_str(), stderr);
    show.env = verify.env = env;
    if (names_cmd->parsed()) {
      names.sources = sources;
      names.env = env;  // read once
      return emit(run_names(names), output_path);
    }
    if (eval_cmd->parsed()) {
      source = eval.expression;
      if (auto f = format_for_output(std::nullopt, eval.json, output_path); f && *f != Format::kTxt)
        throw Error("cutevis eval draws no pictures: use cutevis layout EXPR -o " + output_path);
      return emit(run_eval(eval, env), output_path);
    }
    if (list_cmd->parsed()) {
      if (auto f = format_for_output(std::nullopt, list.json, output_path); f && *f != Format::kTxt)
        throw Error("cutevis list draws no pictures: write it to a .txt or .json file");
      return emit(run_list(list), output_path);
    }
    if (verify_cmd->parsed()) {
#ifdef CUTEVIS_WEB  // web/cli_main.cpp: the page links none of verify, batch and docs
      throw Error("cutevis verify runs on a GPU: use the command-line cutevis");
#else
      verify.picture = verify_flags.options(output_path);
      verify.picture.format = format_for_output(verify.picture.format, verify.json, output_path);
      if (verify.json && verify.picture.format) throw Error("--json and a picture format exclude each other");
      VerifyOutcome r = run_verify(verify);
      if (!r.output.bytes.empty()) emit(r.output, output_path);  // no GPU: no picture to write
      if (!r.notice.empty()) std::fputs((r.notice + "\n").c_str(), stderr);
      return r.exit_code;
#endif
    }
    if (batch_cmd->parsed()) {
#ifdef CUTEVIS_WEB
      throw Error("cutevis batch writes files: use the command-line cutevis");
#else
      BatchResult r = run_batch(batch);
      write_stdout("cutevis: wrote " + std::to_string(r.written.size()) + " files, " +
                   std::to_string(r.skipped.size()) + " up to date\n");
      return kExitOk;
#endif
    }
    if (docs_cmd->parsed()) {
#ifdef CUTEVIS_WEB
      throw Error("cutevis docs writes files: use the command-line cutevis");
#else
      DocsResult r = run_docs(docs);
      write_stdout(r.report);
      return r.exit_code;
#endif
    }
    if (tmem_cmd->parsed()) {
      tmem.picture = flags.options(output_path);
      if (tmem.json && tmem.picture.format) throw Error("--json and a picture format exclude each other");
      tmem.picture.format = format_for_output(tmem.picture.format, tmem.json, output_path);
      tmem.sources = sources;
      if (dsl) tmem.syntax = Syntax::kDsl;
      source = tmem.expression;
      return emit(run_tmem(tmem), output_path);
    }
    show.picture = flags.options(output_path);
    if (show.json && show.picture.format) throw Error("--json and a picture format exclude each other");
    show.picture.format = format_for_output(show.picture.format, show.json, output_path);
    if (atom_cmd->count("--thread") || mma_cmd->count("--thread") || copy_cmd->count("--thread"))
      show.thread = thread;  // -5 too: rejected later
    if (!flags.threads.empty() && !show.picture.format && !layout_cmd->parsed() && !tv_cmd->parsed())
      report("cutevis: warning: --threads has no effect on " + std::string(show.json ? "JSON" : "CuTe's text print") +
             " (it highlights threads in a picture: --txt, --svg, --png, ...)\n");
    if (show.json && show.picture.format) throw Error("--json and a picture format exclude each other");
    if (layout_cmd->parsed()) {
      source = show.input;
      return emit(run_layout(show), output_path);
    }
    if (tv_cmd->parsed()) {
      source = show.input;
      return emit(run_tv(show, tile), output_path);
    }
    if (who.any() && (atom_cmd->parsed() || mma_cmd->parsed() || copy_cmd->parsed())) {
      if (mma_cmd->parsed() && !mma_atom.empty()) show.input = mma_expression(mma_atom, mma_atoms, mma_tile);
      source = show.input;
      return emit(run_who(show, who, atom_cmd->parsed() ? "atom" : mma_cmd->parsed() ? "mma" : "copy"), output_path);
    }
    if (atom_cmd->parsed()) {
      source = show.input;
      return emit(run_atom(show), output_path);
    }
    if (mma_cmd->parsed()) {
      if (!mma_atom.empty()) {
        if (!show.input.empty()) throw Error("give either an expression or --atom, not both");
        show.input = mma_expression(mma_atom, mma_atoms, mma_tile);
      } else if (show.input.empty()) {
        throw Error("cutevis mma needs an expression or --atom NAME");
      } else if (!mma_atoms.empty() || !mma_tile.empty()) {
        throw Error("--atoms and --tile go with --atom");
      }
      source = show.input;
      if (mma_sf) return emit(run_mma_sf(show, sf_options), output_path);
      return emit(run_mma(show), output_path);
    }
    if (copy_cmd->parsed()) {
      source = show.input;
      return emit(run_copy(show), output_path);
    }
    if (desc_cmd->parsed()) return emit(run_desc(desc, show), output_path);
  } catch (const OutputError& e) {
    report(format_error(e));
    return kExitIoError;
  } catch (const Error& e) {
    // docs and batch list several errors, or a block's own error with its caret: real lines
    std::string msg = docs_cmd->parsed() || batch_cmd->parsed() ? format_error_lines(e) : describe_error(e, source);
    report(msg);
    bool io = std::string(e.what()).rfind("cannot write", 0) == 0;
    return io ? kExitIoError : kExitBadInput;
  } catch (const std::exception& e) {
    report(format_error(Error(e.what())));
    return kExitBadInput;
  }
  return kExitOk;
}

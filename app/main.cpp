// cutevis — the command line.  Parses flags (CLI11) and calls one library function
// per sub-command (app/commands.hpp); prints errors as `cutevis: error: ...`.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "app/commands.hpp"
#include "app/diagnostics.hpp"
#include "app/exit_codes.hpp"
#include "app/output.hpp"

using namespace cutevis;

namespace {

// Where a command's output goes: stdout, or a file written atomically with -o.
int emit(const Output& out, const std::string& path) {
  if (!path.empty() && path != "-") {
    write_file_atomically(path, out.bytes);
    return kExitOk;
  }
  if (out.binary && stdout_is_terminal())
    throw Error("refusing to write binary output to a terminal; use -o FILE or redirect stdout");
  std::fwrite(out.bytes.data(), 1, out.bytes.size(), stdout);
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cutevis: CuTe layouts, TV layouts, MMA and copy atoms from text -- pictures, JSON, and GPU checks"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "cutevis 0.1.0");
  app.footer(
      "Exit codes: 0 ok, 1 verify found a disagreement, 2 bad input, 3 no usable GPU/CUDA, 4 output not written.\n"
      "Expressions take CuTe's printed notation ((4,2),4):((8,4),1), S<3,4,3> o 0 o (8,64):(64,1)\n"
      "or its C++ syntax Layout<Shape<_4,_8>,Stride<_1,_4>>{}, make_layout(make_shape(4,8), LayoutRight{}).");

  std::string output_path;
  std::string source;  // the expression being evaluated, for the caret under errors

  EvalOptions eval;
  CLI::App* eval_cmd = app.add_subcommand("eval", "Evaluate a layout-algebra expression and print the result");
  eval_cmd->add_option("expression", eval.expression, "e.g. 'composition((4,8):(1,4), (2,2):(1,2))'")->required();
  eval_cmd->add_flag("--json", eval.json, "one JSON object: kind, text, and size/cosize/values for layouts");
  eval_cmd->add_option("-o,--output", output_path, "write to FILE (atomically) instead of stdout");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (eval_cmd->parsed()) {
      source = eval.expression;
      return emit(run_eval(eval), output_path);
    }
  } catch (const Error& e) {
    std::string msg = format_error(e, source);
    std::fputs(msg.c_str(), stderr);
    bool io = std::string(e.what()).rfind("cannot write", 0) == 0;
    return io ? kExitIoError : kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cutevis: error: %s\n", e.what());
    return kExitBadInput;
  }
  return kExitOk;
}

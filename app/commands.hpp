// cutevis — one library function per sub-command; main.cpp only parses flags.
// Every function throws cutevis::Error for bad input (exit 2); the caller prints it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "lib/lang/expr.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"

namespace cutevis {

class Environment;  // declared names from --from / -D (lib/lang/environment.hpp)

// What a command produces: text or binary bytes for stdout or a file.
struct Output {
  std::string bytes;
  bool binary = false;  // PNG/PDF: never written to a terminal
  int exit_code = 0;    // after writing: 1 when the analysed code would not compile or would fault (inspect.hpp)
};

// The warnings of the expressions evaluated since the last call (e.g. a composition
// that CuTe's weak divisibility check lets through), each one line for stderr.
std::vector<std::string> take_warnings();

// Picture flags shared by layout, tv, atom, mma and copy.
struct PictureOptions {
  std::optional<Format> format;   // --tex --svg --png --pdf --txt --html, or -o's extension
  Style style = Style::kDefault;  // --style default|cute
  std::string color_by = "auto";  // --color-by thread|value|warp|index|bank|none
  std::string threads;            // --threads 0,5,32-35
  int bank_element_bits = 16;     // --element-bits for --color-by bank
  bool ansi_color = false;        // text pictures on a colour terminal
  double scale = 1.0;             // --scale: PNG/PDF/SVG size factor
  double cell = 0;                // --cell PX: cell size (0: from the longest label)
};

// The format `-o PATH` asks for: the flag given, else the file's extension.  A flag
// that contradicts the extension is an error; `json` says whether --json was given
// (or the extension is .json).  Returns the picture format (none: CuTe's text print
// or JSON).
std::optional<Format> format_for_output(std::optional<Format> flag, bool& json, const std::string& path);

struct EvalOptions {
  std::string expression;
  bool json = false;
  Syntax syntax = Syntax::kAuto;  // --dsl: read the expression as CuTeDSL (Python)
};

struct ShowOptions {
  std::string input;              // an expression or a name
  bool json = false;              // --json
  Syntax syntax = Syntax::kAuto;  // --dsl: read the expression as CuTeDSL (Python)
  PictureOptions picture;
  std::optional<int64_t> thread;                          // atom/mma --thread T: that thread's slice (ThrMMA)
  std::shared_ptr<Environment> env;                       // --from / -D declarations (app/sources.hpp), or null
  const struct InspectOptions* inspect = nullptr;         // copy --src/--dst/--analyze (app/inspect.hpp)
  const struct MmaInspectOptions* mma_inspect = nullptr;  // mma --smem-a/--smem-b --analyze
};

// `cutevis eval EXPR`: the value in CuTe's notation, or the JSON contract; `env`: the
// --from / -D declarations (app/sources.hpp), or null.
Output run_eval(const EvalOptions& options, const std::shared_ptr<Environment>& env = nullptr);

// `cutevis layout EXPR`: a picture of a layout (default: the text table).
Output run_layout(const ShowOptions& options);

// `cutevis tv TV_LAYOUT TILE`: every owner of every cell of TILE.
Output run_tv(const ShowOptions& options, const std::string& tile);

// `cutevis atom NAME`: an MMA or copy atom by name; CuTe's print, --json, or a picture
// of make_tiled_mma(atom).
Output run_atom(const ShowOptions& options);

// `cutevis mma EXPR`: a TiledMMA (or an atom, tiled 1x1x1).
Output run_mma(const ShowOptions& options);
// The expression `--atom NAME --atoms L --tile T` stand for.
std::string mma_expression(const std::string& atom, const std::string& atom_layout, const std::string& tile);

// `cutevis copy EXPR`: a TiledCopy.
Output run_copy(const ShowOptions& options);

// The same commands on a value already evaluated (the Python module, python/binding.cpp: the
// same text, JSON and pictures as the CLI for the same value).  `o.input` is the picture's title.
Output eval_output(const Value& v, bool json);                 // eval [--json]
Output show_layout_value(Value v, const ShowOptions& o);       // layout
Output show_mma_value(const Value& v, const ShowOptions& o);   // mma
Output show_copy_value(const Value& v, const ShowOptions& o);  // copy

struct ListOptions {
  std::string pattern;  // substring or glob (*, ?), case-insensitive
  std::string arch;     // "sm90", "90", or "" for all
  bool json = false;
};
// `cutevis list`: the catalogue with shapes and types.
Output run_list(const ListOptions& options);

// verify --pipeline: a TiledMMA, the operands' shared-memory layouts and the copies around it.
struct VerifyPipelineOptions {
  bool on = false;
  std::string mma;                // the TiledMMA expression
  std::string smem_a, smem_b;     // (M,K) / (N,K) shared-memory layouts
  std::string data_a, data_b;     // where the data really is (the producer's layout), default smem_a/b
  std::string copy_a, copy_b;     // S2R copy atoms (mma.sync)
  std::string g2s, g2s_a, g2s_b;  // G2S TiledCopy expressions (both, or per operand)
  std::string gmem_a, gmem_b;     // global layouts (G2S sources), default K-major
};
struct VerifyOptions {
  std::string name;                                  // an MMA or copy atom
  std::string layout_a, layout_b, layout_c, thr_id;  // hand-written MMA layouts
  std::string layout_src, layout_dst;                // hand-written copy layouts
  std::string smem_layout;                           // GMMA: INTER, SW32, SW64, SW128
  bool all = false;                                  // the whole runnable catalogue
  std::string arch;                                  // with --all: only this architecture
  std::string contains;                              // with --all: only names containing this
  bool every = false;                                // with --all: one line per atom
  bool json = false;
  PictureOptions picture;                // a diff picture of a single atom's report
  std::shared_ptr<Environment> env;      // --from / -D declarations for the --layout-* options
  VerifyPipelineOptions pipeline_flags;  // --pipeline and its flags
};
struct VerifyOutcome {
  Output output;
  int exit_code = 0;   // 0 agree, 1 disagree, 3 no usable GPU/CUDA
  std::string notice;  // a line for stderr (no GPU), or empty
};
// `cutevis verify`: run the real instruction and compare ownership.
VerifyOutcome run_verify(const VerifyOptions& options);

// The names of the atom catalogue in the expression language (idempotent).
void register_catalogue_names();

}  // namespace cutevis

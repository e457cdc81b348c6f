// cutevis — batch specs: many pictures from one JSON file in one process, for
// documentation images generated in CI (see samples/docs.json and its schema,
// samples/batch.schema.json).
//
//   {"pictures": [
//     {"command": "atom", "input": "SM70_8x8x4_F32F16F16F32_NT", "output": "sm70.svg"},
//     {"command": "layout", "input": "S<3,4,3> o 0 o (8,64):(64,1)", "output": "swizzle.png",
//      "color_by": "bank", "element_bits": 16},
//     {"command": "mma", "input": "make_tiled_mma(...)", "format": "tex", "style": "cute",
//      "output": "mma.tex", "threads": "0-3"},
//     {"command": "tv", "input": "((4,8),4):((8,1),32)", "tile": "(32,4)", "output": "tv.html"}]}
//
// command: layout | tv | atom | mma | copy; the format comes from the output's
// extension (or "format": tex | svg | png | pdf | txt | html | json, which must agree
// with it); optional: style, color_by, threads, element_bits, scale, cell, tile (tv
// only), from ("FILE" or ["FILE", ...]) and defines (["NAME=VALUE", ...]) as --from and
// -D (app/sources.hpp).  Output paths are relative to the output folder and may not
// leave it unless allowed.
//
// A run is all or nothing: the whole spec is checked first and every error reported
// with its entry's index; then every picture is drawn (in parallel) in memory; only
// when all succeeded are files written.  It is incremental: an entry whose inputs
// (the entry, and the cutevis version and build) and whose file are those of the last run is
// skipped; the stamps live in OUTPUT_DIR/.cutevis-batch.json (a reserved output name; a
// symbolic link or special file there is refused), merged with other specs' stamps.
//
// Containment: an output must stay in -C after every symbolic link is resolved, never
// under .git/; "from" files must lie below the root (--root, else the repository
// holding the spec); --allow-outside lifts both.  Bounds: the spec is read as any input
// file (app/input_files.hpp) and may nest JSON at most 256 deep; "from" files are
// deduplicated and each list is read once per run.
#pragma once

#include <string>
#include <vector>

namespace cutevis {

struct BatchOptions {
  std::string spec_path;
  std::string output_dir = ".";
  bool force = false;          // redraw every entry, stamps or not
  bool allow_outside = false;  // outputs may leave output_dir ("../x.svg", "/tmp/x.svg"), "from" the root
  std::string root;            // "from" files lie below it (default: the repository holding the spec)
  unsigned jobs = 0;           // pictures drawn at once; 0: one per hardware thread
};

struct BatchResult {
  std::vector<std::string> written;  // the files written, in spec order
  std::vector<std::string> skipped;  // up to date, not redrawn
};

// Throws Error listing every error ("pictures[3] (atom ...): ...", one per line) with
// nothing written, or an Error starting "cannot write" when a file could not be written.
BatchResult run_batch(const BatchOptions& options);
BatchResult run_batch(const std::string& spec_path, const std::string& output_dir);

// The spec's keys, each with its meaning, for `cutevis batch --help` and the README.
std::string batch_spec_help();

// The text of the cutevis version the stamps record ("cutevis 0.1.0").
const char* cutevis_version();

}  // namespace cutevis

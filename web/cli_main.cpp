// app/main.cpp, compiled for the page as a function the binding calls: the page runs
// the CLI's own flag declarations and sub-commands, so every command and flag the CLI has, the
// page has, with the same output and the same errors.  Its parser is app/cli_lite (CLI11's
// answers, byte for byte: tests/app/cli_lite_test.cpp), not CLI11 -- and not verify (a GPU),
// batch and docs (files written) and check (a kernel's files; its reader and std::regex are
// 6% of the .wasm): CUTEVIS_WEB leaves their code out of the .wasm.
#define main cutevis_cli_main
#define CUTEVIS_WEB 1
#define CUTEVIS_CLI_LITE 1
#include "app/main.cpp"  // NOLINT(bugprone-suspicious-include)

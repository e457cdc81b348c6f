// app/main.cpp, compiled for the page as a function the binding calls: the page runs
// the CLI's own flag parsing (CLI11) and sub-commands, so every command and flag the
// CLI has, the page has, with the same output and the same errors.
#define main cutevis_cli_main
#include "app/main.cpp"  // NOLINT(bugprone-suspicious-include)

// The folders of tests/support/paths.hpp, from CMake (the only test object that holds them).
#include "tests/support/paths.hpp"

namespace cutevis::test {
const char* source_dir_path() { return CUTEVIS_SOURCE_PATH; }
const char* binary_dir_path() { return CUTEVIS_BINARY_PATH; }
const char* reference_dir_path() { return CUTEVIS_REFERENCE_PATH; }
}  // namespace cutevis::test

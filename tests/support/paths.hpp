// Where a test finds the source tree, the build folder and CuTe's reference data.
//
// Every test file is compiled with `-include tests/support/paths.hpp` (tests/CMakeLists.txt), and
// the three folders are compiled into one file, paths.cpp, of the small library
// cutevis_test_paths: no other test object holds an absolute path, so ccache (with
// CCACHE_BASEDIR, as scripts/test.sh sets it) shares them between clones at different paths.
#pragma once

namespace cutevis::test {
const char* source_dir_path();     // the repository (CMake's PROJECT_SOURCE_DIR)
const char* binary_dir_path();     // the build folder (PROJECT_BINARY_DIR)
const char* reference_dir_path();  // CUTEVIS_REFERENCE_DIR: tests/data/reference unless configured
}  // namespace cutevis::test

#define CUTEVIS_SOURCE_DIR (::cutevis::test::source_dir_path())
#define CUTEVIS_BINARY_DIR (::cutevis::test::binary_dir_path())
#define CUTEVIS_REFERENCE_DIR (::cutevis::test::reference_dir_path())

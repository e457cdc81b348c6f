// The SM100 interleaved complex TF32 atoms are listed (issue 13): every M and N CuTe's
// static_asserts allow (M 64/128, 2x1SM 128/256; N a multiple of 8 or 16 up to 256), K-major
// only, and each listed name decodes to CuTe's Shape_MNK = (M, N, 256 / sizeof_bits<complex<tfloat32_t>>) = (M, N, 4).
#include <doctest/doctest.h>

#include <algorithm>

#include "atoms/mma_catalogue.hpp"

using namespace cutevis;

TEST_CASE("mma catalogue: the interleaved complex TF32 atoms are listed") {
  int listed = 0;
  for (const auto& name : mma_atom_names()) {
    if (name.find("_INTERLEAVED_") == std::string::npos) continue;
    ++listed;
    CAPTURE(name);
    MmaAtom a = find_mma_atom(name);
    CHECK(size(a.shape_mnk[2]) == 4);
    CHECK(a.short_name == name);
  }
  CHECK(listed == 96);  // 1SM: 32 (M=64) + 16 (M=128); 2x1SM: 32 (M=128) + 16 (M=256)
  auto names = mma_atom_names();
  CHECK(std::find(names.begin(), names.end(),
                  "SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<256,256,K,K>") != names.end());
  CHECK(std::find(names.begin(), names.end(), "SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,8,K,K>") ==
        names.end());  // N % 16 at M=128
}

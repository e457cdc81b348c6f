// cutevis — a kernel's parameters bound from its launch in the same file, as C++ binds them:
//
//   template <class ProblemShape, class ASmemLayout, class TiledMma, ...>
//   __global__ void gemm_device(ProblemShape shape_MNK, ..., ASmemLayout sA_layout, ..., TiledMma mma);
//   void gemm_nt(int m, ...) {
//     auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<TA>{}, make_shape(bM, bK, bP));
//     gemm_device<<<grid, block>>>(prob_shape, ..., sA, ..., tiled_mma);   // or &gemm_device<decltype(sA), ...>
//
// gives gemm_device's `ASmemLayout` = decltype(sA) and `sA_layout` = sA, both read in gemm_nt
// (Declaration::read_in), so the kernel's locals (`make_tensor(make_smem_ptr(p), ASmemLayout{})`)
// resolve as the launch instantiates them.  Template arguments the launch names win; the others
// are deduced from a parameter whose type is exactly the template parameter (`ASmemLayout
// sA_layout`); a pointer's element type (`TA const* A`) is not deduced (a -D gives it).  Run-time
// arguments stay what they are: a pointer keeps its name, an `int m` parameter of the launching
// function stays undefined.  A kernel launched from several places is bound from the first;
// the note says which, and names the others.
#pragma once

#include <string>
#include <vector>

#include "lib/lang/environment.hpp"
#include "lib/lang/kernel_body.hpp"

namespace cutevis {

struct LaunchBindingNote {
  std::string kernel;  // gemm_device
  std::string message;
};

// Adds to `env` (whose declarations and parameters of `file` are already read) a declaration
// for each kernel parameter and template parameter of `kernels` a launch binds; one note per
// kernel launched from more than one place.  `text` is the file's text, `file` its name.
std::vector<LaunchBindingNote> bind_launches(Environment& env, const KernelFile& kernels, const std::string& text,
                                             const std::string& file);

}  // namespace cutevis

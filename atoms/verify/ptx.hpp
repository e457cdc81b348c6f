// cutevis — the kernels verify runs, as PTX text generated from a plan.
//
// One generic kernel shape per instruction class; block b of a launch runs data set b:
//   MMA:  load A/B/C registers of each thread (or copy the A/B shared-memory image and
//         build the GMMA descriptors), run the instruction once, store D's registers.
//         Parameters: (a, b, c, d) global pointers.
//   copy: ldmatrix — copy the shared-memory image in, each thread passes its row
//         address, store the registers; stmatrix — load the registers, each thread
//         passes its row address, copy the image out; movmatrix — registers in, out.
//         Parameters: (in, row byte offsets per thread, out).
// The text is plain PTX: the driver JIT-compiles it, so no CUDA compiler is needed at
// build time, and `ptxas` can check it on a machine without a GPU.
#pragma once

#include <string>
#include <vector>

#include "atoms/verify/plan.hpp"

namespace cutevis::verify {

std::string mma_kernel_ptx(const MmaPlan& plan, const std::string& entry);
// smem_bytes: the shared-memory window the copy works in (a multiple of 16).
std::string copy_kernel_ptx(const CopyPlan& plan, const std::string& entry, int64_t smem_bytes);
// The oldest PTX ISA that knows `target` (sm_90a: 8.0).
int min_ptx_version(const std::string& target);
// A whole module for `target` (sm_90a, sm_80, ...): .version is the higher of
// `ptx_version` (what the kernels need) and the target's minimum.
std::string ptx_module(const std::vector<std::string>& kernels, int ptx_version, const std::string& target);

}  // namespace cutevis::verify

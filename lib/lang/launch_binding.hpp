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

#include <map>
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

// `auto kernel_fptr = gemm_device<decltype(prob_shape), ...>;` (or `&gemm_device<...>`): the kernel and
// its template arguments as a value (kind "kernel"), each named by the kernel's template parameter; its
// launch through the pointer (`kernel_fptr<<<...>>>`) binds like a direct one (read_kernels' aliases).
void mark_kernel_pointers(std::vector<Declaration>& declarations, const KernelFile& kernels, const std::string& file);

// The same for a function the file defines and calls from another (host code: gemm_nt(m, n, k, alpha, A, ...)
// called from gemm, gemm called from main): each parameter the call passes is the caller's argument read in the
// caller's scope, a template parameter is deduced from a parameter whose type is exactly it (`LayoutA layout_A`)
// or a pointer to it (`TA const* A` given the caller's `TA const* A`), a parameter the call leaves out is its
// default.  Overloads are chosen by the number of arguments, then, as C++'s partial ordering does, the more
// specialized (fewer parameters of a template parameter's type) where its concrete pointer types are checked
// equal to the caller's; where that cannot be checked, nothing is bound and a note says why.  A function called
// from several places is bound from the first call in the file.
std::vector<LaunchBindingNote> bind_calls(Environment& env, const KernelFile& kernels, const std::string& text,
                                          const std::string& file);

// A class template's parameters, for its members listed on their own (`SharedStorage::A`), bound from its first
// instantiation in a function of the file (`using SharedStorage = SharedStorage<TA, TB, ASmemLayout, BSmemLayout>;`
// in the kernel, read there): `templates` maps each template the file defines members of to its parameters.  An
// instance named with its arguments (`SharedStorage<half_t, ...>::A`, sizeof) is evaluated with its own.
std::vector<LaunchBindingNote> bind_class_templates(Environment& env, const KernelFile& kernels,
                                                    const std::map<std::string, std::vector<std::string>>& templates,
                                                    const std::string& text, const std::string& file);

// Marks (Declaration::changed_at) each local of a function in `kernels` that its function changes after its
// declaration (kernels.functions' writes): `int k_tile = 0; ... ++k_tile;` has no value but a run-time one, so
// nothing binds its initializer.  A local only the program's command line changes (`int m = 512; if (argc >= 2)
// sscanf(argv[1], "%d", &m);`) is marked Declaration::command_line_at instead: its initializer is the default
// problem size, read with a note.
void mark_changed_locals(std::vector<Declaration>& declarations, const KernelFile& kernels, const std::string& file);

}  // namespace cutevis

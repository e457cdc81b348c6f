// A hand-written host program in the style of CuTe's GEMM tutorials (not their text): its problem size has a
// default the command line may change (`int Gemm_M = 256; if (argc >= 2) sscanf(argv[1], "%d", &Gemm_M);`),
// read by cutevis at that default with a note; the other locals that change at run time (a loop's counter,
// one assigned from another run-time value, one set by a helper of the program's own) stay run-time values.
// Expected values: default_size_oracle.tsv's file.* rows (real CuTe at these sizes).  Used by
// tests/app/default_size_test.cpp.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cute/tensor.hpp>
#include <cutlass/util/command_line.h>
using namespace cute;

// A helper of the program's own that reads argv: not one cutevis knows to read only the command line
void parse_split(int argc, char** argv, int* split);

template <class ATensor, class CtaTiler>
__global__ void gemm_device(ATensor mA, CtaTiler cta_tiler) {
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);            // (m,n,k)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
}

int main(int argc, char** argv) {
  int Gemm_M = 256;
  if (argc >= 2)
    sscanf(argv[1], "%d", &Gemm_M);

  int Gemm_N = 128;
  if (argc >= 3)
    Gemm_N = atoi(argv[2]);

  int Gemm_K = 512;
  if (argc >= 4)
    Gemm_K = std::stoi(std::string(argv[3]));

  cutlass::CommandLine cmd(argc, argv);
  int stages = 4;
  cmd.get_cmd_line_argument("stages", stages);

  int split = 2;
  parse_split(argc, argv, &split);  // a helper's: run-time

  int ldA = Gemm_K;  // initialized from a default: the default's value
  int ldB = 0;
  if (argc >= 5)
    ldB = Gemm_K;  // assigned from another run-time value: run-time

  int k_tiles = 0;
  for (int k = 0; k < Gemm_K; k += 64)
    ++k_tiles;  // a loop's counter: run-time

  int mixed = 8;
  if (argc >= 6)
    sscanf(argv[5], "%d", &mixed);
  mixed *= 2;  // the command line, then something else: run-time

  auto layout_A = make_layout(make_shape(Gemm_M, Gemm_K), make_stride(ldA, Int<1>{}));      // (Gemm_M,Gemm_K)
  auto layout_C = make_layout(make_shape(Gemm_M, Gemm_N), make_stride(Gemm_N, Int<1>{}));   // (Gemm_M,Gemm_N)
  auto layout_S = make_layout(make_shape(Int<128>{}, Int<64>{}, stages));                  // (BLK_M,BLK_K,PIPE)
  auto layout_B = make_layout(make_shape(Gemm_N, Gemm_K), make_stride(ldB, Int<1>{}));      // run-time ldB
  auto layout_T = make_layout(make_shape(k_tiles, split));                                  // run-time
  auto layout_X = make_layout(make_shape(mixed));                                           // run-time

  // a leading dimension picked by a char the command line may change: the branch taken at the default
  char trans = 'N';
  if (argc >= 7)
    sscanf(argv[6], "%c", &trans);
  int ld = 0;
  if (trans == 'N') {
    ld = Gemm_M;
  } else if (trans == 'T') {
    ld = Gemm_K;
  } else {
    assert(false);
  }
  int pad = 8;
  if (trans == 'X')
    pad = 16;  // no branch taken at the default: the initializer
  int ld_argc = 0;
  if (argc >= 8) {
    ld_argc = Gemm_M;  // a condition on a run-time value: run-time
  }
  int ld_loop = 0;
  for (int i = 0; i < 2; ++i) {
    if (trans == 'N') {
      ld_loop = Gemm_M;  // in a loop: run-time
    }
  }
  int ld_ptr = 0;
  if (trans == 'N') {
    int* p = &ld_ptr;
    *p = Gemm_K;  // through a pointer: run-time
  }
  int ld_lambda = 0;
  auto set_ld = [&] { ld_lambda = Gemm_M; };  // in a nested function: run-time
  set_ld();
  auto layout_L = make_layout(make_shape(Gemm_M, Gemm_K), make_stride(Int<1>{}, ld));  // (Gemm_M,Gemm_K)

  half_t* A = nullptr;
  Tensor mA = make_tensor(make_gmem_ptr(A), layout_A);
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<64>{});
  gemm_device<<<1, 128>>>(mA, cta_tiler);
  return 0;
}

// A kernel body's statements read without a compiler (lib/lang/kernel_body.hpp): what `cutevis check`
// follows.
#include <doctest/doctest.h>

#include "lib/lang/kernel_body.hpp"

using namespace cutevis;

namespace {

const char* const kKernel = R"(#include <cute/tensor.hpp>
template <class T>
__global__ static __launch_bounds__(128) void kern(int M, T const* A, Layout<Shape<_4>>, TiledCopy copy_a) {
  Tensor sA = make_tensor(make_smem_ptr(smem.A.begin()), SmemLayoutA{});  // (BLK_M,BLK_K,PIPE)
  ThrCopy thr = copy_a.get_slice(threadIdx.x);
  TiledMma mma;
  CUTE_UNROLL
  for (int k = 0; k < 4; ++k) {
    if (k == 0) { copy(copy_a, thr.partition_S(sA)(_,_,k), sA); }
    cute::gemm(mma, a, b, c);  /* block comment; */
  }
  x = Step<_1, X,_1>{};
}
void host(int m) {
  auto fptr = kern<float>;
  fptr<<<dim3(1), 128, 0>>>(m, nullptr, Layout<Shape<_4>>{}, copy);
  kern<<<1, 128>>>(1, 2, 3, 4);
}
)";

}  // namespace

TEST_CASE("kernel_body: a __global__ function's parameters and statements, loops once") {
  KernelFile f = read_kernels(kKernel, "k.cu");
  REQUIRE(f.kernels.size() == 1);
  const KernelFunction& k = f.kernels[0];
  CHECK(k.name == "kern");
  CHECK(k.params == std::vector<std::string>{"M", "A", "", "copy_a"});  // the third is unnamed
  CHECK(k.param_types == std::vector<std::string>{"int", "T const*", "Layout<Shape<_4>>", "TiledCopy"});
  CHECK(k.template_params == std::vector<std::string>{"T"});
  REQUIRE(k.body.size() == 6);
  CHECK(k.body[0].kind == KernelStatement::Kind::kDeclare);
  CHECK(k.body[0].type == "Tensor");
  CHECK(k.body[0].name == "sA");
  CHECK(k.body[0].text == "make_tensor(make_smem_ptr(smem.A.begin()), SmemLayoutA{})");
  CHECK(k.body[0].comment == "(BLK_M,BLK_K,PIPE)");
  CHECK(k.body[0].line == 4);
  CHECK(k.body[0].name_line == 4);
  CHECK(k.body[0].name_column == 10);
  CHECK(k.body[1].name == "thr");
  CHECK(k.body[2].name == "mma");  // TiledMma mma;  is a default-constructed value
  CHECK(k.body[2].text == "TiledMma{}");
  const KernelStatement& copy = k.body[3];
  CHECK(copy.kind == KernelStatement::Kind::kCall);
  CHECK(copy.name == "copy");
  CHECK(copy.args == std::vector<std::string>{"copy_a", "thr.partition_S(sA)(_,_,k)", "sA"});
  CHECK(copy.loop_vars == std::vector<std::string>{"k"});
  CHECK(copy.line == 9);
  const KernelStatement& gemm = k.body[4];
  CHECK(gemm.name == "cute::gemm");
  CHECK(gemm.args.size() == 4);
  CHECK(gemm.comment.empty());  // a block comment is not a // comment
  CHECK(k.body[5].kind == KernelStatement::Kind::kAssign);
  CHECK(k.body[5].text == "Step<_1, X,_1>{}");
  CHECK(k.body[5].loop_vars.empty());
}

TEST_CASE("kernel_body: launches, through a function pointer too, with their enclosing function") {
  KernelFile f = read_kernels(kKernel, "k.cu");
  REQUIRE(f.launches.size() == 2);
  CHECK(f.launches[0].kernel == "kern");  // auto fptr = kern<float>;
  CHECK(f.launches[0].template_args == std::vector<std::string>{"float"});
  CHECK(f.launches[0].function == "host");
  CHECK(f.launches[0].args == std::vector<std::string>{"m", "nullptr", "Layout<Shape<_4>>{}", "copy"});
  CHECK(f.launches[0].line == 16);
  CHECK(f.launches[0].function_begin_line == 14);
  CHECK(f.launches[1].args.size() == 4);
}

TEST_CASE("kernel_body: split_arguments keeps template arguments and calls together") {
  CHECK(split_arguments("a, Step<_1, X,_1>{}, f(b, c), x[1, 2]") ==
        std::vector<std::string>{"a", "Step<_1, X,_1>{}", "f(b, c)", "x[1, 2]"});
  CHECK(split_arguments("").empty());
  CHECK(split_arguments(" k < n ") == std::vector<std::string>{"k < n"});
}

TEST_CASE("kernel_body: #if lines inside a kernel are listed, a body without kernels gives none") {
  KernelFile f = read_kernels("__global__ void k() {\n#if __CUDA_ARCH__ >= 800\n  f();\n#else\n#endif\n}\n", "k.cu");
  REQUIRE(f.conditionals.size() == 2);
  CHECK(f.conditionals[0].text == "#if __CUDA_ARCH__ >= 800");
  CHECK(f.conditionals[0].line == 2);
  CHECK(read_kernels("__global__ void k();\nvoid h() {}\n", "k.cu").kernels.empty());  // a declaration only
}

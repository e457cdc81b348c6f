// cutevis — the statements of a CUDA kernel's body, read without a compiler, for `cutevis check`:
//
//   __global__ void gemm(...) {                              KernelFunction{"gemm", params, body}
//     Tensor sA = make_tensor(make_smem_ptr(smem), SmemLayoutA{});   // (BLK_M,BLK_K)   kDeclare, comment kept
//     ThrCopy thr = copy_a.get_slice(threadIdx.x);                                       kDeclare
//     for (int k = 0; k < K; ++k) {                          loop bodies once; `k` in loop_vars
//       copy(copy_a, tAgA(_,_,_,k), tAsA(_,_,_,k));          kCall "copy", its arguments
//       gemm(mma, tCrA, tCrB, tCrC);                         kCall "gemm"
//   gemm<<<grid, block>>>(args...)  anywhere else             KernelLaunch (host code binds the parameters)
//
// Syntax only: comments and strings are blanked (positions stay exact), preprocessor lines are
// skipped (both branches of an #if are read: there is no preprocessor here), control flow is
// flattened.  What the statements mean is atoms/analysis/kernel_trace.cpp's.
#pragma once

#include <string>
#include <vector>

namespace cutevis {

struct KernelStatement {
  enum class Kind { kDeclare, kAssign, kUsing, kCall };
  Kind kind = Kind::kCall;
  std::string type;                    // kDeclare: the declared type as written ("Tensor", "auto", "ThrCopy")
  std::string name;                    // kDeclare/kAssign/kUsing: the name; kCall: the function ("copy", "cute::gemm")
  std::string text;                    // kDeclare/kAssign/kUsing: the initializer; kCall: the whole call
  std::vector<std::string> args;       // kCall: its arguments as written
  std::vector<int> arg_columns;        // kCall: 1-based column of each argument (same line as the call or not)
  int line = 0, column = 0;            // 1-based: where the statement begins
  int name_line = 0, name_column = 0;  // kDeclare/kAssign/kUsing: where the name is
  std::string comment;                 // a `// ...` comment on the statement's last line, trimmed
  std::vector<std::string> loop_vars;  // the loop variables of the loops enclosing it
};

struct KernelFunction {
  std::string name;
  std::vector<std::string> params;           // parameter names in order ("" for an unnamed one)
  std::vector<std::string> param_types;      // their types as written ("ASmemLayout", "TA const*")
  std::vector<std::string> template_params;  // template <class TA, class SmemLayoutA, ...>: the names
  std::vector<KernelStatement> body;
  int line = 0;
};

// `kernel<<<...>>>(args)`, or `fptr<<<...>>>(args)` with `auto fptr = kernel<...>;` before it.
struct KernelLaunch {
  std::string kernel;
  std::string function;                                // the enclosing function's name as written ("gemm_tn")
  int function_begin_line = 0, function_end_line = 0;  // its body's lines
  std::vector<std::string> args;
  std::vector<std::string> template_args;  // kernel<decltype(sA), ...> where the launch names them
  int line = 0, column = 0;
};

// One branch of an `if (...) {...} else if (...) {...} else {...}` chain among a function's own statements.
struct IfBranch {
  std::string condition;  // as written, "" for the closing `else`
  int line = 0;           // its `if` / `else`
  bool fails = false;     // it holds `assert(false)` or a `throw`: the program stops there
};

// A write to a name inside a function's body after it is declared: `x = ...`, `x += ...`, `++x`,
// `x++`, or its address passed (`sscanf(argv[1], "%d", &x)`): what makes a local a run-time value.
struct LocalWrite {
  std::string name;
  int line = 0, column = 0;
  std::string statement;  // the statement as written, on one line
  // What of the program's command line sets it, where the write only reads that: "argv[1]" for
  // `sscanf(argv[1], "%d", &m)` or `m = atoi(argv[1])` (atol, strtol, std::stoi, ...), "--m" for
  // cutlass::CommandLine's `cmd.get_cmd_line_argument("m", m)`; "" for any other write.
  std::string command_line;
  // A plain `x = E;` made directly in a branch of an if / else-if / else chain among the function's own
  // statements (not in a loop, a block or a nested function): the chain's branches in order, which one this
  // write is in, and E as written.  Empty chain for any other write.
  std::vector<IfBranch> chain;
  size_t branch = 0;
  std::string assigned;
};

// A function defined at namespace level (host code and kernels alike): what binding a call to it needs.
struct FunctionDefinition {
  std::string name;
  std::vector<std::string> template_params;                      // its template header's parameter names, in order
  std::vector<std::string> template_defaults;                    // each one's default ("" none)
  std::vector<std::string> params, param_types, param_defaults;  // ("" an unnamed one / no default)
  int line = 0;                                                  // its name's
  int begin_line = 0, end_line = 0;                              // its body's
  std::vector<LocalWrite> writes;
};

// A `#if`/`#ifdef`/`#elif`/`#else` line inside a kernel: what a preprocessor would decide.
struct Conditional {
  std::string text;  // the directive as written, e.g. "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800"
  int line = 0;
};

struct KernelFile {
  std::vector<KernelFunction> kernels;
  std::vector<KernelLaunch> launches;
  std::vector<FunctionDefinition> functions;  // every function with a body at namespace level
  // Calls `f(args)` / `f<targs>(args)` of those functions from another one's body (kernel: the callee)
  std::vector<KernelLaunch> calls;
  std::vector<Conditional> conditionals;
};

// Every __global__ function with a body and every launch in `text`.  `file` names it in errors.
KernelFile read_kernels(const std::string& text, const std::string& file);

// The top-level comma-separated pieces of `text` (parentheses, braces, brackets and template
// angle brackets written as `Name<` nest), trimmed.
std::vector<std::string> split_arguments(const std::string& text);

}  // namespace cutevis

// cutevis tmem: an UMMA accumulator in tensor memory and the tcgen05.ld / st copy that moves it.
//
//   cutevis tmem 'make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)' --acc 128x256 [--cta-group 2] [--type half_t]
//   cutevis tmem 'tcgen05.make_tmem_copy(tcgen05.Ld32x32bOp(tcgen05.Repetition.x8), tCtAcc)' --mma 'SM100_MMA_...'
//   cutevis tmem --choose --acc 64x128 --threads 128
//
// `tCtAcc` names the accumulator (ThrMMA::make_fragment_C of one MMA tile); the expression may also
// build its own tensor. Text: the accumulator's lanes, which warps the copy needs, the lane-quarter
// rule; --json: every (m,n) with its lane, column, thread and register; pictures: TMEM lanes x columns
// beside the (M,N) tile, each cell labelled with its thread and register.
#pragma once

#include <string>

#include "app/commands.hpp"
#include "app/sources.hpp"

namespace cutevis {

struct TmemOptions {
  std::string expression;
  std::string mma;             // --mma: an UMMA atom (M, N, cta_group and the accumulator type from it)
  std::string acc;             // --acc MxN (M: the MMA's M, both CTAs of a pair)
  int cta_group = 1;           // --cta-group
  std::string type = "float";  // --type float | half_t (the accumulator)
  bool choose = false;         // --choose: the tcgen05 atoms that fit
  bool store = false;          // --choose --store: tcgen05.st instead of ld
  int64_t threads = 128;       // --threads: the epilogue's threads (--choose)
  bool json = false;
  Syntax syntax = Syntax::kAuto;
  SourceOptions sources;  // the user's --from / -D; tCtAcc is added to them
  PictureOptions picture;
};

Output run_tmem(const TmemOptions& options);

}  // namespace cutevis

// cutevis — where tcgen05.ld / tcgen05.st move an UMMA accumulator: for every (m,n) of one CTA's
// accumulator, its TMEM lane and column and the warp, thread and register a TiledCopy from
// make_tmem_copy delivers it to (or takes it from), CuTe's thr_copy.partition_S/D read together.
//
// The hardware rule it checks: warp w of the CTA reaches only TMEM lanes 32*(w%4) .. 32*(w%4)+31
// (its subpartition), so a copy needs four warps with w%4 = 0,1,2,3 -- warps 0-3, or 4-7 in an
// epilogue warp group -- and thread t of the copy is thread t of such a warp group.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "atoms/tmem.hpp"

namespace cutevis {

struct TmemCell {
  int64_t m = 0, n = 0;          // in this CTA's (M_CTA,N) accumulator
  int64_t lane = 0, column = 0;  // TMEM data path and 32-bit column
  int64_t half = 0;              // 16-bit accumulators: which half of the column
  int64_t thread = -1;           // the copy's thread (0..127): warp thread/32, lane thread%32
  int64_t value = -1;            // index in the thread's partition (partition_D of a load's registers)
  int64_t reg = -1;              // the 32-bit register of the thread that holds it
};

struct TmemCopyMap {
  TmemAccumulator acc;
  std::string op;
  bool load = true;
  int64_t threads = 0;
  std::vector<TmemCell> cells;      // m-major order: cells[m * N + n]
  bool quarter_rule = true;         // every thread's lanes are its warp's quarter
  std::string violation;            // the first cell that breaks it
  std::vector<int64_t> lanes_used;  // data paths holding the accumulator
  int64_t values_per_thread = 0;    // every value a thread holds (all instructions)
  int64_t values_per_instruction = 0;
  int64_t registers_per_instruction = 0;
  int64_t instructions = 0;  // tcgen05.ld per thread for the whole accumulator
  int64_t contiguous_n = 0;  // the longest run of a thread's values in register order along n (same m)
};

// The map of `copy` (from make_tmem_copy over acc.layout) over the accumulator.
TmemCopyMap map_tmem_copy(const TiledCopy& copy, const TmemAccumulator& acc);

// --choose: every tcgen05.ld (or .st) atom make_tmem_copy accepts for the accumulator, with what a
// thread of an epilogue of `epilogue_threads` (a multiple of 128) then holds.
struct TmemChoice {
  std::string op;
  int64_t values_per_instruction = 0, registers_per_instruction = 0;
  int64_t values_per_thread = 0;  // for epilogue_threads threads splitting the accumulator
  int64_t contiguous_n = 0;
  int64_t instructions = 0;
};
std::vector<TmemChoice> choose_tmem_copies(const TmemAccumulator& acc, int64_t epilogue_threads, bool load);

}  // namespace cutevis

// tcgen05.ld / st over an UMMA accumulator; see atoms/analysis/tmem_map.hpp.
#include "atoms/analysis/tmem_map.hpp"

#include <algorithm>

#include "atoms/analysis/partition.hpp"
#include "atoms/copy_catalogue.hpp"

namespace cutevis {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// Every (m,n) of the accumulator with its TMEM lane and column, m-major; the same for every copy over it.
// One walk over the layout's values (index m + M_CTA*n), not a coordinate-to-index per cell.
std::vector<TmemCell> accumulator_cells(const TmemAccumulator& acc) {
  const int64_t m_cta = acc.m_cta(), n = acc.n;
  const std::vector<int64_t> addr = layout_values(acc.layout);
  const int64_t dp = tmem_dp(acc.type.bits), per_column = 32 / acc.type.bits;
  std::vector<TmemCell> cells(static_cast<size_t>(m_cta * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t m = 0; m < m_cta; ++m) {
      TmemCell& c = cells[static_cast<size_t>(m * n + j)];
      const int64_t a = addr[static_cast<size_t>(m + m_cta * j)];
      c.m = m;
      c.n = j;
      c.lane = a / dp;
      c.column = (a % dp) / per_column;
      c.half = (a % dp) % per_column;
    }
  return cells;
}

// The lane of every accumulator element by its index m + M_CTA*n.
std::vector<int64_t> lanes_by_index(const TmemAccumulator& acc) {
  std::vector<int64_t> lanes = layout_values(acc.layout);
  const int64_t dp = tmem_dp(acc.type.bits);
  for (int64_t& a : lanes) a /= dp;
  return lanes;
}

// The copy over the accumulator: with `cells` (accumulator_cells), every cell's thread, value and register;
// without, only what --choose needs (the quarter rule, the counts).
TmemCopyMap map_cells(const TiledCopy& copy, const TmemAccumulator& acc, const std::vector<int64_t>& lane_of,
                      std::vector<TmemCell> cells) {
  TmemCopyMap map;
  map.acc = acc;
  map.op = copy.atom.op;
  map.load = copy.atom.op.rfind("SM100_TMEM_LOAD", 0) == 0;
  map.threads = copy.num_threads;
  const int64_t m_cta = acc.m_cta(), n = acc.n;
  const int bits = acc.type.bits;
  map.cells = std::move(cells);
  // Which thread holds (m,n): the register side, partition_D (load) / partition_S (store), of the
  // accumulator's ((M_CTA,N),_1,_1) coordinates (tCgC). The TMEM side of a tcgen05 atom is the
  // warp's: all 32 threads name the same warp-wide block of lanes, so it says nothing per thread.
  // the register side: partition_D (load) / partition_S (store) of a compact ((M_CTA,N),_1,_1) tensor (tCgC)
  // All threads at once: get_layoutD_TV (load) / get_layoutS_TV (store) over the whole compact tensor,
  // (thr, (val, rest...)) -> m + M_CTA*n, is what each thread's partition_D/S of tCgC reads, in order.
  const Layout tv = tensor_layout_tv(copy, map.load ? 'D' : 'S', tup(tup(m_cta, n), 1, 1));
  const std::vector<int64_t> all = layout_values(tv);  // index t + threads * i
  const int64_t threads = size(get(tv, 0)), per_thread = size(tv) / std::max<int64_t>(1, threads);
  std::vector<char> lane_used(128, 0);
  map.values_per_thread = per_thread;
  map.values_per_instruction = size(get(get(tv, 1), 0));
  map.registers_per_instruction = map.values_per_instruction * bits / 32;
  map.instructions = map.values_per_thread / std::max<int64_t>(1, map.values_per_instruction);
  // the longest run along n in register order (thread 0)
  int64_t run = 1, best = 1;
  for (int64_t i = 1; i < per_thread; ++i) {
    const int64_t here = all[static_cast<size_t>(threads * i)], before = all[static_cast<size_t>(threads * (i - 1))];
    run = here == before + m_cta ? run + 1 : 1;
    best = std::max(best, run);
  }
  map.contiguous_n = per_thread == 0 ? 0 : best;
  const bool fill = !map.cells.empty();
  for (int64_t t = 0; t < threads; ++t) {
    const int64_t quarter = (t / 32) % 4;
    for (int64_t i = 0; i < per_thread; ++i) {
      const int64_t cell = all[static_cast<size_t>(t + threads * i)];
      const int64_t lane = lane_of[static_cast<size_t>(cell)];
      if (fill) {
        TmemCell& c = map.cells[static_cast<size_t>((cell % m_cta) * n + cell / m_cta)];
        c.thread = t;
        c.value = i;
        c.reg = i * bits / 32;
      }
      if (lane / 32 != quarter && map.quarter_rule) {
        map.quarter_rule = false;
        map.violation = "thread " + str(t) + " (warp " + str(t / 32) + ") would reach lane " + str(lane) +
                        ", outside its quarter " + str(32 * quarter) + "-" + str(32 * quarter + 31);
      }
      lane_used[static_cast<size_t>(lane & 127)] = 1;
    }
  }
  for (int64_t l = 0; l < 128; ++l)
    if (lane_used[static_cast<size_t>(l)]) map.lanes_used.push_back(l);
  return map;
}

}  // namespace

TmemCopyMap map_tmem_copy(const TiledCopy& copy, const TmemAccumulator& acc) {
  return map_cells(copy, acc, lanes_by_index(acc), accumulator_cells(acc));
}

std::vector<TmemChoice> choose_tmem_copies(const TmemAccumulator& acc, int64_t epilogue_threads, bool load) {
  if (epilogue_threads <= 0 || epilogue_threads % 128 != 0)
    throw Error(
        "tcgen05.ld/st reach a lane quarter per warp: the epilogue needs a multiple of 4 warps (128 threads), "
        "not " +
        str(epilogue_threads));
  std::vector<TmemChoice> out;
  const std::vector<int64_t> lane_of = lanes_by_index(acc);
  for (const std::string& op : tmem_copy_op_names()) {
    if ((op.rfind("SM100_TMEM_LOAD", 0) == 0) != load) continue;
    const bool packed = op.size() > 4 && op.compare(op.size() - 4, 4, "_16b") == 0;
    if (packed != (acc.type.bits == 16)) continue;  // _16b packs two 16-bit accumulators per register
    TiledCopy copy;
    try {
      copy = make_tmem_copy(make_copy_atom(op, acc.type), acc.layout, acc.type.bits);
    } catch (const Error&) {
      continue;  // the atom's values do not lie in this accumulator
    }
    TmemCopyMap map = map_cells(copy, acc, lane_of, {});
    if (!map.quarter_rule) continue;
    TmemChoice c;
    c.op = op;
    c.values_per_instruction = map.values_per_instruction;
    c.registers_per_instruction = map.registers_per_instruction;
    c.values_per_thread = map.values_per_thread * 128 / epilogue_threads;
    c.contiguous_n = map.contiguous_n;
    c.instructions = map.instructions * 128 / epilogue_threads;
    out.push_back(c);
  }
  return out;
}

}  // namespace cutevis

// tcgen05.ld / st over an UMMA accumulator; see atoms/analysis/tmem_map.hpp.
#include "atoms/analysis/tmem_map.hpp"

#include <algorithm>
#include <set>

#include "atoms/analysis/partition.hpp"
#include "atoms/copy_catalogue.hpp"

namespace cutevis {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

}  // namespace

TmemCopyMap map_tmem_copy(const TiledCopy& copy, const TmemAccumulator& acc) {
  TmemCopyMap map;
  map.acc = acc;
  map.op = copy.atom.op;
  map.load = copy.atom.op.rfind("SM100_TMEM_LOAD", 0) == 0;
  map.threads = copy.num_threads;
  const int64_t m_cta = acc.m_cta(), n = acc.n;
  const int bits = acc.type.bits;
  map.cells.resize(static_cast<size_t>(m_cta * n));
  for (int64_t m = 0; m < m_cta; ++m)
    for (int64_t j = 0; j < n; ++j) {
      TmemCell& c = map.cells[static_cast<size_t>(m * n + j)];
      c.m = m;
      c.n = j;
      const TmemAddress a = tmem_address(acc.layout(m + m_cta * j), bits);
      c.lane = a.lane;
      c.column = a.column;
      c.half = a.half;
    }
  // Which thread holds (m,n): the register side, partition_D (load) / partition_S (store), of the
  // accumulator's ((M_CTA,N),_1,_1) coordinates (tCgC). The TMEM side of a tcgen05 atom is the
  // warp's: all 32 threads name the same warp-wide block of lanes, so it says nothing per thread.
  // the register side: partition_D (load) / partition_S (store) of a compact ((M_CTA,N),_1,_1) tensor (tCgC)
  const Layout regs_tensor = make_layout(tup(tup(m_cta, n), 1, 1));
  std::set<int64_t> lanes;
  for (int64_t t = 0; t < map.threads; ++t) {
    const ThreadPartition regs = map.load ? partition_D(copy, regs_tensor, t) : partition_S(copy, regs_tensor, t);
    if (t == 0) {
      map.values_per_thread = static_cast<int64_t>(regs.offsets.size());
      map.values_per_instruction = size(get(regs.layout, 0));
      map.registers_per_instruction = map.values_per_instruction * bits / 32;
      map.instructions = map.values_per_thread / std::max<int64_t>(1, map.values_per_instruction);
      // the longest run along n in register order
      int64_t run = 1, best = 1;
      for (size_t i = 1; i < regs.offsets.size(); ++i) {
        run = regs.offsets[i] == regs.offsets[i - 1] + m_cta ? run + 1 : 1;
        best = std::max(best, run);
      }
      map.contiguous_n = regs.offsets.empty() ? 0 : best;
    }
    for (size_t i = 0; i < regs.offsets.size(); ++i) {
      const int64_t cell = regs.offsets[i];
      const int64_t m = cell % m_cta, j = cell / m_cta;
      TmemCell& c = map.cells[static_cast<size_t>(m * n + j)];
      c.thread = t;
      c.value = static_cast<int64_t>(i);
      c.reg = static_cast<int64_t>(i) * bits / 32;
      if (c.lane / 32 != (t / 32) % 4 && map.quarter_rule) {
        map.quarter_rule = false;
        map.violation = "thread " + str(t) + " (warp " + str(t / 32) + ") would reach lane " + str(c.lane) +
                        ", outside its quarter " + str(32 * ((t / 32) % 4)) + "-" + str(32 * ((t / 32) % 4) + 31);
      }
      lanes.insert(c.lane);
    }
  }
  map.lanes_used.assign(lanes.begin(), lanes.end());
  return map;
}

std::vector<TmemChoice> choose_tmem_copies(const TmemAccumulator& acc, int64_t epilogue_threads, bool load) {
  if (epilogue_threads <= 0 || epilogue_threads % 128 != 0)
    throw Error(
        "tcgen05.ld/st reach a lane quarter per warp: the epilogue needs a multiple of 4 warps (128 threads), "
        "not " +
        str(epilogue_threads));
  std::vector<TmemChoice> out;
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
    TmemCopyMap map = map_tmem_copy(copy, acc);
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

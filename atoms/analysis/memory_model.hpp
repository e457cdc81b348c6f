// cutevis — the memory system's rules for one warp-wide memory instruction, in the terms
// Nsight Compute counts:
//
//   shared memory: 32 banks of 4 bytes; the lanes of an instruction are served in *phases*
//   (all 32 lanes for accesses up to 32 bits, half-warps for 64 bits, quarter-warps for
//   128 bits, one 8x16-byte matrix per phase for ldmatrix/stmatrix).  A phase costs one
//   wavefront per distinct 4-byte word on its busiest bank (equal words broadcast).
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum   = wavefronts
//     l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum = wavefronts - ideal
//   global memory: one request per warp instruction, one 32-byte sector per distinct
//   sector touched by its active lanes.
//     l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum, l1tex__t_sectors_..._op_{ld,st}.sum
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cutevis {

enum class MemorySpace { kRmem, kSmem, kGmem };
std::string to_string(MemorySpace space);  // "rmem", "smem", "gmem"

// What a warp-wide instruction does with its lanes' addresses.
enum class AccessKind {
  kLoad,      // ld.shared / ld.global .b8 .. .v4.b32
  kStore,     // st.shared / st.global
  kLdmatrix,  // ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16: lanes 0..8N-1 give 16-byte rows
  kStmatrix,  // stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16
  kCpAsync,   // cp.async.ca/cg.shared.global: the smem side of the copy (the gmem side is a load)
};

// One warp-wide memory instruction: its lanes' byte addresses and what it costs.
struct MemoryInstruction {
  AccessKind kind = AccessKind::kLoad;
  MemorySpace space = MemorySpace::kSmem;
  int bits = 32;                 // bits each lane moves (a 16-byte row, 128, for ldmatrix/stmatrix)
  int matrices = 0;              // ldmatrix/stmatrix: x1, x2, x4
  bool trans = false;            // ldmatrix/stmatrix .trans
  bool bypass_l1 = false;        // cp.async.cg (CACHEGLOBAL: L1 bypassed, 16 bytes); else .ca
  int warp = 0;                  // warp of the TiledCopy's threads (thread / 32)
  int index = 0;                 // position in each thread's sequence of instructions
  std::vector<int64_t> address;  // byte address per lane; -1: lane inactive (32 entries)

  // Shared memory (space == kSmem).
  int64_t wavefronts = 0;
  int64_t ideal_wavefronts = 0;
  int64_t bank_conflicts = 0;  // wavefronts - ideal_wavefronts
  // cp.async.ca destinations: the fewest conflicts the hardware may report, when it writes the
  // data of each 128-byte source line in its own pass (it does for some lines that miss L1);
  // bank_conflicts is the most (all lines at once, as st.shared).  Else equal to bank_conflicts.
  int64_t bank_conflicts_min = 0;
  // Global memory (space == kGmem).
  int64_t requests = 0;
  int64_t sectors = 0;
  int64_t bytes_used = 0;  // distinct bytes the active lanes ask for
  bool aligned = true;     // every lane's address a multiple of its access width

  bool is_store() const {
    return kind == AccessKind::kStore || kind == AccessKind::kStmatrix || kind == AccessKind::kCpAsync;
  }
  std::string ptx() const;  // the instruction as PTX spells it, e.g. "ld.shared.v4.b32"
};

// The lanes of each phase: shared memory serves these groups one after another.
std::vector<std::vector<int>> smem_phases(const MemoryInstruction& inst);

// Fill wavefronts / ideal_wavefronts / bank_conflicts (smem) or requests / sectors / bytes_used
// (gmem), and `aligned`, from the addresses.
void cost(MemoryInstruction& inst);

// cp.async: cost the global side (a load) and the shared side (the destination) of one warp
// instruction together; `global` and `shared` hold the same lanes' source and destination.
// The .cg (L1-bypassing) path moves data in units of one 128-byte global line into one 32-byte
// shared sector: Nsight Compute counts one sector per distinct (global line, shared sector)
// pair, so a destination that splits what the source keeps together costs extra sectors; its
// shared side reports no bank conflicts.  The .ca path counts global sectors as ld.global and
// destination conflicts as st.shared (bank_conflicts), or as low as bank_conflicts_min where a
// phase's sources span several 128-byte lines.
void cost_cp_async(MemoryInstruction& global, MemoryInstruction& shared);

// For pictures: for every lane, the wavefront (0-based, counted over the whole instruction)
// that serves its first word, and for gmem the sector index (address / 32).
std::vector<int64_t> lane_wavefront(const MemoryInstruction& inst);

// bank of a byte address: 32 banks of 4 bytes
inline int64_t bank_of(int64_t byte_address) { return (byte_address / 4) % 32; }

}  // namespace cutevis

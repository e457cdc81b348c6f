// cutevis — how `verify` runs an atom: which instruction, which physical thread holds
// which operand entry in which register bits (or which shared-memory byte), and the
// data placement and decoding around it.  Plain C++, testable without a GPU.
//
// An *entry* is one storage slot of an operand: for a register operand the value v
// of logical thread t (a register lane of physical thread ThrID(t)); for a
// shared-memory operand one element of the tile at its byte offset.  The layouts
// under test say at which (row, col) of the operand tile every entry sits; the
// hardware is asked where it really is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "atoms/mma_atom.hpp"
#include "atoms/verify/number_format.hpp"
#include "lib/layout.hpp"
#include "lib/swizzle.hpp"

namespace cutevis::verify {

// --- shared-memory tiles of GMMA (SS A/B, RS B) -------------------------------------
// The tile (MN, K) placed with CuTe's canonical GMMA layout
// tile_to_shape(GMMA::Layout_<major>_<swizzle>_Atom<T>, (MN, K)), read by the
// instruction through a matrix descriptor.
struct SmemTile {
  std::string major;    // "K" or "MN"
  std::string swizzle;  // "INTER", "SW32", "SW64", "SW128"
  int64_t mn = 0, k = 0;
  int type_bits = 0;
  AnyLayout layout;              // (MN,K) -> element offset (position-independent swizzle)
  std::vector<int64_t> offsets;  // layout at every index mn + MN*k
  int64_t bytes = 0;             // image size, a multiple of 16
  uint64_t descriptor = 0;       // every field but the start address (bits 0-13)
  int64_t lbo = 0, sbo = 0;      // leading / stride byte offsets in the descriptor
  int64_t byte_offset(int64_t mn_idx, int64_t k_idx) const;
};
// CuTe's ss_smem_selector for the atom's own tile: the widest swizzle atom that divides it.
std::string default_swizzle(const std::string& major, int64_t mn, int64_t k, int type_bits);
// Error if the swizzle does not tile (MN, K) for this major.
SmemTile make_smem_tile(const std::string& major, const std::string& swizzle, int64_t mn, int64_t k, int type_bits);
// The 64-bit GMMA descriptor fields for a canonical tile (layout type, LBO, SBO; start 0).
uint64_t gmma_descriptor(const std::string& swizzle, int64_t lbo, int64_t sbo);

// --- one operand --------------------------------------------------------------------
struct Entry {
  int64_t thr = 0;  // logical thread, or -1 for a shared-memory element
  int64_t val = 0;  // value index, or the element offset in shared memory
  bool operator==(const Entry& o) const { return thr == o.thr && val == o.val; }
};

struct OperandPlan {
  std::string name;                // "A", "B", "C"
  std::string row_name, col_name;  // "M","K" / "N","K" / "M","N"
  int64_t rows = 0, cols = 0;
  NumberFormat format;
  bool in_smem = false;
  bool overridden = false;  // a hand-written layout replaced the catalogue's
  Layout tv;                // registers: (thr,val) -> row + rows*col
  int reg_bits = 32;        // registers: 32 or 64
  int regs = 0;             // registers per thread
  SmemTile smem;            // shared memory
  std::vector<Entry> entries;
  std::vector<int64_t> cell_of;  // believed cell (row + rows*col) of every entry

  int64_t words_per_thread() const { return int64_t{regs} * reg_bits / 32; }
  // Where entry i lives: registers -> (lane-relative word, bit); smem -> (byte*8) in `bit`.
  struct Slot {
    int64_t lane = 0;  // physical thread (registers)
    int64_t word = 0;  // 32-bit word within the thread's registers
    int bit = 0;       // bit offset within that word (64-bit values start at bit 0 of 2 words)
    int64_t byte = 0;  // shared memory byte offset
  };
  std::vector<Slot> slots;
  std::string describe_entry(size_t i) const;  // "T5 V3" or "smem[+0x1a0]"
};

// --- MMA -------------------------------------------------------------------------------
enum class MmaClass { kMmaSync, kScalar, kWgmma };
enum class PopcMode { kNone, kAnd, kXor };

struct MmaPlan {
  std::string atom_name;
  std::string opcode;  // full PTX mnemonic with modifiers
  MmaClass cls = MmaClass::kMmaSync;
  int64_t m = 0, n = 0, k = 0;
  Layout thr_id;       // logical thread -> physical thread
  Layout atom_thr_id;  // the catalogue's ThrID (differs when overridden)
  int64_t logical_threads = 0;
  int physical_threads = 32;  // 32 (warp) or 128 (warpgroup)
  OperandPlan a, b, c;        // C doubles as D (same registers, format of D)
  NumberFormat format_d;
  int d_regs = 0;  // separate D registers (mma.sync); 0: D is C (wgmma)
  PopcMode popc = PopcMode::kNone;
  bool transpose_a = false, transpose_b = false;  // GMMA MN-major operands
  bool has_scale_imms = false, has_transpose_imms = false;
  int ptx_version = 70;  // minimal PTX ISA version (major*10+minor)
  std::string target;    // "sm_90a" for wgmma, else "" (the device's)
};

struct MmaOverrides {
  std::optional<Layout> layout_a, layout_b, layout_c, thr_id;
  std::string smem_swizzle;  // "" = CuTe's selector; INTER / SW32 / SW64 / SW128
};

// Why the atom cannot run on a GPU of compute capability `sm` (e.g. 90), or "".
std::string mma_unsupported_reason(const MmaAtom& atom, int sm);
// The plan for an atom; Error for a bad override (wrong sizes, an override of a
// shared-memory operand) or an atom whose fields contradict its instruction.
MmaPlan plan_mma(const MmaAtom& atom, const MmaOverrides& overrides = {});

// --- copies (ldmatrix / stmatrix / movmatrix) ------------------------------------------
enum class CopyClass { kLdmatrix, kStmatrix, kMovmatrix };

// A copy side: registers (thr, 16-bit unit) or per-thread row addresses (thr, unit of
// the 16-byte row it points at).  Units are 16-bit matrix elements (b16).
struct CopySide {
  std::string name;        // "src" or "dst"
  bool addresses = false;  // shared-memory row addresses rather than registers
  bool overridden = false;
  Layout bits;  // (thr, bit) -> bit of the tile
  int64_t units_per_thread = 0;
  std::vector<Entry> entries;    // (thr, unit)
  std::vector<int64_t> unit_of;  // believed tile unit of every entry
};

struct CopyPlan {
  std::string atom_name;
  std::string opcode;
  CopyClass cls = CopyClass::kLdmatrix;
  int matrices = 1;  // .x1 / .x2 / .x4
  bool trans = false;
  int regs = 0;            // 32-bit registers per thread
  int64_t tile_units = 0;  // 16-bit units in the tile (cosize of the reference / 16)
  CopySide src, dst;
  int64_t value_bits = 16;  // bits of the atom's value_type (override units)
  int ptx_version = 70;
};

struct CopyOverrides {
  std::optional<Layout> layout_src, layout_dst;  // in value_type units: (thr,val) -> value
};

std::string copy_unsupported_reason(const CopyAtom& atom, int sm);
CopyPlan plan_copy(const CopyAtom& atom, const CopyOverrides& overrides = {});

// --- placement ---------------------------------------------------------------------------
// Per-entry values of one data set: A, B, C.
struct MmaData {
  std::vector<int64_t> a, b, c;
  bool baseline = false;  // a probe's twin with the one-hot operand zeroed (XOR-POPC)
};

// Per-block input words: registers [thread][word]; shared memory: the image as words.
std::vector<uint32_t> pack_operand(const OperandPlan& op, int physical_threads, const std::vector<int64_t>& values);
// Unpack the D registers of one block into per-entry values of C's entries; nullopt
// where the bits are not an exact integer.
std::vector<std::optional<int64_t>> unpack_d(const MmaPlan& plan, const uint32_t* words);
// Host reference: D at every C entry for values placed by the believed layouts.
std::vector<int64_t> reference_d(const MmaPlan& plan, const MmaData& data);
// The main data set: pseudo-random integers per cell (never all-ones), exact for every
// product and sum of the atom's types, placed on every entry by its believed cell.
MmaData random_data(const MmaPlan& plan, uint64_t seed);

}  // namespace cutevis::verify

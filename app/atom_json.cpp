#include "app/atom_json.hpp"

#include <algorithm>
#include <cstring>

#include "app/json_values.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tma.hpp"

namespace cutevis {

namespace {

const char* source_name(OperandSource s) {
  switch (s) {
    case OperandSource::kRegister: return "register";
    case OperandSource::kSharedMemory: return "smem";
    case OperandSource::kTensorMemory: return "tmem";
  }
  return "";
}

Json regs_json(const RegisterSpec& r) { return {{"type", r.c_type}, {"count", r.count}}; }

// {"k1":v1,...,"owners_a":{...}}: OBJECT (not empty) as its dump() writes it, its closing brace
// left for the owner lists written by append_owners_json.  The owners are not made JSON
// values: the SS GMMA's 4,096 cells x 128 owners took ~300 ms to build and ~150 ms to dump
// that way with nlohmann (2-core machine, loaded), against a 20 ms whole-process goal.
std::string with_owner_members(const Json& object,
                               const std::vector<std::pair<std::string, const OwnershipView*>>& members) {
  std::string s = object.dump();
  s.pop_back();  // its '}'
  for (const auto& [key, view] : members) {
    s += ",\"" + key + "\":";  // the keys are plain words
    append_owners_json(s, *view);
  }
  s += '}';
  return s;
}

int64_t mode_size(const IntTuple& t, size_t i) { return i < t.rank() ? size(t[i]) : 1; }  // a rank-1 tile is (M,1)

}  // namespace

Json mma_atom_json(const MmaAtom& a) {
  Json j;
  j["kind"] = "mma_atom";
  j["name"] = a.short_name.empty() ? a.name : a.short_name;
  j["cpp_type"] = a.name;
  j["family"] = a.family;
  j["sm"] = a.sm;
  j["shape_mnk"] = to_string(a.shape_mnk);
  j["thr_id"] = to_string(a.thr_id);
  j["layout_a"] = to_string(a.layout_a);
  j["layout_b"] = to_string(a.layout_b);
  j["layout_c"] = to_string(a.layout_c);
  j["val_type_a"] = a.type_a.name;
  j["val_type_b"] = a.type_b.name;
  j["val_type_c"] = a.type_c.name;
  j["val_type_d"] = a.type_d.name;
  j["val_bits_a"] = a.type_a.bits;
  j["val_bits_b"] = a.type_b.bits;
  j["val_bits_c"] = a.type_c.bits;
  j["val_bits_d"] = a.type_d.bits;
  j["ptx"] = a.ptx;
  j["registers"] = {
      {"d", regs_json(a.regs_d)}, {"a", regs_json(a.regs_a)}, {"b", regs_json(a.regs_b)}, {"c", regs_json(a.regs_c)}};
  j["source_a"] = source_name(a.source_a);
  j["source_b"] = source_name(a.source_b);
  if (!a.major_a.empty()) j["major_a"] = a.major_a;
  if (!a.major_b.empty()) j["major_b"] = a.major_b;
  return j;
}

Json copy_atom_json(const CopyAtom& a) {
  Json j;
  j["kind"] = "copy_atom";
  j["name"] = a.name;
  j["op"] = a.op;
  j["family"] = a.family;
  j["sm"] = a.sm;
  j["val_type"] = a.value_type.name;
  j["val_bits"] = a.value_type.bits;
  j["thr_id"] = to_string(a.thr_id);
  j["src_layout_bits"] = to_string(a.src_layout_bits);
  j["dst_layout_bits"] = to_string(a.dst_layout_bits);
  j["ref_layout_bits"] = to_string(a.ref_layout_bits);
  j["val_layout_src"] = to_string(a.val_layout_src);
  j["val_layout_dst"] = to_string(a.val_layout_dst);
  j["val_layout_ref"] = to_string(a.val_layout_ref);
  j["ptx"] = a.ptx;
  j["registers"] = {{"src", regs_json(a.regs_src)}, {"dst", regs_json(a.regs_dst)}};
  return j;
}

namespace {

// "[t," or "v]" in a fixed 16-byte slot, so each is copied with one constant-size store.
struct Piece {
  char text[16];
  size_t size;
};

std::vector<Piece> pieces(int64_t n, const char* before, const char* after) {
  std::vector<Piece> v(static_cast<size_t>(std::max<int64_t>(n, 1)));
  for (size_t i = 0; i < v.size(); ++i) {
    std::string t = before + std::to_string(i) + after;
    std::memcpy(v[i].text, t.data(), std::min(t.size(), sizeof v[i].text));
    v[i].size = t.size();
  }
  return v;
}

}  // namespace

void append_owners_json(std::string& out, const OwnershipView& view) {
  // Written through a raw pointer from precomputed "[t," and "v]" pieces: an SS
  // GMMA's B operand alone is 4,096 cells x 128 owners.
  out += "{\"shape\":[" + std::to_string(view.rows()) + "," + std::to_string(view.cols()) + "],\"owners\":[";
  const std::vector<Piece> thr = pieces(view.num_threads(), "[", ",");
  const std::vector<Piece> val = pieces(view.num_values(), "", "]");
  const int64_t cells = view.rows() * view.cols();
  size_t bound = static_cast<size_t>(cells) * 3 + 4 + 32;  // 32: slack for the last 16-byte stores
  for (int64_t c = 0; c < cells; ++c) bound += view.owners(c).size() * (thr.back().size + val.back().size + 1);
  const size_t start = out.size();
  out.resize(start + bound);
  char* p = out.data() + start;
  for (int64_t c = 0; c < cells; ++c) {
    if (c) *p++ = ',';
    *p++ = '[';
    bool first = true;
    for (const Owner& o : view.owners(c)) {
      if (!first) *p++ = ',';
      first = false;
      const Piece& t = thr[static_cast<size_t>(o.thr)];
      const Piece& v = val[static_cast<size_t>(o.val)];
      std::memcpy(p, t.text, sizeof t.text);
      p += t.size;
      std::memcpy(p, v.text, sizeof v.text);
      p += v.size;
    }
    *p++ = ']';
  }
  *p++ = ']';
  *p++ = '}';
  out.resize(static_cast<size_t>(p - out.data()));
}

std::string owners_json(const OwnershipView& view) {
  std::string s;
  append_owners_json(s, view);
  return s;
}

OwnershipView json_ownership_view(const Layout& tv, int64_t rows, int64_t cols) {
  const int64_t cells = checked_mul(rows, cols), pairs = size(tv);
  if (cells > kMaxJsonOwners || pairs > kMaxJsonOwners)
    throw Error("--json would list " + std::to_string(pairs) + " owners of " + std::to_string(cells) +
                " cells (at most " + std::to_string(kMaxJsonOwners) + " of each); use a smaller tiling");
  return OwnershipView::from_tv(tv, rows, cols);
}

OwnershipView owners_a(const TiledMma& m) {
  return json_ownership_view(m.tv_layout_a, mode_size(m.tile_mnk, 0), mode_size(m.tile_mnk, 2));
}
OwnershipView owners_b(const TiledMma& m) {
  return json_ownership_view(m.tv_layout_b, mode_size(m.tile_mnk, 1), mode_size(m.tile_mnk, 2));
}
OwnershipView owners_c(const TiledMma& m) {
  return json_ownership_view(m.tv_layout_c, mode_size(m.tile_mnk, 0), mode_size(m.tile_mnk, 1));
}
// A copy's cells: (M, rest) with the modes after M as columns; a multicast TMA's owners are the CTAs
// that issue each element (tma_issued_tv).
OwnershipView owners_s(const TiledCopy& c) {
  const int64_t m = mode_size(c.tile_mn, 0);
  return json_ownership_view(tma_issued_tv(c, c.layout_s_tv), m, size(c.tile_mn) / m);
}
OwnershipView owners_d(const TiledCopy& c) {
  const int64_t m = mode_size(c.tile_mn, 0);
  return json_ownership_view(tma_issued_tv(c, c.layout_d_tv), m, size(c.tile_mn) / m);
}

std::string tiled_mma_json(const TiledMma& m) {
  Json j = mma_atom_json(m.atom);
  j["kind"] = "tiled_mma";
  j["atom_layout"] = to_string(m.atom_layout);
  j["permutation_mnk"] = to_string(m.permutation);
  j["thr_layout_vmnk"] = to_string(m.thr_layout_vmnk);
  j["tile_mnk"] = int_tuple_to_json(m.tile_mnk);
  j["num_threads"] = m.num_threads;
  j["tv_layout_a"] = to_string(m.tv_layout_a);
  j["tv_layout_b"] = to_string(m.tv_layout_b);
  j["tv_layout_c"] = to_string(m.tv_layout_c);
  OwnershipView a = owners_a(m), b = owners_b(m), c = owners_c(m);
  return with_owner_members(j, {{"owners_a", &a}, {"owners_b", &b}, {"owners_c", &c}});
}

std::string tiled_copy_json(const TiledCopy& c) {
  Json j = copy_atom_json(c.atom);
  j["kind"] = "tiled_copy";
  j["tiler_mn"] = tiler_to_string(c);
  j["tiled_layout_tv"] = to_string(c.tiled_layout_tv);
  j["tile_mn"] = int_tuple_to_json(c.tile_mn);
  j["num_threads"] = c.num_threads;
  j["layout_s_tv"] = to_string(c.layout_s_tv);
  j["layout_d_tv"] = to_string(c.layout_d_tv);
  if (c.atom.num_bits_per_tma > 0 && c.atom.value_type.bits > 0) {  // the owners are the issuing CTAs
    const int64_t box = c.atom.num_bits_per_tma / c.atom.value_type.bits,
                  ctas = std::max<int64_t>(c.atom.tma_multicast, 1);
    j["tma"] = {{"box_elements", box},
                {"multicast_ctas", ctas},
                {"issued_per_cta", box / std::max<int64_t>(ctas, 1)},
                {"owners_tv", to_string(tma_issued_tv(c, c.layout_s_tv))}};
  }
  OwnershipView src = owners_s(c), dst = owners_d(c);
  return with_owner_members(j, {{"owners_s", &src}, {"owners_d", &dst}});
}

}  // namespace cutevis

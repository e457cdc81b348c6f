// make_gmma_desc / make_umma_desc on runtime layouts (see descriptor.hpp).
#include "atoms/analysis/descriptor.hpp"

#include "atoms/analysis/partition.hpp"
#include "atoms/smem_atoms.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/error.hpp"
#include "lib/float_text.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

namespace {

uint64_t field(uint64_t bits, int first, int width) { return (bits >> first) & ((uint64_t(1) << width) - 1); }

// The swizzle modes a descriptor names, by family: (layout_type, Swizzle on byte addresses, name).
struct LayoutTypeRow {
  DescriptorFamily family;
  int layout_type;
  Swizzle swizzle;
  const char* name;    // CuTe's to_string(LayoutType)
  const char* suffix;  // the atom's name: Layout_K_<suffix>_Atom
};
const std::vector<LayoutTypeRow>& layout_types() {
  static const std::vector<LayoutTypeRow> rows = {
      {DescriptorFamily::kGmma, 0, Swizzle(0, 4, 3), "INTERLEAVE", "INTER"},
      {DescriptorFamily::kGmma, 3, Swizzle(1, 4, 3), "B32", "SW32"},
      {DescriptorFamily::kGmma, 2, Swizzle(2, 4, 3), "B64", "SW64"},
      {DescriptorFamily::kGmma, 1, Swizzle(3, 4, 3), "B128", "SW128"},
      {DescriptorFamily::kUmma, 0, Swizzle(0, 4, 3), "SWIZZLE_NONE", "INTER"},
      {DescriptorFamily::kUmma, 6, Swizzle(1, 4, 3), "SWIZZLE_32B", "SW32"},
      {DescriptorFamily::kUmma, 4, Swizzle(2, 4, 3), "SWIZZLE_64B", "SW64"},
      {DescriptorFamily::kUmma, 2, Swizzle(3, 4, 3), "SWIZZLE_128B", "SW128"},
      {DescriptorFamily::kUmma, 1, Swizzle(2, 5, 2), "SWIZZLE_128B_BASE32B", "SW128_32B"},
  };
  return rows;
}

const LayoutTypeRow* row_by_type(DescriptorFamily f, int layout_type) {
  for (const auto& r : layout_types())
    if (r.family == f && r.layout_type == layout_type) return &r;
  return nullptr;
}
const LayoutTypeRow* row_by_swizzle(DescriptorFamily f, const Swizzle& s) {
  for (const auto& r : layout_types())
    if (r.family == f && (r.swizzle == s || (s.bits == 0 && r.swizzle.bits == 0))) return &r;
  return nullptr;
}

const char* family_name(DescriptorFamily f) { return f == DescriptorFamily::kGmma ? "GMMA" : "UMMA"; }

// congruent(layout, ((_1,_1),(_1,_1))): two modes of two leaves each
bool canonical_profile(const Layout& l) {
  if (l.shape.is_leaf() || l.shape.rank() != 2) return false;
  for (size_t i = 0; i < 2; ++i) {
    const IntTuple& m = l.shape[i];
    if (m.is_leaf() || m.rank() != 2 || !m[0].is_leaf() || !m[1].is_leaf()) return false;
  }
  return true;
}

int64_t stride_at(const Layout& l, size_t i, size_t j) { return l.stride[i][j].value(); }

}  // namespace

uint64_t SmemDescriptor::bits() const {
  uint64_t d = uint64_t(start & 0x3fff) | uint64_t(lbo & 0x3fff) << 16 | uint64_t(sbo & 0x3fff) << 32 |
               uint64_t(base_offset & 7) << 49;
  if (family == DescriptorFamily::kGmma) return d | uint64_t(layout_type & 3) << 62;
  return d | uint64_t(version & 3) << 46 | uint64_t(lbo_mode & 1) << 52 | uint64_t(layout_type & 7) << 61;
}

std::string SmemDescriptor::layout_name() const {
  const LayoutTypeRow* r = row_by_type(family, layout_type);
  return r ? r->name : "N/A (" + std::to_string(layout_type) + ")";
}

Swizzle SmemDescriptor::swizzle() const {
  const LayoutTypeRow* r = row_by_type(family, layout_type);
  if (r == nullptr)
    throw Error(std::string(family_name(family)) + " descriptor layout_type " + std::to_string(layout_type) +
                " names no swizzle mode");
  return r->swizzle;
}

SmemDescriptor decode_descriptor(uint64_t bits, DescriptorFamily family) {
  SmemDescriptor d;
  d.family = family;
  d.start = static_cast<int64_t>(field(bits, 0, 14));
  d.lbo = static_cast<int64_t>(field(bits, 16, 14));
  d.sbo = static_cast<int64_t>(field(bits, 32, 14));
  d.base_offset = static_cast<int>(field(bits, 49, 3));
  if (family == DescriptorFamily::kGmma) {
    d.layout_type = static_cast<int>(field(bits, 62, 2));
  } else {
    d.version = static_cast<int>(field(bits, 46, 2));
    d.lbo_mode = static_cast<int>(field(bits, 52, 1));
    d.layout_type = static_cast<int>(field(bits, 61, 3));
  }
  return d;
}

std::string descriptor_hex(uint64_t bits) { return "0x" + hex_text(bits, 16); }

SmemDescriptorMatch make_smem_descriptor(DescriptorFamily family, OperandMajor major, const AnyLayout& tensor,
                                         int element_bits, int64_t offset) {
  SmemDescriptorMatch r;
  r.desc.family = family;
  if (family == DescriptorFamily::kUmma) r.desc.version = 1;
  const std::string fam = family_name(family);
  const std::string kind = fam + (major == OperandMajor::kK ? "_K" : "_MN");
  auto fail = [&](const std::string& cute_reason, const std::string& found) {
    r.ok = false;
    r.reason = cute_reason + (found.empty() ? "" : " (" + found + ")");
    return r;
  };
  // The swizzle the smem pointer carries (get_swizzle_t of the recast tensor): from smem_ptr_flag
  Swizzle swizzle(0, 4, 3);
  const Layout* inner = std::get_if<Layout>(&tensor);
  if (inner == nullptr) {
    const ComposedLayout& c = std::get<ComposedLayout>(tensor);
    inner = std::get_if<Layout>(&c.layout_b());
    if (!c.a_is_swizzle() || c.smem_bits() == 0 || inner == nullptr)
      return fail(fam + " descriptors take their swizzle from the smem pointer",
                  to_string(tensor) +
                      " swizzles element offsets in the layout itself; CuTe's layout_type() needs a plain layout "
                      "behind an smem_ptr_flag, as " +
                      fam + "::Layout_*_Atom<T> write it");
    swizzle = c.swizzle();
  }
  if (rank(*inner) != 2)
    return fail(fam + " Descriptors can only be constructed on rank-2 tensors.", "got " + to_string(*inner));
  const LayoutTypeRow* type = row_by_swizzle(family, swizzle);
  if (type == nullptr || (major == OperandMajor::kK && type->swizzle.base == 5))
    return fail(type ? "SWIZZLE_128B_BASE32B is invalid for Major-K" : "Unsupported layout swizzle",
                to_string(swizzle) + "; " + fam + " reads " +
                    (family == DescriptorFamily::kGmma ? "Sw<0..3,4,3>" : "Sw<0..3,4,3> or Sw<2,5,2> (MN-major)"));
  r.desc.layout_type = type->layout_type;
  const int64_t per_unit = 128 / element_bits;  // elements per uint128_t
  if ((offset * element_bits) % 128 != 0)
    return fail("a descriptor's start address is 16-byte aligned", "the tensor starts at element " +
                                                                       std::to_string(offset) + ", byte " +
                                                                       std::to_string(offset * element_bits / 8));
  r.desc.start = offset / per_unit;
  Layout u128;
  try {
    u128 = upcast(*inner, per_unit);  // recast<uint128_t const>(tensor)
  } catch (const Error& e) {
    return fail("recast<uint128_t> of the tensor fails: " + std::string(e.what()),
                "a descriptor addresses 16-byte units; every stride must be a multiple of " + std::to_string(per_unit) +
                    " elements");
  }
  const int w = type->suffix == std::string("INTER")  ? 1
                : type->suffix == std::string("SW32") ? 2
                : type->suffix == std::string("SW64") ? 4
                                                      : 8;  // SW128, SW128_32B
  const bool interleave = w == 1;
  const std::string u = to_string(u128) + " in uint128_t";
  if (major == OperandMajor::kMN) {
    const int64_t k = size(u128.shape[1]);
    if (family == DescriptorFamily::kGmma && k != 256 / element_bits && k != 128 / element_bits &&
        k != 512 / element_bits)
      return fail(
          "Not a canonical GMMA_MN Layout: Expected K-size 256/sizeof_bits<T> for dense or "
          "(128|512)/sizeof_bits<T> for sparse.",
          "K-size " + std::to_string(k));
    const int64_t k_atom = type->swizzle.base == 5 ? 4 : 8;
    Layout canonical;
    try {
      canonical = std::get<Layout>(logical_divide(
          AnyLayout(u128), Tiler::tuple({Tiler(make_layout(IntTuple(w))), Tiler(make_layout(IntTuple(k_atom)))})));
    } catch (const Error& e) {
      return fail("Not a canonical " + kind + " Layout: Expected profile failure.", e.what());
    }
    if (!canonical_profile(canonical))
      return fail("Not a canonical " + kind + " Layout: Expected profile failure.",
                  "logical_divide by (" + std::to_string(w) + "," + std::to_string(k_atom) + ") gives " +
                      to_string(canonical) + ", " + u);
    const int64_t s00 = stride_at(canonical, 0, 0), s10 = stride_at(canonical, 1, 0);
    if (!interleave && s00 != 1)
      return fail("Not a canonical " + kind + " Layout: Expected stride failure.",
                  "stride<0,0> is " + std::to_string(s00) + ", expected 1: " + to_string(canonical) + ", " + u);
    if (s10 != w)
      return fail("Not a canonical " + kind + " Layout: Expected stride failure.",
                  "stride<1,0> is " + std::to_string(s10) + ", expected " + std::to_string(w) + ": " +
                      to_string(canonical) + ", " + u);
    const int64_t s01 = stride_at(canonical, 0, 1), s11 = stride_at(canonical, 1, 1);
    r.desc.sbo = interleave ? s01 : s11;
    r.desc.lbo = interleave ? s11 : s01;
  } else {
    const int64_t mn = size(u128.shape[0]), k = size(u128.shape[1]);
    if (mn % 8 != 0)
      return fail("Not a canonical " + kind + " Layout: Expected MN-size multiple of 8.",
                  "MN-size " + std::to_string(mn));
    if (family == DescriptorFamily::kGmma && k != 2 && k != 4)
      return fail("Not a canonical GMMA_K Layout: Expected K-size 2 for dense or 4 for sparse (in units of uint128_t).",
                  "K-size " + std::to_string(k));
    Layout canonical;
    try {
      canonical = std::get<Layout>(logical_divide(
          AnyLayout(u128), Tiler::tuple({Tiler(make_layout(IntTuple(8))), Tiler(make_layout(IntTuple(2)))})));
    } catch (const Error& e) {
      return fail("Not a canonical " + kind + " Layout: Expected profile failure.", e.what());
    }
    if (!canonical_profile(canonical))
      return fail("Not a canonical " + kind + " Layout: Expected profile failure.",
                  "logical_divide by (8,2) gives " + to_string(canonical) + ", " + u);
    const int64_t s00 = stride_at(canonical, 0, 0), s10 = stride_at(canonical, 1, 0);
    if (s00 != w)
      return fail("Not a canonical " + kind + " Layout: Expected stride failure.",
                  "stride<0,0> is " + std::to_string(s00) + ", expected " + std::to_string(w) + " for " + type->suffix +
                      ": " + to_string(canonical) + ", " + u);
    if (!interleave && s10 != 1)
      return fail("Not a canonical " + kind + " Layout: Expected stride failure.",
                  "stride<1,0> is " + std::to_string(s10) + ", expected 1: " + to_string(canonical) + ", " + u);
    r.desc.sbo = stride_at(canonical, 0, 1);
    r.desc.lbo = s10;
  }
  r.ok = true;
  r.canonical = std::string(major == OperandMajor::kK ? "K_" : "MN_") + type->suffix;
  return r;
}

bool reads_by_descriptor(const TiledMma& mma, char operand) {
  const OperandSource s = operand == 'A' ? mma.atom.source_a : operand == 'B' ? mma.atom.source_b : mma.atom.source_c;
  return s == OperandSource::kSharedMemory;
}

namespace {

OperandDescriptors describe(const TiledMma& mma, char operand, const AnyLayout& smem, bool find_nearest);

// The atom CuTe would accept for this operand and tensor shape: the same major as the MMA reads, the
// widest swizzle whose row divides the tensor, checked by make_smem_descriptor over every k-block.
std::string nearest_atom(const TiledMma& mma, char operand, const OperandDescriptors& d, const IntTuple& shape_mnk) {
  const std::string ns = d.family == DescriptorFamily::kGmma ? "GMMA" : "UMMA";
  const IntTuple& tensor_shape = shape_mnk;
  const std::string major = d.major == OperandMajor::kK ? "K" : "MN";
  const int64_t mn = size(tensor_shape[0]), k = size(tensor_shape[1]);
  for (const char* kind : {"SW128", "SW64", "SW32", "INTER"}) {
    try {
      const ComposedLayout atom = gmma_smem_atom(major, kind, d.element_bits);
      const IntTuple atom_shape = shape(AnyLayout(atom));
      if (mn % size(atom_shape[0]) != 0 || k % size(atom_shape[1]) != 0) continue;
      const AnyLayout tiled = tile_to_shape(AnyLayout(atom), tup(mn, k));
      const OperandDescriptors check = describe(mma, operand, tiled, false);
      if (!check.match.ok) continue;
      return "tile_to_shape(" + ns + "::Layout_" + major + "_" + kind + "_Atom<" + d.element_type + ">{}, Shape<_" +
             std::to_string(mn) + ",_" + std::to_string(k) + ">{})";
    } catch (const Error&) {
      continue;
    }
  }
  return "";
}

OperandDescriptors describe(const TiledMma& mma, char operand, const AnyLayout& smem, bool find_nearest) {
  if (!reads_by_descriptor(mma, operand))
    throw Error(std::string("the MMA reads ") + operand + " from registers or tensor memory, not through a descriptor");
  OperandDescriptors d;
  d.operand = operand;
  d.family = mma.atom.family == "SM100_UMMA" ? DescriptorFamily::kUmma : DescriptorFamily::kGmma;
  const std::string& major = operand == 'A' ? mma.atom.major_a : mma.atom.major_b;
  d.major = major == "MN" ? OperandMajor::kMN : OperandMajor::kK;
  const ValueType& type = operand == 'A' ? mma.atom.type_a : mma.atom.type_b;
  d.element_bits = type.bits;
  d.element_type = type.name;
  const ThreadPartition p = partition_mma(mma, operand, smem, 0);  // (MMA, MMA_M|N, MMA_K)
  AnyLayout first = get(AnyLayout(p.layout), 0);                   // tensor<0>: one MMA's (MN,K)
  if (const ComposedLayout* c = std::get_if<ComposedLayout>(&smem)) first = c->with_b(first);
  d.match = make_smem_descriptor(d.family, d.major, first, d.element_bits, p.offset);
  if (!d.match.ok) {
    if (find_nearest) d.nearest = nearest_atom(mma, operand, d, shape(smem));
    return d;
  }
  // replace<0>(recast<uint128_t>(partition), _1:_0): the other modes advance the start address
  const Layout rest_mn = get(p.layout, 1), rest_k = rank(p.layout) > 2 ? get(p.layout, 2) : Layout();
  const int64_t per_unit = 128 / d.element_bits;
  const uint64_t base = d.match.desc.bits();
  for (int64_t m = 0; m < size(rest_mn); ++m) {
    for (int64_t k = 0; k < size(rest_k); ++k) {
      const int64_t elements = rest_mn(m) + rest_k(k);
      if (elements % per_unit != 0)
        throw Error("MMA block (" + std::to_string(m) + "," + std::to_string(k) + ") starts at element " +
                    std::to_string(elements) + ", not on a 16-byte boundary");
      // DescriptorIterator::operator+: the low 32 bits advance by the offset in uint128_t
      const uint64_t lo = (base & 0xffffffffu) + static_cast<uint64_t>(elements / per_unit);
      const uint64_t bits = (base & ~uint64_t(0xffffffffu)) | (lo & 0xffffffffu);
      d.blocks.push_back({m, k, decode_descriptor(bits, d.family)});
    }
  }
  return d;
}

}  // namespace

OperandDescriptors operand_descriptors(const TiledMma& mma, char operand, const AnyLayout& smem) {
  return describe(mma, operand, smem, true);
}

Json to_json(const SmemDescriptor& d) {
  Json j = {{"desc", descriptor_hex(d.bits())},
            {"start", d.start},
            {"lbo", d.lbo},
            {"sbo", d.sbo},
            {"base_offset", d.base_offset},
            {"layout_type", d.layout_name()}};
  if (d.family == DescriptorFamily::kUmma) {
    j["version"] = d.version;
    j["lbo_mode"] = d.lbo_mode;
  }
  return j;
}

Json to_json(const OperandDescriptors& d) {
  Json j = {{"read_by", "descriptor"},
            {"family", d.family == DescriptorFamily::kGmma ? "gmma" : "umma"},
            {"major", d.major == OperandMajor::kK ? "K" : "MN"},
            {"canonical", d.match.ok ? Json(d.match.canonical) : Json(nullptr)}};
  Json blocks = Json::array();
  for (const auto& b : d.blocks) {
    Json e = {{"mn", b.mn}, {"k", b.k}};
    e.update(to_json(b.desc));
    blocks.push_back(e);
  }
  j["descriptors"] = blocks;
  if (!d.match.ok) {
    j["error"] = d.match.reason;
    j["nearest"] = d.nearest.empty() ? Json(nullptr) : Json(d.nearest);
  }
  return j;
}

std::string to_text(const SmemDescriptor& d) {
  std::string s = descriptor_hex(d.bits()) + ": " + (d.family == DescriptorFamily::kGmma ? "GMMA" : "UMMA") +
                  " descriptor, layout_type " + d.layout_name() + ", start " + std::to_string(d.start) + " (byte " +
                  std::to_string(d.start * 16) + "), LBO " + std::to_string(d.lbo) + " (" + std::to_string(d.lbo * 16) +
                  " B), SBO " + std::to_string(d.sbo) + " (" + std::to_string(d.sbo * 16) + " B), base_offset " +
                  std::to_string(d.base_offset);
  if (d.family == DescriptorFamily::kUmma)
    s += ", version " + std::to_string(d.version) + ", lbo_mode " + std::to_string(d.lbo_mode);
  return s;
}

std::string to_text(const OperandDescriptors& d) {
  const std::string fam = d.family == DescriptorFamily::kGmma ? "GMMA" : "UMMA";
  std::string s;
  if (!d.match.ok) {
    s += "  error: " + d.match.reason + "\n";
    s += d.nearest.empty() ? "  no canonical " + fam + " atom of this major tiles the tensor's shape\n"
                           : "  fix: a canonical layout with the same element order: " + d.nearest + "\n";
    return s;
  }
  s += "  read by " + fam + " descriptors (no ld.shared): canonical " + d.match.canonical + ", " +
       std::to_string(d.blocks.size()) + " descriptor" + (d.blocks.size() == 1 ? "" : "s") +
       " (MMA blocks x k-blocks), LBO " + std::to_string(d.match.desc.lbo * 16) + " B, SBO " +
       std::to_string(d.match.desc.sbo * 16) + " B\n";
  for (const auto& b : d.blocks)
    s += "    (" + std::to_string(b.mn) + "," + std::to_string(b.k) + ") " + descriptor_hex(b.desc.bits()) +
         "  start " + std::to_string(b.desc.start) + "  lbo " + std::to_string(b.desc.lbo) + "  sbo " +
         std::to_string(b.desc.sbo) + "  " + b.desc.layout_name() + "\n";
  return s;
}

AnyLayout descriptor_layout(const SmemDescriptor& d, OperandMajor major, int element_bits, int64_t mn) {
  const Swizzle sw = d.swizzle();
  const int64_t e = 128 / element_bits;  // elements per 16 bytes
  const int w = sw.bits == 0 ? 1 : sw.base == 5 ? 8 : 1 << sw.bits;
  auto L = [](std::vector<Layout> modes) { return make_layout(modes); };
  auto l = [](int64_t s, int64_t d) { return Layout(IntTuple(s), IntTuple(d)); };
  Layout layout;
  if (major == OperandMajor::kK) {
    if (mn % 8 != 0) throw Error("a K-major descriptor addresses rows in groups of 8; got " + std::to_string(mn));
    // ((8,n),(T,2)):((W T, SBO T),(1, LBO T or T)), in elements
    layout = L({L({l(8, w * e), l(mn / 8, d.sbo * e)}), L({l(e, 1), l(2, (w == 1 ? d.lbo : 1) * e)})});
  } else {
    const int64_t k_atom = sw.base == 5 ? 4 : 8, k_groups = std::max<int64_t>(1, 2 * e / k_atom);
    const int64_t per_group = e * w;
    if (mn % per_group != 0)
      throw Error("an MN-major " + d.layout_name() + " descriptor addresses " + std::to_string(per_group) +
                  " elements of MN at a time; got " + std::to_string(mn));
    if (w == 1)  // ((T,1,n),(8,k)):((1,T,SBO T),(T,LBO T))
      layout = L({L({l(e, 1), l(mn / e, d.sbo * e)}), L({l(8, e), l(k_groups, d.lbo * e)})});
    else  // ((T,W,n),(8,k)):((1,T,LBO T),(W T,SBO T))
      layout = L({L({l(e, 1), l(w, e), l(mn / per_group, d.lbo * e)}), L({l(k_atom, w * e), l(k_groups, d.sbo * e)})});
  }
  return AnyLayout(ComposedLayout::smem(sw, element_bits, AnyLayout(layout)));
}

}  // namespace cutevis

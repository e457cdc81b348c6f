#include "atoms/smem_atoms.hpp"

namespace cutevis {

using V = Value;

namespace {

// One swizzle kind: the swizzle and the bits along the atom's contiguous mode (one swizzle row).
struct SwizzleRow {
  Swizzle swizzle;
  int64_t bits;
};

// CuTe: mma_traits_sm90_gmma.hpp / mma_traits_sm100.hpp — Swizzle<B,4,3> over 128 << B bits;
// UMMA's SW128_32B: Swizzle<2,5,2> over 1024 bits.  False for an unknown kind.
bool swizzle_row(const std::string& kind, SwizzleRow& out) {
  if (kind == "INTER") out = {Swizzle(0, 4, 3), 128};
  else if (kind == "SW32") out = {Swizzle(1, 4, 3), 256};
  else if (kind == "SW64") out = {Swizzle(2, 4, 3), 512};
  else if (kind == "SW128") out = {Swizzle(3, 4, 3), 1024};
  else if (kind == "SW128_32B") out = {Swizzle(2, 5, 2), 1024};
  else return false;
  return true;
}

// `rows` rows of `n` units each: MN-major (n,rows):(1,n), K-major (rows,n):(n,1)
Layout atom_rows(bool mn_major, int64_t rows, int64_t n) {
  return mn_major ? Layout(tup(n, rows), tup(1, n)) : Layout(tup(rows, n), tup(n, 1));
}

}  // namespace

// CuTe: mma_traits_sm90_gmma.hpp:GMMA::Layout_*_Atom_Bits, upcast<sizeof_bits<T>> for Layout_*_Atom<T>
ComposedLayout gmma_smem_atom(const std::string& major, const std::string& kind, int type_bits) {
  SwizzleRow row;
  if (kind == "SW128_32B" || !swizzle_row(kind, row))
    throw Error("unknown GMMA layout atom kind '" + kind + "' (INTER, SW32, SW64 or SW128)");
  if (major != "K" && major != "MN") throw Error("unknown GMMA major '" + major + "' (K or MN)");
  if (type_bits <= 0 || row.bits % type_bits != 0)
    throw Error("GMMA layout atom: element width " + std::to_string(type_bits) + " bits does not divide " +
                std::to_string(row.bits));
  // Layout_*_Atom<T> = upcast<sizeof_bits<T>>(Layout_*_Atom_Bits)
  const Layout bits_layout = atom_rows(major == "MN", 8, row.bits);
  return std::get<ComposedLayout>(upcast(AnyLayout(ComposedLayout::smem(row.swizzle, 1, bits_layout)), type_bits));
}

// CuTe: mma_traits_sm90_gmma_sparse.hpp:GMMA::Layout_*_SpAtom<Type,S>
ComposedLayout gmma_smem_sparse_atom(const std::string& major, const std::string& kind, int type_bits, int sparsity) {
  if (sparsity <= 0)
    throw Error("GMMA sparse layout atom: the sparsity S must be positive, got " + std::to_string(sparsity));
  const ComposedLayout dense = gmma_smem_atom(major, kind, type_bits);
  const Layout b = blocked_product(Layout(tup(1, sparsity), tup(0, 1)), as_layout(dense.layout_b(), "a GMMA atom"));
  return ComposedLayout::smem_sparse(dense.swizzle(), sparsity, type_bits, b);
}

// CuTe: mma_traits_sm100.hpp:UMMA::Layout_MN_SW128_32B_Atom
AnyLayout umma_mn_sw128_32b_atom(int type_bits) {
  SwizzleRow row;
  swizzle_row("SW128_32B", row);
  return upcast(AnyLayout(ComposedLayout::smem(row.swizzle, 1, AnyLayout(atom_rows(true, 4, row.bits)))), type_bits);
}

// CuTeDSL: nvgpu/warpgroup/helpers.py, nvgpu/tcgen05/helpers.py:make_smem_layout_atom
AnyLayout dsl_smem_layout_atom(const std::string& kind, int type_bits) {
  const bool mn = kind.rfind("MN_", 0) == 0;
  const bool k = kind.rfind("K_", 0) == 0;
  SwizzleRow row;
  if ((!mn && !k) || !swizzle_row(kind.substr(mn ? 3 : 2), row) || (k && kind == "K_SW128_32B"))
    throw Error("unrecognized SMEM layout atom kind " + kind);
  if (type_bits <= 0 || row.bits % type_bits != 0)
    throw Error("a " + std::to_string(type_bits) + "-bit element does not divide a swizzle row of " +
                std::to_string(row.bits) + " bits");
  return ComposedLayout(row.swizzle, 0, atom_rows(mn, 8, row.bits / type_bits));
}

void register_smem_atom_names(Registry& r) {
  for (const char* kind : {"INTER", "SW32", "SW64", "SW128"}) {
    for (const char* major : {"K", "MN"}) {
      std::string base = std::string("Layout_") + major + "_" + kind + "_Atom";
      auto fn = [kind, major](Evaluator& ev, const Node& n) {
        auto t = ev.eval_template_args(n);
        if (t.size() != 1 || !t[0].is(V::Kind::kType))
          ev.fail(n, "GMMA layout atoms take one element type, e.g. <half_t>");
        return V::layout(gmma_smem_atom(major, kind, t[0].type().bits));
      };
      for (const char* prefix : {"", "GMMA::", "SM90::GMMA::", "cute::GMMA::", "cute::SM90::GMMA::"})
        r.add(prefix + base, fn, std::string(prefix) + base + "<T>{}");
      auto bits_fn = [kind, major](Evaluator& ev, const Node& n) {
        if (n.has_template_args) ev.fail(n, "the _Bits atoms take no template arguments");
        return V::layout(gmma_smem_atom(major, kind, 1));
      };
      for (const char* prefix : {"", "GMMA::", "SM90::GMMA::", "cute::GMMA::", "cute::SM90::GMMA::"})
        r.add(prefix + base + "_Bits", bits_fn, std::string(prefix) + base + "_Bits{}");
      // UMMA's shared-memory atoms are GMMA's (cute/atom/mma_traits_sm100.hpp: using cute::GMMA::...)
      for (const std::string& name : {base, base + "_Bits"})
        for (const char* prefix : {"UMMA::", "SM100::UMMA::", "cute::UMMA::"})
          r.add(prefix + name, *r.find(name), r.signature(name));
    }
  }
  // With a GMMA::Major parameter (cute/atom/mma_traits_sm90_gmma.hpp): Layout_SW128_Atom<T, Major::MN>
  // is Layout_MN_SW128_Atom<T>, and Major::K the K-major one
  for (const char* kind : {"INTER", "SW32", "SW64", "SW128"}) {
    auto fn = [kind](Evaluator& ev, const Node& n) {
      if (n.template_args.size() != 2)
        ev.fail(n, "Layout_" + std::string(kind) + "_Atom<T, Major> takes two arguments");
      Value t = ev.eval(n.template_args[0]), m = ev.eval(n.template_args[1]);
      if (!t.is(V::Kind::kType)) ev.fail(n.template_args[0], "an element type such as half_t, got " + t.describe());
      const std::string major = m.is(V::Kind::kTag) ? m.tag().substr(m.tag().rfind(':') + 1) : "";
      if (major != "K" && major != "MN")
        ev.fail(n.template_args[1], "GMMA::Major::K or GMMA::Major::MN, got " + m.describe());
      return V::layout(gmma_smem_atom(major, kind, t.type().bits));
    };
    const std::string base = std::string("Layout_") + kind + "_Atom";
    for (const char* prefix :
         {"GMMA::", "SM90::GMMA::", "cute::GMMA::", "cute::SM90::GMMA::", "UMMA::", "SM100::UMMA::", "cute::UMMA::"})
      r.add(prefix + base, fn, std::string(prefix) + base + "<T, Major>{}");
  }
  // The sparse GMMA's A (cute/atom/mma_traits_sm90_gmma_sparse.hpp): Layout_K_SW128_SpAtom<T, S> and,
  // with a GMMA::Major parameter, Layout_SW128_SpAtom<T, S, Major>
  for (const char* kind : {"INTER", "SW32", "SW64", "SW128"}) {
    for (const char* major : {"K", "MN", ""}) {
      const std::string m = major;
      auto fn = [kind, m](Evaluator& ev, const Node& n) {
        const size_t want = m.empty() ? 3 : 2;
        if (n.template_args.size() != want)
          ev.fail(n, std::string("GMMA sparse layout atoms take ") + (m.empty() ? "<T, S, Major>" : "<T, S>") +
                         ", e.g. <half_t, 2>");
        Value t = ev.eval(n.template_args[0]), s = ev.eval(n.template_args[1]);
        if (!t.is(V::Kind::kType)) ev.fail(n.template_args[0], "an element type such as half_t, got " + t.describe());
        if (!s.is(V::Kind::kInt)) ev.fail(n.template_args[1], "the sparsity S is an integer, got " + s.describe());
        std::string major_of = m;
        if (m.empty()) {
          Value mv = ev.eval(n.template_args[2]);
          major_of = mv.is(V::Kind::kTag) ? mv.tag().substr(mv.tag().rfind(':') + 1) : "";
          if (major_of != "K" && major_of != "MN")
            ev.fail(n.template_args[2], "GMMA::Major::K or GMMA::Major::MN, got " + mv.describe());
        }
        return V::layout(gmma_smem_sparse_atom(major_of, kind, t.type().bits, static_cast<int>(s.as_int())));
      };
      const std::string base = std::string("Layout_") + (m.empty() ? "" : m + "_") + kind + "_SpAtom";
      for (const char* prefix : {"GMMA::", "SM90::GMMA::", "cute::GMMA::", "cute::SM90::GMMA::"})
        r.add(prefix + base, fn, std::string(prefix) + base + (m.empty() ? "<T, S, Major>{}" : "<T, S>{}"));
    }
  }
  for (const char* prefix : {"UMMA::", "SM100::UMMA::", "cute::UMMA::"}) {
    r.add(
        std::string(prefix) + "Layout_MN_SW128_32B_Atom",
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.empty()) ev.fail(n, "usage: UMMA::Layout_MN_SW128_32B_Atom<T>");
          Value t = ev.eval(n.template_args[0]);
          if (!t.is(V::Kind::kType))
            ev.fail(n.template_args[0],
                    "UMMA::Layout_MN_SW128_32B_Atom needs an element type such as half_t, got " + t.describe());
          return V::layout(umma_mn_sw128_32b_atom(t.type().bits));
        },
        std::string(prefix) + "Layout_MN_SW128_32B_Atom<T>{}");
  }
}

}  // namespace cutevis

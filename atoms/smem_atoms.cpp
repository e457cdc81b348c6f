#include "atoms/smem_atoms.hpp"

namespace cutevis {

using V = Value;

// CuTe: mma_traits_sm90_gmma.hpp:GMMA::Layout_*_Atom_Bits, upcast<sizeof_bits<T>> for Layout_*_Atom<T>
ComposedLayout gmma_smem_atom(const std::string& major, const std::string& kind, int type_bits) {
  int b;
  if (kind == "INTER") b = 0;
  else if (kind == "SW32") b = 1;
  else if (kind == "SW64") b = 2;
  else if (kind == "SW128") b = 3;
  else throw Error("unknown GMMA layout atom kind '" + kind + "' (INTER, SW32, SW64 or SW128)");
  int64_t width = int64_t{128} << b;  // bits along the contiguous mode: 128, 256, 512, 1024
  Layout bits_layout;
  if (major == "K") bits_layout = Layout(tup(8, width), tup(width, 1));
  else if (major == "MN") bits_layout = Layout(tup(width, 8), tup(1, width));
  else throw Error("unknown GMMA major '" + major + "' (K or MN)");
  if (type_bits <= 0 || width % type_bits != 0)
    throw Error("GMMA layout atom: element width " + std::to_string(type_bits) + " bits does not divide " +
                std::to_string(width));
  // Layout_*_Atom<T> = upcast<sizeof_bits<T>>(Layout_*_Atom_Bits)
  return std::get<ComposedLayout>(upcast(AnyLayout(ComposedLayout::smem(Swizzle(b, 4, 3), 1, bits_layout)), type_bits));
}

// CuTe: mma_traits_sm100.hpp:UMMA::Layout_MN_SW128_32B_Atom
AnyLayout umma_mn_sw128_32b_atom(int type_bits) {
  ComposedLayout bits_atom = ComposedLayout::smem(Swizzle(2, 5, 2), 1, AnyLayout(Layout(tup(1024, 4), tup(1, 1024))));
  return upcast(AnyLayout(bits_atom), type_bits);
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

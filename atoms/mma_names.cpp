// MMA atoms and TiledMMAs in the expression language (see atoms/mma_names.hpp).
#include "atoms/mma_names.hpp"

#include <optional>

#include "atoms/atom_template_args.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/names.hpp"
#include "atoms/smem_atoms.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/element_types.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/explicit_specialization.hpp"

namespace cutevis {

namespace {

class MmaAtomObject : public Object {
 public:
  explicit MmaAtomObject(MmaAtom a) : atom_(std::move(a)) {}
  std::string kind() const override { return "mma_atom"; }
  std::string to_string() const override { return cutevis::to_string(atom_); }
  std::string brief() const override { return "MMA atom " + atom_.short_name; }
  const MmaAtom& atom() const { return atom_; }

 private:
  MmaAtom atom_;
};

class TiledMmaObject : public Object {
 public:
  explicit TiledMmaObject(TiledMma m) : mma_(std::move(m)) {}
  std::string kind() const override { return "tiled_mma"; }
  std::string to_string() const override { return cutevis::to_string(mma_); }
  std::string brief() const override { return "TiledMMA of " + mma_.atom.short_name; }
  const TiledMma& mma() const { return mma_; }

 private:
  TiledMma mma_;
};

// The name without its call part: node name plus template arguments, a kernel's own
// parameters and aliases among them replaced by what they name (UniversalFMA<TC,TA,TB>).
std::string name_text(Evaluator& ev, const Node& n) { return resolved_name_text(ev, n); }

const MmaAtom& atom_arg(Evaluator& ev, const Node& at, const Value& v, const char* fn) {
  if (const MmaAtom* a = as_mma_atom(v)) return *a;
  ev.fail(at, std::string(fn) + ": the first argument is an MMA atom (e.g. SM80_16x8x16_F32F16F16F32_TN{}), got " +
                  v.describe());
}

Layout layout_arg(Evaluator& ev, const Node& at, const Value& v, const char* fn) {
  if (as_mma_atom(v) || as_tiled_mma(v) || !v.is_layout_like())
    ev.fail(at, std::string(fn) + ": the atom layout is a layout or a shape (e.g. Layout<Shape<_2,_2,_1>>{}), got " +
                    v.describe());
  return v.to_layout();
}

Tiler tiler_arg(Evaluator& ev, const Node& at, const Value& v, const char* fn) {
  if (as_mma_atom(v) || as_tiled_mma(v) || !(v.is(Value::Kind::kTuple) || v.is(Value::Kind::kUnderscore)))
    ev.fail(at,
            std::string(fn) + ": the permutation is a tuple of tilers (e.g. Tile<_32,_32,_16>{}), got " + v.describe());
  return v.to_tiler();
}

TiledMma build_tiled(Evaluator& ev, const Node& n, const std::vector<Value>& a, const std::vector<const Node*>& nodes,
                     const char* fn) {
  const MmaAtom& atom = atom_arg(ev, *nodes[0], a[0], fn);
  if (a.size() == 1) return make_tiled_mma(atom);
  Layout layout = layout_arg(ev, *nodes[1], a[1], fn);
  try {
    if (a.size() == 2) return make_tiled_mma(atom, layout);
    return make_tiled_mma(atom, layout, tiler_arg(ev, *nodes[2], a[2], fn));
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, std::string(fn) + ": " + e.what());
  }
}

}  // namespace

Value mma_atom_value(const MmaAtom& atom) { return Value::object(std::make_shared<MmaAtomObject>(atom)); }
Value tiled_mma_value(const TiledMma& mma) { return Value::object(std::make_shared<TiledMmaObject>(mma)); }

const MmaAtom* as_mma_atom(const Value& v) {
  if (!v.is(Value::Kind::kObject)) return nullptr;
  auto* o = dynamic_cast<const MmaAtomObject*>(v.object().get());
  return o ? &o->atom() : nullptr;
}

const TiledMma* as_tiled_mma(const Value& v) {
  if (!v.is(Value::Kind::kObject)) return nullptr;
  auto* o = dynamic_cast<const TiledMmaObject*>(v.object().get());
  return o ? &o->mma() : nullptr;
}

namespace {

// GMMA::ss_op_selector / rs_op_selector<ElementA, ElementB, ElementC, TileShape_MNK, MajorA = K, MajorB = K>()
// (cute/arch/mma_sm90.hpp): the 64xNxK GMMA whose N is the largest of CuTe's shapes dividing Tile_N
// (256, 192, 128, 96, 64, 32, 16, 8: CuTe's default build, without CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED)
// and whose K is 32 bytes of the element; 16-bit inputs take the majors, the others are K-major (_TN).
// ss_op_selector_sparse / rs_op_selector_sparse (`sparse`): the same choice among the SPARSE GMMAs, whose
// K is 64 bytes of the (logical) element: SM90::GMMA::SPARSE::GMMA_64xNx<2K>_...
Value gmma_op_selector(Evaluator& ev, const Node& n, bool rs, bool sparse = false) {
  const std::string usage = n.name + "<ElementA, ElementB, ElementC, TileShape_MNK[, MajorA, MajorB]>()";
  if (n.template_args.size() < 4 || n.template_args.size() > 6)
    ev.fail(n, usage + " takes four to six template arguments");
  std::vector<Value> t = ev.eval_template_args(n);
  auto token = [&](size_t i) {
    if (!t[i].is(Value::Kind::kType)) ev.fail(n.template_args[i], "an element type, got " + t[i].describe());
    const ElementTypeInfo* e = find_element_type(t[i].type().name);
    if (!e || !*e->token) ev.fail(n.template_args[i], "no GMMA takes " + t[i].type().name);
    return std::string(e->token);
  };
  const std::string a = token(0), b = token(1), c = token(2);
  if (!t[3].is_int_tuple() || t[3].to_int_tuple().rank() != 3)
    ev.fail(n.template_args[3], "TileShape_MNK must be rank 3");
  const IntTuple tile = t[3].to_int_tuple();
  const int64_t extent_m = cutevis::size(tile[0]), extent_n = cutevis::size(tile[1]), extent_k = cutevis::size(tile[2]);
  if (extent_m % 64 != 0) ev.fail(n.template_args[3], "Tile_M must be a multiple of 64");
  const int bits = t[0].type().bits;
  const int64_t k = bits > 0 ? (sparse ? 512 : 256) / bits : 0;
  if (k == 0 || extent_k % k != 0) ev.fail(n.template_args[3], "Tile_K must be a multiple of " + std::to_string(k));
  int64_t nsel = 0;
  for (int64_t candidate : {256, 192, 128, 96, 64, 32, 16, 8})
    if (extent_n % candidate == 0) {
      nsel = candidate;
      break;
    }
  if (nsel == 0) ev.fail(n.template_args[3], "Tile_N must be a multiple of 8");
  auto major = [&](size_t i) {
    if (t.size() <= i) return std::string("K");
    const std::string tag = t[i].is(Value::Kind::kTag) ? t[i].tag() : "";
    const std::string m = tag.substr(tag.rfind(':') == std::string::npos ? 0 : tag.rfind(':') + 1);
    if (m != "K" && m != "MN") ev.fail(n.template_args[i], "GMMA::Major::K or GMMA::Major::MN, got " + t[i].describe());
    return m;
  };
  const std::string ma = major(4), mb = major(5);
  std::string name = std::string(sparse ? "SM90_SPARSE_64x" : "SM90_64x") + std::to_string(nsel) + "x" +
                     std::to_string(k) + "_" + c + a + b + (rs ? "_RS" : "_SS");
  if (bits == 16) {
    name += "<GMMA::Major::" + ma + ",GMMA::Major::" + mb + ">";
  } else {
    if (ma != "K" || mb != "K") ev.fail(n, n.name + ": " + a + " inputs must be K-major");
    name += "_TN";
  }
  try {
    return mma_atom_value(find_mma_atom(name));
  } catch (const Error& e) {
    ev.fail(n, n.name + ": CuTe has no " + name + " (" + e.what() + ")");
  }
}

// A home-made atom: `struct MyAtom { ... }; template <> struct MMA_Traits<MyAtom> { using ValTypeD = float; ...
// using Shape_MNK = ...; using ThrID = ...; using ALayout = ...; using BLayout = ...; using CLayout = ...; };`
// in the sources: MyAtom{} is the atom those traits describe (no PTX: pictures and partitions only).
bool user_mma_atom(Evaluator& ev, const Node& n, Value& out) {
  if (!ev.environment() || n.has_template_args || !n.args.empty()) return false;
  const ClassDef* c = explicit_specialization(ev, "MMA_Traits", n.name);
  if (!c) return false;
  const char* const needs = "an atom's traits give ValTypeA/B/C/D, Shape_MNK, ThrID, ALayout, BLayout and CLayout";
  auto member = [&](const char* m) { return specialization_member(ev, *c, m, n, needs); };
  auto type = [&](const char* m) {
    Value v = member(m);
    if (!v.is(Value::Kind::kType)) ev.fail(n, "MMA_Traits<" + n.name + ">::" + m + " is not a type: " + v.describe());
    return v.type();
  };
  MmaAtom a;
  a.name = a.short_name = n.name.rfind("cute::", 0) == 0 ? n.name.substr(6) : n.name;
  a.family = "User";
  a.type_d = type("ValTypeD");
  a.type_a = type("ValTypeA");
  a.type_b = type("ValTypeB");
  a.type_c = type("ValTypeC");
  a.shape_mnk = member("Shape_MNK").to_int_tuple();
  a.thr_id = member("ThrID").to_layout();
  a.layout_a = member("ALayout").to_layout();
  a.layout_b = member("BLayout").to_layout();
  a.layout_c = member("CLayout").to_layout();
  if (a.shape_mnk.rank() != 3) ev.fail(n, "MMA_Traits<" + a.name + ">::Shape_MNK must have three modes (M,N,K)");
  out = mma_atom_value(a);
  return true;
}

// sparse_elem<S,T> (cute/pointer_sparse.hpp): a stored element standing for S logical elements of T;
// sizeof_bits is T's bits / S.  Spelled "sparse_elem<S,T>" as a type (the SPARSE GMMAs' ValTypeA/ValTypeE).
struct SparseElem {
  int sparsity = 0;
  ValueType raw;
};
std::optional<SparseElem> as_sparse_elem(const Value& v) {
  if (!v.is(Value::Kind::kType)) return std::nullopt;
  const std::string& name = v.type().name;
  const size_t comma = name.find(',');
  if (name.rfind("sparse_elem<", 0) != 0 || comma == std::string::npos || name.back() != '>') return std::nullopt;
  SparseElem e;
  e.sparsity = std::stoi(name.substr(12, comma - 12));
  if (!lookup_value_type(name.substr(comma + 1, name.size() - comma - 2), e.raw)) return std::nullopt;
  return e;
}

Value sparse_elem_type(Evaluator& ev, const Node& n) {
  if (n.template_args.size() != 2) ev.fail(n, "sparse_elem<S, T> takes two template arguments");
  std::vector<Value> t = ev.eval_template_args(n);
  if (!t[0].is(Value::Kind::kInt) || t[0].as_int() <= 0 || t[0].as_int() > 64)
    ev.fail(n.template_args[0], "sparse_elem<S, T>: S is a positive integer, got " + t[0].describe());
  if (!t[1].is(Value::Kind::kType))
    ev.fail(n.template_args[1], "sparse_elem<S, T>: T is a type, got " + t[1].describe());
  const int sparsity = static_cast<int>(t[0].as_int());
  const ValueType& raw = t[1].type();
  if (raw.bits % sparsity != 0)
    ev.fail(n, "sparse_elem<" + std::to_string(sparsity) + ", " + raw.name + ">: sizeof_bits is a ratio (" +
                   std::to_string(raw.bits) + "/" + std::to_string(sparsity) + "), which cutevis does not model");
  return Value::type({"sparse_elem<" + std::to_string(sparsity) + "," + raw.name + ">", raw.bits / sparsity});
}

}  // namespace

void register_mma_names(Registry& r) {
  for (const char* prefix : {"", "cute::"}) {
    r.add(std::string(prefix) + "sparse_elem", sparse_elem_type, std::string(prefix) + "sparse_elem<S, T>");
    for (const char* trait : {"is_sparse", "is_sparse_v"})
      r.add(
          std::string(prefix) + trait,
          [](Evaluator& ev, const Node& n) {
            if (n.template_args.size() != 1) ev.fail(n, n.name + "<T> takes one template argument");
            return Value::boolean(as_sparse_elem(ev.eval(n.template_args[0])).has_value());
          },
          std::string(prefix) + trait + "<T>");
  }
  // ElementAMma::sparsity, typename ElementAMma::raw_type of a sparse_elem type (a declared name or an alias)
  r.add_resolver([](Evaluator& ev, const Node& n, Value& out) {
    if (n.has_template_args || !n.args.empty()) return false;
    const size_t cut = n.name.rfind("::");
    if (cut == std::string::npos || cut == 0) return false;
    const std::string member = n.name.substr(cut + 2);
    if (member != "sparsity" && member != "raw_type") return false;
    Node base = n;
    base.name = n.name.substr(0, cut);
    base.end = base.begin + cut;
    std::optional<SparseElem> e;
    try {
      e = as_sparse_elem(ev.eval(base));
    } catch (const UnknownName&) {
      return false;
    }
    if (!e) return false;
    out = member == "sparsity" ? Value::integer(e->sparsity) : Value::type(e->raw);
    return true;
  });
  for (const char* prefix : {"", "GMMA::", "SM90::GMMA::", "cute::GMMA::", "cute::SM90::GMMA::"}) {
    r.add(
        std::string(prefix) + "ss_op_selector",
        [](Evaluator& ev, const Node& n) { return gmma_op_selector(ev, n, false); },
        std::string(prefix) + "ss_op_selector<ElementA, ElementB, ElementC, TileShape_MNK[, MajorA, MajorB]>()");
    r.add(
        std::string(prefix) + "rs_op_selector",
        [](Evaluator& ev, const Node& n) { return gmma_op_selector(ev, n, true); },
        std::string(prefix) + "rs_op_selector<ElementA, ElementB, ElementC, TileShape_MNK[, MajorA, MajorB]>()");
    r.add(
        std::string(prefix) + "ss_op_selector_sparse",
        [](Evaluator& ev, const Node& n) { return gmma_op_selector(ev, n, false, true); },
        std::string(prefix) + "ss_op_selector_sparse<ElementA, ElementB, ElementC, TileShape_MNK[, MajorA, MajorB]>()");
    r.add(
        std::string(prefix) + "rs_op_selector_sparse",
        [](Evaluator& ev, const Node& n) { return gmma_op_selector(ev, n, true, true); },
        std::string(prefix) + "rs_op_selector_sparse<ElementA, ElementB, ElementC, TileShape_MNK[, MajorA, MajorB]>()");
  }
  register_smem_atom_names(r);  // GMMA::Layout_K_SW128_Atom<T>{}, UMMA::..., (atoms/smem_atoms.cpp)
  // Atom names, in any accepted spelling: SM80_...{}, MMA_Atom<...>{}, SM90::GMMA::MMA_...<...>{}
  r.add_resolver([](Evaluator& ev, const Node& n, Value& out) {
    const bool traits = n.name == "MMA_Traits" || n.name == "cute::MMA_Traits";
    if (!traits && !looks_like_mma_atom(n.name) && !looks_like_mma_atom(ev.text_of(n))) return false;
    const bool traits_arg = n.template_args.size() == 1 &&
                            (n.template_args[0].name == "MMA_Traits" || n.template_args[0].name == "cute::MMA_Traits");
    if (n.template_args.size() == 1 && (is_open_name(n.template_args[0]) || traits_arg) &&
        (n.name == "MMA_Atom" || n.name == "cute::MMA_Atom" || n.name == "MMA_Traits" ||
         n.name == "cute::MMA_Traits")) {  // MMA_Atom<Op>, MMA_Traits<Op> of an alias `using Op = SM80_...;`
      Value op = ev.eval(n.template_args[0]);
      if (!as_mma_atom(op)) ev.fail(n.template_args[0], "MMA_Atom<Op>: Op is an MMA operation, got " + op.describe());
      out = op;
      return true;
    }
    std::string text = name_text(ev, n);
    if (!looks_like_mma_atom(text)) return false;
    if (!n.args.empty()) ev.fail(n.args[0], "an MMA atom takes no constructor arguments: write " + text + "{}");
    out = mma_atom_value(find_mma_atom(text));
    return true;
  });
  r.add_resolver(user_mma_atom);  // struct MyAtom; template <> struct MMA_Traits<MyAtom> { ... };
  // GMMA/UMMA enumerators in an atom's template arguments (UMMA::Major::K, GMMA::ScaleIn::One): tags,
  // so that they are known names when `cutevis names` lists what an atom still needs.
  r.add_resolver([](Evaluator&, const Node& n, Value& out) {
    if (n.has_template_args || !n.args.empty()) return false;
    std::string name = n.name.rfind("cute::", 0) == 0 ? n.name.substr(6) : n.name;
    if (name.rfind("SM90::", 0) == 0) name = name.substr(6);
    if (name.rfind("GMMA::", 0) != 0 && name.rfind("UMMA::", 0) != 0) return false;
    for (const char* e : {"Major::", "ScaleIn::", "ScaleOut::", "Saturate::"})
      if (name.compare(6, std::string(e).size(), e) == 0 && name.size() > 6 + std::string(e).size()) {
        out = Value::tag(name);
        return true;
      }
    return false;
  });
  // Names spelled like atoms get the catalogue's own suggestions (find_mma_atom); the
  // registry's generic "did you mean" only needs the stems a typo could miss.
  r.add_vocabulary([] { return std::vector<std::string>{"MMA_Atom", "UniversalFMA"}; });
  r.add(
      "make_tiled_mma",
      [](Evaluator& ev, const Node& n) {
        if (n.has_template_args) ev.fail(n, "make_tiled_mma takes no template arguments");
        ev.expect_args(n, 1, 3);
        std::vector<Value> a = ev.eval_args(n);
        std::vector<const Node*> nodes;
        for (const auto& x : n.args) nodes.push_back(&x);
        return tiled_mma_value(build_tiled(ev, n, a, nodes, "make_tiled_mma"));
      },
      "make_tiled_mma(atom[, atom_layout[, Tile<...>]])");
  r.add(
      "TiledMMA",
      [](Evaluator& ev, const Node& n) {
        if (n.template_args.empty() || n.template_args.size() > 3)
          ev.fail(n, "TiledMMA<MMA_Atom<Op>, AtomLayoutMNK[, PermutationMNK]>{} takes one to three template arguments");
        if (!n.args.empty()) ev.fail(n.args[0], "TiledMMA<...>{} takes no constructor arguments");
        std::vector<Value> a = ev.eval_template_args(n);
        std::vector<const Node*> nodes;
        for (const auto& x : n.template_args) nodes.push_back(&x);
        return tiled_mma_value(build_tiled(ev, n, a, nodes, "TiledMMA"));
      },
      "TiledMMA<MMA_Atom<Op>, AtomLayoutMNK[, PermutationMNK]>{}");
}

}  // namespace cutevis

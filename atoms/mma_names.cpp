// MMA atoms and TiledMMAs in the expression language (see atoms/mma_names.hpp).
#include "atoms/mma_names.hpp"

#include "atoms/atom_template_args.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/names.hpp"
#include "atoms/smem_atoms.hpp"
#include "atoms/tiled_mma.hpp"

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

void register_mma_names(Registry& r) {
  register_smem_atom_names(r);  // GMMA::Layout_K_SW128_Atom<T>{}, UMMA::..., (atoms/smem_atoms.cpp)
  // Atom names, in any accepted spelling: SM80_...{}, MMA_Atom<...>{}, SM90::GMMA::MMA_...<...>{}
  r.add_resolver([](Evaluator& ev, const Node& n, Value& out) {
    if (!looks_like_mma_atom(n.name) && !looks_like_mma_atom(ev.text_of(n))) return false;
    if (n.template_args.size() == 1 && is_open_name(n.template_args[0]) &&
        (n.name == "MMA_Atom" || n.name == "cute::MMA_Atom")) {  // MMA_Atom<Op> of an alias `using Op = SM80_...;`
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

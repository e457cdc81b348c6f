// CUTLASS's scale-factor configs in the expression language, as a kernel writes them:
//   cutlass::detail::Sm1xxBlockScaledConfig<32>::tile_atom_to_shape_SFA(make_shape(M,N,K,L))
//   cutlass::detail::Sm103BlockScaledConfig<16>::deduce_layoutSFB()
//   Sm1xxBlkScaledConfig::deduce_smem_layoutSFA(TiledMma{}, MmaTileShape_MNK{})   (with the alias declared)
//   cutlass::detail::Sm1xxBlockScaledOutputConfig<16, UMMA::Major::MN>::tile_atom_to_shape_SFD(problem_shape)
//   cutlass::detail::Sm1xxBlockScaledTensorConfig::tile_atom_to_shape(make_shape(M,N,L))
// A config is a value (kind "blockscaled_config"); its members are `::` names on it.
#include <memory>

#include "atoms/blockscaled.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/tiled_mma.hpp"

namespace cutevis {

namespace {

using V = Value;

enum class ConfigKind { kInput, kOutput, kTensor };

class BlockScaledConfigObject : public Object {
 public:
  BlockScaledConfigObject(ConfigKind k, BlockScaledConfig c) : kind_of(k), config(c) {}
  std::string kind() const override { return "blockscaled_config"; }
  std::string to_string() const override {
    if (kind_of == ConfigKind::kTensor) return "cutlass::detail::Sm1xxBlockScaledTensorConfig";
    std::string name = kind_of == ConfigKind::kOutput    ? "Sm1xxBlockScaledOutputConfig"
                       : config.arch == SfConfig::kSm103 ? "Sm103BlockScaledConfig"
                                                         : "Sm1xxBlockScaledConfig";
    std::string t = "cutlass::detail::" + name + "<" + std::to_string(config.vec_size);
    if (kind_of == ConfigKind::kOutput && !config.k_major) t += ",UMMA::Major::MN";
    return t + ">";
  }
  ConfigKind kind_of;
  BlockScaledConfig config;
};

const BlockScaledConfigObject* as_config(const Value& v) {
  if (!v.is(V::Kind::kObject)) return nullptr;
  return dynamic_cast<const BlockScaledConfigObject*>(v.object().get());
}

const char* const kMembers[] = {"SfAtom",
                                "Blk_MN",
                                "Blk_SF",
                                "LayoutSF",
                                "SFVecSize",
                                "deduce_layoutSFA",
                                "deduce_layoutSFB",
                                "deduce_layoutSFD",
                                "tile_atom_to_shape_SFA",
                                "tile_atom_to_shape_SFB",
                                "tile_atom_to_shape_SFD",
                                "tile_atom_to_shape",
                                "deduce_smem_layoutSFA",
                                "deduce_smem_layoutSFB"};

bool is_member(const std::string& name) {
  for (const char* m : kMembers)
    if (name == m) return true;
  return false;
}

// Template arguments of a config: <SFVecSize> or, for the output config, <SFVecSize, UMMA::Major::K|MN>.
Value config_value(Evaluator& ev, const Node& n, ConfigKind kind, SfConfig arch) {
  BlockScaledConfig c;
  c.arch = arch;
  if (kind == ConfigKind::kTensor) {
    if (n.has_template_args) ev.fail(n, "Sm1xxBlockScaledTensorConfig takes no template arguments");
    return V::object(std::make_shared<BlockScaledConfigObject>(kind, c));
  }
  auto t = ev.eval_template_args(n);
  const size_t most = kind == ConfigKind::kOutput ? 2 : 1;
  if (t.empty() || t.size() > most)
    ev.fail(n, n.name + (kind == ConfigKind::kOutput ? "<SFVecSize[, UMMA::Major::K|MN]>" : "<SFVecSize>") +
                   ": give the scale-factor vector size (16 or 32)");
  const int64_t vec = t[0].as_int();
  if (vec != 16 && vec != 32 && vec != 64)
    ev.fail(n.template_args[0], "SFVecSize is 16 (NVFP4, MXF4 VS=16) or 32 (MX formats), not " + std::to_string(vec));
  c.vec_size = static_cast<int>(vec);
  if (t.size() == 2) {
    const std::string major = t[1].is(V::Kind::kTag) ? t[1].tag() : "";
    auto ends = [&](const std::string& s) {
      return major.size() >= s.size() && major.compare(major.size() - s.size(), s.size(), s) == 0;
    };
    if (ends("::MN") || major == "MN") c.k_major = false;
    else if (!(ends("::K") || major == "K"))
      ev.fail(n.template_args[1], "the major is UMMA::Major::K or UMMA::Major::MN");
  }
  return V::object(std::make_shared<BlockScaledConfigObject>(kind, c));
}

TiledMma tiled_mma_arg(Evaluator& ev, const Node& at, const Value& v) {
  if (const TiledMma* m = as_tiled_mma(v)) return *m;
  if (const MmaAtom* a = as_mma_atom(v)) return make_tiled_mma(*a);
  ev.fail(at, "deduce_smem_layoutSF: the first argument is the TiledMMA, got " + v.describe());
}

// `cfg::member` or `cfg::member(args)` with `call` holding the arguments.
Value member(Evaluator& ev, const Node& call, const BlockScaledConfigObject& cfg, const std::string& name) {
  const BlockScaledConfig& c = cfg.config;
  const bool input = cfg.kind_of == ConfigKind::kInput, output = cfg.kind_of == ConfigKind::kOutput;
  auto wrong = [&]() -> Value { ev.fail(call, cfg.to_string() + " has no member '" + name + "'"); };
  try {
    if (cfg.kind_of == ConfigKind::kTensor) {
      if (name == "SfAtom") return V::layout(Layout(tup(tup(32, 4), tup(4)), tup(tup(16, 4), tup(1))));
      if (name != "tile_atom_to_shape") return wrong();
      ev.expect_args(call, 1, 1);
      return V::layout(tile_atom_to_shape_sf_tensor(ev.eval(call.args[0]).to_int_tuple()));
    }
    if (name == "SFVecSize") return V::integer(c.vec_size);
    // the basic block of 128 rows/columns by 4 scale factors (Sm1xxBlkScaledChunk::Blk_MN, Blk_SF)
    if (name == "Blk_MN" && c.arch == SfConfig::kSm1xx) return V::integer(128);
    if (name == "Blk_SF" && c.arch == SfConfig::kSm1xx) return V::integer(4);
    if (name == "SfAtom") return V::layout(sf_atom(c));
    if (name == "LayoutSF" || (input && (name == "deduce_layoutSFA" || name == "deduce_layoutSFB")) ||
        (output && name == "deduce_layoutSFD")) {
      if (call.call != Node::Call::kNone) ev.expect_args(call, 0, 0);
      return V::layout(deduce_layout_sf(c));
    }
    const bool sfa = name == "tile_atom_to_shape_SFA", sfb = name == "tile_atom_to_shape_SFB";
    if ((input && (sfa || sfb)) || (output && name == "tile_atom_to_shape_SFD")) {
      ev.expect_args(call, 1, 2);  // (problem_shape[, layout_sf]): the layout only carries the type
      const char operand = sfa ? 'A' : sfb ? 'B' : 'D';
      return V::layout(tile_atom_to_shape_sf(c, operand, ev.eval(call.args[0]).to_int_tuple()));
    }
    if (input && c.arch == SfConfig::kSm1xx && (name == "deduce_smem_layoutSFA" || name == "deduce_smem_layoutSFB")) {
      ev.expect_args(call, 2, 2);
      const Value mma = ev.eval(call.args[0]);
      const TiledMma m = tiled_mma_arg(ev, call.args[0], mma);
      const IntTuple tile = ev.eval(call.args[1]).to_int_tuple();
      return V::layout(deduce_smem_layout_sf(c, name.back(), m, tile));
    }
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(call, e.what());
  }
  return wrong();
}

}  // namespace

void register_blockscaled_names(Registry& r) {
  struct Named {
    const char* name;
    ConfigKind kind;
    SfConfig arch;
  };
  const Named configs[] = {
      {"Sm1xxBlockScaledConfig", ConfigKind::kInput, SfConfig::kSm1xx},
      {"Sm103BlockScaledConfig", ConfigKind::kInput, SfConfig::kSm103},
      {"Sm1xxBlockScaledOutputConfig", ConfigKind::kOutput, SfConfig::kSm1xx},
      {"Sm1xxBlockScaledTensorConfig", ConfigKind::kTensor, SfConfig::kSm1xx},
  };
  for (const Named& c : configs) {
    const ConfigKind kind = c.kind;
    const SfConfig arch = c.arch;
    Builtin make = [kind, arch](Evaluator& ev, const Node& n) { return config_value(ev, n, kind, arch); };
    const std::string sig =
        std::string("cutlass::detail::") + c.name +
        (kind == ConfigKind::kTensor   ? ""
         : kind == ConfigKind::kOutput ? "<SFVecSize[, Major]>"
                                       : "<SFVecSize>") +
        "::tile_atom_to_shape_SF...(problem_shape), ... (cutlass/detail/sm100_blockscaled_layout.hpp)";
    r.add(c.name, make, sig);
    r.add(std::string("detail::") + c.name, make, sig);
  }
  // Cfg<32>::member(...): a scope on the config value
  for (const char* m : kMembers) {
    const std::string name = m;
    const Builtin* before = r.find("::" + name);
    Builtin previous = before ? *before : Builtin();
    r.add("::" + name, [name, previous](Evaluator& ev, const Node& n) {
      const Value base = ev.eval(n.children[0]);
      if (const BlockScaledConfigObject* cfg = as_config(base)) return member(ev, n, *cfg, name);
      if (previous) return previous(ev, n);
      ev.fail(n, "cannot take '::" + name + "' of " + base.describe());
    });
  }
  // Alias::member(...) where `using Alias = cutlass::detail::Sm1xxBlockScaledConfig<32>;` was declared
  r.add_resolver([](Evaluator& ev, const Node& n, Value& out) {
    const size_t colon = n.name.rfind("::");
    if (colon == std::string::npos || n.has_template_args || !is_member(n.name.substr(colon + 2))) return false;
    Node prefix;
    prefix.kind = Node::Kind::kName;
    prefix.name = n.name.substr(0, colon);
    prefix.begin = n.begin;
    prefix.end = n.begin + colon;
    Value base;
    try {
      base = ev.eval(prefix);
    } catch (const Error&) {
      return false;
    }
    const BlockScaledConfigObject* cfg = as_config(base);
    if (!cfg) return false;
    out = member(ev, n, *cfg, n.name.substr(colon + 2));
    return true;
  });
}

}  // namespace cutevis

// cutevis — `cutevis verify --pipeline` flags -> PipelineSpec (see verify_pipeline.hpp).
#include "app/verify_pipeline.hpp"

#include "app/diagnostics.hpp"
#include "app/sources.hpp"
#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "lib/error.hpp"

namespace cutevis {

namespace {

Value value_of(const std::string& flag, const std::string& text, const VerifyOptions& o) {
  return with_source(flag, text, [&] { return evaluate_source(text, o.env.get()); });
}

AnyLayout layout_of(const std::string& flag, const std::string& text, const VerifyOptions& o) {
  Value v = value_of(flag, text, o);
  return with_source(flag, text, [&] { return v.to_any_layout(); });
}

// --copy-a NAME: an op (SM75_U32x4_LDSM_N) with the MMA's element type, or a whole Copy_Atom<...>.
CopyAtom s2r_atom(const std::string& flag, const std::string& text, const ValueType& type, const VerifyOptions& o) {
  return with_source(flag, text, [&] {
    if (text.rfind("Copy_Atom", 0) == 0) {
      Value v = evaluate_source(text, o.env.get());
      if (const CopyAtom* a = as_copy_atom(v)) return *a;
      return find_copy_atom(text);
    }
    return make_copy_atom(text, type);
  });
}

TiledCopy g2s_copy(const std::string& flag, const std::string& text, const VerifyOptions& o) {
  Value v = value_of(flag, text, o);
  const TiledCopy* c = as_tiled_copy(v);
  if (c == nullptr)
    throw SourcedError(
        flag, text,
        Error("needs a TiledCopy, e.g. make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, "
              "Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{}); got " +
              v.describe()));
  return *c;
}

}  // namespace

PipelineSpec pipeline_spec(const VerifyOptions& o) {
  const VerifyPipelineOptions& f = o.pipeline_flags;
  if (!o.name.empty())
    throw Error("verify --pipeline takes its TiledMMA from --mma, not a positional atom name ('" + o.name + "')");
  if (o.all) throw Error("--pipeline and --all exclude each other");
  if (!o.arch.empty() || !o.contains.empty() || o.every)
    throw Error("--arch, --contains and --every go with --all, not --pipeline");
  if (!o.layout_a.empty() || !o.layout_b.empty() || !o.layout_c.empty() || !o.thr_id.empty() || !o.layout_src.empty() ||
      !o.layout_dst.empty() || !o.smem_layout.empty())
    throw Error(
        "--layout-*, --thr-id and --smem-layout check one atom; --pipeline takes --mma, --smem-a/-b, --copy-a/-b, "
        "--g2s");
  if (f.mma.empty())
    throw Error(
        "verify --pipeline needs --mma TILEDMMA, e.g. --mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
        "Layout<Shape<_2,_2,_1>>{})'");
  if (f.smem_a.empty() || f.smem_b.empty())
    throw Error("verify --pipeline needs --smem-a and --smem-b: the (M,K) and (N,K) shared-memory layouts");
  register_catalogue_names();
  PipelineSpec s;
  s.mma_text = f.mma;
  Value mv = value_of("--mma", f.mma, o);
  const TiledMma* mma = as_tiled_mma(mv);
  if (mma == nullptr)
    throw SourcedError(
        "--mma", f.mma,
        Error("needs a TiledMMA, e.g. make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}); got " +
              mv.describe()));
  s.mma = *mma;
  struct Flags {
    PipelineOperandSpec* spec;
    const std::string &smem, &data, &gmem, &copy, &g2s;
    const char* suffix;
    const ValueType& type;
  };
  const std::string& g2s_a = f.g2s_a.empty() ? f.g2s : f.g2s_a;
  const std::string& g2s_b = f.g2s_b.empty() ? f.g2s : f.g2s_b;
  for (const Flags& x : {Flags{&s.a, f.smem_a, f.data_a, f.gmem_a, f.copy_a, g2s_a, "a", s.mma.atom.type_a},
                         Flags{&s.b, f.smem_b, f.data_b, f.gmem_b, f.copy_b, g2s_b, "b", s.mma.atom.type_b}}) {
    const std::string sfx = x.suffix;
    x.spec->smem_text = x.smem;
    x.spec->smem = layout_of("--smem-" + sfx, x.smem, o);
    if (!x.data.empty()) {
      x.spec->data_text = x.data;
      x.spec->data = layout_of("--data-" + sfx, x.data, o);
    }
    if (!x.gmem.empty()) {
      x.spec->gmem_text = x.gmem;
      x.spec->gmem = layout_of("--gmem-" + sfx, x.gmem, o);
    }
    if (!x.copy.empty()) {
      x.spec->s2r_text = x.copy;
      x.spec->s2r = s2r_atom("--copy-" + sfx, x.copy, x.type, o);
    }
    if (!x.g2s.empty()) {
      x.spec->g2s_text = x.g2s;
      x.spec->g2s = g2s_copy(f.g2s_a.empty() && f.g2s_b.empty() ? "--g2s" : "--g2s-" + sfx, x.g2s, o);
    }
  }
  return s;
}

}  // namespace cutevis

// SM90 warpgroup MMA (wgmma.mma_async): every N, every input type, SS and RS, K- and
// MN-major where the hardware allows (CuTe's mma_traits_sm90_gmma[_ext].hpp,
// arch/mma_sm90_gmma[_ext].hpp; the extended N shapes included).
//
// One generator for all of them.  An atom is
//   SM90_64x<N>x<K>_<D><A><B>_<SS|RS>[_TN][_SATURATE][<majors/scales>]
// 128 threads (a warpgroup); M is 64; K is 256 bits of the input type; C is
// CLayout_64xN; A comes from a shared-memory descriptor (SS, every thread sees the whole
// 64xK tile: ABLayout<64,K>) or from registers (RS, ALayout_64x<K>); B always from a
// descriptor (ABLayout<N,K>).  Only 16-bit inputs may be MN-major; register A is K-major.
//
// The 2:4 structured-sparse family (wgmma.mma_async.sp; CuTe's arch/mma_sm90_gmma_sparse[_ext].hpp,
// atom/mma_traits_sm90_gmma_sparse[_ext].hpp) comes from the same generator:
//   SM90::GMMA::SPARSE::GMMA_64x<N>x<2K>_<D><A><B>_<SS|RS>[_TN][_SATURATE]<..., spsel>
// (short: SM90_SPARSE_64x<N>x<2K>_...): K is doubled (512 bits of logical A), ValTypeA is
// sparse_elem<2,T> (half of A's K is stored), the metadata E is sparse_elem<8,uint8_t>
// (sparse_elem<4,uint8_t> for tf32) laid out by ELayout_64x<2K>, and register A is the
// dense atom's register layout of a type half as wide (ALayout_64x<2K>).
#include <algorithm>

#include "atoms/mma_family.hpp"

namespace cutevis::mma {

namespace {

Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }

// One GMMA type combination: D += A * B.
struct GmmaTypes {
  const char *d, *a, *b;  // name tokens
  int k;                  // K of one instruction: 256 bits of A
  bool majors;            // majors are template arguments (16-bit inputs); else _TN
  bool integer;           // s8/u8: no ScaleIn, optional _SATURATE
};

constexpr GmmaTypes gmma_types[] = {
    {"F16", "F16", "F16", 16, true, false},
    {"F32", "F16", "F16", 16, true, false},
    {"F32", "BF16", "BF16", 16, true, false},
    {"F32", "TF32", "TF32", 8, false, false},
    // fp8: F16 or F32 accumulators, A and B E4M3 or E5M2
    {"F16", "E4M3", "E4M3", 32, false, false},
    {"F16", "E4M3", "E5M2", 32, false, false},
    {"F16", "E5M2", "E4M3", 32, false, false},
    {"F16", "E5M2", "E5M2", 32, false, false},
    {"F32", "E4M3", "E4M3", 32, false, false},
    {"F32", "E4M3", "E5M2", 32, false, false},
    {"F32", "E5M2", "E4M3", 32, false, false},
    {"F32", "E5M2", "E5M2", 32, false, false},
    // 8-bit integers, signed or unsigned
    {"S32", "S8", "S8", 32, false, true},
    {"S32", "S8", "U8", 32, false, true},
    {"S32", "U8", "S8", 32, false, true},
    {"S32", "U8", "U8", 32, false, true},
};

// N of an instruction: multiples of 8 up to 256; integer inputs: 8, 16, 24, then multiples of 16.
bool valid_n(int n, bool integer) {
  if (n < 8 || n > 256 || n % 8 != 0) return false;
  return !integer || n <= 32 || n % 16 == 0;
}
std::vector<int> valid_ns(bool integer) {
  std::vector<int> out;
  for (int n = 8; n <= 256; n += 8)
    if (valid_n(n, integer)) out.push_back(n);
  return out;
}

// (T128,V<N/2>) -> (M64,N): CLayout_64xN
Layout c_layout_64xn(int n) { return L(tup(tup(4, 8, 4), tup(2, 2, n / 8)), tup(tup(128, 1, 16), tup(64, 8, 512))); }
// (T128,V<M*K>) -> (M,K): ABLayout<M,K>, every thread of the warpgroup sees the whole tile
Layout ab_layout(int mn, int k) { return L(tup(128, tup(mn, k)), tup(0, tup(1, mn))); }
// (T128,V<8192/bits/128>) -> (M64,K): ALayout_64x8 / 64x16 / 64x32 / 64x64 for 32-, 16-, 8-, 4-bit A in
// registers (the sparse atoms' A is sparse_elem<2,T>: a tf32, f16 or 8-bit A takes the 16-, 8- or 4-bit layout)
Layout a_layout_rs(int bits) {
  if (bits == 32) return L(tup(tup(4, 8, 4), tup(2, 2)), tup(tup(64, 1, 16), tup(8, 256)));
  if (bits == 16) return L(tup(tup(4, 8, 4), tup(2, 2, 2)), tup(tup(128, 1, 16), tup(64, 8, 512)));
  if (bits == 8) return L(tup(tup(4, 8, 4), tup(4, 2, 2)), tup(tup(256, 1, 16), tup(64, 8, 1024)));
  return L(tup(tup(4, 8, 4), tup(8, 2, 2)), tup(tup(512, 1, 16), tup(64, 8, 2048)));
}
// (T128,V) -> (M64,K): the sparse atoms' metadata layouts ELayout_64x64 / 64x32 / 64x16 (K of 8-, 16-, 32-bit A)
Layout e_layout(int k) {
  if (k == 64) return L(tup(tup(2, 2, 8, 4), tup(32)), tup(tup(8, 2048, 1, 16), tup(64)));
  if (k == 32) return L(tup(tup(2, 2, 8, 4), tup(16, 2)), tup(tup(1024, 0, 1, 16), tup(64, 8)));
  return L(tup(tup(2, 2, 8, 4), tup(8, 2)), tup(tup(512, 0, 1, 16), tup(64, 8)));
}
// sparse_elem<S,T>: S logical elements of T per stored one; sizeof_bits is T's bits / S (CuTe's pointer_sparse.hpp)
ValueType sparse_type(int sparsity, const ValueType& raw) {
  return {"sparse_elem<" + std::to_string(sparsity) + "," + raw.name + ">", raw.bits / sparsity};
}

struct GmmaSpec {
  int n = 0;
  const GmmaTypes* types = nullptr;
  bool rs = false, saturate = false;
  std::string major_a = "K", major_b = "K", scale_a = "One", scale_b = "One";
  bool sparse = false;         // SM90::GMMA::SPARSE::GMMA_...: K doubled, metadata E
  std::string spsel = "Zero";  // GMMA::SparseSel: which thread pair of a quad gives the metadata
  int k() const { return types->k * (sparse ? 2 : 1); }
};

std::string type_string(const GmmaTypes& t) { return std::string(t.d) + t.a + t.b; }

// Sparse atoms: CuTe's SM90::GMMA::SPARSE::GMMA_64x... (`full`) or the short SM90_SPARSE_64x...
std::string base_name(const GmmaSpec& s, bool full = false) {
  const char* prefix = !s.sparse ? "SM90_64x" : full ? "SM90::GMMA::SPARSE::GMMA_64x" : "SM90_SPARSE_64x";
  return prefix + std::to_string(s.n) + "x" + std::to_string(s.k()) + "_" + type_string(*s.types) +
         (s.rs ? "_RS" : "_SS") + (s.types->majors ? "" : "_TN") + (s.saturate ? "_SATURATE" : "");
}

// CuTe's spelling (`full`) or the short one.
std::string spelled(const GmmaSpec& s, bool full) {
  const std::string major = full ? "GMMA::Major::" : "", scale = full ? "GMMA::ScaleIn::" : "";
  const bool selected = s.spsel != "Zero";  // a sparse atom's SparseSel follows its scales
  const bool scaled = s.scale_a != "One" || s.scale_b != "One" || (selected && !s.types->integer);
  std::string args;
  if (s.types->majors) args = major + s.major_a + "," + major + s.major_b;
  if (scaled) args += (args.empty() ? "" : ",") + scale + s.scale_a + "," + scale + s.scale_b;
  if (selected) args += (args.empty() ? "" : ",") + std::string(full ? "GMMA::SparseSel::" : "") + s.spsel;
  if (s.types->integer && !s.sparse) return base_name(s, full);
  if (args.empty()) return base_name(s, full) + (full ? "<>" : "");
  return base_name(s, full) + "<" + args + ">";
}

MmaAtom build(const GmmaSpec& s) {
  const GmmaTypes& t = *s.types;
  auto et = split_types(type_string(t));
  MmaAtom atom;
  atom.name = spelled(s, true);
  atom.short_name = spelled(s, false);
  atom.family = s.sparse ? "SM90_GMMA_SPARSE" : "SM90_GMMA";
  atom.sm = 90;
  const int k = s.k();
  atom.shape_mnk = tup(64, s.n, k);
  atom.thr_id = L(128, 1);
  atom.layout_a = s.rs ? a_layout_rs(et[1].type.bits / (s.sparse ? 2 : 1)) : ab_layout(64, k);
  atom.layout_b = ab_layout(s.n, k);
  atom.layout_c = c_layout_64xn(s.n);
  atom.type_d = atom.type_c = et[0].type;
  atom.type_a = s.sparse ? sparse_type(2, et[1].type) : et[1].type;
  atom.type_b = et[2].type;
  if (s.sparse) {
    atom.layout_e = e_layout(k);
    atom.type_e = sparse_type(et[1].type.bits == 32 ? 4 : 8, value_type("uint8_t"));
  }
  atom.source_a = s.rs ? OperandSource::kRegister : OperandSource::kSharedMemory;
  atom.source_b = OperandSource::kSharedMemory;
  atom.major_a = s.major_a;
  atom.major_b = s.major_b;
  if (!t.integer) {
    atom.scale_a = s.scale_a;
    atom.scale_b = s.scale_b;
  }
  atom.saturate = s.saturate;
  // Registers: D aliases C (DRegisters = void); A is a descriptor (SS) or 4 packed registers (RS).
  atom.regs_d = {"void", 0};
  atom.regs_c = packed_registers(atom.type_c, size(atom.layout_c.shape[1]));
  atom.regs_a = s.rs ? RegisterSpec{"uint32_t", 4} : RegisterSpec{"uint64_t", 1};
  atom.regs_b = {"uint64_t", 1};
  atom.ptx = std::string("wgmma.mma_async") + (s.sparse ? ".sp" : "") + ".sync.aligned.m64n" + std::to_string(s.n) +
             "k" + std::to_string(k) + "." + et[0].ptx + "." + et[1].ptx + "." + et[2].ptx +
             (s.saturate ? ".satfinite" : "");
  // Operands: C (read-write), A, desc_b, [e, spsel: sparse], scale_D, then the immediates scaleA/B and tnspA/B.
  const int nc = atom.regs_c.count;
  const char* cc = constraint(atom.regs_c.c_type);
  std::string outs, ins;
  for (int i = 0; i < nc; ++i) outs += (i ? ", \"+" : "\"+") + std::string(cc) + "\"(d" + std::to_string(i) + ")";
  int next = nc;
  std::string a_operand;
  if (s.rs) {
    a_operand = operand_list(next, 4);
    for (int i = 0; i < 4; ++i) ins += (i ? ", " : "") + std::string("\"r\"(a") + std::to_string(i) + ")";
    next += 4;
  } else {
    a_operand = "%" + std::to_string(next++);
    ins = "\"l\"(desc_a)";
  }
  const int desc_b = next++;
  ins += ", \"l\"(desc_b)";
  std::string metadata;
  if (s.sparse) {
    metadata = ", %" + std::to_string(next) + ", %" + std::to_string(next + 1);
    next += 2;
    ins += ", \"r\"(e), \"n\"(int32_t(spsel))";
  }
  const int scale_d = next++;
  ins += ", \"r\"(int32_t(scale_D))";
  std::string imm;
  auto immediate = [&](const char* expr) {
    imm += ", %" + std::to_string(next++);
    ins += std::string(", \"n\"(int32_t(") + expr + "))";
  };
  if (!t.integer) {
    immediate("scaleA");
    immediate("scaleB");
  }
  if (t.majors) {
    if (!s.rs) immediate("tnspA");
    immediate("tnspB");
  }
  atom.asm_template = "{ .reg .pred p; setp.ne.b32 p, %" + std::to_string(scale_d) + ", 0; " + atom.ptx + " " +
                      operand_list(0, nc) + ", " + a_operand + ", %" + std::to_string(desc_b) + metadata + ", p" + imm +
                      "; }";
  atom.asm_operands = outs + " : " + ins;
  set_comments(atom);
  if (s.sparse) {
    atom.regs_e = {"uint32_t", 1};
    atom.comment_a += " -- 2:4 sparse: A holds half of K (sparse_elem<2>), E is its metadata";
    atom.comment_e = tv_comment(atom.layout_e, 'M', 64, 'K', k);
  }
  return atom;
}

std::string join_ns(bool integer) {
  return integer ? "8, 16, 24, 32, 48, 64, ..., 256 (multiples of 16 above 32)"
                 : "8, 16, 24, ..., 256 (multiples of 8)";
}

}  // namespace

std::optional<MmaAtom> decode_gmma(const AtomName& name) {
  const std::string& base = name.base;
  GmmaSpec s;
  // SM90_64x<N>x<K>_<types>_<SS|RS>[_TN][_SATURATE], or SM90_SPARSE_64x... (SM90::GMMA::SPARSE::GMMA_64x...)
  size_t p = 0;
  if (base.rfind("SM90_64x", 0) == 0) p = 8;
  else if (base.rfind("SM90_SPARSE_64x", 0) == 0) p = 15, s.sparse = true;
  else return std::nullopt;
  auto number = [&](const char* what) {
    size_t q = p;
    while (q < base.size() && std::isdigit(static_cast<unsigned char>(base[q]))) ++q;
    if (q == p || q - p > 4) throw Error("expected " + std::string(what) + " in " + base);
    int v = std::stoi(base.substr(p, q - p));
    p = q;
    return v;
  };
  s.n = number("N after SM90_64x");
  if (p >= base.size() || base[p] != 'x') throw Error("expected SM90_64x<N>x<K>_... in " + base);
  ++p;
  const int k = number("K after SM90_64x<N>x");
  if (p >= base.size() || base[p] != '_') throw Error("expected _<types>_<SS|RS> after the shape in " + base);
  std::string rest = base.substr(p + 1);
  size_t us = rest.find('_');
  if (us == std::string::npos) throw Error(base + " needs _SS or _RS after the types");
  std::string types = rest.substr(0, us), suffix = rest.substr(us);
  split_types(types);  // an unknown token is its own error
  for (const auto& t : gmma_types)
    if (type_string(t) == types) s.types = &t;
  if (!s.types)
    throw Error("GMMA has no " + types +
                " (D+=A*B) atom; types are F16F16F16, F32F16F16, F32BF16BF16, F32TF32TF32, F16|F32 x E4M3|E5M2 x "
                "E4M3|E5M2, S32 x S8|U8 x S8|U8");
  const GmmaTypes& t = *s.types;
  if (k != s.k())
    throw Error(types + (s.sparse ? " sparse GMMA has K=" : " GMMA has K=") + std::to_string(s.k()) +
                (s.sparse ? " (512 bits of logical input), not " : " (256 bits of input), not ") + std::to_string(k));
  if (!valid_n(s.n, t.integer))
    throw Error("N=" + std::to_string(s.n) + " is not a GMMA N for " + types + "; N is " + join_ns(t.integer));
  // Suffix: _SS|_RS, _TN for K-major-only types, _SATURATE for integers.
  std::string expected_tail = t.majors ? "" : "_TN";
  std::string tail;
  if (suffix.rfind("_SS", 0) == 0 || suffix.rfind("_RS", 0) == 0) {
    s.rs = suffix[1] == 'R';
    tail = suffix.substr(3);
  } else {
    throw Error(base + " needs _SS (A from shared memory) or _RS (A from registers) after the types");
  }
  if (t.integer && tail == "_TN_SATURATE") {
    s.saturate = true;
    tail = "_TN";
  }
  if (tail != expected_tail) {
    if (t.majors && tail == "_TN")
      throw Error(types + " GMMA takes its majors as template arguments, not _TN: " + base.substr(0, base.size() - 3) +
                  "<K,K>");
    if (!t.majors && tail.empty()) throw Error(types + " GMMA is K-major only (_TN): " + base + "_TN");
    throw Error("unexpected '" + tail + "' in " + base);
  }
  // Template arguments (a sparse atom's last may be its GMMA::SparseSel).
  auto a = name.targs;
  const size_t with_spsel = t.integer ? 1 : t.majors ? 5 : 3;  // <[MajorA,MajorB,][ScaleA,ScaleB,]SparseSel>
  if (s.sparse && a.size() == with_spsel) {
    s.spsel = parse_sparse_sel(a.back());
    if (s.spsel.empty()) throw Error(base + ": the last template argument is GMMA::SparseSel::Zero or ::One");
    a.pop_back();
  }
  if (t.integer) {
    if (!a.empty())
      throw Error(base + (s.sparse ? " takes <> or <GMMA::SparseSel> (integer GMMA is K-major, unscaled)"
                                   : " takes no template arguments (integer GMMA is K-major, unscaled)"));
  } else if (t.majors) {
    if (a.size() == 1 || a.size() == 3 || a.size() > 4)
      throw Error(base + " takes <MajorA,MajorB[,ScaleA,ScaleB]>, e.g. <GMMA::Major::K,GMMA::Major::K>");
    if (a.size() >= 2) {
      s.major_a = parse_major(a[0]);
      s.major_b = parse_major(a[1]);
      if (s.major_a.empty() || s.major_b.empty())
        throw Error(base + ": majors are GMMA::Major::K or GMMA::Major::MN, not " + (s.major_a.empty() ? a[0] : a[1]));
    }
    if (a.size() == 4) {
      s.scale_a = parse_scale_in(a[2]);
      s.scale_b = parse_scale_in(a[3]);
      if (s.scale_a.empty() || s.scale_b.empty())
        throw Error(base + ": scales are GMMA::ScaleIn::One or GMMA::ScaleIn::Neg");
    }
    if (s.rs && s.major_a != "K") throw Error(base + ": A from registers (RS) must be K-major");
  } else {
    if (!a.empty() && !parse_major(a[0]).empty())
      throw Error(types + " GMMA is K-major only: " + base + " takes no majors (its template arguments are ScaleIn)");
    if (a.size() == 1 || a.size() > 2) throw Error(base + " takes <> or <ScaleA,ScaleB>");
    if (a.size() == 2) {
      s.scale_a = parse_scale_in(a[0]);
      s.scale_b = parse_scale_in(a[1]);
      if (s.scale_a.empty() || s.scale_b.empty())
        throw Error(base + ": scales are GMMA::ScaleIn::One or GMMA::ScaleIn::Neg");
    }
  }
  return build(s);
}

void gmma_names(std::vector<ListedMmaAtom>& out) {
  for (bool sparse : {false, true})  // the dense atoms, then the SPARSE ones
    for (const auto& t : gmma_types)
      for (int n : valid_ns(t.integer))
        for (bool rs : {false, true})
          for (bool sat : t.integer ? std::vector<bool>{false, true} : std::vector<bool>{false})
            for (const char* ma : t.majors ? std::vector<const char*>{"K", "MN"} : std::vector<const char*>{"K"})
              for (const char* mb : t.majors ? std::vector<const char*>{"K", "MN"} : std::vector<const char*>{"K"}) {
                if (rs && std::string(ma) != "K") continue;
                GmmaSpec s;
                s.n = n;
                s.types = &t;
                s.rs = rs;
                s.saturate = sat;
                s.major_a = ma;
                s.major_b = mb;
                s.sparse = sparse;
                out.push_back({spelled(s, false), spelled(s, true), 90});
              }
}

}  // namespace cutevis::mma

// cutevis — PTX text for verify's kernels.
#include "atoms/verify/ptx.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "lib/error.hpp"

namespace cutevis::verify {

namespace {

std::string hex64(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string reg_list(const std::string& prefix, int count) {
  std::string s = "{";
  for (int i = 0; i < count; ++i) s += (i ? ", " : "") + prefix + std::to_string(i);
  return s + "}";
}

// Registers of one operand, loaded from this thread's slice of a global array.
void load_registers(std::ostringstream& o, const OperandPlan& op, const std::string& param, const std::string& prefix,
                    int count) {
  const int64_t w = op.words_per_thread();
  o << "  ld.param.u64 %base, [" << param << "];\n";
  o << "  mul.wide.u32 %off, %g, " << w * 4 << ";\n";
  o << "  add.u64 %addr, %base, %off;\n";
  for (int r = 0; r < count; ++r) {
    if (op.reg_bits == 64) o << "  ld.global.b64 " << prefix << r << ", [%addr+" << r * 8 << "];\n";
    else o << "  ld.global.b32 " << prefix << r << ", [%addr+" << r * 4 << "];\n";
  }
}

void store_registers(std::ostringstream& o, int64_t words_per_thread, int reg_bits, const std::string& param,
                     const std::string& prefix, int count) {
  o << "  ld.param.u64 %base, [" << param << "];\n";
  o << "  mul.wide.u32 %off, %g, " << words_per_thread * 4 << ";\n";
  o << "  add.u64 %addr, %base, %off;\n";
  for (int r = 0; r < count; ++r) {
    if (reg_bits == 64) o << "  st.global.b64 [%addr+" << r * 8 << "], " << prefix << r << ";\n";
    else o << "  st.global.b32 [%addr+" << r * 4 << "], " << prefix << r << ";\n";
  }
}

// Copy `bytes` from this block's slice of a global array into shared array `smem`
// (or out of it), all threads striding by `threads` words.
void copy_smem(std::ostringstream& o, const std::string& param, const std::string& smem, int64_t bytes, int threads,
               bool into_smem, const std::string& label) {
  o << "  ld.param.u64 %base, [" << param << "];\n";
  o << "  mul.wide.u32 %off, %bk, " << bytes << ";\n";
  o << "  add.u64 %base, %base, %off;\n";
  o << "  mov.u32 %i, %th;\n";
  o << label << "_loop:\n";
  o << "  setp.ge.u32 %pl, %i, " << bytes / 4 << ";\n";
  o << "  @%pl bra " << label << "_done;\n";
  o << "  mul.wide.u32 %off, %i, 4;\n";
  o << "  add.u64 %addr, %base, %off;\n";
  o << "  mov.u32 %s, " << smem << ";\n";
  o << "  mad.lo.u32 %s, %i, 4, %s;\n";
  if (into_smem) {
    o << "  ld.global.b32 %w, [%addr];\n";
    o << "  st.shared.b32 [%s], %w;\n";
  } else {
    o << "  ld.shared.b32 %w, [%s];\n";
    o << "  st.global.b32 [%addr], %w;\n";
  }
  o << "  add.u32 %i, %i, " << threads << ";\n";
  o << "  bra " << label << "_loop;\n";
  o << label << "_done:\n";
}

void common_registers(std::ostringstream& o) {
  o << "  .reg .pred %pl, %psd;\n";
  o << "  .reg .b32 %th, %bk, %g, %i, %s, %w;\n";
  o << "  .reg .b64 %base, %off, %addr, %desc_a, %desc_b, %t64;\n";
  o << "  mov.u32 %th, %tid.x;\n";
  o << "  mov.u32 %bk, %ctaid.x;\n";
}

void descriptor(std::ostringstream& o, const std::string& reg, const std::string& smem, uint64_t fields) {
  o << "  mov.u32 %s, " << smem << ";\n";
  o << "  shr.u32 %s, %s, 4;\n";
  o << "  and.b32 %s, %s, 16383;\n";
  o << "  cvt.u64.u32 %t64, %s;\n";
  o << "  mov.b64 " << reg << ", " << hex64(fields) << ";\n";
  o << "  or.b64 " << reg << ", " << reg << ", %t64;\n";
}

}  // namespace

std::string mma_kernel_ptx(const MmaPlan& p, const std::string& entry) {
  std::ostringstream o;
  const bool wgmma = p.cls == MmaClass::kWgmma;
  const char* regtype_c = p.c.reg_bits == 64 ? ".b64" : ".b32";
  o << ".visible .entry " << entry << "(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n";
  common_registers(o);
  if (!p.a.in_smem) o << "  .reg " << (p.a.reg_bits == 64 ? ".b64" : ".b32") << " %a<" << p.a.regs << ">;\n";
  if (!p.b.in_smem) o << "  .reg " << (p.b.reg_bits == 64 ? ".b64" : ".b32") << " %b<" << p.b.regs << ">;\n";
  o << "  .reg " << regtype_c << " %c<" << p.c.regs << ">;\n";
  o << "  .reg " << regtype_c << " %d<" << p.c.regs << ">;\n";
  if (p.a.in_smem) o << "  .shared .align 1024 .b8 smem_a[" << p.a.smem.bytes << "];\n";
  if (p.b.in_smem) o << "  .shared .align 1024 .b8 smem_b[" << p.b.smem.bytes << "];\n";
  o << "  mad.lo.u32 %g, %bk, " << p.physical_threads << ", %th;\n";
  if (p.a.in_smem) copy_smem(o, "pa", "smem_a", p.a.smem.bytes, p.physical_threads, true, "$copy_a");
  else load_registers(o, p.a, "pa", "%a", p.a.regs);
  if (p.b.in_smem) copy_smem(o, "pb", "smem_b", p.b.smem.bytes, p.physical_threads, true, "$copy_b");
  else load_registers(o, p.b, "pb", "%b", p.b.regs);
  load_registers(o, p.c, "pc", wgmma ? "%d" : "%c", p.c.regs);
  if (p.a.in_smem || p.b.in_smem) {
    o << "  fence.proxy.async.shared::cta;\n";
    o << "  bar.sync 0;\n";
  }
  if (p.a.in_smem) descriptor(o, "%desc_a", "smem_a", p.a.smem.descriptor);
  if (p.b.in_smem) descriptor(o, "%desc_b", "smem_b", p.b.smem.descriptor);

  const std::string d = reg_list("%d", p.c.regs);
  if (p.cls == MmaClass::kScalar) {
    o << "  " << p.opcode << " %d0, %a0, %b0, %c0;\n";
  } else if (p.cls == MmaClass::kMmaSync) {
    o << "  " << p.opcode << " " << d << ", " << reg_list("%a", p.a.regs) << ", " << reg_list("%b", p.b.regs) << ", "
      << reg_list("%c", p.c.regs) << ";\n";
  } else {
    o << "  setp.eq.u32 %psd, %th, %th;\n";  // scale-d = 1: D = A*B + D
    o << "  wgmma.fence.sync.aligned;\n";
    o << "  " << p.opcode << " " << d << ", " << (p.a.in_smem ? "%desc_a" : reg_list("%a", p.a.regs))
      << ", %desc_b, %psd";
    if (p.has_scale_imms) o << ", 1, 1";
    if (p.has_transpose_imms) {
      if (p.a.in_smem) o << ", " << (p.transpose_a ? 1 : 0);
      o << ", " << (p.transpose_b ? 1 : 0);
    }
    o << ";\n";
    o << "  wgmma.commit_group.sync.aligned;\n";
    o << "  wgmma.wait_group.sync.aligned 0;\n";
  }
  store_registers(o, p.c.words_per_thread(), p.c.reg_bits, "pd", "%d", p.c.regs);
  o << "  ret;\n}\n";
  return o.str();
}

std::string copy_kernel_ptx(const CopyPlan& p, const std::string& entry, int64_t smem_bytes) {
  std::ostringstream o;
  o << ".visible .entry " << entry << "(.param .u64 pin, .param .u64 poffs, .param .u64 pout)\n{\n";
  common_registers(o);
  o << "  .reg .b32 %r<" << p.regs << ">;\n";
  o << "  .reg .b32 %q<" << p.regs << ">;\n";
  if (p.cls != CopyClass::kMovmatrix) o << "  .shared .align 128 .b8 smem_t[" << smem_bytes << "];\n";
  o << "  mad.lo.u32 %g, %bk, 32, %th;\n";
  auto row_address = [&] {
    o << "  ld.param.u64 %base, [poffs];\n";
    o << "  mul.wide.u32 %off, %g, 4;\n";
    o << "  add.u64 %addr, %base, %off;\n";
    o << "  ld.global.b32 %w, [%addr];\n";
    o << "  mov.u32 %s, smem_t;\n";
    o << "  add.u32 %s, %s, %w;\n";
  };
  const std::string regs = reg_list("%r", p.regs);
  OperandPlan words;  // a stand-in for the per-thread register array layout
  words.reg_bits = 32;
  words.regs = p.regs;
  if (p.cls == CopyClass::kLdmatrix) {
    copy_smem(o, "pin", "smem_t", smem_bytes, 32, true, "$in");
    o << "  bar.sync 0;\n";
    row_address();
    o << "  " << p.opcode << " " << regs << ", [%s];\n";
    store_registers(o, p.regs, 32, "pout", "%r", p.regs);
  } else if (p.cls == CopyClass::kStmatrix) {
    // zero the window so unwritten elements read 0
    o << "  mov.u32 %i, %th;\n";
    o << "  mov.u32 %w, 0;\n";
    o << "$zero_loop:\n";
    o << "  setp.ge.u32 %pl, %i, " << smem_bytes / 4 << ";\n";
    o << "  @%pl bra $zero_done;\n";
    o << "  mov.u32 %s, smem_t;\n";
    o << "  mad.lo.u32 %s, %i, 4, %s;\n";
    o << "  st.shared.b32 [%s], %w;\n";
    o << "  add.u32 %i, %i, 32;\n";
    o << "  bra $zero_loop;\n";
    o << "$zero_done:\n";
    o << "  bar.sync 0;\n";
    load_registers(o, words, "pin", "%r", p.regs);
    row_address();
    o << "  " << p.opcode << " [%s], " << regs << ";\n";
    o << "  bar.sync 0;\n";
    copy_smem(o, "pout", "smem_t", smem_bytes, 32, false, "$out");
  } else {
    load_registers(o, words, "pin", "%r", p.regs);
    o << "  " << p.opcode << " %q0, %r0;\n";
    store_registers(o, p.regs, 32, "pout", "%q", p.regs);
  }
  o << "  ret;\n}\n";
  return o.str();
}

int min_ptx_version(const std::string& target) {
  if (target == "sm_90a") return 80;
  if (target.rfind("sm_12", 0) == 0) return 87;
  if (target.rfind("sm_10", 0) == 0) return 86;
  if (target == "sm_90" || target == "sm_89") return 78;
  if (target.rfind("sm_8", 0) == 0 && target != "sm_80") return 71;
  return 70;
}

std::string ptx_module(const std::vector<std::string>& kernels, int ptx_version, const std::string& target) {
  ptx_version = std::max(ptx_version, min_ptx_version(target));
  std::ostringstream o;
  o << ".version " << ptx_version / 10 << "." << ptx_version % 10 << "\n";
  o << ".target " << target << "\n";
  o << ".address_size 64\n\n";
  for (const auto& k : kernels) o << k << "\n";
  return o.str();
}

}  // namespace cutevis::verify

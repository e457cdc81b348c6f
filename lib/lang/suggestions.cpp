// "did you mean" (lib/lang/suggestions.hpp).
#include "lib/lang/suggestions.hpp"

#include <algorithm>

#include "lib/lang/expr.hpp"

namespace cutevis {

std::vector<std::string> nearest_words(const std::string& name, const std::vector<std::string>& words, size_t max) {
  if (name.size() > kMaxSuggestedNameLength) return {};  // no plausible name is that long
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  // edit distance is at least the difference in length: most of the 9,000 atom names are not compared
  std::vector<std::pair<size_t, const std::string*>> scored;
  for (const auto& w : words) {
    const size_t gap = w.size() > name.size() ? w.size() - name.size() : name.size() - w.size();
    if (gap > limit) continue;
    const size_t distance = edit_distance(name, w);
    if (distance <= limit) scored.emplace_back(distance, &w);
  }
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : *a.second < *b.second;
  });
  std::vector<std::string> out;
  for (const auto& [distance, w] : scored) {
    if (out.size() >= max) break;
    if (*w != name && std::find(out.begin(), out.end(), *w) == out.end()) out.push_back(*w);
  }
  return out;
}

const char* cutlass_header_of(const std::string& name) {
  static const std::pair<const char*, const char*> helpers[] = {
      {"ss_smem_selector", "cutlass/gemm/collective/builders/sm90_common.inl"},
      {"rs_smem_selector", "cutlass/gemm/collective/builders/sm90_common.inl"},
      {"sm100_smem_selector", "cutlass/gemm/collective/builders/sm100_common.inl"},
      {"round_up", "cutlass/fast_math.h"},
      {"Sm1xxBlockScaledConfig", "cutlass/detail/sm100_blockscaled_layout.hpp"},
      {"kMinComputeCapability", "cutlass/arch/arch.h"}};
  const size_t colon = name.rfind("::");
  const std::string base = colon == std::string::npos ? name : name.substr(colon + 2);
  for (const auto& [helper, header] : helpers)
    if (base == helper) return header;
  const bool arch_tag = base.size() > 2 && base.compare(0, 2, "Sm") == 0 &&  // cutlass::arch::Sm90, arch::Sm100
                        base.find_first_not_of("0123456789", 2) == std::string::npos &&
                        name.find("arch::") != std::string::npos;
  if (arch_tag) return "cutlass/arch/arch.h";
  if (name.rfind("cutlass::", 0) == 0) return "cutlass/";  // anything else of CUTLASS's namespace (not CuTe's)
  return nullptr;
}

std::string cutlass_code_message(const std::string& name, bool header_read) {
  const size_t colon = name.rfind("::");
  // cutlass::gemm::collective::detail::ss_smem_selector says ss_smem_selector; ArchTag::kMinComputeCapability itself
  const std::string shown =
      name.rfind("cutlass::", 0) == 0 && colon != std::string::npos ? name.substr(colon + 2) : name;
  if (!header_read) return shown + " is CUTLASS code: give -I path/to/cutlass/include";
  const std::string header = cutlass_header_of(name);
  return shown + " is CUTLASS code (" + (header == "cutlass/" ? std::string("a header under cutlass/") : header) +
         ", read with -I) that cutevis cannot evaluate yet: give its result with -D " + name + "=...";
}

bool is_runtime_name(const std::string& name) {
  static const char* const names[] = {
      // C++ keywords and literals that name no type-level value
      "nullptr", "this", "NULL", "new", "delete", "throw", "operator", "sizeof...",
      // CUDA's run-time variables and vector types
      "threadIdx", "blockIdx", "blockDim", "gridDim", "clusterIdx", "clusterDim", "warpSize", "dim3", "char2", "char4",
      "uchar2", "uchar4", "short2", "short4", "ushort2", "ushort4", "int2", "int3", "int4", "uint2", "uint3", "uint4",
      "long2", "ulong2", "longlong2", "ulonglong2", "float2", "float3", "float4", "double2", "half2", "__half2",
      "__nv_bfloat162", "nv_bfloat162", "cudaStream_t", "cudaError_t", "printf", "assert"};
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

std::string quoted_alternatives(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    out += (i ? (i + 1 == words.size() ? " or " : ", ") : "") + ("'" + words[i] + "'");
  return out;
}

}  // namespace cutevis

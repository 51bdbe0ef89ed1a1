// v2 metadata keys follow LLVM's AMDGPUUsage "Code Object V2 Metadata" (AMDGPUMetadata.h).
#include "loader/yaml_metadata.h"

#include <array>
#include <cctype>
#include <charconv>
#include <string_view>

#include "loader/format_error.h"
#include "loader/yaml_subset.h"

namespace strobe::loader {

using detail::fail;

namespace {

uint64_t to_u64(const YamlNode& n, std::string_view key) {
  uint64_t v = 0;
  const std::string& s = n.scalar;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (n.kind != YamlNode::Kind::Scalar || s.empty() || ec != std::errc{} || end != s.data() + s.size())
    fail("metadata YAML line {}: {} is not a non-negative integer", n.line, key);
  return v;
}

uint32_t to_u32(const YamlNode& n, std::string_view key) {
  const uint64_t v = to_u64(n, key);
  if (v > UINT32_MAX) fail("metadata YAML line {}: {} value {} does not fit in 32 bits", n.line, key, v);
  return static_cast<uint32_t>(v);
}

const std::string& to_string(const YamlNode& n, std::string_view key) {
  if (n.kind != YamlNode::Kind::Scalar) fail("metadata YAML line {}: {} is not a scalar", n.line, key);
  return n.scalar;
}

void read_u32(const YamlNode& map, std::string_view key, std::optional<uint32_t>& out) {
  if (const YamlNode* n = map.find(key)) out = to_u32(*n, key);
}

bool to_bool(const YamlNode& n, std::string_view key) {
  const std::string& s = to_string(n, key);
  if (s != "true" && s != "false") fail("metadata YAML line {}: {} is not true or false", n.line, key);
  return s == "true";
}

/// A `[ x, y, z ]` work-group size such as Attrs.ReqdWorkGroupSize.
std::array<uint32_t, 3> to_dim3(const YamlNode& n, std::string_view key) {
  if (n.kind != YamlNode::Kind::Sequence || n.items.size() != 3)
    fail("metadata YAML line {}: {} is not a sequence of 3 integers", n.line, key);
  return {to_u32(n.items[0], key), to_u32(n.items[1], key), to_u32(n.items[2], key)};
}

/// Converts one v2 argument and places it at the next offset aligned to its Align.
KernelArg parse_arg(const YamlNode& n, const std::string& kernel, size_t index, uint64_t& next_offset) {
  if (n.kind != YamlNode::Kind::Mapping)
    fail("metadata YAML line {}: argument {} of kernel '{}' is not a mapping", n.line, index, kernel);
  KernelArg a;
  if (const YamlNode* v = n.find("Name")) a.name = to_string(*v, "Name");
  if (const YamlNode* v = n.find("TypeName")) a.type_name = to_string(*v, "TypeName");
  const YamlNode* size = n.find("Size");
  const YamlNode* align = n.find("Align");
  const YamlNode* kind = n.find("ValueKind");
  if (!size || !align || !kind)
    fail("metadata YAML line {}: argument {} of kernel '{}' lacks {}", n.line, index, kernel,
         !size ? "Size" : !align ? "Align" : "ValueKind");
  a.size = to_u32(*size, "Size");
  const uint64_t alignment = to_u64(*align, "Align");
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > (1u << 16))
    fail("metadata YAML line {}: argument {} of kernel '{}' has Align {}, not a power of two up to 65536",
         align->line, index, kernel, alignment);
  a.value_kind = to_string(*kind, "ValueKind");
  const std::string v3_kind = value_kind_from_v2(a.value_kind);
  if (!v3_kind.starts_with("hidden_") && v3_kind != "by_value" && v3_kind != "global_buffer" &&
      v3_kind != "dynamic_shared_pointer" && v3_kind != "image" && v3_kind != "sampler" && v3_kind != "pipe" &&
      v3_kind != "queue")
    fail("metadata YAML line {}: unsupported kernel argument ValueKind '{}'", kind->line, a.value_kind);
  a.kind = arg_kind_from_value_kind(v3_kind);
  if (const YamlNode* v = n.find("IsConst")) a.is_const = to_bool(*v, "IsConst");
  if (const YamlNode* v = n.find("IsVolatile")) a.is_volatile = to_bool(*v, "IsVolatile");
  if (const YamlNode* v = n.find("IsRestrict")) a.is_restrict = to_bool(*v, "IsRestrict");
  if (const YamlNode* v = n.find("AddrSpaceQual")) {
    for (char c : to_string(*v, "AddrSpaceQual")) a.address_space += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }

  // v2 metadata has no offsets: the kernarg layout is the C layout of the argument list.
  // next_offset stays far below 2^63 (each step adds at most 2^32 + 2^16), so this cannot wrap.
  uint64_t offset = (next_offset + alignment - 1) & ~(alignment - 1);
  if (const YamlNode* v = n.find("Offset")) offset = to_u64(*v, "Offset");
  if (offset + a.size > UINT32_MAX)
    fail("metadata YAML line {}: argument {} of kernel '{}' ends beyond 4 GiB of kernarg", n.line, index, kernel);
  a.offset = static_cast<uint32_t>(offset);
  next_offset = offset + a.size;
  return a;
}

KernelMetadata parse_kernel(const YamlNode& n, size_t index) {
  if (n.kind != YamlNode::Kind::Mapping) fail("metadata YAML line {}: kernel {} is not a mapping", n.line, index);
  KernelMetadata k;
  const YamlNode* name = n.find("Name");
  if (!name) fail("metadata YAML line {}: kernel {} has no Name", n.line, index);
  k.name = to_string(*name, "Name");
  if (k.name.empty()) fail("metadata YAML line {}: kernel {} has an empty Name", n.line, index);
  if (const YamlNode* v = n.find("SymbolName")) k.symbol = to_string(*v, "SymbolName");
  if (const YamlNode* args = n.find("Args")) {
    if (args->kind == YamlNode::Kind::Scalar && args->scalar.empty()) {
      // "Args:" with nothing after it: no arguments.
    } else if (args->kind != YamlNode::Kind::Sequence) {
      fail("metadata YAML line {}: Args of kernel '{}' is not a sequence", args->line, k.name);
    } else {
      uint64_t next_offset = 0;
      for (size_t i = 0; i < args->items.size(); ++i) k.args.push_back(parse_arg(args->items[i], k.name, i, next_offset));
    }
  }
  if (const YamlNode* attrs = n.find("Attrs"); attrs && attrs->kind == YamlNode::Kind::Mapping) {
    if (const YamlNode* v = attrs->find("ReqdWorkGroupSize")) k.reqd_workgroup_size = to_dim3(*v, "ReqdWorkGroupSize");
    if (const YamlNode* v = attrs->find("WorkGroupSizeHint")) k.workgroup_size_hint = to_dim3(*v, "WorkGroupSizeHint");
    if (const YamlNode* v = attrs->find("VecTypeHint")) k.vec_type_hint = to_string(*v, "VecTypeHint");
  }
  if (const YamlNode* cp = n.find("CodeProps")) {
    if (cp->kind != YamlNode::Kind::Mapping) fail("metadata YAML line {}: CodeProps of kernel '{}' is not a mapping", cp->line, k.name);
    read_u32(*cp, "KernargSegmentSize", k.kernarg_segment_size);
    read_u32(*cp, "KernargSegmentAlign", k.kernarg_segment_align);
    read_u32(*cp, "GroupSegmentFixedSize", k.group_segment_fixed_size);
    read_u32(*cp, "PrivateSegmentFixedSize", k.private_segment_fixed_size);
    read_u32(*cp, "WavefrontSize", k.wavefront_size);
    read_u32(*cp, "NumSGPRs", k.sgpr_count);
    read_u32(*cp, "NumVGPRs", k.vgpr_count);
    read_u32(*cp, "MaxFlatWorkGroupSize", k.max_flat_workgroup_size);
    read_u32(*cp, "NumSpilledSGPRs", k.sgpr_spill_count);
    read_u32(*cp, "NumSpilledVGPRs", k.vgpr_spill_count);
  }
  return k;
}

}  // namespace

CodeObjectMetadata parse_yaml_metadata(std::span<const uint8_t> desc) {
  std::string_view text(reinterpret_cast<const char*>(desc.data()), desc.size());
  while (!text.empty() && text.back() == '\0') text.remove_suffix(1);  // the note text is NUL-terminated
  if (text.find('\0') != std::string_view::npos) fail("NT_AMD_HSA_METADATA contains a NUL byte inside its YAML text");

  const YamlNode root = parse_yaml_subset(text);
  if (root.kind != YamlNode::Kind::Mapping) fail("NT_AMD_HSA_METADATA YAML is not a mapping");
  CodeObjectMetadata md;
  const YamlNode* version = root.find("Version");
  if (!version || version->kind != YamlNode::Kind::Sequence || version->items.empty())
    fail("NT_AMD_HSA_METADATA lacks a 'Version: [ major, minor ]' entry");
  for (const YamlNode& v : version->items) md.version.push_back(to_u64(v, "Version"));
  const YamlNode* kernels = root.find("Kernels");
  if (!kernels) fail("NT_AMD_HSA_METADATA lacks a Kernels list");
  if (kernels->kind == YamlNode::Kind::Sequence) {
    for (size_t i = 0; i < kernels->items.size(); ++i) md.kernels.push_back(parse_kernel(kernels->items[i], i));
  } else if (!(kernels->kind == YamlNode::Kind::Scalar && kernels->scalar.empty())) {
    fail("metadata YAML line {}: Kernels is not a sequence", kernels->line);
  }
  return md;
}

}  // namespace strobe::loader

// Walks the msgpack object tree of the v3+ metadata; keys follow LLVM's AMDGPUUsage.
#include "loader/msgpack_metadata.h"

#include <msgpack.hpp>

#include "loader/format_error.h"

namespace strobe::loader {

using detail::fail;

namespace {

/// Deepest nesting LLVM writes is 4 (root, kernels, kernel, args, arg); allow slack but stop
/// hostile inputs from recursing without bound.
constexpr size_t kMaxDepth = 32;

std::string_view key_of(const msgpack::object& k, const char* where) {
  if (k.type != msgpack::type::STR) fail("metadata {} has a non-string key", where);
  return {k.via.str.ptr, k.via.str.size};
}

std::string as_string(const msgpack::object& v, std::string_view key) {
  if (v.type != msgpack::type::STR) fail("metadata key '{}' is not a string", key);
  return {v.via.str.ptr, v.via.str.size};
}

uint64_t as_u64(const msgpack::object& v, std::string_view key) {
  if (v.type != msgpack::type::POSITIVE_INTEGER) fail("metadata key '{}' is not a non-negative integer", key);
  return v.via.u64;
}

uint32_t as_u32(const msgpack::object& v, std::string_view key) {
  const uint64_t x = as_u64(v, key);
  if (x > UINT32_MAX) fail("metadata key '{}' value {} does not fit in 32 bits", key, x);
  return static_cast<uint32_t>(x);
}

bool as_bool(const msgpack::object& v, std::string_view key) {
  if (v.type != msgpack::type::BOOLEAN) fail("metadata key '{}' is not a boolean", key);
  return v.via.boolean;
}

/// A 3-element work-group size ([x, y, z]) such as `.reqd_workgroup_size`.
std::array<uint32_t, 3> as_dim3(const msgpack::object& v, std::string_view key) {
  if (v.type != msgpack::type::ARRAY || v.via.array.size != 3) fail("metadata key '{}' is not an array of 3 integers", key);
  return {as_u32(v.via.array.ptr[0], key), as_u32(v.via.array.ptr[1], key), as_u32(v.via.array.ptr[2], key)};
}

const msgpack::object_map& as_map(const msgpack::object& v, std::string_view what) {
  if (v.type != msgpack::type::MAP) fail("metadata {} is not a map", what);
  return v.via.map;
}

const msgpack::object_array& as_array(const msgpack::object& v, std::string_view what) {
  if (v.type != msgpack::type::ARRAY) fail("metadata {} is not an array", what);
  return v.via.array;
}

KernelArg parse_arg(const msgpack::object& obj, const std::string& kernel, size_t index) {
  const std::string where = fmt::format("argument {} of kernel '{}'", index, kernel);
  KernelArg a;
  bool has_offset = false, has_size = false, has_kind = false;
  for (const auto& kv : std::span(as_map(obj, where).ptr, as_map(obj, where).size)) {
    const std::string_view key = key_of(kv.key, where.c_str());
    if (key == ".name") a.name = as_string(kv.val, key);
    else if (key == ".type_name") a.type_name = as_string(kv.val, key);
    else if (key == ".offset") { a.offset = as_u32(kv.val, key); has_offset = true; }
    else if (key == ".size") { a.size = as_u32(kv.val, key); has_size = true; }
    else if (key == ".value_kind") { a.value_kind = as_string(kv.val, key); has_kind = true; }
    else if (key == ".address_space") a.address_space = as_string(kv.val, key);
    else if (key == ".is_const") a.is_const = as_bool(kv.val, key);
    else if (key == ".is_volatile") a.is_volatile = as_bool(kv.val, key);
    else if (key == ".is_restrict") a.is_restrict = as_bool(kv.val, key);
  }
  if (!has_offset || !has_size || !has_kind)
    fail("{} lacks {}", where, !has_offset ? ".offset" : !has_size ? ".size" : ".value_kind");
  a.kind = arg_kind_from_value_kind(a.value_kind);
  return a;
}

KernelMetadata parse_kernel(const msgpack::object& obj, size_t index) {
  const std::string where = fmt::format("kernel {}", index);
  const auto& map = as_map(obj, where);
  KernelMetadata k;
  // The name first, so argument errors can say which kernel.
  for (const auto& kv : std::span(map.ptr, map.size))
    if (key_of(kv.key, where.c_str()) == ".name") k.name = as_string(kv.val, ".name");
  if (k.name.empty()) fail("metadata {} has no .name", where);
  const msgpack::object* args = nullptr;
  for (const auto& kv : std::span(map.ptr, map.size)) {
    const std::string_view key = key_of(kv.key, where.c_str());
    if (key == ".symbol") k.symbol = as_string(kv.val, key);
    else if (key == ".args") args = &kv.val;
    else if (key == ".kernarg_segment_size") k.kernarg_segment_size = as_u32(kv.val, key);
    else if (key == ".kernarg_segment_align") k.kernarg_segment_align = as_u32(kv.val, key);
    else if (key == ".group_segment_fixed_size") k.group_segment_fixed_size = as_u32(kv.val, key);
    else if (key == ".private_segment_fixed_size") k.private_segment_fixed_size = as_u32(kv.val, key);
    else if (key == ".sgpr_count") k.sgpr_count = as_u32(kv.val, key);
    else if (key == ".vgpr_count") k.vgpr_count = as_u32(kv.val, key);
    else if (key == ".wavefront_size") k.wavefront_size = as_u32(kv.val, key);
    else if (key == ".max_flat_workgroup_size") k.max_flat_workgroup_size = as_u32(kv.val, key);
    else if (key == ".sgpr_spill_count") k.sgpr_spill_count = as_u32(kv.val, key);
    else if (key == ".vgpr_spill_count") k.vgpr_spill_count = as_u32(kv.val, key);
    else if (key == ".reqd_workgroup_size") k.reqd_workgroup_size = as_dim3(kv.val, key);
    else if (key == ".workgroup_size_hint") k.workgroup_size_hint = as_dim3(kv.val, key);
    else if (key == ".vec_type_hint") k.vec_type_hint = as_string(kv.val, key);
  }
  if (k.symbol.empty()) fail("metadata of kernel '{}' has no .symbol", k.name);
  if (args) {
    const auto& arr = as_array(*args, fmt::format(".args of kernel '{}'", k.name));
    for (uint32_t i = 0; i < arr.size; ++i) k.args.push_back(parse_arg(arr.ptr[i], k.name, i));
  }
  return k;
}

}  // namespace

CodeObjectMetadata parse_msgpack_metadata(std::span<const uint8_t> desc) {
  msgpack::object_handle handle;
  size_t consumed = 0;
  try {
    // Every element takes at least one byte, so no count may exceed the note size. Without
    // these limits a corrupt count makes msgpack allocate gigabytes before noticing.
    const msgpack::unpack_limit limit(desc.size(), desc.size(), desc.size(), desc.size(), desc.size(), kMaxDepth);
    handle = msgpack::unpack(reinterpret_cast<const char*>(desc.data()), desc.size(), consumed, nullptr, nullptr, limit);
  } catch (const msgpack::insufficient_bytes&) {
    fail("NT_AMDGPU_METADATA msgpack is truncated");
  } catch (const std::exception& e) {
    fail("NT_AMDGPU_METADATA is not valid msgpack ({})", e.what());
  }
  for (size_t i = consumed; i < desc.size(); ++i)
    if (desc[i] != 0) fail("NT_AMDGPU_METADATA has {} bytes of trailing data after its msgpack object", desc.size() - consumed);

  const auto& root = as_map(handle.get(), "root");
  CodeObjectMetadata md;
  bool has_kernels = false;
  for (const auto& kv : std::span(root.ptr, root.size)) {
    const std::string_view key = key_of(kv.key, "root");
    if (key == "amdhsa.version") {
      const auto& arr = as_array(kv.val, "amdhsa.version");
      for (uint32_t i = 0; i < arr.size; ++i) md.version.push_back(as_u64(arr.ptr[i], key));
    } else if (key == "amdhsa.target") {
      md.target = as_string(kv.val, key);
    } else if (key == "amdhsa.kernels") {
      has_kernels = true;
      const auto& arr = as_array(kv.val, "amdhsa.kernels");
      for (uint32_t i = 0; i < arr.size; ++i) md.kernels.push_back(parse_kernel(arr.ptr[i], i));
    }
  }
  if (md.version.empty()) fail("NT_AMDGPU_METADATA lacks amdhsa.version");
  if (!has_kernels) fail("NT_AMDGPU_METADATA lacks amdhsa.kernels");
  return md;
}

}  // namespace strobe::loader

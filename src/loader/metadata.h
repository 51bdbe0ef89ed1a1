// Version-independent kernel metadata, filled from the v3+ msgpack note or the v2 YAML note.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loader/code_object.h"

namespace strobe::loader {

/// What one metadata entry says about a kernel. Fields a producer may omit are optional so the
/// code object loader can fall back to the kernel descriptor.
struct KernelMetadata {
  std::string name;
  std::string symbol;  ///< v3+: "NAME.kd"; v2: "NAME@kd" as LLVM writes it
  std::vector<KernelArg> args;
  std::optional<uint32_t> kernarg_segment_size, kernarg_segment_align;
  std::optional<uint32_t> group_segment_fixed_size, private_segment_fixed_size;
  std::optional<uint32_t> sgpr_count, vgpr_count, wavefront_size, max_flat_workgroup_size;
  std::optional<uint32_t> sgpr_spill_count, vgpr_spill_count;
  std::array<uint32_t, 3> reqd_workgroup_size{0, 0, 0};  ///< zeros when absent
  std::array<uint32_t, 3> workgroup_size_hint{0, 0, 0};  ///< zeros when absent
  std::string vec_type_hint;
};

/// The whole metadata note.
struct CodeObjectMetadata {
  std::vector<uint64_t> version;  ///< amdhsa.version / Version: [major, minor]
  std::string target;             ///< amdhsa.target (v4+), empty when absent
  std::vector<KernelMetadata> kernels;
};

/// The ArgKind of a v3+ `.value_kind` string; unknown hidden_* kinds map to HiddenUnknown.
/// Throws detail::FormatError for an unknown visible kind, which strobe could not pass.
ArgKind arg_kind_from_value_kind(std::string_view value_kind);

/// The v3+ spelling of a v2 `ValueKind` ("HiddenGlobalOffsetX" -> "hidden_global_offset_x").
std::string value_kind_from_v2(std::string_view v2_value_kind);

}  // namespace strobe::loader

// Value-kind names of the AMDGPU metadata (LLVM AMDGPUUsage, "Code Object V3+ Metadata").
#include "loader/metadata.h"

#include <array>
#include <cctype>
#include <utility>

#include "loader/format_error.h"

namespace strobe::loader {

namespace {

constexpr std::array<std::pair<std::string_view, ArgKind>, 31> kValueKinds{{
    {"by_value", ArgKind::ByValue},
    {"global_buffer", ArgKind::GlobalBuffer},
    {"dynamic_shared_pointer", ArgKind::DynamicSharedPointer},
    {"image", ArgKind::Image},
    {"sampler", ArgKind::Sampler},
    {"pipe", ArgKind::Pipe},
    {"queue", ArgKind::Queue},
    {"hidden_global_offset_x", ArgKind::HiddenGlobalOffsetX},
    {"hidden_global_offset_y", ArgKind::HiddenGlobalOffsetY},
    {"hidden_global_offset_z", ArgKind::HiddenGlobalOffsetZ},
    {"hidden_none", ArgKind::HiddenNone},
    {"hidden_printf_buffer", ArgKind::HiddenPrintfBuffer},
    {"hidden_hostcall_buffer", ArgKind::HiddenHostcallBuffer},
    {"hidden_default_queue", ArgKind::HiddenDefaultQueue},
    {"hidden_completion_action", ArgKind::HiddenCompletionAction},
    {"hidden_multigrid_sync_arg", ArgKind::HiddenMultigridSyncArg},
    {"hidden_heap_v1", ArgKind::HiddenHeapV1},
    {"hidden_block_count_x", ArgKind::HiddenBlockCountX},
    {"hidden_block_count_y", ArgKind::HiddenBlockCountY},
    {"hidden_block_count_z", ArgKind::HiddenBlockCountZ},
    {"hidden_group_size_x", ArgKind::HiddenGroupSizeX},
    {"hidden_group_size_y", ArgKind::HiddenGroupSizeY},
    {"hidden_group_size_z", ArgKind::HiddenGroupSizeZ},
    {"hidden_remainder_x", ArgKind::HiddenRemainderX},
    {"hidden_remainder_y", ArgKind::HiddenRemainderY},
    {"hidden_remainder_z", ArgKind::HiddenRemainderZ},
    {"hidden_grid_dims", ArgKind::HiddenGridDims},
    {"hidden_private_base", ArgKind::HiddenPrivateBase},
    {"hidden_shared_base", ArgKind::HiddenSharedBase},
    {"hidden_queue_ptr", ArgKind::HiddenQueuePtr},
    {"hidden_dynamic_lds_size", ArgKind::HiddenDynamicLdsSize},
}};

}  // namespace

ArgKind arg_kind_from_value_kind(std::string_view value_kind) {
  for (const auto& [name, kind] : kValueKinds)
    if (name == value_kind) return kind;
  // A newer compiler may add hidden arguments; the runtime can zero-fill those safely.
  if (value_kind.starts_with("hidden_")) return ArgKind::HiddenUnknown;
  detail::fail("unsupported kernel argument value kind '{}'", value_kind);
}

std::string value_kind_from_v2(std::string_view v2) {
  // v2 kinds are the v3 kinds in CamelCase, with one irregular spelling.
  if (v2 == "HiddenMultiGridSyncArg") return "hidden_multigrid_sync_arg";
  std::string out;
  for (char c : v2) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (!out.empty()) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace strobe::loader

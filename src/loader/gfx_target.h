// AMDGPU processor names: from ELF e_flags (code object v3+) and from the v2 ISA notes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace strobe::loader {

/// The processor strobe simulates.
inline constexpr std::string_view kSupportedProcessor = "gfx803";
/// EF_AMDGPU_MACH value of gfx803.
inline constexpr uint32_t kMachGfx803 = 0x02A;

/// The processor named by an EF_AMDGPU_MACH value ("gfx906"), or "unknown (EF_AMDGPU_MACH 0x..)".
std::string processor_from_mach(uint32_t mach);

/// The processor of a v2 NT_AMD_HSA_ISA_VERSION note: major 9, minor 0, stepping 10 -> "gfx90a".
std::string processor_from_isa_version(uint32_t major, uint32_t minor, uint32_t stepping);

/// The processor part of a target triple with features: "amdgcn-amd-amdhsa--gfx803:xnack-" -> "gfx803".
/// Returns the whole string when it has no "--" separator.
std::string processor_from_target(std::string_view target);

}  // namespace strobe::loader

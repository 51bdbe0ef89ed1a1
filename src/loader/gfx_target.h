// AMDGPU processor names: from ELF e_flags (code object v3+), from the v2 ISA notes, and from
// target IDs ("amdgcn-amd-amdhsa--gfx803:xnack-"), parsed by the rules of LLVM's AMDGPUUsage.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strobe::loader {

/// The processor strobe simulates.
inline constexpr std::string_view kSupportedProcessor = "gfx803";
/// The processor whose code strobe decodes and disassembles but does not yet execute.
inline constexpr std::string_view kDecodedProcessor = "gfx942";

/// Which code objects a reader accepts: those strobe executes (gfx803), or also those it only
/// decodes (gfx942, for `strobe disasm`).
enum class Accept { Executable, Decodable };
/// EF_AMDGPU_MACH value of gfx803.
inline constexpr uint32_t kMachGfx803 = 0x02A;

/// The processor named by an EF_AMDGPU_MACH value ("gfx906"), or "unknown (EF_AMDGPU_MACH 0x..)".
std::string processor_from_mach(uint32_t mach);

/// The processor of a v2 NT_AMD_HSA_ISA_VERSION note: major 9, minor 0, stepping 10 -> "gfx90a".
std::string processor_from_isa_version(uint32_t major, uint32_t minor, uint32_t stepping);

/// One target feature of a target ID: "xnack-" is {"xnack", false}.
struct TargetFeature {
  std::string name;
  bool enabled = false;
};

/// A target ID split into its parts: `arch-vendor-os-environment-processor` followed by
/// `:feature+` / `:feature-` settings (code object v4+) or `+feature` flags (v2/v3 spelling).
/// The environment is often empty ("amdgcn-amd-amdhsa--gfx803"); OpenCL compilers of ROCm and
/// AMDGPU-PRO fill it ("amdgcn-amd-amdhsa-amdgizcl-gfx803"). A bare processor ("gfx803:xnack-")
/// leaves the triple parts empty.
struct TargetId {
  std::string arch, vendor, os, environment, processor;
  std::vector<TargetFeature> features;  ///< in the order written
};

/// Parses a target ID; throws detail::FormatError naming the string and what is wrong with it.
TargetId parse_target_id(std::string_view text);

/// Checks that `id` names code strobe accepts: amdgcn/amd/amdhsa (where given), processor gfx803
/// (or, where `accept` is Decodable, gfx942), and no feature the processor lacks turned on
/// (gfx942 has xnack and sramecc, either way). Throws detail::FormatError saying which part fails.
void check_target_id(const TargetId& id, std::string_view text, Accept accept = Accept::Executable);

/// Throws detail::FormatError unless `processor` is one `accept` admits.
void check_processor(std::string_view processor, Accept accept);

/// The processor part of a target ID ("amdgcn-amd-amdhsa-amdgizcl-gfx803" -> "gfx803");
/// throws detail::FormatError when `target` is not a target ID.
std::string processor_from_target(std::string_view target);

}  // namespace strobe::loader

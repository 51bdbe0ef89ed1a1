// Decoding of the two kernel descriptor formats into the version-independent KernelDescriptor.
#pragma once

#include <cstdint>
#include <span>

#include "loader/code_object.h"

namespace strobe::loader {

/// Bytes of a v3+ kernel descriptor (the `NAME.kd` object).
inline constexpr uint64_t kKernelDescriptorSize = 64;
/// Bytes of a v2 amd_kernel_code_t.
inline constexpr uint64_t kAmdKernelCodeSize = 256;

/// Decodes a 64-byte v3+ kernel descriptor. Throws detail::FormatError if `bytes` is too short.
KernelDescriptor decode_kernel_descriptor(std::span<const uint8_t> bytes);

/// Fields of amd_kernel_code_t that have no KernelDescriptor equivalent but that v2 loading needs.
struct AmdKernelCodeExtras {
  uint32_t kernarg_segment_alignment = 0;  ///< bytes (the field holds log2)
  uint32_t wavefront_size = 0;             ///< lanes (the field holds log2)
  uint32_t sgpr_count = 0, vgpr_count = 0;
};

/// Decodes a 256-byte v2 amd_kernel_code_t into the v3 descriptor layout, so downstream code
/// (dispatch setup) does not care which version it came from. Throws detail::FormatError.
KernelDescriptor decode_amd_kernel_code(std::span<const uint8_t> bytes, AmdKernelCodeExtras* extras = nullptr);

}  // namespace strobe::loader

// Kernel descriptor layouts: llvm/Support/AMDHSAKernelDescriptor.h (v3+) and
// llvm/Support/AMDKernelCodeT.h (v2), checked against `llvm-objdump -s` of clang-14 objects.
#include "loader/kernel_descriptor.h"

#include "loader/format_error.h"

namespace strobe::loader {

using detail::fail;
using detail::read_le;

KernelDescriptor decode_kernel_descriptor(std::span<const uint8_t> b) {
  if (b.size() < kKernelDescriptorSize) fail("kernel descriptor is {} bytes, not 64", b.size());
  KernelDescriptor kd;
  kd.group_segment_fixed_size = read_le<uint32_t>(b, 0, "group_segment_fixed_size");
  kd.private_segment_fixed_size = read_le<uint32_t>(b, 4, "private_segment_fixed_size");
  kd.kernarg_size = read_le<uint32_t>(b, 8, "kernarg_size");
  kd.kernel_code_entry_byte_offset = read_le<int64_t>(b, 16, "kernel_code_entry_byte_offset");
  kd.compute_pgm_rsrc3 = read_le<uint32_t>(b, 44, "compute_pgm_rsrc3");
  kd.compute_pgm_rsrc1 = read_le<uint32_t>(b, 48, "compute_pgm_rsrc1");
  kd.compute_pgm_rsrc2 = read_le<uint32_t>(b, 52, "compute_pgm_rsrc2");
  kd.kernel_code_properties = read_le<uint16_t>(b, 56, "kernel_code_properties");
  return kd;
}

KernelDescriptor decode_amd_kernel_code(std::span<const uint8_t> b, AmdKernelCodeExtras* extras) {
  if (b.size() < kAmdKernelCodeSize) fail("amd_kernel_code_t is {} bytes, not 256", b.size());
  KernelDescriptor kd;
  kd.kernel_code_entry_byte_offset = read_le<int64_t>(b, 16, "kernel_code_entry_byte_offset");
  // compute_pgm_resource_registers is one 64-bit field: rsrc1 in the low word, rsrc2 in the high.
  kd.compute_pgm_rsrc1 = read_le<uint32_t>(b, 48, "compute_pgm_rsrc1");
  kd.compute_pgm_rsrc2 = read_le<uint32_t>(b, 52, "compute_pgm_rsrc2");
  // Bits 0..6 (enable_sgpr_private_segment_buffer .. enable_sgpr_private_segment_size) have the
  // same meaning and order as in the v3 kernel_code_properties. Bits 7..9 (grid workgroup count
  // SGPRs) were never implemented by any runtime. Of bits 16+ only is_dynamic_callstack (bit 20)
  // has a v3 equivalent, uses_dynamic_stack (bit 11); ptr64, xnack and the rest have none.
  const uint32_t v2_props = read_le<uint32_t>(b, 56, "kernel_code_properties");
  kd.kernel_code_properties = static_cast<uint16_t>((v2_props & 0x7F) | ((v2_props >> 20) & 1) << 11);
  kd.private_segment_fixed_size = read_le<uint32_t>(b, 60, "workitem_private_segment_byte_size");
  kd.group_segment_fixed_size = read_le<uint32_t>(b, 64, "workgroup_group_segment_byte_size");
  const uint64_t kernarg = read_le<uint64_t>(b, 72, "kernarg_segment_byte_size");
  if (kernarg > UINT32_MAX) fail("amd_kernel_code_t kernarg_segment_byte_size {:#x} is out of range", kernarg);
  kd.kernarg_size = static_cast<uint32_t>(kernarg);
  if (extras) {
    extras->sgpr_count = read_le<uint16_t>(b, 84, "wavefront_sgpr_count");
    extras->vgpr_count = read_le<uint16_t>(b, 86, "workitem_vgpr_count");
    const uint8_t kernarg_align_log2 = read_le<uint8_t>(b, 100, "kernarg_segment_alignment");
    const uint8_t wave_log2 = read_le<uint8_t>(b, 103, "wavefront_size");
    if (kernarg_align_log2 > 31 || wave_log2 > 31)
      fail("amd_kernel_code_t alignment/wavefront log2 fields ({}, {}) are out of range", kernarg_align_log2, wave_log2);
    extras->kernarg_segment_alignment = 1u << kernarg_align_log2;
    extras->wavefront_size = 1u << wave_log2;
  }
  return kd;
}

}  // namespace strobe::loader

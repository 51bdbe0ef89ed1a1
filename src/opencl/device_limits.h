// The device's limits, derived from the active GPU configuration where the configuration
// describes them and from gfx803 and the runtime where it does not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "timing/config/gpu_config.h"

namespace strobe::opencl {

/// Largest work-group clang builds OpenCL kernels for on gfx803 (amdgpu-flat-work-group-size).
inline constexpr size_t kMaxWorkGroupSize = 256;
/// LDS one work-group may use: the runtime's limit, and never more than a CU has.
uint64_t local_mem_bytes(const timing::GpuConfig& cfg);
/// CL_DEVICE_GLOBAL_MEM_SIZE.
uint64_t global_mem_bytes(const timing::GpuConfig& cfg);
/// CL_DEVICE_MAX_MEM_ALLOC_SIZE: a quarter of global memory (the spec's minimum ratio).
uint64_t max_alloc_bytes(const timing::GpuConfig& cfg);
/// Alignment of every buffer (and required of sub-buffer origins), in bytes.
inline constexpr uint64_t kBaseAddrAlignBytes = 256;
/// The OpenCL C extensions the compiler and emulator support.
std::string device_extensions();

}  // namespace strobe::opencl

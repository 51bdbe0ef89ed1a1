// Buffer contents between the host and the simulated device.
//
// A buffer's storage is a device allocation. For CL_MEM_USE_HOST_PTR buffers the host memory is
// the buffer as the program sees it: every command that reads the buffer on the device first
// copies the host memory in, and every command that writes it on the device copies the result
// back out, so the host pointer always holds the contents between commands (as on a CPU device,
// where the two are the same memory).
#pragma once

#include <cstddef>

#include "opencl/objects.h"

namespace strobe::opencl {

/// Copies bytes [offset, offset+n) of `m` from its host pointer to the device (USE_HOST_PTR
/// buffers; no-op otherwise). The caller holds the device lock.
void sync_to_device(cl_mem m, size_t offset, size_t n);
/// Copies bytes [offset, offset+n) of `m` from the device to its host pointer (USE_HOST_PTR
/// buffers; no-op otherwise). The caller holds the device lock.
void sync_to_host(cl_mem m, size_t offset, size_t n);
/// The host pointer of byte `offset` of a USE_HOST_PTR buffer.
uint8_t* host_bytes(cl_mem m, size_t offset);

/// Throws CL_INVALID_VALUE unless [offset, offset+size) lies inside `m`.
void check_range(cl_mem m, size_t offset, size_t size, const char* what);

}  // namespace strobe::opencl

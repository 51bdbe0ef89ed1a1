// The work-group size strobe picks when a program passes no local_work_size.
#pragma once

#include <array>
#include <cstddef>

#include "opencl/cl_api.h"

namespace strobe::opencl {

/// A local size that divides `global` in every dimension (OpenCL 1.2 uniform work-groups) with
/// at most `limit` work-items: the largest divisor up to 256 in 1D, near 16x16 in 2D and 8x8x4
/// in 3D, then any budget left over given to x.
std::array<size_t, 3> choose_local_size(cl_uint dims, const std::array<size_t, 3>& global, size_t limit);

}  // namespace strobe::opencl

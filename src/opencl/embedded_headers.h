// The OpenCL C headers compiled into the platform (see embedded_headers.cpp.in).
#pragma once

#include <string_view>

namespace strobe::opencl {

/// kernels/include/strobe_cl.h: the project's OpenCL builtins for gfx803.
std::string_view strobe_cl_header();
/// src/opencl/include/strobe_cl12.h: the additions for OpenCL C without generic pointers.
std::string_view strobe_cl12_header();

}  // namespace strobe::opencl

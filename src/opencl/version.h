// Version strings the platform reports.
#pragma once

namespace strobe::opencl {

inline constexpr const char* kVendor = "strobe";
inline constexpr const char* kPlatformVersion = "OpenCL 1.2 strobe 0.1";
inline constexpr const char* kDeviceVersion = "OpenCL 1.2 strobe";
inline constexpr const char* kDriverVersion = "0.1";
inline constexpr const char* kOpenCLCVersion = "OpenCL C 1.2 ";

}  // namespace strobe::opencl

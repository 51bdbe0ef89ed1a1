// Version strings the platform reports.
#pragma once

namespace strobe::opencl {

/// The platform's vendor: strobe.
inline constexpr const char* kVendor = "strobe";
/// The device's vendor and name, as AMD's runtime reports a gfx803 GPU: libraries choose their
/// kernels by them (CLBlast maps vendor and name to its tuning for Fiji; OpenCV and ViennaCL
/// branch on the vendor), so the simulated GPU runs the code the real one would.
inline constexpr const char* kDeviceVendor = "Advanced Micro Devices, Inc.";
inline constexpr const char* kDeviceName = "gfx803";
inline constexpr const char* kPlatformVersion = "OpenCL 1.2 strobe 0.1";
inline constexpr const char* kDeviceVersion = "OpenCL 1.2 strobe";
inline constexpr const char* kDriverVersion = "0.1";
inline constexpr const char* kOpenCLCVersion = "OpenCL C 1.2 ";

}  // namespace strobe::opencl

// The Khronos OpenCL headers as the platform compiles them. The library is built with
// -fvisibility=hidden; declaring every API function with default visibility here exports
// exactly the cl* entry points (exports.map then drops anything else that slips through).
#pragma once

#define CL_API_ENTRY __attribute__((visibility("default")))
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

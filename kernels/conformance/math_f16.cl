// Conformance kernels for the half math builtins (cl_khr_fp16).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define T half
#define SUF f16
#include "math_kernels.h"

// Device-library (ocml) math: single-precision sinf/expf/powf and double-precision sin.
#include <hip/hip_runtime.h>

extern "C" __global__ void math_f32(const float* x, float* s, float* e, float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = sinf(x[i]);
    e[i] = expf(x[i]);
    p[i] = powf(fabsf(x[i]) + 0.5f, 1.75f);
  }
}

extern "C" __global__ void math_f64(const double* x, double* s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = sin(x[i]);
}

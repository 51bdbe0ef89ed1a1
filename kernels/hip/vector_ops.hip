// Element-wise HIP kernels: the grid-stride and bounds-checked shapes hipcc emits most often.
#include <hip/hip_runtime.h>

extern "C" __global__ void vec_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy_grid_stride(float alpha, const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = alpha * x[i] + y[i];
}

extern "C" __global__ void int_mul_shift(const int* a, const int* b, int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = (a[i] * b[i]) ^ (a[i] >> 3);
}

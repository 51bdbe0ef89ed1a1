// One kernel template instantiated over float, double and int (mangled kernel names).
#include <hip/hip_runtime.h>

template <typename T>
__global__ void scale_add(const T* x, T* y, T scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * scale + y[i];
}

template __global__ void scale_add<float>(const float*, float*, float, int);
template __global__ void scale_add<double>(const double*, double*, double, int);
template __global__ void scale_add<int>(const int*, int*, int, int);

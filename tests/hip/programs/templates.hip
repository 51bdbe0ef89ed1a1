// One kernel template instantiated for float, double and int, and a functor parameter.
#include "check.h"

#include <vector>

struct Square {
  template <typename T>
  __device__ T operator()(T v) const { return v * v; }
};

template <typename T, typename F>
__global__ void transform(const T* in, T* out, int n, F f, T bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]) + bias;
}

template <typename T>
int check(Mismatches& m, const char* what, int n, T bias) {
  std::vector<T> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = T(i % 50) - T(20);
  T *din, *dout;
  CHECK(hipMalloc(&din, n * sizeof(T)));
  CHECK(hipMalloc(&dout, n * sizeof(T)));
  CHECK(hipMemcpy(din, in.data(), n * sizeof(T), hipMemcpyHostToDevice));
  hipLaunchKernelGGL((transform<T, Square>), dim3((n + 127) / 128), dim3(128), 0, 0, din, dout, n, Square{}, bias);
  CHECK(hipMemcpy(out.data(), dout, n * sizeof(T), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) m.expect(out[i] == in[i] * in[i] + bias, what, i, double(out[i]), double(in[i] * in[i] + bias));
  CHECK(hipFree(din));
  CHECK(hipFree(dout));
  return 0;
}

int main() {
  Mismatches m;
  check<float>(m, "float", 300, 0.5f);
  check<double>(m, "double", 301, -0.25);
  check<int>(m, "int", 302, 7);
  return m.finish();
}

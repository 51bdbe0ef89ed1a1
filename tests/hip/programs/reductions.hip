// Work-group sum reductions through LDS: a fixed-size __shared__ array and an extern __shared__
// array sized at launch (HIP's dynamic shared memory).
#include "check.h"

#include <vector>

constexpr int kBlock = 256;

__global__ void sum_static(const int* in, int* partial, int n) {
  __shared__ int s[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__global__ void sum_dynamic(const float* in, float* partial, int n) {
  extern __shared__ float d[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) d[threadIdx.x] += d[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = d[0];
}

int main() {
  Mismatches m;
  const int n = 5000, blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> in(n);
  std::vector<float> fin(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7) % 13 - 6, fin[i] = 0.25f * (i % 8);
  int *din, *dpart;
  float *dfin, *dfpart;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dpart, blocks * sizeof(int)));
  CHECK(hipMalloc(&dfin, n * sizeof(float)));
  CHECK(hipMalloc(&dfpart, (n + 127) / 128 * sizeof(float)));
  CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dfin, fin.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(sum_static, dim3(blocks), dim3(kBlock), 0, 0, din, dpart, n);
  const int dyn_block = 128, dyn_blocks = (n + dyn_block - 1) / dyn_block;
  hipLaunchKernelGGL(sum_dynamic, dim3(dyn_blocks), dim3(dyn_block), dyn_block * sizeof(float), 0, dfin, dfpart, n);
  CHECK(hipDeviceSynchronize());
  std::vector<int> part(blocks);
  std::vector<float> fpart(dyn_blocks);
  CHECK(hipMemcpy(part.data(), dpart, blocks * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(fpart.data(), dfpart, dyn_blocks * sizeof(float), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int i = b * kBlock; i < n && i < (b + 1) * kBlock; ++i) want += in[i];
    m.expect(part[b] == want, "sum_static", b, part[b], want);
  }
  for (int b = 0; b < dyn_blocks; ++b) {
    float want = 0;
    for (int i = b * dyn_block; i < n && i < (b + 1) * dyn_block; ++i) want += fin[i];
    m.expect(fpart[b] == want, "sum_dynamic", b, fpart[b], want);
  }
  return m.finish();
}

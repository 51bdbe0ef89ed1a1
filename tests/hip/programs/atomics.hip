// Global atomics: a 32-bit histogram, a 64-bit sum of values past 2^32, min/max, and a float sum.
#include "check.h"

#include <vector>

__global__ void histogram(const int* in, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] % 16], 1u);
}

__global__ void wide(const int* in, unsigned long long* sum, int* lo, int* hi, float* fsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(sum, (unsigned long long)in[i] << 32 | 1ull);
  atomicMin(lo, in[i]);
  atomicMax(hi, in[i]);
  atomicAdd(fsum, 0.5f);
}

int main() {
  Mismatches m;
  const int n = 2500;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 1001 - 3;
  int* din;
  unsigned* dbins;
  unsigned long long* dsum;
  int *dlo, *dhi;
  float* dfsum;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dbins, 16 * sizeof(unsigned)));
  CHECK(hipMalloc(&dsum, sizeof(unsigned long long)));
  CHECK(hipMalloc(&dlo, sizeof(int)));
  CHECK(hipMalloc(&dhi, sizeof(int)));
  CHECK(hipMalloc(&dfsum, sizeof(float)));
  CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemset(dbins, 0, 16 * sizeof(unsigned)));
  CHECK(hipMemset(dsum, 0, sizeof(unsigned long long)));
  CHECK(hipMemset(dfsum, 0, sizeof(float)));
  const int big = 1 << 30, small = -(1 << 30);
  CHECK(hipMemcpy(dlo, &big, sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dhi, &small, sizeof(int), hipMemcpyHostToDevice));
  std::vector<int> pos(n);
  for (int i = 0; i < n; ++i) pos[i] = in[i] < 0 ? -in[i] : in[i];
  int* dpos;
  CHECK(hipMalloc(&dpos, n * sizeof(int)));
  CHECK(hipMemcpy(dpos, pos.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(histogram, dim3((n + 255) / 256), dim3(256), 0, 0, dpos, dbins, n);
  hipLaunchKernelGGL(wide, dim3((n + 255) / 256), dim3(256), 0, 0, din, dsum, dlo, dhi, dfsum, n);
  CHECK(hipDeviceSynchronize());
  unsigned bins[16];
  unsigned long long sum;
  int lo, hi;
  float fsum;
  CHECK(hipMemcpy(bins, dbins, sizeof bins, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&sum, dsum, sizeof sum, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&lo, dlo, sizeof lo, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hi, dhi, sizeof hi, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&fsum, dfsum, sizeof fsum, hipMemcpyDeviceToHost));
  unsigned want_bins[16] = {};
  unsigned long long want_sum = 0;
  int want_lo = big, want_hi = small;
  for (int i = 0; i < n; ++i) {
    ++want_bins[pos[i] % 16];
    want_sum += (unsigned long long)in[i] << 32 | 1ull;
    want_lo = in[i] < want_lo ? in[i] : want_lo;
    want_hi = in[i] > want_hi ? in[i] : want_hi;
  }
  for (int b = 0; b < 16; ++b) m.expect(bins[b] == want_bins[b], "histogram", b, bins[b], want_bins[b]);
  m.expect(sum == want_sum, "64-bit sum", 0, double(sum), double(want_sum));
  m.expect(lo == want_lo, "atomicMin", 0, lo, want_lo);
  m.expect(hi == want_hi, "atomicMax", 0, hi, want_hi);
  m.expect(fsum == 0.5f * n, "float sum", 0, fsum, 0.5f * n);
  return m.finish();
}

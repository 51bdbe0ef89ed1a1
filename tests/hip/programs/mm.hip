// The suite's mm benchmark written in HIP: C = A * B with 16x16 tiles staged in LDS, the same
// algorithm and data as kernels/workloads/mm.cl, so `strobe run mm` and this program compare
// the two compilers' code on one simulated GPU. Usage: mm [M N K] (multiples of 16).
#include "check.h"

#include <vector>

constexpr int kTile = 16;

__global__ void mm(const float* a, const float* b, float* c, unsigned m, unsigned n, unsigned k) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile + 1];  // +1 column: no bank conflicts on the column reads
  unsigned lx = threadIdx.x, ly = threadIdx.y;
  unsigned col = blockIdx.x * kTile + lx, row = blockIdx.y * kTile + ly;
  float acc = 0.0f;
  for (unsigned t = 0; t < k; t += kTile) {
    ta[ly][lx] = a[row * k + t + lx];
    tb[ly][lx] = b[(t + ly) * n + col];
    __syncthreads();
    for (unsigned i = 0; i < kTile; ++i) acc += ta[ly][i] * tb[i][lx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

int main(int argc, char** argv) {
  const unsigned m = argc > 3 ? std::atoi(argv[1]) : 64, n = argc > 3 ? std::atoi(argv[2]) : 48,
                 k = argc > 3 ? std::atoi(argv[3]) : 32;
  if (m % kTile || n % kTile || k % kTile || !m || !n || !k) {
    std::printf("FAIL: M, N and K must be positive multiples of %d\n", kTile);
    return 2;
  }
  std::vector<float> a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 17) - 8) / 8.0f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 13) - 6) / 4.0f;
  float *da, *db, *dc;
  CHECK(hipMalloc(&da, a.size() * sizeof(float)));
  CHECK(hipMalloc(&db, b.size() * sizeof(float)));
  CHECK(hipMalloc(&dc, c.size() * sizeof(float)));
  CHECK(hipMemcpy(da, a.data(), a.size() * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, b.data(), b.size() * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(mm, dim3(n / kTile, m / kTile), dim3(kTile, kTile), 0, 0, da, db, dc, m, n, k);
  CHECK(hipMemcpy(c.data(), dc, c.size() * sizeof(float), hipMemcpyDeviceToHost));
  Mismatches mis;
  for (unsigned r = 0; r < m; ++r)
    for (unsigned col = 0; col < n; ++col) {
      float want = 0;
      for (unsigned i = 0; i < k; ++i) want += a[size_t(r) * k + i] * b[size_t(i) * n + col];
      const float got = c[size_t(r) * n + col];
      mis.expect(std::fabs(got - want) <= 1e-4f * (1 + std::fabs(want)), "c", long(r) * n + col, got, want);
    }
  return mis.finish();
}

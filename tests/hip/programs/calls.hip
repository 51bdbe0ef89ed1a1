// Kernels calling functions the compiler keeps out of line (__noinline__): real calls with a
// stack in private memory, including a recursive one.
#include "check.h"

#include <vector>

__device__ __noinline__ int collatz_steps(int v) {
  int steps = 0;
  while (v != 1 && steps < 1000) v = (v & 1) ? 3 * v + 1 : v / 2, ++steps;
  return steps;
}

__device__ __noinline__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__device__ __noinline__ float mix(const float* table, int i) {
  float local[8];
  for (int j = 0; j < 8; ++j) local[j] = table[(i + j) % 8] * j;
  return local[i % 8] + local[(i + 3) % 8];
}

__global__ void caller(const float* table, int* steps, int* fibs, float* mixed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  steps[i] = collatz_steps(i + 1);
  fibs[i] = fib(i % 12);
  mixed[i] = mix(table, i);
}

static int host_collatz(int v) {
  int steps = 0;
  while (v != 1 && steps < 1000) v = (v & 1) ? 3 * v + 1 : v / 2, ++steps;
  return steps;
}
static int host_fib(int k) { return k < 2 ? k : host_fib(k - 1) + host_fib(k - 2); }

int main() {
  Mismatches m;
  const int n = 300;
  float table[8];
  for (int j = 0; j < 8; ++j) table[j] = 0.5f + j;
  float *dtable, *dmixed;
  int *dsteps, *dfibs;
  CHECK(hipMalloc(&dtable, sizeof table));
  CHECK(hipMalloc(&dmixed, n * sizeof(float)));
  CHECK(hipMalloc(&dsteps, n * sizeof(int)));
  CHECK(hipMalloc(&dfibs, n * sizeof(int)));
  CHECK(hipMemcpy(dtable, table, sizeof table, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(caller, dim3((n + 63) / 64), dim3(64), 0, 0, dtable, dsteps, dfibs, dmixed, n);
  std::vector<int> steps(n), fibs(n);
  std::vector<float> mixed(n);
  CHECK(hipMemcpy(steps.data(), dsteps, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(fibs.data(), dfibs, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(mixed.data(), dmixed, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    m.expect(steps[i] == host_collatz(i + 1), "collatz", i, steps[i], host_collatz(i + 1));
    m.expect(fibs[i] == host_fib(i % 12), "fib", i, fibs[i], host_fib(i % 12));
    float local[8];
    for (int j = 0; j < 8; ++j) local[j] = table[(i + j) % 8] * j;
    const float want = local[i % 8] + local[(i + 3) % 8];
    m.expect(mixed[i] == want, "mix", i, mixed[i], want);
  }
  return m.finish();
}

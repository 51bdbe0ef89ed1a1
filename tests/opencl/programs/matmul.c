/* Matrix multiply, naive and tiled through __local memory (16x16 tiles, barriers), on
 * integer-valued floats so every platform's rounding agrees exactly. */
#include "cl_util.h"

static const char* kSource =
    "#define TILE 16\n"
    "__kernel void matmul_naive(__global const float* A, __global const float* B, __global float* C, int n) {\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  float acc = 0.0f;\n"
    "  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];\n"
    "  C[row * n + col] = acc;\n"
    "}\n"
    "__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C, int n) {\n"
    "  __local float As[TILE][TILE];\n"
    "  __local float Bs[TILE][TILE];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < n / TILE; ++t) {\n"
    "    As[ly][lx] = A[row * n + t * TILE + lx];\n"
    "    Bs[ly][lx] = B[(t * TILE + ly) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < TILE; ++k) acc += As[ly][k] * Bs[k][lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * n + col] = acc;\n"
    "}\n";

int main(void) {
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  enum { N = 64 };
  static float a[N * N], b[N * N], c1[N * N], c2[N * N];
  for (int i = 0; i < N * N; ++i) {
    a[i] = (float)((i * 7) % 11) - 5.0f;
    b[i] = (float)((i * 5) % 9) - 4.0f;
  }
  cl_mem ma = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
  cl_mem mb = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b);
  cl_mem mc = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof c1, NULL);
  int n = N;
  const char* names[2] = {"matmul_naive", "matmul_tiled"};
  float* outs[2] = {c1, c2};
  for (int v = 0; v < 2; ++v) {
    cl_kernel k = cl_kernel_of(prog, names[v]);
    CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
    CHECK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t global[2] = {N, N}, local[2] = {16, 16};
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(env.queue, mc, CL_TRUE, 0, sizeof c1, outs[v], 0, NULL, NULL));
    CHECK(clReleaseKernel(k));
  }
  /* CPU reference */
  int mismatches = 0;
  for (int r = 0; r < N; ++r)
    for (int col = 0; col < N; ++col) {
      float acc = 0;
      for (int k = 0; k < N; ++k) acc += a[r * N + k] * b[k * N + col];
      mismatches += acc != c1[r * N + col] || acc != c2[r * N + col];
    }
  printf("matmul %dx%d: C[0]=%g C[%d]=%g mismatches vs CPU=%d fingerprint=%016llx\n", N, N, c1[0], N * N - 1,
         c1[N * N - 1], mismatches, fingerprint(c2, sizeof c2));
  CHECK(clReleaseMemObject(ma));
  CHECK(clReleaseMemObject(mb));
  CHECK(clReleaseMemObject(mc));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}

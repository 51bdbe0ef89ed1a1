/* One kernel launched several times over the same buffer with the same arguments, as iterative
 * host programs do: a sampling method that clusters launches (PKA, TBPoint) times one of them
 * in detail and extrapolates the rest. Integer data, so every platform's result is exact. */
#include "cl_util.h"

static const char* kSource =
    "__kernel void step(__global int* v, uint n) {\n"
    "  uint i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  int x = v[i];\n"
    "  for (int k = 0; k < 16; ++k) x = (x * 5 + k) & 0xffff;\n"
    "  v[i] = x;\n"
    "}\n";

/* What `step` makes of x. */
static int step(int x) {
  for (int k = 0; k < 16; ++k) x = (x * 5 + k) & 0xffff;
  return x;
}

int main(void) {
  enum { N = 4096, LAUNCHES = 6 };
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  static int v[N], expect[N];
  for (int i = 0; i < N; ++i) v[i] = expect[i] = i;
  cl_mem m = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, v);
  cl_kernel k = cl_kernel_of(prog, "step");
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(clSetKernelArg(k, 1, sizeof n, &n));
  size_t global = N, local = 64;
  for (int l = 0; l < LAUNCHES; ++l) CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
  int mismatches = 0;
  for (int i = 0; i < N; ++i) {
    for (int l = 0; l < LAUNCHES; ++l) expect[i] = step(expect[i]);
    mismatches += v[i] != expect[i];
  }
  printf("step x%d: mismatches vs CPU=%d\n", LAUNCHES, mismatches);
  return mismatches != 0;
}

/* One pass of a merge sort in the shape real programs write it: every work-item loads its four
 * keys as one int4, sorts them with a network and writes back the ones that exist. With a key
 * count that is not a multiple of four, the last load reads up to 12 bytes past the end of the
 * input and never uses them; GPUs and PoCL run it. */
#include "cl_util.h"

static const char* kSource =
    "#define SWAP(a, b) { int t = min(a, b); b = max(a, b); a = t; }\n"
    "__kernel void mergeSortPass(__global const int* in, __global int* out, uint n) {\n"
    "  uint i = get_global_id(0) * 4;\n"
    "  if (i >= n) return;\n"
    "  int4 v = *(__global const int4*)(in + i);\n"
    "  if (i + 1 >= n) v.y = INT_MAX;\n"
    "  if (i + 2 >= n) v.z = INT_MAX;\n"
    "  if (i + 3 >= n) v.w = INT_MAX;\n"
    "  SWAP(v.x, v.y) SWAP(v.z, v.w) SWAP(v.x, v.z) SWAP(v.y, v.w) SWAP(v.y, v.z)\n"
    "  out[i] = v.x;\n"
    "  if (i + 1 < n) out[i + 1] = v.y;\n"
    "  if (i + 2 < n) out[i + 2] = v.z;\n"
    "  if (i + 3 < n) out[i + 3] = v.w;\n"
    "}\n";

static int cmp(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }

int main(void) {
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  enum { N = 1021 };  /* not a multiple of four */
  static int keys[N], out[N];
  for (int i = 0; i < N; ++i) keys[i] = (i * 7919) % 1000 - 500;
  cl_mem mi = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof keys, keys);
  cl_mem mo = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof out, NULL);
  cl_uint n = N;
  cl_kernel k = cl_kernel_of(prog, "mergeSortPass");
  CHECK(clSetKernelArg(k, 0, sizeof mi, &mi));
  CHECK(clSetKernelArg(k, 1, sizeof mo, &mo));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  size_t global = 256, local = 64;
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  int mismatches = 0;
  for (int i = 0; i < N; i += 4) {
    int run[4], len = N - i < 4 ? N - i : 4;
    for (int j = 0; j < len; ++j) run[j] = keys[i + j];
    qsort(run, (size_t)len, sizeof run[0], cmp);
    for (int j = 0; j < len; ++j) mismatches += run[j] != out[i + j];
  }
  printf("mergeSortPass n=%d: out[0..3]=%d %d %d %d last=%d mismatches vs CPU=%d fingerprint=%016llx\n", N, out[0],
         out[1], out[2], out[3], out[N - 1], mismatches, fingerprint(out, sizeof out));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(mi));
  CHECK(clReleaseMemObject(mo));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}

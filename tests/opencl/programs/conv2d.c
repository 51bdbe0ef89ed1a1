/* A 2-D convolution whose kernel takes three pointers and then three ints, and uses no hidden
 * argument: LLVM widens the loads of the trailing ints past the last argument, which faulted
 * until the runtime padded kernarg buffers as ROCr does. Integer-valued data, so every
 * platform's result is exact. */
#include "cl_util.h"

static const char* kSource =
    "__kernel void conv2d(__global const float* img, __global float* out, __constant float* mask,\n"
    "                     int width, int height, int mw) {\n"
    "  int x = get_group_id(0) * get_local_size(0) + get_local_id(0);\n"
    "  int y = get_group_id(1) * get_local_size(1) + get_local_id(1);\n"
    "  if (x >= width || y >= height) return;\n"
    "  int r = mw / 2;\n"
    "  float sum = 0.0f;\n"
    "  for (int j = -r; j <= r; ++j)\n"
    "    for (int i = -r; i <= r; ++i) {\n"
    "      int xx = clamp(x + i, 0, width - 1), yy = clamp(y + j, 0, height - 1);\n"
    "      sum += img[yy * width + xx] * mask[(j + r) * mw + (i + r)];\n"
    "    }\n"
    "  out[y * width + x] = sum;\n"
    "}\n";

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(void) {
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  enum { W = 45, H = 30, MW = 5 };
  static float img[W * H], mask[MW * MW], out[W * H];
  for (int i = 0; i < W * H; ++i) img[i] = (float)((i * 13) % 17) - 8.0f;
  for (int i = 0; i < MW * MW; ++i) mask[i] = (float)(i % 5) - 2.0f;
  cl_mem mi = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof img, img);
  cl_mem mm = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof mask, mask);
  cl_mem mo = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof out, NULL);
  int w = W, h = H, mw = MW;
  cl_kernel k = cl_kernel_of(prog, "conv2d");
  CHECK(clSetKernelArg(k, 0, sizeof mi, &mi));
  CHECK(clSetKernelArg(k, 1, sizeof mo, &mo));
  CHECK(clSetKernelArg(k, 2, sizeof mm, &mm));
  CHECK(clSetKernelArg(k, 3, sizeof w, &w));
  CHECK(clSetKernelArg(k, 4, sizeof h, &h));
  CHECK(clSetKernelArg(k, 5, sizeof mw, &mw));
  size_t global[2] = {48, 32}, local[2] = {16, 16};
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  int mismatches = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float sum = 0;
      for (int j = -2; j <= 2; ++j)
        for (int i = -2; i <= 2; ++i)
          sum += img[clampi(y + j, 0, H - 1) * W + clampi(x + i, 0, W - 1)] * mask[(j + 2) * MW + i + 2];
      mismatches += sum != out[y * W + x];
    }
  printf("conv2d %dx%d mask %d: out[0]=%g out[%d]=%g mismatches vs CPU=%d fingerprint=%016llx\n", W, H, MW, out[0],
         W * H - 1, out[W * H - 1], mismatches, fingerprint(out, sizeof out));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(mi));
  CHECK(clReleaseMemObject(mm));
  CHECK(clReleaseMemObject(mo));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}

/* Element-wise kernels: vector add, scaled add with a scalar argument, integer mixing, a 2D
 * kernel with a global offset, a launch with the local size left to the platform, and a
 * kernel using float4 vectors. */
#include "cl_util.h"

static const char* kSource =
    "__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void axpy(float alpha, __global const float* x, __global float* y, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < n) y[i] = alpha * x[i] + y[i];\n"
    "}\n"
    "__kernel void mixbits(__global const int* a, __global int* out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int v = a[i];\n"
    "  out[i] = (v * 7) ^ (v >> 3) ^ (int)(i * 2654435761u) ^ max(v, 100) ^ min(v, -5);\n"
    "}\n"
    "__kernel void offset2d(__global int* out, int width) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * width + x] = (int)(x * 1000 + y) + (int)get_global_offset(0) * 7 + (int)get_work_dim();\n"
    "}\n"
    "__kernel void scale4(__global float4* v, float s) {\n"
    "  size_t i = get_global_id(0);\n"
    "  v[i] = v[i] * s + (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "}\n";

int main(void) {
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);

  enum { N = 4096 };
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) { a[i] = (float)(i % 97); b[i] = (float)(3 * i % 31); }
  cl_mem ma = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
  cl_mem mb = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b);
  cl_mem mc = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof c, NULL);
  cl_kernel vadd = cl_kernel_of(prog, "vadd");
  CHECK(clSetKernelArg(vadd, 0, sizeof ma, &ma));
  CHECK(clSetKernelArg(vadd, 1, sizeof mb, &mb));
  CHECK(clSetKernelArg(vadd, 2, sizeof mc, &mc));
  size_t global = N, local = 64;
  CHECK(clEnqueueNDRangeKernel(env.queue, vadd, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  printf("vadd: c[0]=%g c[100]=%g c[4095]=%g fingerprint=%016llx\n", c[0], c[100], c[4095], fingerprint(c, sizeof c));

  /* axpy over a size that is not a multiple of any work-group: local size left to the platform. */
  cl_kernel axpy = cl_kernel_of(prog, "axpy");
  float alpha = 3.0f;
  cl_uint n = 1000;
  CHECK(clSetKernelArg(axpy, 0, sizeof alpha, &alpha));
  CHECK(clSetKernelArg(axpy, 1, sizeof ma, &ma));
  CHECK(clSetKernelArg(axpy, 2, sizeof mc, &mc));
  CHECK(clSetKernelArg(axpy, 3, sizeof n, &n));
  size_t g1000 = 1000;
  CHECK(clEnqueueNDRangeKernel(env.queue, axpy, 1, NULL, &g1000, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  printf("axpy: c[0]=%g c[999]=%g c[1000]=%g fingerprint=%016llx\n", c[0], c[999], c[1000], fingerprint(c, sizeof c));

  static int ia[N], io[N];
  for (int i = 0; i < N; ++i) ia[i] = (i * 2654435761u) >> 7;
  cl_mem mia = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof ia, ia);
  cl_mem mio = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof io, NULL);
  cl_kernel mix = cl_kernel_of(prog, "mixbits");
  CHECK(clSetKernelArg(mix, 0, sizeof mia, &mia));
  CHECK(clSetKernelArg(mix, 1, sizeof mio, &mio));
  size_t l128 = 128;
  CHECK(clEnqueueNDRangeKernel(env.queue, mix, 1, NULL, &global, &l128, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mio, CL_TRUE, 0, sizeof io, io, 0, NULL, NULL));
  printf("mixbits: io[1]=%d io[4000]=%d fingerprint=%016llx\n", io[1], io[4000], fingerprint(io, sizeof io));

  /* 2D with a global offset: only the window [8, 8+32) x [4, 4+16) of a 64x32 image is written. */
  enum { W = 64, H = 32 };
  static int img[W * H];
  for (int i = 0; i < W * H; ++i) img[i] = -1;
  cl_mem mimg = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof img, img);
  cl_kernel off = cl_kernel_of(prog, "offset2d");
  int width = W;
  CHECK(clSetKernelArg(off, 0, sizeof mimg, &mimg));
  CHECK(clSetKernelArg(off, 1, sizeof width, &width));
  size_t goff[2] = {8, 4}, g2[2] = {32, 16}, l2[2] = {16, 4};
  CHECK(clEnqueueNDRangeKernel(env.queue, off, 2, goff, g2, l2, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mimg, CL_TRUE, 0, sizeof img, img, 0, NULL, NULL));
  printf("offset2d: img[0]=%d img[4*64+8]=%d img[19*64+39]=%d img[19*64+40]=%d fingerprint=%016llx\n", img[0],
         img[4 * W + 8], img[19 * W + 39], img[19 * W + 40], fingerprint(img, sizeof img));

  static float v4[4 * 256];
  for (int i = 0; i < 4 * 256; ++i) v4[i] = (float)(i % 13);
  cl_mem mv = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v4, v4);
  cl_kernel scale = cl_kernel_of(prog, "scale4");
  float s = 2.0f;
  CHECK(clSetKernelArg(scale, 0, sizeof mv, &mv));
  CHECK(clSetKernelArg(scale, 1, sizeof s, &s));
  size_t g256 = 256;
  CHECK(clEnqueueNDRangeKernel(env.queue, scale, 1, NULL, &g256, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mv, CL_TRUE, 0, sizeof v4, v4, 0, NULL, NULL));
  printf("scale4: v[0..3]=%g %g %g %g fingerprint=%016llx\n", v4[0], v4[1], v4[2], v4[3], fingerprint(v4, sizeof v4));

  cl_mem all[] = {ma, mb, mc, mia, mio, mimg, mv};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK(clReleaseMemObject(all[i]));
  cl_kernel ks[] = {vadd, axpy, mix, off, scale};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) CHECK(clReleaseKernel(ks[i]));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}

/* Buffers and transfers: every host-pointer flag, map/unmap, sub-buffers, fill, copy and the
 * rectangular read/write/copy variants. */
#include "cl_util.h"

static const char* kSource = "__kernel void add_k(__global int* v, int k) { v[get_global_id(0)] += k; }\n";

static void run_add(cl_env* env, cl_kernel kern, cl_mem m, int k, size_t n) {
  CHECK(clSetKernelArg(kern, 0, sizeof m, &m));
  CHECK(clSetKernelArg(kern, 1, sizeof k, &k));
  CHECK(clEnqueueNDRangeKernel(env->queue, kern, 1, NULL, &n, NULL, 0, NULL, NULL));
}

int main(void) {
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  cl_kernel add_k = cl_kernel_of(prog, "add_k");
  cl_int err;
  enum { N = 1024 };

  /* USE_HOST_PTR: maps return the host pointer itself; kernels see and update it. */
  static int use[N];
  for (int i = 0; i < N; ++i) use[i] = i;
  cl_mem muse = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof use, use);
  run_add(&env, add_k, muse, 10, N);
  int* p = (int*)clEnqueueMapBuffer(env.queue, muse, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16 * sizeof(int),
                                    64 * sizeof(int), 0, NULL, NULL, &err);
  CHECK_ERR(err);
  cl_uint maps;
  CHECK(clGetMemObjectInfo(muse, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL));
  printf("use_host_ptr: map is host_ptr+offset=%d p[0]=%d map count=%u\n", p == use + 16, p[0], maps);
  p[1] = -7;
  CHECK(clEnqueueUnmapMemObject(env.queue, muse, p, 0, NULL, NULL));
  run_add(&env, add_k, muse, 1, N);
  int back[N];
  CHECK(clEnqueueReadBuffer(env.queue, muse, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  CHECK(clGetMemObjectInfo(muse, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL));
  void* hp;
  CHECK(clGetMemObjectInfo(muse, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL));
  printf("use_host_ptr: back[16]=%d back[17]=%d back[1023]=%d map count=%u CL_MEM_HOST_PTR is host=%d\n", back[16],
         back[17], back[1023], maps, hp == (void*)use);

  /* ALLOC_HOST_PTR with a write-invalidate map to fill it. */
  cl_mem malloc_ = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, N * sizeof(int), NULL);
  p = (int*)clEnqueueMapBuffer(env.queue, malloc_, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, N * sizeof(int), 0,
                               NULL, NULL, &err);
  CHECK_ERR(err);
  for (int i = 0; i < N; ++i) p[i] = 3 * i;
  CHECK(clEnqueueUnmapMemObject(env.queue, malloc_, p, 0, NULL, NULL));
  run_add(&env, add_k, malloc_, 5, N);
  p = (int*)clEnqueueMapBuffer(env.queue, malloc_, CL_TRUE, CL_MAP_READ, 0, N * sizeof(int), 0, NULL, NULL, &err);
  CHECK_ERR(err);
  printf("alloc_host_ptr: p[0]=%d p[1]=%d p[1023]=%d\n", p[0], p[1], p[1023]);
  CHECK(clEnqueueUnmapMemObject(env.queue, malloc_, p, 0, NULL, NULL));

  /* COPY_HOST_PTR copies once: later host writes do not reach the buffer. */
  static int src[N];
  for (int i = 0; i < N; ++i) src[i] = 100 + i;
  cl_mem mcopy = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof src, src);
  src[0] = -1;
  CHECK(clEnqueueReadBuffer(env.queue, mcopy, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  printf("copy_host_ptr: back[0]=%d back[5]=%d\n", back[0], back[5]);

  /* Sub-buffer at an aligned origin: a kernel on it changes only that range of the parent. */
  cl_uint align_bits;
  CHECK(clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t origin = align_bits / 8 > 256 ? align_bits / 8 : 256;
  cl_buffer_region region = {origin, 64 * sizeof(int)};
  cl_mem sub = clCreateSubBuffer(mcopy, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_ERR(err);
  run_add(&env, add_k, sub, 1000, 64);
  CHECK(clEnqueueReadBuffer(env.queue, mcopy, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  size_t first = origin / sizeof(int);
  cl_mem assoc;
  size_t sub_off, sub_size;
  CHECK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
  CHECK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof sub_off, &sub_off, NULL));
  CHECK(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof sub_size, &sub_size, NULL));
  printf("sub-buffer: before=%d first=%d last=%d after=%d parent matches=%d offset ok=%d size=%zu\n",
         back[first - 1] - (int)(first - 1), back[first] - (int)first, back[first + 63] - (int)(first + 63),
         back[first + 64] - (int)(first + 64), assoc == mcopy, sub_off == origin, sub_size);

  /* Fill with an 8-byte pattern, then copy a window into another buffer. */
  cl_mem mfill = cl_buffer(&env, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
  char zero = 0;
  CHECK(clEnqueueFillBuffer(env.queue, mfill, &zero, 1, 0, N * sizeof(int), 0, NULL, NULL));
  int pattern[2] = {0x11111111, 0x22222222};
  CHECK(clEnqueueFillBuffer(env.queue, mfill, pattern, sizeof pattern, 8, 64, 0, NULL, NULL));
  CHECK(clEnqueueCopyBuffer(env.queue, mcopy, mfill, 0, 256, 16, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mfill, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  printf("fill+copy: back[1]=%08x back[2]=%08x back[3]=%08x back[17]=%08x back[64]=%d back[65]=%d\n", back[1], back[2],
         back[3], back[17], back[64], back[65]);

  /* Rectangles on a 16x16 matrix: write a 4x3 block, read a 5x2 block, copy a 3x3 block. */
  enum { W = 16 };
  static int mat[W * W];
  for (int i = 0; i < W * W; ++i) mat[i] = i;
  cl_mem mrect = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof mat, mat);
  int block[3][4] = {{-1, -2, -3, -4}, {-5, -6, -7, -8}, {-9, -10, -11, -12}};
  size_t borig[3] = {2 * sizeof(int), 1, 0}, horig[3] = {0, 0, 0}, reg[3] = {4 * sizeof(int), 3, 1};
  CHECK(clEnqueueWriteBufferRect(env.queue, mrect, CL_TRUE, borig, horig, reg, W * sizeof(int), 0, 4 * sizeof(int), 0,
                                 block, 0, NULL, NULL));
  int got[2][5];
  size_t rorig[3] = {1 * sizeof(int), 2, 0}, rreg[3] = {5 * sizeof(int), 2, 1};
  CHECK(clEnqueueReadBufferRect(env.queue, mrect, CL_TRUE, rorig, horig, rreg, W * sizeof(int), 0, 5 * sizeof(int), 0,
                                got, 0, NULL, NULL));
  size_t corig_s[3] = {0, 0, 0}, corig_d[3] = {10 * sizeof(int), 10, 0}, creg[3] = {3 * sizeof(int), 3, 1};
  CHECK(clEnqueueCopyBufferRect(env.queue, mrect, mrect, corig_s, corig_d, creg, W * sizeof(int), 0, W * sizeof(int),
                                0, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mrect, CL_TRUE, 0, sizeof mat, mat, 0, NULL, NULL));
  printf("rect: got row0=%d %d %d %d %d row1=%d %d %d %d %d copied=%d %d %d fingerprint=%016llx\n", got[0][0], got[0][1],
         got[0][2], got[0][3], got[0][4], got[1][0], got[1][1], got[1][2], got[1][3], got[1][4], mat[10 * W + 10],
         mat[11 * W + 11], mat[12 * W + 12], fingerprint(mat, sizeof mat));

  cl_mem mems[] = {muse, malloc_, sub, mcopy, mfill, mrect};
  for (size_t i = 0; i < sizeof mems / sizeof mems[0]; ++i) CHECK(clReleaseMemObject(mems[i]));
  CHECK(clReleaseKernel(add_k));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}

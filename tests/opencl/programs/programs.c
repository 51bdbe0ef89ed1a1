/* Programs and kernels: two programs with several kernels, build options, kernel enumeration
 * and queries, argument info, a binary round trip, and a failing build with its log. */
#include "cl_util.h"

static const char* kFirst =
    "__kernel void fill_seq(__global int* v, int base) { v[get_global_id(0)] = base + (int)get_global_id(0) * STEP; }\n"
    "__kernel void square(__global int* v) { int x = v[get_global_id(0)]; v[get_global_id(0)] = x * x; }\n"
    "__kernel void negate(__global int* v) { v[get_global_id(0)] = -v[get_global_id(0)]; }\n";

static const char* kSecond =
    "__kernel void sum_pairs(__global const int* restrict in, __constant int* bias, __global volatile int* out,\n"
    "                        __local int* scratch, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  scratch[get_local_id(0)] = in[2 * i] + in[2 * i + 1];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (i < n) out[i] = scratch[get_local_id(0)] + bias[0];\n"
    "}\n";

static const char* kBroken =
    "__kernel void broken(__global int* v) {\n"
    "  v[0] = undeclared_identifier_xyz + 1;\n"
    "}\n";

static int cmp_names(const void* a, const void* b) { return strcmp(*(const char* const*)a, *(const char* const*)b); }

int main(void) {
  cl_env env = cl_setup(0);
  cl_int err;
  cl_program first = cl_build(&env, kFirst, "-DSTEP=3");
  cl_program second = cl_build(&env, kSecond, "-cl-kernel-arg-info");

  size_t nk;
  CHECK(clGetProgramInfo(first, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
  char names[256];
  CHECK(clGetProgramInfo(first, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
  /* Names in sorted order: platforms list them in any order. */
  const char* list[8];
  int count = 0;
  for (char* tok = strtok(names, ";"); tok && count < 8; tok = strtok(NULL, ";")) list[count++] = tok;
  qsort(list, count, sizeof list[0], cmp_names);
  printf("program 1: %zu kernels:", nk);
  for (int i = 0; i < count; ++i) printf(" %s", list[i]);
  printf("\n");

  cl_kernel ks[3];
  cl_uint got;
  CHECK(clCreateKernelsInProgram(first, 3, ks, &got));
  cl_kernel fill = NULL, square = NULL, negate = NULL;
  for (cl_uint i = 0; i < got; ++i) {
    char fname[64];
    cl_uint nargs;
    CHECK(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof fname, fname, NULL));
    CHECK(clGetKernelInfo(ks[i], CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    if (!strcmp(fname, "fill_seq")) fill = ks[i];
    if (!strcmp(fname, "square")) square = ks[i];
    if (!strcmp(fname, "negate")) negate = ks[i];
    if (!strcmp(fname, "fill_seq")) printf("fill_seq takes %u arguments\n", nargs);
  }

  enum { N = 512 };
  cl_mem mv = cl_buffer(&env, CL_MEM_READ_WRITE, N * sizeof(int), NULL);
  int base = 5;
  CHECK(clSetKernelArg(fill, 0, sizeof mv, &mv));
  CHECK(clSetKernelArg(fill, 1, sizeof base, &base));
  CHECK(clSetKernelArg(square, 0, sizeof mv, &mv));
  CHECK(clSetKernelArg(negate, 0, sizeof mv, &mv));
  size_t global = N, local = 64;
  CHECK(clEnqueueNDRangeKernel(env.queue, fill, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(env.queue, square, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(env.queue, negate, 1, NULL, &global, &local, 0, NULL, NULL));

  cl_kernel sum = cl_kernel_of(second, "sum_pairs");
  cl_mem mout = cl_buffer(&env, CL_MEM_READ_WRITE, N / 2 * sizeof(int), NULL);
  int bias = 1000;
  cl_mem mbias = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof bias, &bias);
  cl_uint half = N / 2;
  CHECK(clSetKernelArg(sum, 0, sizeof mv, &mv));
  CHECK(clSetKernelArg(sum, 1, sizeof mbias, &mbias));
  CHECK(clSetKernelArg(sum, 2, sizeof mout, &mout));
  CHECK(clSetKernelArg(sum, 3, 64 * sizeof(int), NULL));
  CHECK(clSetKernelArg(sum, 4, sizeof half, &half));
  size_t g2 = N / 2;
  CHECK(clEnqueueNDRangeKernel(env.queue, sum, 1, NULL, &g2, &local, 0, NULL, NULL));
  int out[N / 2];
  CHECK(clEnqueueReadBuffer(env.queue, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  printf("chain: out[0]=%d out[1]=%d out[255]=%d fingerprint=%016llx\n", out[0], out[1], out[255],
         fingerprint(out, sizeof out));

  /* Argument info (built with -cl-kernel-arg-info). */
  for (cl_uint a = 0; a < 5; ++a) {
    char name[64], type[64];
    cl_kernel_arg_address_qualifier aq;
    cl_kernel_arg_type_qualifier tq;
    CHECK(clGetKernelArgInfo(sum, a, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    CHECK(clGetKernelArgInfo(sum, a, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    CHECK(clGetKernelArgInfo(sum, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    CHECK(clGetKernelArgInfo(sum, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
    printf("arg %u: %s %s address=%s const=%d volatile=%d restrict=%d\n", a, type, name,
           aq == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? "global"
           : aq == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "constant"
           : aq == CL_KERNEL_ARG_ADDRESS_LOCAL    ? "local"
                                                  : "private",
           !!(tq & CL_KERNEL_ARG_TYPE_CONST), !!(tq & CL_KERNEL_ARG_TYPE_VOLATILE), !!(tq & CL_KERNEL_ARG_TYPE_RESTRICT));
  }

  /* Binary round trip: the program's binary builds into a program that computes the same. */
  size_t bin_size;
  CHECK(clGetProgramInfo(first, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
  unsigned char* bin = (unsigned char*)malloc(bin_size);
  CHECK(clGetProgramInfo(first, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  cl_int bin_status;
  cl_program again = clCreateProgramWithBinary(env.context, 1, &env.device, &bin_size, (const unsigned char**)&bin,
                                               &bin_status, &err);
  CHECK_ERR(err);
  CHECK(clBuildProgram(again, 1, &env.device, NULL, NULL, NULL));
  cl_kernel fill2 = cl_kernel_of(again, "fill_seq");
  CHECK(clSetKernelArg(fill2, 0, sizeof mv, &mv));
  CHECK(clSetKernelArg(fill2, 1, sizeof base, &base));
  CHECK(clEnqueueNDRangeKernel(env.queue, fill2, 1, NULL, &global, &local, 0, NULL, NULL));
  int seq[N];
  CHECK(clEnqueueReadBuffer(env.queue, mv, CL_TRUE, 0, sizeof seq, seq, 0, NULL, NULL));
  printf("from binary: binary status ok=%d seq[0]=%d seq[511]=%d\n", bin_status == CL_SUCCESS, seq[0], seq[511]);
  free(bin);

  /* A failing build reports CL_BUILD_PROGRAM_FAILURE, a build status of error and a log. */
  cl_program broken = clCreateProgramWithSource(env.context, 1, &kBroken, NULL, &err);
  CHECK_ERR(err);
  err = clBuildProgram(broken, 1, &env.device, NULL, NULL, NULL);
  cl_build_status status;
  CHECK(clGetProgramBuildInfo(broken, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  size_t log_size;
  CHECK(clGetProgramBuildInfo(broken, env.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size));
  char* log = (char*)malloc(log_size);
  CHECK(clGetProgramBuildInfo(broken, env.device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL));
  cl_kernel none = clCreateKernel(broken, "broken", &err);
  printf("broken build: %s status=%s log names the identifier=%d create kernel -> %s\n", cl_err(clBuildProgram(broken, 1, &env.device, NULL, NULL, NULL)),
         status == CL_BUILD_ERROR ? "CL_BUILD_ERROR" : "other", strstr(log, "undeclared_identifier_xyz") != NULL,
         none ? "kernel" : cl_err(err));
  free(log);

  for (cl_uint i = 0; i < got; ++i) CHECK(clReleaseKernel(ks[i]));
  CHECK(clReleaseKernel(sum));
  CHECK(clReleaseKernel(fill2));
  cl_mem mems[] = {mv, mout, mbias};
  for (size_t i = 0; i < 3; ++i) CHECK(clReleaseMemObject(mems[i]));
  cl_program progs[] = {first, second, again, broken};
  for (size_t i = 0; i < 4; ++i) CHECK(clReleaseProgram(progs[i]));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}

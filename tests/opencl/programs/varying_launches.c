/* A program whose launches differ from run to run, for testing that `strobe compare -- PROGRAM`
 * refuses it: each run reads a counter from the file named by STROBE_TEST_RUN_COUNTER, writes
 * it back incremented, and launches its kernel over 64 * (counter + 1) work-items. Without the
 * variable every run launches 64. */
#include <stdlib.h>

#include "cl_util.h"

static const char* kSource =
    "__kernel void fill(__global int* out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = (int)i;\n"
    "}\n";

/* This run's counter: the file's value (0 when missing), stored back incremented. */
static int next_run(void) {
  const char* path = getenv("STROBE_TEST_RUN_COUNTER");
  if (!path) return 0;
  int n = 0;
  FILE* f = fopen(path, "r");
  if (f) {
    if (fscanf(f, "%d", &n) != 1) n = 0;
    fclose(f);
  }
  f = fopen(path, "w");
  if (!f) return n;
  fprintf(f, "%d\n", n + 1);
  fclose(f);
  return n;
}

int main(void) {
  const int run = next_run();
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  enum { MAX = 64 * 16 };
  static int out[MAX];
  size_t global = 64 * (size_t)(run % 16 + 1), local = 64;
  cl_mem m = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof out, NULL);
  cl_kernel fill = cl_kernel_of(prog, "fill");
  CHECK(clSetKernelArg(fill, 0, sizeof m, &m));
  CHECK(clEnqueueNDRangeKernel(env.queue, fill, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, global * sizeof(int), out, 0, NULL, NULL));
  printf("fill: %zu work-items, out[last]=%d\n", global, out[global - 1]);
  return 0;
}

// Indirect calls through a function pointer chosen per work-item: the compiler calls each
// distinct target once per wave in a loop over the lanes that chose it.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable

typedef int (*calls_op)(int, int);

__attribute__((noinline)) int calls_op_add(int a, int b) { return a + b; }
__attribute__((noinline)) int calls_op_mul(int a, int b) { return a * b; }
__attribute__((noinline)) int calls_op_sub(int a, int b) { return a - b; }
__attribute__((noinline)) int calls_op_max(int a, int b) { return a > b ? a : b; }

kernel void calls_indirect(global const int* a, global const int* b, global const uint* sel, global int* out,
                           uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  calls_op op;
  switch (sel[i] & 3u) {
    case 0: op = calls_op_add; break;
    case 1: op = calls_op_mul; break;
    case 2: op = calls_op_sub; break;
    default: op = calls_op_max; break;
  }
  out[i] = op(a[i], b[i]);
}

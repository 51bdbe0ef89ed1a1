// Kernels whose only purpose is a rich argument list, so the loader's metadata tests cover
// every way OpenCL passes an argument: scalars of each size, a struct by value, global and
// constant pointers, and dynamic `local` pointers.

typedef struct {
  int a;
  float b;
  double c;
  char d;
} loader_pair;

kernel void many_args(char c, short s, int i, long l, float f, double d,
                      loader_pair p, global float* out, constant int* table,
                      local float* scratch, uchar2 v2, float4 v4, global const uint* in) {
  size_t g = get_global_id(0);
  size_t t = get_local_id(0);
  scratch[t] = (float)(c + s + i + l) + f + (float)d + p.b + (float)p.a + (float)p.c + p.d;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = scratch[(t + 1) % get_local_size(0)] + (float)table[g & 3] + v4.x + v4.w +
           (float)v2.y + (float)in[g];
}

// Two local pointers and nothing else in the same position: dynamic LDS twice.
kernel void two_locals(local int* a, local int* b, global int* out, uint n) {
  size_t t = get_local_id(0);
  a[t] = (int)t;
  b[t] = (int)n;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[(t + 1) % n] + b[t];
}

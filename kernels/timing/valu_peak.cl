// Throughput microbenchmark: four independent FMA chains, 64 FMAs per loop iteration.
__kernel void fma_peak(__global float* out, uint iters) {
  const size_t gid = get_global_id(0);
  float a = (float)gid, b = a * 0.5f, c = a + 1.0f, d = a - 1.0f;
  const float x = 1.0001f, y = 0.9999f;
  for (uint i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      a = __builtin_fmaf(a, x, y);
      b = __builtin_fmaf(b, y, x);
      c = __builtin_fmaf(c, x, y);
      d = __builtin_fmaf(d, y, x);
    }
  }
  out[gid] = a + b + c + d;
}

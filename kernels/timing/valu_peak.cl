// Throughput microbenchmark: four independent multiply-add chains, 64 per loop iteration. Written
// as a * x + y, which gfx803 contracts to v_mac_f32/v_mad_f32 (full rate): its fused
// v_fma_f32 runs at quarter rate on Fiji (cu.valu_fma32_cycles), so peak FP32 throughput is the
// unfused multiply-add's.
__kernel void fma_peak(__global float* out, uint iters) {
  const size_t gid = get_global_id(0);
  float a = (float)gid, b = a * 0.5f, c = a + 1.0f, d = a - 1.0f;
  const float x = 1.0001f, y = 0.9999f;
  for (uint i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      a = a * x + y;
      b = b * y + x;
      c = c * x + y;
      d = d * y + x;
    }
  }
  out[gid] = a + b + c + d;
}

// Matrix-core throughput microbenchmark (gfx942 only): four independent accumulators per wave,
// each updated by v_mfma_f32_16x16x16_f16 (8,192 FLOPs) 16 times per loop iteration, so the
// SIMD's matrix core, not a dependency, bounds the loop.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void mfma_f16_peak(__global float* out, uint iters) {
  const size_t gid = get_global_id(0);
  const half4 a = (half4)((half)gid, (half)1.0, (half)0.5, (half)0.25);
  const half4 b = (half4)((half)0.125, (half)1.0, (half)2.0, (half)-1.0);
  float4 c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (uint i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      c0 = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c0, 0, 0, 0);
      c1 = __builtin_amdgcn_mfma_f32_16x16x16f16(b, a, c1, 0, 0, 0);
      c2 = __builtin_amdgcn_mfma_f32_16x16x16f16(a, a, c2, 0, 0, 0);
      c3 = __builtin_amdgcn_mfma_f32_16x16x16f16(b, b, c3, 0, 0, 0);
    }
  }
  const float4 s = c0 + c1 + c2 + c3;
  out[gid] = s.x + s.y + s.z + s.w;
}

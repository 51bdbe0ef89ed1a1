// Occupancy microbenchmark: keeps 24 float4 loads live at once, so each wave needs ~100 VGPRs.
__kernel void vgpr_hog(__global const float4* in, __global float4* out, uint n) {
  const size_t gid = get_global_id(0);
  float4 r[24];
#pragma unroll
  for (int i = 0; i < 24; ++i) r[i] = in[gid + (size_t)i * n];
  float4 acc = (float4)(0.0f);
#pragma unroll
  for (int i = 0; i < 24; ++i) acc = acc * r[23 - i] + r[i];
  out[gid] = acc;
}

// Bandwidth microbenchmark: every work-item reads `per_item` float4s, coalesced across the
// grid, and writes one float. DRAM reads dominate.
__kernel void stream_read(__global const float4* in, __global float* out, uint per_item) {
  const size_t gid = get_global_id(0), n = get_global_size(0);
  float4 acc = (float4)(0.0f);
  for (uint i = 0; i < per_item; ++i) acc += in[gid + i * n];
  out[gid] = acc.x + acc.y + acc.z + acc.w;
}

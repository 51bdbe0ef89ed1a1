// Exclusive prefix sum of 32-bit integers in three phases: per-block scan in LDS (Hillis-Steele),
// a scan of the block sums (recursively, by the host), and adding each block's offset.
__kernel void scan_block(__global const int* in, __global int* out, __global int* block_sums, uint n,
                         __local int* buf) {
  uint lid = get_local_id(0), wg = get_local_size(0), i = get_global_id(0);
  int own = i < n ? in[i] : 0;
  buf[lid] = own;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < wg; d <<= 1) {
    int add = lid >= d ? buf[lid - d] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n) out[i] = buf[lid] - own;  // inclusive -> exclusive
  if (lid == wg - 1) block_sums[get_group_id(0)] = buf[lid];
}

__kernel void scan_add(__global int* out, __global const int* offsets, uint n) {
  uint i = get_global_id(0);
  if (i < n) out[i] += offsets[get_group_id(0)];
}

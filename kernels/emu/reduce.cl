// Work-group sum reduction through LDS with barriers: one partial sum per work-group.
__kernel void reduce_sum(__global const uint* in, __global uint* out, __local uint* scratch, uint n) {
  uint lid = get_local_id(0), gid = get_global_id(0), size = get_local_size(0);
  scratch[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

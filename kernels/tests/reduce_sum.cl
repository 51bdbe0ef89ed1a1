// Sum of n ints: LDS tree reduction per work-group (dynamic __local buffer), then one global atomic.
kernel void reduce_sum(global const int* in, global int* total, local int* scratch, uint n) {
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  scratch[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) atomic_add(total, scratch[0]);
}

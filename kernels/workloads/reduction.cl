// Sum reduction: each work-group sums its grid-stride share in an LDS tree, then one atomic add.
__kernel void reduction(__global const int* in, __global int* total, __local int* scratch, uint n) {
  uint lid = get_local_id(0), wg = get_local_size(0);
  int sum = 0;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) sum += in[i];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = wg / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) atomic_add(total, scratch[0]);
}

// LDS atomics with return values: per-group tickets, min/max and compare-exchange in local memory.
kernel void local_atomics(global const int* in, global int* tickets, global int* group_out, uint n) {
  local int ctr[4];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  if (lid == 0) { ctr[0] = 0; ctr[1] = 0x7fffffff; ctr[2] = -0x7fffffff; ctr[3] = -1; }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = gid < n ? in[gid] : 0;
  tickets[gid] = atomic_add(&ctr[0], 1);
  atomic_min(&ctr[1], v);
  atomic_max(&ctr[2], v);
  atomic_cmpxchg(&ctr[3], -1, (int)lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    size_t g = get_group_id(0);
    group_out[4 * g + 0] = ctr[0];
    group_out[4 * g + 1] = ctr[1];
    group_out[4 * g + 2] = ctr[2];
    group_out[4 * g + 3] = ctr[3];
  }
}

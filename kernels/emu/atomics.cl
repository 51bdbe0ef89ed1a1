// Global and local atomics: a histogram built in LDS then merged, plus a global ticket counter
// whose returned values must be a permutation of 0..n-1.
__kernel void histogram(__global const uint* in, __global uint* bins, __global uint* counter,
                        __global uint* tickets, uint n) {
  __local uint local_bins[16];
  uint lid = get_local_id(0), gid = get_global_id(0);
  if (lid < 16) local_bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid < n) {
    atomic_add(&local_bins[in[gid] & 15], 1u);
    tickets[gid] = atomic_inc(counter);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) atomic_add(&bins[lid], local_bins[lid]);
}

__kernel void minmax(__global const int* in, __global int* result, uint n) {
  uint gid = get_global_id(0);
  if (gid < n) {
    atomic_min(&result[0], in[gid]);
    atomic_max(&result[1], in[gid]);
    atomic_xchg(&result[2], 7);
    atomic_cmpxchg(&result[3], 0, (int)gid + 1);
  }
}

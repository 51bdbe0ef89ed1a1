// Histogram of 8-bit-range keys: per-group bins in LDS (local atomics), merged with global atomics.
__kernel void histogram(__global const uint* keys, __global uint* bins, __local uint* local_bins, uint n,
                        uint nbins) {
  uint lid = get_local_id(0), wg = get_local_size(0);
  for (uint b = lid; b < nbins; b += wg) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_bins[keys[i] % nbins]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < nbins; b += wg)
    if (local_bins[b]) atomic_add(&bins[b], local_bins[b]);
}

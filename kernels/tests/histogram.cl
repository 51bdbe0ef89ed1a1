// 256-bin histogram of bytes: per-work-group local atomics, merged with global atomics.
kernel void histogram(global const uchar* data, global uint* bins, uint n) {
  local uint local_bins[256];
  uint lid = get_local_id(0);
  for (uint b = lid; b < 256; b += get_local_size(0)) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_bins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += get_local_size(0))
    if (local_bins[b]) atomic_add(&bins[b], local_bins[b]);
}

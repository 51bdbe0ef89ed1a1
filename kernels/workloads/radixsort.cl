// LSD radix sort of 32-bit keys with values, 4 bits per pass (SHOC sort / AMD APP SDK RadixSort
// structure): per pass, a per-group digit histogram, one scan of all histograms into global
// offsets, and a stable scatter that ranks each tile of keys in LDS before writing it out.
#define WG 256              // work-items per group (the host launches exactly this many)
#define ITEMS 4             // keys per work-item in a scatter tile
#define TILE (WG * ITEMS)   // keys ranked together in LDS
#define RADIX 16            // digits of a 4-bit pass

// Exclusive prefix sum of each work-item's `v` across the group (Hillis-Steele in `buf`, WG
// entries); `*total` receives the sum of all. Every work-item of the group must call it.
uint group_scan(__local uint* buf, uint v, uint* total) {
  uint lid = get_local_id(0);
  buf[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < WG; d <<= 1) {
    uint add = lid >= d ? buf[lid - d] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[lid] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *total = buf[WG - 1];
  uint excl = buf[lid] - v;
  barrier(CLK_LOCAL_MEM_FENCE);  // buf may be reused as soon as this returns
  return excl;
}

// Counts the digits (key >> shift) & 15 of this group's key range [g * per_group, ...) into
// counts[digit * groups + g]: digit-major, so one linear scan yields every group's offsets.
__kernel void radix_histogram(__global const uint* keys, __global uint* counts, uint n, uint shift,
                              uint per_group) {
  __local uint hist[RADIX];
  uint lid = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  if (lid < RADIX) hist[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint begin = g * per_group, end = min(n, begin + per_group);
  for (uint i = begin + lid; i < end; i += WG) atomic_inc(&hist[(keys[i] >> shift) & (RADIX - 1)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < RADIX) counts[lid * groups + g] = hist[lid];
}

// Exclusive scan of the m digit-major counts in place, by one group: each work-item sums a
// contiguous chunk, the chunk sums are scanned in LDS, then each chunk is rewritten as offsets.
__kernel void radix_scan(__global uint* counts, uint m) {
  __local uint buf[WG];
  uint lid = get_local_id(0), chunk = (m + WG - 1) / WG;
  uint begin = min(m, lid * chunk), end = min(m, begin + chunk);
  uint sum = 0;
  for (uint i = begin; i < end; ++i) sum += counts[i];
  uint total;
  uint run = group_scan(buf, sum, &total);
  for (uint i = begin; i < end; ++i) {
    uint c = counts[i];
    counts[i] = run;
    run += c;
  }
}

// Stable scatter of this group's key range, one TILE at a time in order. Each tile is sorted by
// digit in LDS with four stable 1-bit splits; a key's global position is then its digit's running
// offset for this group plus its rank among the tile's keys of that digit.
__kernel void radix_scatter(__global const uint* keys_in, __global const uint* vals_in, __global uint* keys_out,
                            __global uint* vals_out, __global const uint* offsets, uint n, uint shift,
                            uint per_group) {
  __local uint lkeys[TILE], lvals[TILE], buf[WG];
  __local uint base[RADIX], tile_count[RADIX], tile_start[RADIX];
  uint lid = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  if (lid < RADIX) base[lid] = offsets[lid * groups + g];
  uint begin = g * per_group, end = min(n, begin + per_group);
  for (uint t = begin; t < end; t += TILE) {
    uint valid = min((uint)TILE, end - t);
    uint k[ITEMS], v[ITEMS];
    // Past the end, all-ones keys: digit 15 in every pass, and being last they stay last.
    for (uint j = 0; j < ITEMS; ++j) {
      uint p = ITEMS * lid + j;
      k[j] = p < valid ? keys_in[t + p] : 0xffffffffu;
      v[j] = p < valid ? vals_in[t + p] : 0;
    }
    if (lid < RADIX) tile_count[lid] = 0;
    // Split on each digit bit, least significant first: zeros keep their order, then ones.
    for (uint b = shift; b < shift + 4; ++b) {
      uint zeros = 0;
      for (uint j = 0; j < ITEMS; ++j) zeros += ((k[j] >> b) & 1) ^ 1;
      uint total_zeros;
      uint z = group_scan(buf, zeros, &total_zeros);  // zeros before this work-item's keys
      for (uint j = 0; j < ITEMS; ++j) {
        uint p = ITEMS * lid + j;
        uint dst = ((k[j] >> b) & 1) ? total_zeros + p - z : z++;
        lkeys[dst] = k[j];
        lvals[dst] = v[j];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint j = 0; j < ITEMS; ++j) k[j] = lkeys[ITEMS * lid + j], v[j] = lvals[ITEMS * lid + j];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint j = 0; j < ITEMS; ++j)
      if (ITEMS * lid + j < valid) atomic_inc(&tile_count[(k[j] >> shift) & (RADIX - 1)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      uint s = 0;
      for (uint d = 0; d < RADIX; ++d) tile_start[d] = s, s += tile_count[d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < ITEMS; ++j) {
      uint p = ITEMS * lid + j, d = (k[j] >> shift) & (RADIX - 1);
      if (p < valid) {
        uint dst = base[d] + p - tile_start[d];
        keys_out[dst] = k[j];
        vals_out[dst] = v[j];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < RADIX) base[lid] += tile_count[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

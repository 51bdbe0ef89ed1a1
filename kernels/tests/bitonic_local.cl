// Bitonic sort of each 256-element block in LDS (ascending).
kernel void bitonic_local(global uint* data) {
  local uint s[256];
  uint lid = get_local_id(0);
  size_t base = get_group_id(0) * 256;
  s[lid] = data[base + lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 2; k <= 256; k <<= 1) {
    for (uint j = k >> 1; j > 0; j >>= 1) {
      uint p = lid ^ j;
      if (p > lid) {
        uint a = s[lid], b = s[p];
        bool up = (lid & k) == 0;
        if ((a > b) == up) { s[lid] = b; s[p] = a; }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  data[base + lid] = s[lid];
}

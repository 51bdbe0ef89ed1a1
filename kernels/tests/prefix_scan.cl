// Inclusive prefix sum within each work-group (Hillis-Steele over LDS, double-buffered).
kernel void prefix_scan(global const uint* in, global uint* out, uint n) {
  local uint buf[2][256];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  uint ping = 0;
  buf[0][lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < get_local_size(0); off <<= 1) {
    uint v = buf[ping][lid];
    if (lid >= off) v += buf[ping][lid - off];
    buf[1 - ping][lid] = v;
    ping = 1 - ping;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gid < n) out[gid] = buf[ping][lid];
}

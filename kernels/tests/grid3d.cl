// Writes a checksum of every work-item's 3D coordinates; partial work-groups in all dimensions.
kernel void grid3d(global uint* out, uint nx, uint ny, uint nz) {
  uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= nx || y >= ny || z >= nz) return;
  uint idx = (z * ny + y) * nx + x;
  out[idx] = (x * 7u) ^ (y * 131u) ^ (z * 8191u) ^ (get_local_id(0) << 20) ^ (get_group_id(2) << 26) ^
             (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2)) ^ ((uint)get_num_groups(1) << 16);
}

// 2D/3D grids with partial work-groups: every work-item records its ids.
__kernel void grid_ids(__global uint* out) {
  uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  uint w = get_global_size(0), h = get_global_size(1);
  uint i = (z * h + y) * w + x;
  out[i] = (get_group_id(0) << 24) | (get_group_id(1) << 16) | (get_group_id(2) << 8) |
           (get_local_id(0) + get_local_id(1) * 4 + get_local_id(2) * 16);
}

// out = transpose(in) through a padded LDS tile (avoids bank conflicts); 2D grid with edges.
#define T 16
kernel void transpose_lds(global const uint* in, global uint* out, uint rows, uint cols) {
  local uint tile[T][T + 1];
  uint x = get_group_id(0) * T + get_local_id(0);
  uint y = get_group_id(1) * T + get_local_id(1);
  if (x < cols && y < rows) tile[get_local_id(1)][get_local_id(0)] = in[y * cols + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint ox = get_group_id(1) * T + get_local_id(0);
  uint oy = get_group_id(0) * T + get_local_id(1);
  if (ox < rows && oy < cols) out[oy * rows + ox] = tile[get_local_id(0)][get_local_id(1)];
}

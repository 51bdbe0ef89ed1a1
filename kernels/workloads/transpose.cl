// Matrix transpose through a padded 16x16 LDS tile so both global reads and writes coalesce.
#define TILE 16
__kernel void transpose(__global const float* in, __global float* out, uint w, uint h) {
  __local float tile[TILE][TILE + 1];
  uint gx = get_group_id(0) * TILE, gy = get_group_id(1) * TILE;
  uint lx = get_local_id(0), ly = get_local_id(1);
  if (gx + lx < w && gy + ly < h) tile[ly][lx] = in[(gy + ly) * w + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  // Write the tile transposed: out is h wide and w tall.
  if (gy + lx < h && gx + ly < w) out[(gx + ly) * h + gy + lx] = tile[lx][ly];
}

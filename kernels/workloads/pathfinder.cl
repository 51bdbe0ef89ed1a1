// Rodinia pathfinder: the cheapest path down a grid, one dynamic-programming row per launch.
__kernel void pathfinder_row(__global const int* wall, __global const int* src, __global int* dst, uint cols,
                             uint row) {
  uint j = get_global_id(0);
  if (j >= cols) return;
  int best = src[j];
  if (j > 0) best = min(best, src[j - 1]);
  if (j + 1 < cols) best = min(best, src[j + 1]);
  dst[j] = wall[row * cols + j] + best;
}

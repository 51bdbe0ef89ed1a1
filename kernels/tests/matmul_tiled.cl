// C = A * B with 16x16 LDS tiles and barriers; 2D grid; sizes need not be multiples of the tile.
#define TILE 16
kernel void matmul_tiled(global const float* A, global const float* B, global float* C, uint M, uint N, uint K) {
  local float As[TILE][TILE];
  local float Bs[TILE][TILE];
  uint row = get_global_id(1), col = get_global_id(0);
  uint ty = get_local_id(1), tx = get_local_id(0);
  float acc = 0.0f;
  for (uint t = 0; t < (K + TILE - 1) / TILE; ++t) {
    uint ak = t * TILE + tx, bk = t * TILE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; ++k) acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

// C = A * B with 16x16 tiles staged in LDS (row-major; M, N, K multiples of 16).
#define TILE 16
__kernel void mm(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  __local float ta[TILE][TILE];
  __local float tb[TILE][TILE + 1];  // +1 column: no bank conflicts on the column reads
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < k; t += TILE) {
    ta[ly][lx] = a[row * k + t + lx];
    tb[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < TILE; ++i) acc += ta[ly][i] * tb[i][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}

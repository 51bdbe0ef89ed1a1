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

#ifdef __gfx942__
// The same product on gfx942's matrix cores: a work-group of four waves computes a 32x32 tile
// of C, each wave a 16x16 quarter, staging 32x16 of A and 16x32 of B in LDS per step of 16 k
// and feeding them four k at a time to v_mfma_f32_16x16x4_f32. Lane l supplies A[i][s + l/16]
// and B[s + l/16][j] with i = j = l % 16; its result registers hold C rows 4*(l/16) ..
// 4*(l/16)+3 of column l % 16 (AMD's matrix instruction calculator, CDNA3).
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void mm_mfma(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  __local float ta[32][TILE + 1];
  __local float tb[TILE][32 + 1];
  const uint lid = get_local_id(0), wave = lid / 64, lane = lid % 64, i = lane % 16, q = lane / 16;
  const uint row0 = get_group_id(1) * 32, col0 = get_group_id(0) * 32;
  const uint wr = (wave / 2) * 16, wc = (wave % 2) * 16;
  float4 acc = (float4)(0.0f);
  for (uint t = 0; t < k; t += TILE) {
    for (uint e = lid; e < 32 * TILE; e += 256) {
      ta[e / TILE][e % TILE] = a[(row0 + e / TILE) * k + t + e % TILE];
      tb[e / 32][e % 32] = b[(t + e / 32) * n + col0 + e % 32];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 0; s < TILE; s += 4)
      acc = __builtin_amdgcn_mfma_f32_16x16x4f32(ta[wr + i][s + q], tb[s + q][wc + i], acc, 0, 0, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  __global float* out = c + (row0 + wr + 4 * q) * n + col0 + wc + i;
  out[0] = acc.x;
  out[n] = acc.y;
  out[2 * n] = acc.z;
  out[3 * n] = acc.w;
}
#endif

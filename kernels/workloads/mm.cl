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
// The same product on gfx942's matrix cores: one wave per 16x16 tile of C, four k at a time
// through v_mfma_f32_16x16x4_f32. Lane l holds A[i][t + l/16] and B[t + l/16][j] with i = j =
// l % 16; its result registers hold C rows 4*(l/16) .. 4*(l/16)+3 of column l % 16 (AMD's
// matrix instruction calculator, CDNA3).
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mm_mfma(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  const uint lane = get_local_id(0), i = lane % 16, q = lane / 16;
  const uint row0 = get_group_id(1) * 16, col0 = get_group_id(0) * 16;
  float4 acc = (float4)(0.0f);
  for (uint t = 0; t < k; t += 4)
    acc = __builtin_amdgcn_mfma_f32_16x16x4f32(a[(row0 + i) * k + t + q], b[(t + q) * n + col0 + i], acc, 0, 0, 0);
  __global float* out = c + (row0 + 4 * q) * n + col0 + i;
  out[0] = acc.x;
  out[n] = acc.y;
  out[2 * n] = acc.z;
  out[3 * n] = acc.w;
}
#endif

// Blocked LU decomposition in place, without pivoting (Rodinia lud): the unit lower factor L and
// the upper factor U overwrite the matrix. Each 16-wide block step runs three kernels: diagonal
// factors the diagonal block, perimeter solves the blocks right of and below it against that
// block, internal subtracts their product from every trailing block.
#define BS 16

// One work-group of BS work-items factors the BS x BS block at (offset, offset) in LDS: step i
// first finishes column i of L (work-item tx owns row tx), then row i + 1 of U (tx owns column tx).
__kernel void lud_diagonal(__global float* m, uint n, uint offset) {
  __local float s[BS][BS];
  uint tx = get_local_id(0);
  __global float* blk = m + offset * n + offset;
  for (uint i = 0; i < BS; ++i) s[i][tx] = blk[i * n + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = 0; i < BS - 1; ++i) {
    if (tx > i) {
      for (uint j = 0; j < i; ++j) s[tx][i] -= s[tx][j] * s[j][i];
      s[tx][i] /= s[i][i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tx > i)
      for (uint j = 0; j <= i; ++j) s[i + 1][tx] -= s[i + 1][j] * s[j][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint i = 1; i < BS; ++i) blk[i * n + tx] = s[i][tx];  // row 0 of U is row 0 of the block
}

// Work-group b (2 * BS work-items) handles perimeter block b + 1 of the current step: the first
// BS work-items compute a block of U right of the diagonal block (forward substitution with its
// unit L, one column each), the others a block of L below it (solving against its U, one row each).
__kernel void lud_perimeter(__global float* m, uint n, uint offset) {
  __local float dia[BS][BS], row[BS][BS], col[BS][BS];
  uint tx = get_local_id(0), b = get_group_id(0) + 1;
  __global float* d = m + offset * n + offset;
  __global float* r = d + b * BS;      // block right of the diagonal
  __global float* c = d + b * BS * n;  // block below it
  // Each half loads half of the diagonal block and all of its own perimeter block.
  if (tx < BS) {
    for (uint i = 0; i < BS / 2; ++i) dia[i][tx] = d[i * n + tx];
    for (uint i = 0; i < BS; ++i) row[i][tx] = r[i * n + tx];
  } else {
    uint x = tx - BS;
    for (uint i = BS / 2; i < BS; ++i) dia[i][x] = d[i * n + x];
    for (uint i = 0; i < BS; ++i) col[i][x] = c[i * n + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tx < BS) {
    for (uint i = 1; i < BS; ++i)
      for (uint j = 0; j < i; ++j) row[i][tx] -= dia[i][j] * row[j][tx];
  } else {
    uint y = tx - BS;
    for (uint i = 0; i < BS; ++i) {
      for (uint j = 0; j < i; ++j) col[y][i] -= col[y][j] * dia[j][i];
      col[y][i] /= dia[i][i];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tx < BS) {
    for (uint i = 1; i < BS; ++i) r[i * n + tx] = row[i][tx];  // row 0 needs no update
  } else {
    uint x = tx - BS;
    for (uint i = 0; i < BS; ++i) c[i * n + x] = col[i][x];
  }
}

// Work-group (bx, by) updates trailing block (by + 1, bx + 1) of the current step: A -= L_col U_row,
// with the L block to its left and the U block above it staged in LDS.
__kernel void lud_internal(__global float* m, uint n, uint offset) {
  __local float row[BS][BS], col[BS][BS];
  uint tx = get_local_id(0), ty = get_local_id(1);
  uint gr = offset + (get_group_id(1) + 1) * BS + ty;  // global row and column of this element
  uint gc = offset + (get_group_id(0) + 1) * BS + tx;
  row[ty][tx] = m[(offset + ty) * n + gc];
  col[ty][tx] = m[gr * n + offset + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  for (uint i = 0; i < BS; ++i) sum += col[ty][i] * row[i][tx];
  m[gr * n + gc] -= sum;
}

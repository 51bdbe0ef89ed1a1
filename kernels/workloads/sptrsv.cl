// Level-scheduled sparse triangular solve L x = b (L lower triangular in CSR, each row's diagonal
// stored last): one launch per level, over the rows whose dependencies all lie in earlier levels,
// so every x[col] a row reads was written by an earlier launch.

// Work-item per row: the row's products are subtracted from b in column order, then divided by
// the diagonal unless the matrix has a unit diagonal (whose stored value is then not read).
__kernel void sptrsv_rows(__global const uint* row_ptr, __global const uint* cols, __global const float* vals,
                          __global const float* b, __global float* x, __global const uint* level_rows, uint first,
                          uint count, uint unit) {
  uint i = get_global_id(0);
  if (i >= count) return;
  uint r = level_rows[first + i], diag = row_ptr[r + 1] - 1;
  float s = b[r];
  for (uint e = row_ptr[r]; e < diag; ++e) s -= vals[e] * x[cols[e]];
  x[r] = unit ? s : s / vals[diag];
}

// Wavefront per row, for levels of long rows: 64 lanes stride over the row's entries and a tree
// in LDS sums their partial products, so a long row does not serialise on one work-item.
__kernel void sptrsv_wave(__global const uint* row_ptr, __global const uint* cols, __global const float* vals,
                          __global const float* b, __global float* x, __global const uint* level_rows, uint first,
                          uint count, uint unit, __local float* partial) {
  uint lid = get_local_id(0), lane = lid & 63, i = get_global_id(0) / 64;
  uint r = 0, diag = 0;
  float acc = 0.0f;
  if (i < count) {
    r = level_rows[first + i], diag = row_ptr[r + 1] - 1;
    for (uint e = row_ptr[r] + lane; e < diag; e += 64) acc += vals[e] * x[cols[e]];
  }
  partial[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 32; s > 0; s >>= 1) {
    if (lane < s) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && i < count) {
    float s = b[r] - partial[lid];
    x[r] = unit ? s : s / vals[diag];
  }
}

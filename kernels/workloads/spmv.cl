// Sparse matrix-vector product y = A x, A in CSR, one row per work-item (the scalar CSR kernel).
__kernel void spmv_csr(__global const uint* row_ptr, __global const uint* cols, __global const float* vals,
                       __global const float* x, __global float* y, uint rows) {
  uint r = get_global_id(0);
  if (r >= rows) return;
  float acc = 0.0f;
  for (uint e = row_ptr[r]; e < row_ptr[r + 1]; ++e) acc += vals[e] * x[cols[e]];
  y[r] = acc;
}

// The vector CSR kernel: one 64-wide wavefront per row, lanes striding over the row's entries,
// partial sums combined by a tree in LDS. Long rows no longer serialise on one work-item.
__kernel void spmv_vector(__global const uint* row_ptr, __global const uint* cols, __global const float* vals,
                          __global const float* x, __global float* y, uint rows, __local float* partial) {
  uint lid = get_local_id(0), lane = lid & 63, r = get_global_id(0) / 64;
  float acc = 0.0f;
  if (r < rows)
    for (uint e = row_ptr[r] + lane; e < row_ptr[r + 1]; e += 64) acc += vals[e] * x[cols[e]];
  partial[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 32; s > 0; s >>= 1) {
    if (lane < s) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && r < rows) y[r] = partial[lid];
}

// Sparse matrix-vector product y = A x, A in CSR, one row per work-item (the scalar CSR kernel).
__kernel void spmv_csr(__global const uint* row_ptr, __global const uint* cols, __global const float* vals,
                       __global const float* x, __global float* y, uint rows) {
  uint r = get_global_id(0);
  if (r >= rows) return;
  float acc = 0.0f;
  for (uint e = row_ptr[r]; e < row_ptr[r + 1]; ++e) acc += vals[e] * x[cols[e]];
  y[r] = acc;
}

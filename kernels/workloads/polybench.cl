// PolyBench linear-algebra kernels (atax, bicg): one row or one column per work-item.

// tmp = A x (A is rows x cols).
__kernel void atax_ax(__global const float* a, __global const float* x, __global float* tmp, uint rows, uint cols) {
  uint i = get_global_id(0);
  if (i >= rows) return;
  float acc = 0.0f;
  for (uint j = 0; j < cols; ++j) acc += a[i * cols + j] * x[j];
  tmp[i] = acc;
}

// y = A^T tmp: work-item j walks column j, so neighbouring work-items read neighbouring words.
__kernel void atax_aty(__global const float* a, __global const float* tmp, __global float* y, uint rows, uint cols) {
  uint j = get_global_id(0);
  if (j >= cols) return;
  float acc = 0.0f;
  for (uint i = 0; i < rows; ++i) acc += a[i * cols + j] * tmp[i];
  y[j] = acc;
}

// q = A p.
__kernel void bicg_q(__global const float* a, __global const float* p, __global float* q, uint rows, uint cols) {
  uint i = get_global_id(0);
  if (i >= rows) return;
  float acc = 0.0f;
  for (uint j = 0; j < cols; ++j) acc += a[i * cols + j] * p[j];
  q[i] = acc;
}

// s = A^T r.
__kernel void bicg_s(__global const float* a, __global const float* r, __global float* s, uint rows, uint cols) {
  uint j = get_global_id(0);
  if (j >= cols) return;
  float acc = 0.0f;
  for (uint i = 0; i < rows; ++i) acc += r[i] * a[i * cols + j];
  s[j] = acc;
}

// PolyBench GEMM: C = alpha A B + beta C, one element per work-item straight from global memory
// (no LDS tiling: the contrast to `mm`).
__kernel void gemm_naive(__global const float* a, __global const float* b, __global float* c, uint ni, uint nj,
                         uint nk, float alpha, float beta) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i >= ni || j >= nj) return;
  float acc = 0.0f;
  for (uint k = 0; k < nk; ++k) acc += a[i * nk + k] * b[k * nj + j];
  c[i * nj + j] = alpha * acc + beta * c[i * nj + j];
}

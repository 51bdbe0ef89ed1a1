// PolyBench/GPU 2mm and 3mm: chains of dense matrix products, one output element per work-item
// (x: column, y: row, in 32x8 work-groups), every operand read straight from global memory.

// Element (i, j) of the product of a (rows x inner) and b (inner x cols), summed in k order.
static inline float product_element(__global const float* a, __global const float* b, uint i, uint j, uint inner,
                                    uint cols) {
  float acc = 0.0f;
  for (uint k = 0; k < inner; ++k) acc += a[i * inner + k] * b[k * cols + j];
  return acc;
}

// 2mm, first launch: tmp = alpha A B (A is ni x nk, B is nk x nj); alpha scales every term, as
// PolyBench writes it.
__kernel void mm2_tmp(__global const float* a, __global const float* b, __global float* tmp, uint ni, uint nj, uint nk,
                      float alpha) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i >= ni || j >= nj) return;
  float acc = 0.0f;
  for (uint k = 0; k < nk; ++k) acc += alpha * a[i * nk + k] * b[k * nj + j];
  tmp[i * nj + j] = acc;
}

// 2mm, second launch: D = beta D + tmp C (tmp is ni x nj, C is nj x nl, D is ni x nl).
__kernel void mm2_d(__global const float* tmp, __global const float* c, __global float* d, uint ni, uint nl, uint nj,
                    float beta) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i >= ni || j >= nl) return;
  float acc = beta * d[i * nl + j];
  for (uint k = 0; k < nj; ++k) acc += tmp[i * nj + k] * c[k * nl + j];
  d[i * nl + j] = acc;
}

// 3mm, first launch: E = A B (A is ni x nk, B is nk x nj).
__kernel void mm3_e(__global const float* a, __global const float* b, __global float* e, uint ni, uint nj, uint nk) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i < ni && j < nj) e[i * nj + j] = product_element(a, b, i, j, nk, nj);
}

// 3mm, second launch: F = C D (C is nj x nm, D is nm x nl).
__kernel void mm3_f(__global const float* c, __global const float* d, __global float* f, uint nj, uint nl, uint nm) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i < nj && j < nl) f[i * nl + j] = product_element(c, d, i, j, nm, nl);
}

// 3mm, third launch: G = E F (E is ni x nj, F is nj x nl).
__kernel void mm3_g(__global const float* e, __global const float* f, __global float* g, uint ni, uint nl, uint nj) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i < ni && j < nl) g[i * nl + j] = product_element(e, f, i, j, nj, nl);
}

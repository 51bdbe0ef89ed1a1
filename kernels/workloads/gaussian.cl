// Gaussian elimination without pivoting (Rodinia gaussian): for each pivot t, Fan1 computes the
// row multipliers and Fan2 eliminates column t below the pivot.
__kernel void fan1(__global const float* a, __global float* m, uint n, uint t) {
  uint i = get_global_id(0);
  if (i >= n - 1 - t) return;
  uint row = t + 1 + i;
  m[row * n + t] = a[row * n + t] / a[t * n + t];
}

__kernel void fan2(__global float* a, __global float* b, __global const float* m, uint n, uint t) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (y >= n - 1 - t || x >= n - t) return;
  uint row = t + 1 + y, col = t + x;
  float mult = m[row * n + t];
  a[row * n + col] -= mult * a[t * n + col];
  if (x == 0) b[row] -= mult * b[t];
}

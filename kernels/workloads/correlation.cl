// PolyBench/GPU correlation: the Pearson correlation matrix of the m columns of an n x m data
// matrix (row-major), in four launches: column means, column standard deviations, centring and
// normalising the data in place, then the correlations of every column pair.

// One work-item per column j: mean[j] = sum_i data[i][j] / float_n.
__kernel void corr_mean(__global const float* data, __global float* mean, uint m, uint n, float float_n) {
  uint j = get_global_id(0);
  if (j >= m) return;
  float acc = 0.0f;
  for (uint i = 0; i < n; ++i) acc += data[i * m + j];
  mean[j] = acc / float_n;
}

// One work-item per column j: the population standard deviation, replaced by 1 when it is at
// most eps so that a (near-)constant column does not divide by zero below.
__kernel void corr_std(__global const float* data, __global const float* mean, __global float* stddev, uint m, uint n,
                       float float_n, float eps) {
  uint j = get_global_id(0);
  if (j >= m) return;
  float mu = mean[j], acc = 0.0f;
  for (uint i = 0; i < n; ++i) {
    float d = data[i * m + j] - mu;
    acc += d * d;
  }
  float s = sqrt(acc / float_n);
  stddev[j] = s <= eps ? 1.0f : s;
}

// One work-item per element: data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) stddev[j]), so
// that each column pair's dot product below is their correlation.
__kernel void corr_reduce(__global float* data, __global const float* mean, __global const float* stddev, uint m,
                          uint n, float float_n) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j >= m) return;
  data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrt(float_n) * stddev[j]);
}

// One work-item per column j1: the upper-triangle row j1 of the symmetric matrix, mirrored into
// column j1, with 1 on the diagonal. Later columns have fewer pairs, as in the original.
__kernel void corr_corr(__global const float* data, __global float* symmat, uint m, uint n) {
  uint j1 = get_global_id(0);
  if (j1 >= m) return;
  symmat[j1 * m + j1] = 1.0f;
  for (uint j2 = j1 + 1; j2 < m; ++j2) {
    float acc = 0.0f;
    for (uint i = 0; i < n; ++i) acc += data[i * m + j1] * data[i * m + j2];
    symmat[j1 * m + j2] = acc;
    symmat[j2 * m + j1] = acc;
  }
}

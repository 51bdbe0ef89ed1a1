// Particle filter tracking a disk through a video (Rodinia particlefilter, float OpenCL version).
// Per frame: likelihood (move each particle with noise, sample the video under its disk, weight
// it, and sum the weights per group), sum (one work-item adds the group sums), normalize (one
// work-item normalises the weights into the CDF; all set the systematic-resampling points) and
// find_index (each particle picks the particle whose CDF step covers its point).
#define WG 512  // work-items per group (Rodinia's threads_per_block; the host launches this many)
#define GROUP __attribute__((reqd_work_group_size(WG, 1, 1)))  // above the default limit of 256

// Rodinia's per-particle linear congruential generator: advances seed[i] and returns a uniform
// number in [0, 1]. The multiply wraps as unsigned (signed overflow is undefined in C).
float randu(__global int* seed, uint i) {
  int num = (int)(1103515245u * (uint)seed[i] + 12345u);
  seed[i] = num % 2147483647;
  return fabs(seed[i] / 2147483647.0f);
}

// A standard normal sample by Box-Muller from two uniforms of particle i's generator.
float randn(__global int* seed, uint i) {
  float u = randu(seed, i), v = randu(seed, i);
  return sqrt(-2.0f * log(u)) * cos(2.0f * 3.14159265358979f * v);
}

// Moves particle i by the motion model (+1, -2 pixels a frame plus noise), records the video
// indices under its disk in ind, computes its likelihood (the mean log-likelihood ratio of
// "object, mean 228" over "background, mean 100" with noise variance 25) and its weight, then
// sums the group's weights into partial_sums[group] by a tree reduction in LDS.
GROUP __kernel void pf_likelihood(__global float* arrayX, __global float* arrayY, __global const float* xj,
                            __global const float* yj, __global float* weights, __global float* likelihood,
                            __global int* ind, __global const uchar* video, __global const int* objxy,
                            __global int* seed, __global float* partial_sums, uint n, uint ones, uint isz_y,
                            uint nfr, uint frame) {
  __local float part[WG];
  uint i = get_global_id(0), lid = get_local_id(0);
  float w = 0.0f;
  if (i < n) {
    float x = xj[i] + 1.0f + 5.0f * randn(seed, i);
    float y = yj[i] - 2.0f + 2.0f * randn(seed, i);
    arrayX[i] = x, arrayY[i] = y;
    int rx = (int)floor(x + 0.5f), ry = (int)floor(y + 0.5f);
    int max_size = (int)(isz_y * isz_y * nfr);  // the video is square
    for (uint c = 0; c < ones; ++c) {
      int idx = abs((rx + objxy[2 * c]) * (int)(isz_y * nfr) + (ry + objxy[2 * c + 1]) * (int)nfr + (int)frame);
      ind[i * ones + c] = idx >= max_size ? 0 : idx;
    }
    float sum = 0.0f;
    for (uint c = 0; c < ones; ++c) {
      float v = video[ind[i * ones + c]];
      sum += ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / 50.0f;
    }
    float lik = sum / (float)ones;
    likelihood[i] = lik;
    w = (1.0f / (float)n) * exp(lik);  // every weight was reset to 1/n by the last resampling
    weights[i] = w;
  }
  part[lid] = w;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial_sums[get_group_id(0)] = part[0];
}

// One work-item adds the group sums in order into partial_sums[0] and draws the first
// resampling point u1 from particle 0's generator. Rodinia draws u1 in normalize and hands it to
// the other groups within that launch, which races; drawn here, the launch boundary orders it.
GROUP __kernel void pf_sum(__global float* partial_sums, __global int* seed, __global float* u1, uint groups, uint n) {
  if (get_global_id(0) != 0) return;
  float sum = 0.0f;
  for (uint g = 0; g < groups; ++g) sum += partial_sums[g];
  partial_sums[0] = sum;
  u1[0] = (1.0f / (float)n) * randu(seed, 0);
}

// Work-item 0 normalises the weights and accumulates them into the CDF, serially as Rodinia
// builds the CDF; every particle sets its systematic-resampling point u[i] = u1 + i / n. Rodinia
// also divides each weight in parallel in this launch, but work-item 0 would then read weights
// other groups may not have divided yet, so the division joins the serial loop.
GROUP __kernel void pf_normalize(__global float* weights, __global const float* partial_sums, __global float* cdf,
                           __global float* u, __global const float* u1, uint n) {
  __local float sum, first;
  uint i = get_global_id(0);
  if (get_local_id(0) == 0) sum = partial_sums[0], first = u1[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i == 0) {
    float acc = 0.0f;
    for (uint x = 0; x < n; ++x) {
      float w = weights[x] / sum;
      weights[x] = w;
      acc += w;
      cdf[x] = acc;
    }
  }
  if (i < n) u[i] = first + i / (float)n;
}

// Particle i becomes a copy of the first particle whose CDF reaches u[i] (the last if none does),
// found by Rodinia's linear search.
GROUP __kernel void pf_find_index(__global const float* arrayX, __global const float* arrayY, __global const float* cdf,
                            __global const float* u, __global float* xj, __global float* yj, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float ui = u[i];
  uint index = n - 1;
  for (uint x = 0; x < n; ++x)
    if (cdf[x] >= ui) {
      index = x;
      break;
    }
  xj[i] = arrayX[index];
  yj[i] = arrayY[index];
}

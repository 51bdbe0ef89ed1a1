// PageRank, pull form: contributions rank/outdegree, then each vertex sums its in-neighbours'.
__kernel void pr_contrib(__global const float* rank, __global const uint* out_degree, __global float* contrib,
                         uint n) {
  uint v = get_global_id(0);
  if (v < n) contrib[v] = out_degree[v] ? rank[v] / (float)out_degree[v] : 0.0f;
}

__kernel void pr_update(__global const uint* in_ptr, __global const uint* in_src, __global const float* contrib,
                        __global float* rank, uint n, float base, float damping) {
  uint v = get_global_id(0);
  if (v >= n) return;
  float sum = 0.0f;
  for (uint e = in_ptr[v]; e < in_ptr[v + 1]; ++e) sum += contrib[in_src[e]];
  rank[v] = base + damping * sum;
}

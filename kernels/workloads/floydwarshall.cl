// One pass k of Floyd-Warshall all-pairs shortest paths (AMD APP SDK FloydWarshall).
__kernel void floydwarshall(__global uint* dist, __global uint* next, uint n, uint k) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i >= n || j >= n) return;
  uint via = dist[i * n + k] + dist[k * n + j];
  if (via < dist[i * n + j]) {
    dist[i * n + j] = via;
    next[i * n + j] = k;
  }
}

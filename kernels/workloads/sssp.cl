// Single-source shortest paths, Bellman-Ford over an active set: every active vertex relaxes its
// out-edges with atomic_min; a vertex whose distance dropped becomes active for the next round.
__kernel void sssp_relax(__global const uint* row_ptr, __global const uint* cols, __global const uint* weights,
                         __global uint* dist, __global uint* active, __global uint* next_active,
                         __global uint* changed, uint n) {
  uint v = get_global_id(0);
  if (v >= n || !active[v]) return;
  active[v] = 0;  // only this work-item touches active[v]; the host swaps the two sets
  uint dv = dist[v];
  for (uint e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
    uint u = cols[e], nd = dv + weights[e];
    if (nd < dist[u] && atomic_min(&dist[u], nd) > nd) {
      next_active[u] = 1;
      *changed = 1;
    }
  }
}

// Frontier-based breadth-first search: each work-item expands one frontier vertex; the first
// visitor of a neighbour (by compare-and-swap on its level) appends it to the next frontier.
__kernel void bfs_expand(__global const uint* row_ptr, __global const uint* cols, __global int* level,
                         __global const uint* frontier, uint frontier_size, __global uint* next,
                         __global uint* next_size, int depth) {
  uint i = get_global_id(0);
  if (i >= frontier_size) return;
  uint v = frontier[i];
  for (uint e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
    uint u = cols[e];
    if (level[u] == -1 && atomic_cmpxchg(&level[u], -1, depth + 1) == -1) next[atomic_inc(next_size)] = u;
  }
}

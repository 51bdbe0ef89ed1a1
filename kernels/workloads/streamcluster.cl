// Rodinia streamcluster (from PARSEC): the pgain step of online k-median clustering. For one
// candidate centre x, each work-item takes one point and records what the point saves by moving
// to x, or (if it stays) what its current centre would lose by closing, in the point's own row
// of work_mem; the host sums the rows and decides whether x opens.

// A point as the device sees it: its weight, the point it is assigned to, and that assignment's cost.
typedef struct {
  float weight;
  int assign;
  float cost;
} Point;

// Rodinia's memset kernel, run before each pgain on the work rows and switch flags (as words here).
__kernel void sc_memset(__global uint* mem, uint value, uint n) {
  uint i = get_global_id(0);
  if (i < n) mem[i] = value;
}

// coord is dimension-major (coordinate d of point i at [d * num + i]) so neighbouring work-items
// read neighbouring words; work_mem holds K + 1 floats per point: one per open centre (numbered by
// center_table), then the point's own saving from switching to x.
__kernel void sc_pgain(__global const Point* p, __global const float* coord, __global float* work_mem,
                       __global const int* center_table, __global uchar* switch_membership,
                       __local float* coord_x, uint num, uint dim, uint x, uint K) {
  uint tid = get_global_id(0);
  // As in Rodinia, the group's first work-item stages the candidate's coordinates in local memory.
  if (get_local_id(0) == 0)
    for (uint d = 0; d < dim; ++d) coord_x[d] = coord[d * num + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid >= num) return;
  float x_cost = 0.0f;
  for (uint d = 0; d < dim; ++d) {
    float diff = coord[d * num + tid] - coord_x[d];
    x_cost += diff * diff;
  }
  x_cost = x_cost * p[tid].weight;
  float current_cost = p[tid].cost;
  uint base = tid * (K + 1);
  if (x_cost < current_cost) {
    switch_membership[tid] = 1;
    work_mem[base + K] = x_cost - current_cost;
  } else {
    work_mem[base + center_table[p[tid].assign]] += current_cost - x_cost;
  }
}

// Latency microbenchmark: one work-item follows a chain of indices; every load depends on the
// previous one, so the time per step is the load-to-use latency of wherever the chain lives.
__kernel void chase(__global const uint* next, uint steps, __global uint* out) {
  uint p = (uint)get_local_id(0);  // 0, but a per-lane value: the chain goes through vector memory
  for (uint i = 0; i < steps; ++i) p = next[p];
  out[0] = p;
}

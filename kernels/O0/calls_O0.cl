// Built at -O0 (see cmake/kernels.cmake): every function stays out of line, every value goes
// through the stack in scratch, and the kernel's own frame pointer and stack pointer are live.
float o0_horner(float x, int terms) {
  float acc = 0.0f;
  for (int t = terms - 1; t >= 0; --t) acc = acc * x + (float)(t + 1);
  return acc;
}

uint o0_collatz_steps(uint v, uint limit) {
  uint steps = 0;
  while (v != 1u && steps < limit) {
    v = (v & 1u) ? 3u * v + 1u : v >> 1;
    ++steps;
  }
  return steps;
}

void o0_store_pair(global float* f, global uint* u, size_t i, float a, uint b) {
  f[i] = a;
  u[i] = b;
}

kernel void calls_O0(global const float* x, global const uint* v, global float* f, global uint* u, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  float p = o0_horner(x[i], 5);
  uint s = o0_collatz_steps(v[i], 200u);
  o0_store_pair(f, u, i, p, s);
}

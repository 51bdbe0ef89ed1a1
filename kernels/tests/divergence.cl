// Data-dependent control flow: Collatz step counts (divergent loops) and nested if/else.
kernel void divergence(global const uint* in, global uint* steps, global int* cls, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint v = in[i], count = 0;
  while (v != 1 && count < 1000) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    ++count;
  }
  steps[i] = count;
  int c;
  if (count < 10) c = -1;
  else if (count % 3 == 0) { c = 0; for (uint k = 0; k < count % 7; ++k) c += (int)k; }
  else c = (int)(count * 2);
  cls[i] = c;
}

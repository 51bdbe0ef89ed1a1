// Out-of-line helpers called with s_swappc_b64 and returning with s_setpc_b64: the helpers lie
// in .text outside the kernel's symbol, so the kernel's code alone does not reach them.
__attribute__((noinline)) float calls_axpb(float a, float x, float b) { return a * x + b; }

__attribute__((noinline)) uint calls_mix(uint x, uint y) {
  x ^= y * 0x9E3779B9u;
  return (x << 7 | x >> 25) + y;
}

kernel void calls_noinline(global const float* x, global const uint* k, global float* fout, global uint* uout,
                           uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  float v = x[i];
  uint h = k[i];
  // A call inside a loop: the loop's state lives across every call.
  for (uint r = 0; r < 4; ++r) {
    v = calls_axpb(v, 0.5f, (float)r);
    h = calls_mix(h, r + (uint)i);
  }
  fout[i] = v;
  uout[i] = h;
}

// One Jacobi sweep of a 5-point stencil; the boundary rows and columns are copied unchanged.
__kernel void stencil2d(__global const float* in, __global float* out, uint w, uint h, float c0, float c1) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  uint i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[i] = in[i];
    return;
  }
  float nb = (in[i - w] + in[i + w]) + (in[i - 1] + in[i + 1]);
  out[i] = c0 * in[i] + c1 * nb;
}

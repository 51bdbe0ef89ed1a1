// 5-point stencil with clamped borders on a 2D grid.
kernel void stencil2d(global const float* in, global float* out, uint w, uint h) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  uint xl = x > 0 ? x - 1 : x, xr = x + 1 < w ? x + 1 : x;
  uint yu = y > 0 ? y - 1 : y, yd = y + 1 < h ? y + 1 : y;
  out[y * w + x] = 0.5f * in[y * w + x] + 0.125f * (in[y * w + xl] + in[y * w + xr] + in[yu * w + x] + in[yd * w + x]);
}

// Escape-time iteration counts: float loops whose trip count diverges per lane.
kernel void mandelbrot(global uint* out, uint w, uint h, uint max_iter) {
  uint px = get_global_id(0), py = get_global_id(1);
  if (px >= w || py >= h) return;
  float cr = -2.0f + 2.5f * (float)px / (float)w;
  float ci = -1.25f + 2.5f * (float)py / (float)h;
  float zr = 0.0f, zi = 0.0f;
  uint it = 0;
  while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  out[py * w + px] = it;
}

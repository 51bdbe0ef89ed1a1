// 2D convolution with a square mask (AMD APP SDK SimpleConvolution); outside the image reads zero.
__kernel void sc(__global const float* in, __global const float* mask, __global float* out, uint w, uint h,
                 uint msize) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  int r = (int)msize / 2;
  float acc = 0.0f;
  for (int j = 0; j < (int)msize; ++j) {
    int yy = (int)y + j - r;
    if (yy < 0 || yy >= (int)h) continue;
    for (int i = 0; i < (int)msize; ++i) {
      int xx = (int)x + i - r;
      if (xx < 0 || xx >= (int)w) continue;
      acc += mask[j * msize + i] * in[yy * w + xx];
    }
  }
  out[y * w + x] = acc;
}

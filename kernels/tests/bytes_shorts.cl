// Byte and short arithmetic (SDWA on gfx8): saturating-free mixes of char/uchar/short/ushort.
kernel void bytes_shorts(global const uchar* a, global const char* b, global const ushort* c, global const short* d,
                         global uchar* out8, global short* out16, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  uchar x = a[i];
  char y = b[i];
  ushort u = c[i];
  short s = d[i];
  out8[i] = (uchar)((x >> 1) + (uchar)(y * 3) + (uchar)(u >> 8) - (uchar)(x & 0x0f));
  out16[i] = (short)(s * 3 - (short)y * (short)x + (short)(u >> 3) + (s >> 2));
}

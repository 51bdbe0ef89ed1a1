// Bit manipulation: popcount, clz, rotate, bitfield extract/insert patterns, mul_hi, mad24.
kernel void bit_ops(global const uint* a, global const uint* b, global uint* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint x = a[i], y = b[i];
  out[6 * i + 0] = popcount(x) + clz(y);
  out[6 * i + 1] = rotate(x, y & 31u);
  out[6 * i + 2] = (x >> (y & 15u)) & 0x3ffu;
  out[6 * i + 3] = (x & ~0xff00u) | ((y & 0xffu) << 8);
  out[6 * i + 4] = mul_hi(x, y);
  out[6 * i + 5] = mad24(x, y, x ^ y);
}

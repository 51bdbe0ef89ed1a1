// 64-bit integer arithmetic: multiply, shifts, division and remainder, comparisons.
kernel void int64_ops(global const ulong* a, global const long* b, global ulong* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  ulong x = a[i];
  long y = b[i];
  out[4 * i + 0] = x * (ulong)y + (x >> 13) - (x << 7);
  out[4 * i + 1] = (ulong)(y >> 9) ^ (x / ((ulong)(y & 0xffff) + 1));
  out[4 * i + 2] = x % 1000003ul + (ulong)(y / 77);
  out[4 * i + 3] = (x > (ulong)y) ? x : (ulong)y;
}

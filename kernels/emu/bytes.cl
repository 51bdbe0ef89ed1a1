// Byte and short data: loads/stores of 8- and 16-bit values, signed and unsigned.
__kernel void bytes_shorts(__global const uchar* a, __global const char* b, __global const short* c,
                           __global ushort* out16, __global char* out8, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  out16[i] = (ushort)(a[i] * 3 + c[i]);
  out8[i] = (char)(b[i] / 2 - 1);
}

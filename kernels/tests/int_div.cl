// 32-bit integer division and remainder (signed and unsigned), expanded by LLVM into VALU sequences.
kernel void int_div(global const int* a, global const int* b, global int* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  int x = a[i], y = b[i];
  out[4 * i + 0] = x / y;
  out[4 * i + 1] = x % y;
  out[4 * i + 2] = (int)((uint)x / (uint)y);
  out[4 * i + 3] = (int)((uint)x % (uint)y);
}

// Half precision arithmetic (f16 VALU ops) with conversions to and from float.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_ops(global const ushort* a, global const ushort* b, global ushort* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  half x = as_half(a[i]), y = as_half(b[i]);
  half r = x * y + (x - y);
  out[i] = as_ushort(r);
}

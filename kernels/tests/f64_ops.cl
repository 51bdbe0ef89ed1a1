// Double precision: add, mul, fma, division, sqrt, floor, trunc, conversions.
kernel void f64_ops(global const double* a, global const double* b, global double* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  double x = a[i], y = b[i];
  out[5 * i + 0] = x * y + x;
  out[5 * i + 1] = fma(x, y, -y);
  out[5 * i + 2] = x / y;
  out[5 * i + 3] = sqrt(fabs(x));
  out[5 * i + 4] = floor(x) + trunc(y) + (double)(int)(x * 3.0) + (double)(float)y;
}

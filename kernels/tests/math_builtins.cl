// Math builtins that lower to native instructions (exact ones and approximations).
kernel void math_exact(global const float* a, global const float* b, global float* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  float x = a[i], y = b[i];
  global float* o = out + 10 * i;
  o[0] = sqrt(fabs(x));
  o[1] = fmin(x, y);
  o[2] = fmax(x, y);
  o[3] = floor(x);
  o[4] = ceil(y);
  o[5] = trunc(x) + rint(y);
  o[6] = fmod(x, y);
  o[7] = copysign(x, y);
  o[8] = fma(x, y, 1.5f);
  o[9] = x / y;
}
kernel void math_approx(global const float* a, global float* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  float x = a[i];
  global float* o = out + 5 * i;
  o[0] = exp(x);
  o[1] = log(fabs(x) + 1.0f);
  o[2] = sin(x);
  o[3] = cos(x);
  o[4] = native_rsqrt(fabs(x) + 0.5f);
}

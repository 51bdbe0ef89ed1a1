// y[i] = a * x[i] + y[i]: a by-value float and a tail guard.
kernel void saxpy(float a, global const float* x, global float* y, uint n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

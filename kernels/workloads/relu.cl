// Element-wise ReLU over a tensor.
__kernel void relu(__global const float* x, __global float* y, uint n) {
  uint i = get_global_id(0);
  if (i < n) y[i] = fmax(x[i], 0.0f);
}

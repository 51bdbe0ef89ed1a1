// FIR filter (Hetero-Mark style): one block of the signal per launch; the input carries
// taps-1 samples of history before each block.
__kernel void fir(__global const float* x, __global const float* coeff, __global float* y, uint taps,
                  uint offset, uint count) {
  uint i = get_global_id(0);
  if (i >= count) return;
  uint base = offset + i;  // x[base + taps - 1] is the current sample
  float acc = 0.0f;
  for (uint j = 0; j < taps; ++j) acc += coeff[j] * x[base + taps - 1 - j];
  y[offset + i] = acc;
}

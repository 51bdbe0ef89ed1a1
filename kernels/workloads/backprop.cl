// Rodinia backprop: the input->hidden layer of a one-hidden-layer perceptron (16 hidden units).
// Forward: each 16x16 work-group multiplies 16 inputs by their 16 hidden weights and reduces the
// products over the inputs in LDS; the host adds the per-group partial sums.
#define H 16
__kernel void bp_forward(__global const float* input, __global const float* w, __global float* partial) {
  __local float in_l[H];
  __local float prod[H][H];
  uint tx = get_local_id(0), ty = get_local_id(1), by = get_group_id(1);
  uint i = by * H + ty + 1;  // input unit (unit 0 is the bias)
  if (tx == 0) in_l[ty] = input[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  prod[ty][tx] = w[i * (H + 1) + tx + 1] * in_l[ty];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < H; s *= 2) {
    if (ty % (2 * s) == 0) prod[ty][tx] += prod[ty + s][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (ty == 0) partial[by * H + tx] = prod[0][tx];
}

// Weight update with momentum: dw = eta * delta[j] * x[i] + momentum * old_dw; w += dw.
__kernel void bp_adjust(__global const float* delta, __global const float* input, __global float* w,
                        __global float* old_dw, float eta, float momentum) {
  uint tx = get_local_id(0), ty = get_local_id(1), by = get_group_id(1);
  uint j = tx + 1;
  for (uint i = by * H + ty + 1, first = (by == 0 && ty == 0); ; i = 0, first = 0) {
    uint idx = i * (H + 1) + j;
    float dw = eta * delta[j] * input[i] + momentum * old_dw[idx];
    w[idx] += dw;
    old_dw[idx] = dw;
    if (!first) break;  // work-item (0, 0) of group 0 also updates the bias row i = 0
  }
}

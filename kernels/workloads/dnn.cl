// DNN layer kernels, NCHW float tensors. Grids: dimension 2 is the image in the batch where used.

// cols[(c*k + ky)*k + kx][oy*ow + ox] = x[c][oy*stride + ky - pad][ox*stride + kx - pad] (0 outside).
__kernel void im2col(__global const float* x, __global float* cols, uint c, uint h, uint w, uint k, uint stride,
                     uint pad, uint oh, uint ow) {
  uint p = get_global_id(0), row = get_global_id(1), img = get_global_id(2);
  if (p >= oh * ow || row >= c * k * k) return;
  uint ch = row / (k * k), ky = (row / k) % k, kx = row % k;
  int iy = (int)((p / ow) * stride + ky) - (int)pad, ix = (int)((p % ow) * stride + kx) - (int)pad;
  float v = 0.0f;
  if (iy >= 0 && iy < (int)h && ix >= 0 && ix < (int)w) v = x[((size_t)img * c + ch) * h * w + iy * w + ix];
  cols[(size_t)img * c * k * k * oh * ow + (size_t)row * oh * ow + p] = v;
}

// C[img] (m x n) = A (m x kk, shared) * B[img] (kk x n); 16x16 LDS tiles, any sizes.
#define T 16
__kernel void gemm(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint kk) {
  __local float ta[T][T];
  __local float tb[T][T + 1];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1), img = get_global_id(2);
  b += (size_t)img * kk * n;
  c += (size_t)img * m * n;
  float acc = 0.0f;
  for (uint t = 0; t < kk; t += T) {
    ta[ly][lx] = (row < m && t + lx < kk) ? a[(size_t)row * kk + t + lx] : 0.0f;
    tb[ly][lx] = (t + ly < kk && col < n) ? b[(size_t)(t + ly) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < T; ++i) acc += ta[ly][i] * tb[i][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[(size_t)row * n + col] = acc;
}

// y[i] += bias[channel], then optional ReLU, over a whole NCHW tensor in place.
__kernel void bias_act(__global float* y, __global const float* bias, uint channels, uint hw, uint total, uint relu) {
  uint i = get_global_id(0);
  if (i >= total) return;
  float v = y[i] + bias[(i / hw) % channels];
  y[i] = relu ? fmax(v, 0.0f) : v;
}

// Direct convolution with fused bias and optional ReLU: one work-item per output element.
__kernel void conv_direct(__global const float* x, __global const float* wt, __global const float* bias,
                          __global float* y, uint c, uint h, uint w, uint co, uint k, uint stride, uint pad, uint oh,
                          uint ow, uint total, uint relu) {
  uint i = get_global_id(0);
  if (i >= total) return;
  uint ox = i % ow, oy = (i / ow) % oh, o = (i / (ow * oh)) % co, img = i / (ow * oh * co);
  float acc = 0.0f;
  for (uint ch = 0; ch < c; ++ch)
    for (uint ky = 0; ky < k; ++ky) {
      int iy = (int)(oy * stride + ky) - (int)pad;
      if (iy < 0 || iy >= (int)h) continue;
      for (uint kx = 0; kx < k; ++kx) {
        int ix = (int)(ox * stride + kx) - (int)pad;
        if (ix < 0 || ix >= (int)w) continue;
        acc += wt[((o * c + ch) * k + ky) * k + kx] * x[((img * c + ch) * h + iy) * w + ix];
      }
    }
  float v = acc + bias[o];
  y[i] = relu ? fmax(v, 0.0f) : v;
}

// Max (avg == 0) or average pooling over k x k windows, no padding; one work-item per output.
__kernel void pool(__global const float* x, __global float* y, uint h, uint w, uint k, uint stride, uint oh, uint ow,
                   uint total, uint avg) {
  uint i = get_global_id(0);
  if (i >= total) return;
  uint ox = i % ow, oy = (i / ow) % oh, plane = i / (ow * oh);
  __global const float* p = x + (size_t)plane * h * w;
  float m = avg ? 0.0f : -INFINITY;
  for (uint ky = 0; ky < k; ++ky)
    for (uint kx = 0; kx < k; ++kx) {
      float v = p[(oy * stride + ky) * w + ox * stride + kx];
      m = avg ? m + v : fmax(m, v);
    }
  y[i] = avg ? m / (float)(k * k) : m;
}

// Batch normalisation, inference form folded into y = x * scale[c] + shift[c], optional ReLU.
__kernel void batchnorm(__global const float* x, __global float* y, __global const float* scale,
                        __global const float* shift, uint channels, uint hw, uint total, uint relu) {
  uint i = get_global_id(0);
  if (i >= total) return;
  uint ch = (i / hw) % channels;
  float v = x[i] * scale[ch] + shift[ch];
  y[i] = relu ? fmax(v, 0.0f) : v;
}

// Residual connection y = a + b, optional ReLU.
__kernel void add(__global const float* a, __global const float* b, __global float* y, uint total, uint relu) {
  uint i = get_global_id(0);
  if (i >= total) return;
  float v = a[i] + b[i];
  y[i] = relu ? fmax(v, 0.0f) : v;
}

// Fully connected y[img][o] = bias[o] + sum_i x[img][i] * wt[i][o]; wt is input-major so that
// neighbouring work-items (outputs) read neighbouring weights.
__kernel void fc(__global const float* x, __global const float* wt, __global const float* bias, __global float* y,
                 uint in, uint out, uint relu) {
  uint o = get_global_id(0), img = get_global_id(1);
  if (o >= out) return;
  __global const float* xi = x + (size_t)img * in;
  float acc = 0.0f;
  for (uint i = 0; i < in; ++i) acc += xi[i] * wt[(size_t)i * out + o];
  float v = acc + bias[o];
  y[(size_t)img * out + o] = relu ? fmax(v, 0.0f) : v;
}

// Softmax over each row of length n: one work-group per row, LDS tree reductions for max and sum.
__kernel void softmax(__global const float* x, __global float* y, uint n, __local float* red) {
  uint lid = get_local_id(0), wg = get_local_size(0), row = get_group_id(0);
  __global const float* xr = x + (size_t)row * n;
  float m = -INFINITY;
  for (uint i = lid; i < n; i += wg) m = fmax(m, xr[i]);
  red[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = wg / 2; s > 0; s >>= 1) {
    if (lid < s) red[lid] = fmax(red[lid], red[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  m = red[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  for (uint i = lid; i < n; i += wg) sum += exp(xr[i] - m);
  red[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = wg / 2; s > 0; s >>= 1) {
    if (lid < s) red[lid] += red[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float inv = 1.0f / red[0];
  for (uint i = lid; i < n; i += wg) y[(size_t)row * n + i] = exp(xr[i] - m) * inv;
}

// Training kernels (the backward pass and the optimiser of a small CNN), NCHW float tensors.
// The forward pass uses dnn.cl's im2col, gemm, bias_act, pool and fc.

#define T 16
// C (m x n) = A^T * B with A (kk x m) and B (kk x n), per image img (A shared when a_img is 0,
// B and C advanced by their per-image sizes), accumulated over `images` images into one C
// when `images` > 1 (the weight gradient sums over the batch): 16x16 LDS tiles.
// dcols = W^T dY (a_img = 0, images = 1 per launch z) and dW_fc = X^T dY both use it.
__kernel void gemm_tn(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint kk,
                      uint a_img, uint b_img, uint c_img) {
  __local float ta[T][T + 1];
  __local float tb[T][T + 1];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1), img = get_global_id(2);
  a += (size_t)img * a_img;
  b += (size_t)img * b_img;
  c += (size_t)img * c_img;
  float acc = 0.0f;
  for (uint t = 0; t < kk; t += T) {
    // ta[i][ly] = A[t + i][row]: a transposed tile, read along A's rows.
    ta[lx][ly] = (t + lx < kk && row < m) ? a[(size_t)(t + lx) * m + row] : 0.0f;
    tb[ly][lx] = (t + ly < kk && col < n) ? b[(size_t)(t + ly) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < T; ++i) acc += ta[i][ly] * tb[i][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[(size_t)row * n + col] = acc;
}

// C (m x n) = sum over `images` of A[img] (m x kk) * B[img]^T (B[img] is n x kk): the weight
// gradient of a convolution (dY[img] times cols[img] transposed, summed over the batch) and the
// input gradient of a fully connected layer (images = 1).
__kernel void gemm_nt(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint kk,
                      uint images, uint a_img, uint b_img) {
  __local float ta[T][T + 1];
  __local float tb[T][T + 1];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (uint img = 0; img < images; ++img) {
    __global const float* ai = a + (size_t)img * a_img;
    __global const float* bi = b + (size_t)img * b_img;
    for (uint t = 0; t < kk; t += T) {
      ta[ly][lx] = (row < m && t + lx < kk) ? ai[(size_t)row * kk + t + lx] : 0.0f;
      // tb[i][lx] = B[col][t + i]: B's row `col`, read across the tile's rows.
      uint brow = get_group_id(0) * T + ly;
      tb[lx][ly] = (brow < n && t + lx < kk) ? bi[(size_t)brow * kk + t + lx] : 0.0f;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint i = 0; i < T; ++i) acc += ta[ly][i] * tb[i][lx];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (row < m && col < n) c[(size_t)row * n + col] = acc;
}

// The transposed convolution of im2col: dx[img][ch][y][x] = sum of the dcols entries that
// im2col read from (y, x); a gather per input element, so no two work-items write one place.
__kernel void col2im(__global const float* dcols, __global float* dx, uint c, uint h, uint w, uint k, uint stride,
                     uint pad, uint oh, uint ow, uint total) {
  uint i = get_global_id(0);
  if (i >= total) return;
  uint x = i % w, y = (i / w) % h, ch = (i / (w * h)) % c, img = i / (w * h * c);
  __global const float* dc = dcols + (size_t)img * c * k * k * oh * ow;
  float acc = 0.0f;
  for (uint ky = 0; ky < k; ++ky) {
    int ty = (int)(y + pad) - (int)ky;
    if (ty < 0 || ty % (int)stride) continue;
    uint oy = (uint)ty / stride;
    if (oy >= oh) continue;
    for (uint kx = 0; kx < k; ++kx) {
      int tx = (int)(x + pad) - (int)kx;
      if (tx < 0 || tx % (int)stride) continue;
      uint ox = (uint)tx / stride;
      if (ox >= ow) continue;
      acc += dc[(size_t)((ch * k + ky) * k + kx) * oh * ow + oy * ow + ox];
    }
  }
  dx[i] = acc;
}

// db[o] = sum over the batch and positions of dy[img][o][p] (a convolution's or, with hw = 1,
// a fully connected layer's bias gradient); one work-item per output channel.
__kernel void bias_grad(__global const float* dy, __global float* db, uint channels, uint hw, uint images) {
  uint o = get_global_id(0);
  if (o >= channels) return;
  float acc = 0.0f;
  for (uint img = 0; img < images; ++img)
    for (uint p = 0; p < hw; ++p) acc += dy[((size_t)img * channels + o) * hw + p];
  db[o] = acc;
}

// dz = dy where the ReLU's output y was positive, else 0 (in place on dy).
__kernel void relu_grad(__global float* dy, __global const float* y, uint total) {
  uint i = get_global_id(0);
  if (i >= total) return;
  if (!(y[i] > 0.0f)) dy[i] = 0.0f;
}

// Global average pooling's gradient: dx[plane][p] = dy[plane] / hw.
__kernel void avgpool_grad(__global const float* dy, __global float* dx, uint hw, uint total) {
  uint i = get_global_id(0);
  if (i >= total) return;
  dx[i] = dy[i / hw] / (float)hw;
}

// Softmax cross-entropy over `classes` logits per image: dlogits = (softmax - onehot(label)) /
// images, and loss[iter] = the batch's mean loss; one work-item per image, then work-item 0
// sums (a batch is small).
__kernel void softmax_xent(__global const float* logits, __global const int* labels, __global float* dlogits,
                           __global float* loss, uint classes, uint images, uint iter) {
  __local float part[256];
  uint img = get_local_id(0);
  float l = 0.0f;
  if (img < images) {
    __global const float* z = logits + (size_t)img * classes;
    float m = -INFINITY;
    for (uint j = 0; j < classes; ++j) m = fmax(m, z[j]);
    float sum = 0.0f;
    for (uint j = 0; j < classes; ++j) sum += exp(z[j] - m);
    int label = labels[img];
    for (uint j = 0; j < classes; ++j)
      dlogits[(size_t)img * classes + j] = (exp(z[j] - m) / sum - (j == (uint)label ? 1.0f : 0.0f)) / (float)images;
    l = log(sum) + m - z[label];
  }
  part[img] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (img == 0) {
    float s = 0.0f;
    for (uint i = 0; i < images; ++i) s += part[i];
    loss[iter] = s / (float)images;
  }
}

// Stochastic gradient descent with momentum: v = momentum * v + g; w -= lr * v.
__kernel void sgd(__global float* w, __global const float* g, __global float* v, float lr, float momentum, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float vi = momentum * v[i] + g[i];
  v[i] = vi;
  w[i] -= lr * vi;
}

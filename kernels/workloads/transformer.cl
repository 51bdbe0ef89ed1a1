// Transformer kernels (GPT-2-style decoder, BERT-style encoder): row-major float activations,
// one launch per operator as a framework issues them. A "row" is one token's vector.

// x[r][i] = wte[tok[tok_off + r]][i] + wpe[pos0 + r % seq][i]: token plus position embedding.
__kernel void embed(__global const int* tok, __global const float* wte, __global const float* wpe,
                    __global float* x, uint rows, uint c, uint tok_off, uint pos0, uint seq) {
  uint i = get_global_id(0), r = get_global_id(1);
  if (i >= c || r >= rows) return;
  int t = tok[tok_off + r];
  x[(size_t)r * c + i] = wte[(size_t)t * c + i] + wpe[(size_t)(pos0 + r % seq) * c + i];
}

#define LN_THREADS 256
// y[r] = (x[r] - mean) / sqrt(var + eps) * gamma + beta; one 256-wide work-group per row, the
// mean first and then the variance about it (two passes: no cancellation).
__kernel void layernorm(__global const float* x, __global float* y, __global const float* gamma,
                        __global const float* beta, uint c, float eps) {
  __local float part[LN_THREADS];
  uint l = get_local_id(0), r = get_group_id(0);
  __global const float* xr = x + (size_t)r * c;
  float s = 0.0f;
  for (uint i = l; i < c; i += LN_THREADS) s += xr[i];
  part[l] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = LN_THREADS / 2; w > 0; w >>= 1) {
    if (l < w) part[l] += part[l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float mean = part[0] / (float)c;
  barrier(CLK_LOCAL_MEM_FENCE);
  float q = 0.0f;
  for (uint i = l; i < c; i += LN_THREADS) {
    float d = xr[i] - mean;
    q += d * d;
  }
  part[l] = q;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = LN_THREADS / 2; w > 0; w >>= 1) {
    if (l < w) part[l] += part[l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float inv = rsqrt(part[0] / (float)c + eps);
  for (uint i = l; i < c; i += LN_THREADS) y[(size_t)r * c + i] = (xr[i] - mean) * inv * gamma[i] + beta[i];
}

// y (m x n) = x (m x k) * w (k x n) + b (n); 16x16 LDS tiles, any sizes (addmm).
#define TL 16
__kernel void linear(__global const float* x, __global const float* w, __global const float* b, __global float* y,
                     uint m, uint n, uint k) {
  __local float tx[TL][TL];
  __local float tw[TL][TL + 1];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < k; t += TL) {
    tx[ly][lx] = (row < m && t + lx < k) ? x[(size_t)row * k + t + lx] : 0.0f;
    tw[ly][lx] = (t + ly < k && col < n) ? w[(size_t)(t + ly) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < TL; ++i) acc += tx[ly][i] * tw[i][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) y[(size_t)row * n + col] = acc + b[col];
}

// y (1 x n) = x (1 x k) * w (k x n) + b: the one-row case (a decode step) as a framework's GEMV,
// one work-item per output column, neighbouring work-items reading neighbouring weights.
__kernel void gemv(__global const float* x, __global const float* w, __global const float* b, __global float* y,
                   uint n, uint k) {
  uint col = get_global_id(0);
  if (col >= n) return;
  float acc = 0.0f;
  for (uint i = 0; i < k; ++i) acc += x[i] * w[(size_t)i * n + col];
  y[col] = acc + b[col];
}

// GELU in place: the tanh form GPT-2 uses (exact == 0) or the erf form BERT uses (exact == 1).
__kernel void gelu(__global float* x, uint n, uint exact) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float v = x[i];
  x[i] = exact ? 0.5f * v * (1.0f + erf(v * 0.70710678118654752f))
               : 0.5f * v * (1.0f + tanh(0.79788456080286536f * (v + 0.044715f * v * v * v)));
}

// Appends the keys and values of `rows` new tokens (columns c..3c of each qkv row) to the cache
// at positions pos0 onwards.
__kernel void kv_store(__global const float* qkv, __global float* kc, __global float* vc, uint rows, uint c,
                       uint pos0) {
  uint i = get_global_id(0), r = get_global_id(1);
  if (i >= c || r >= rows) return;
  kc[(size_t)(pos0 + r) * c + i] = qkv[(size_t)r * 3 * c + c + i];
  vc[(size_t)(pos0 + r) * c + i] = qkv[(size_t)r * 3 * c + 2 * c + i];
}

// s[b][h][t][j] = q[b][t] . k[b][j] over head h's hd columns, / sqrt(hd); -inf where causal and
// j > pos0 + t (a token sees itself and what came before). q and k rows are `qs` and `ks` floats
// apart, sequences `qb` and `kb` floats apart; grid (keys, queries, batch x heads).
__kernel void attn_scores(__global const float* q, uint qs, uint qb, __global const float* k, uint ks, uint kb,
                          __global float* s, uint queries, uint keys, uint heads, uint hd, uint pos0, uint causal) {
  uint j = get_global_id(0), t = get_global_id(1), bh = get_global_id(2);
  if (j >= keys || t >= queries) return;
  uint b = bh / heads, h = bh % heads;
  float v;
  if (causal && j > pos0 + t) {
    v = -INFINITY;
  } else {
    __global const float* qr = q + (size_t)b * qb + (size_t)t * qs + h * hd;
    __global const float* kr = k + (size_t)b * kb + (size_t)j * ks + h * hd;
    float acc = 0.0f;
    for (uint d = 0; d < hd; ++d) acc += qr[d] * kr[d];
    v = acc * rsqrt((float)hd);
  }
  s[((size_t)bh * queries + t) * keys + j] = v;
}

#define SM_THREADS 256
// Numerically safe softmax of each row of n in place: exp(x - max) / sum; one work-group per row.
__kernel void softmax_rows(__global float* s, uint n) {
  __local float part[SM_THREADS];
  uint l = get_local_id(0);
  __global float* row = s + (size_t)get_group_id(0) * n;
  float m = -INFINITY;
  for (uint i = l; i < n; i += SM_THREADS) m = fmax(m, row[i]);
  part[l] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = SM_THREADS / 2; w > 0; w >>= 1) {
    if (l < w) part[l] = fmax(part[l], part[l + w]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  m = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  for (uint i = l; i < n; i += SM_THREADS) {
    float e = exp(row[i] - m);
    row[i] = e;
    sum += e;
  }
  part[l] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = SM_THREADS / 2; w > 0; w >>= 1) {
    if (l < w) part[l] += part[l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float inv = 1.0f / part[0];
  for (uint i = l; i < n; i += SM_THREADS) row[i] *= inv;
}

// o[b][t][h*hd + d] = sum_j p[b][h][t][j] * v[b][j][h*hd + d]; v rows `vs` floats apart and
// sequences `vb` apart, o rows `os` apart and sequences `ob` apart; grid (hd, queries, batch x heads).
__kernel void attn_apply(__global const float* p, __global const float* v, uint vs, uint vb, __global float* o,
                         uint os, uint ob, uint queries, uint keys, uint heads, uint hd) {
  uint d = get_global_id(0), t = get_global_id(1), bh = get_global_id(2);
  if (d >= hd || t >= queries) return;
  uint b = bh / heads, h = bh % heads;
  __global const float* pr = p + ((size_t)bh * queries + t) * keys;
  __global const float* vc = v + (size_t)b * vb + h * hd + d;
  float acc = 0.0f;
  for (uint j = 0; j < keys; ++j) acc += pr[j] * vc[(size_t)j * vs];
  o[(size_t)b * ob + (size_t)t * os + h * hd + d] = acc;
}

// logits[r] = x . wte[r] for every vocabulary row r (the output projection tied to the token
// embedding); one 64-lane wave per row, four rows per 256-wide work-group.
__kernel void logits(__global const float* x, __global const float* wte, __global float* out, uint c, uint vocab) {
  __local float part[256];
  uint l = get_local_id(0), lane = l % 64, wave = l / 64;
  uint r = get_group_id(0) * 4 + wave;
  float acc = 0.0f;
  if (r < vocab)
    for (uint i = lane; i < c; i += 64) acc += x[i] * wte[(size_t)r * c + i];
  part[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = 32; w > 0; w >>= 1) {
    if (lane < w) part[l] += part[l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && r < vocab) out[r] = part[l];
}

// tok[pos] = the index of the largest of n logits, the lowest index on a tie (greedy decoding);
// one 256-wide work-group.
__kernel void argmax(__global const float* x, uint n, __global int* tok, uint pos) {
  __local float best[256];
  __local uint at[256];
  uint l = get_local_id(0);
  float m = -INFINITY;
  uint mi = 0xffffffffu;
  for (uint i = l; i < n; i += 256)
    if (x[i] > m) m = x[i], mi = i;
  best[l] = m, at[l] = mi;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = 128; w > 0; w >>= 1) {
    if (l < w && (best[l + w] > best[l] || (best[l + w] == best[l] && at[l + w] < at[l])))
      best[l] = best[l + w], at[l] = at[l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) tok[pos] = (int)at[0];
}

// A struct passed by value and a __constant table: kernarg layout of aggregates.
typedef struct { float scale; int shift; uint mask; float bias; } params_t;
kernel void struct_arg(params_t p, constant float* table, global const uint* in, global float* out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint v = (in[i] >> p.shift) & p.mask;
  out[i] = table[v % 16] * p.scale + p.bias;
}

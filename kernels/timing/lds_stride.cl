// LDS bank-conflict microbenchmark: lane l reads word (l * stride + i) of a 2048-word buffer.
// stride 1 is conflict-free; stride 2^k puts 2^k distinct words in one bank (up to 32-way).
__kernel void lds_stride(__global float* out, uint stride, uint iters) {
  __local float buf[2048];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < 2048; i += get_local_size(0)) buf[i] = (float)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
  uint idx = (lid * stride) & 2047;
  for (uint i = 0; i < iters; ++i) {
    acc += buf[idx];
    idx = (idx + 1) & 2047;
  }
  out[get_global_id(0)] = acc;
}

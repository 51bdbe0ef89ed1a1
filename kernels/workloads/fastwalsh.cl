// One butterfly stage of the fast Walsh-Hadamard transform (AMD APP SDK FastWalshTransform).
__kernel void fastwalsh(__global float* a, uint step) {
  uint tid = get_global_id(0);
  uint group = tid % step;
  uint pair = 2 * step * (tid / step) + group;
  uint match = pair + step;
  float t1 = a[pair], t2 = a[match];
  a[pair] = t1 + t2;
  a[match] = t1 - t2;
}
